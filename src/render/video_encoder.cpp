// SPDX-License-Identifier: MIT
#include "orrery/render/video_encoder.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include <bit>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <vector>

#include <fmt/format.h>

#include "orrery/core/error.hpp"

extern char** environ;

namespace orrery {

namespace fs = std::filesystem;

// A frame's words 0x00RRGGBB are the bytes B, G, R, 0 in memory: FFmpeg's "bgr0".
static_assert(std::endian::native == std::endian::little, "frames go to FFmpeg as bgr0");

namespace {

// Quality of the H.264 encoding: x264's constant rate factor, 18 being "visually lossless" for
// most material (x264 documentation); points of light on black need no less.
constexpr const char* kCrf = "18";

std::string tail_of(const fs::path& log) {
  std::ifstream in(log);
  std::stringstream s;
  s << in.rdbuf();
  std::string text = s.str();
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  const auto cut = text.rfind('\n');
  return cut == std::string::npos ? text : text.substr(cut + 1);
}

// " (the disk holding 'folder' is full)" where it is, else "": ffmpeg's own words go to a log
// on that same disk, which then stays empty, and the pipe only says "Broken pipe".
std::string full_disk_note(const fs::path& folder) {
  struct statvfs fs {};
  if (::statvfs(folder.c_str(), &fs) != 0 || fs.f_bavail > 0) return "";
  return fmt::format(" (the disk holding '{}' is full)", folder.string());
}

// ffmpeg reading frames from `read_end`, its words to `log`. It is killed with this process,
// even by SIGKILL (PR_SET_PDEATHSIG: no encoder left running for nobody), and has a process
// group of its own, so that Ctrl-C at a terminal reaches orrery alone, which stops it after
// removing what it wrote. Files are opened before fork: the child calls only async-signal-safe
// functions. (The parent that PR_SET_PDEATHSIG watches is the thread that forks: encoders are
// made on a job's main thread.)
pid_t spawn_ffmpeg(std::vector<char*>& argv, int read_end, const fs::path& log) {
  const int null_fd = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  const int log_fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  const int open_error = errno;
  if (null_fd < 0 || log_fd < 0) {
    if (null_fd >= 0) ::close(null_fd);
    if (log_fd >= 0) ::close(log_fd);
    throw RunError(fmt::format("cannot start ffmpeg: cannot open '{}': {}", log.string(),
                               std::strerror(open_error)));
  }
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(127);  // orrery died before the line above
    ::setpgid(0, 0);
    ::signal(SIGPIPE, SIG_DFL);
    ::signal(SIGXFSZ, SIG_DFL);
    ::dup2(read_end, 0);
    ::dup2(null_fd, 1);
    ::dup2(log_fd, 2);
    ::execve(argv[0], argv.data(), environ);
    ::_exit(127);
  }
  const int fork_error = errno;
  ::close(null_fd);
  ::close(log_fd);
  if (pid < 0) throw RunError(fmt::format("cannot start ffmpeg: {}", std::strerror(fork_error)));
  return pid;
}

// The temporary movies and logs ".OUT.tmp-PID.mp4" and ".OUT.log-PID" of encoders whose process
// is gone (killed by SIGKILL, or stopped by a second signal): no one else removes them.
void remove_abandoned(const fs::path& parent, const std::string& name) {
  const std::string movie = "." + name + ".tmp-", log = "." + name + ".log-";
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(parent, ec)) {
    const std::string f = entry.path().filename().string();
    std::string pid;
    if (f.rfind(movie, 0) == 0 && f.size() > movie.size() + 4 &&
        f.compare(f.size() - 4, 4, ".mp4") == 0)
      pid = f.substr(movie.size(), f.size() - movie.size() - 4);
    else if (f.rfind(log, 0) == 0)
      pid = f.substr(log.size());
    if (pid.empty() || pid.size() > 9 ||
        pid.find_first_not_of("0123456789") != std::string::npos)
      continue;
    const pid_t owner = static_cast<pid_t>(std::stol(pid));
    if (owner != ::getpid() && ::kill(owner, 0) != 0 && errno == ESRCH) fs::remove(entry.path(), ec);
  }
}

}  // namespace

std::string find_ffmpeg() {
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "";
  std::size_t start = 0;
  while (start <= dirs.size()) {
    const std::size_t end = std::min(dirs.find(':', start), dirs.size());
    const fs::path candidate = fs::path(dirs.substr(start, end - start)) / "ffmpeg";
    if (end > start && ::access(candidate.c_str(), X_OK) == 0) return candidate.string();
    start = end + 1;
  }
  return "";
}

std::string ffmpeg_command_for_frames(const fs::path& frames_dir, const fs::path& out, int fps) {
  return fmt::format("ffmpeg -framerate {} -i '{}/frame_%06d.png' -c:v libx264 -crf {} "
                     "-pix_fmt yuv420p '{}'",
                     fps, frames_dir.string(), kCrf, out.string());
}

std::string no_ffmpeg_note(const fs::path& frames_dir, const fs::path& out, int fps) {
  return fmt::format("no ffmpeg on PATH (Debian: apt install ffmpeg), so no {}; the frames are "
                     "in {}, and this encodes them:\n  {}",
                     out.string(), frames_dir.string(),
                     ffmpeg_command_for_frames(frames_dir, out, fps));
}

VideoEncoder::VideoEncoder(const std::string& ffmpeg, const fs::path& out, int width, int height,
                           int fps, IfExists if_exists)
    : out_(out), width_(width), height_(height), if_exists_(if_exists) {
  const fs::path parent = out.has_parent_path() ? out.parent_path() : ".";
  temporary_ = parent / fmt::format(".{}.tmp-{}.mp4", out.filename().string(), ::getpid());
  log_ = parent / fmt::format(".{}.log-{}", out.filename().string(), ::getpid());
  // -xerror: without it ffmpeg (5.1) exits 0 when it cannot write the movie's end ("Error
  // writing trailer ...: No space left on device"), and a cut movie would take the name.
  const std::vector<std::string> args = {
      ffmpeg, "-hide_banner", "-loglevel", "error", "-xerror", "-nostdin", "-y",
      "-f", "rawvideo", "-pix_fmt", "bgr0", "-video_size", fmt::format("{}x{}", width, height),
      "-framerate", fmt::format("{}", fps), "-i", "pipe:0", "-an", "-c:v", "libx264",
      "-crf", kCrf, "-pix_fmt", "yuv420p", "-movflags", "+faststart", "-f", "mp4",
      temporary_.string()};
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  remove_abandoned(parent, out.filename().string());
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0)
    throw RunError(fmt::format("cannot start ffmpeg: {}", std::strerror(errno)));
  try {
    pid_ = spawn_ffmpeg(argv, fds[0], log_);
  } catch (...) {
    ::close(fds[0]);
    ::close(fds[1]);
    throw;
  }
  ::close(fds[0]);
  pipe_ = fds[1];
  // A pipe whose reader died reports EPIPE to write() instead of killing this process.
  ::signal(SIGPIPE, SIG_IGN);
}

VideoEncoder::~VideoEncoder() { stop(); }

void VideoEncoder::stop() {
  if (pipe_ >= 0) ::close(pipe_), pipe_ = -1;
  if (pid_ > 0) {
    ::kill(pid_, SIGTERM);
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = -1;
  }
  std::error_code ec;
  fs::remove(temporary_, ec);
  fs::remove(log_, ec);
}

void VideoEncoder::add(const FrameImage& frame) {
  if (frame.width != width_ || frame.height != height_)
    throw RunError(fmt::format("a frame of {}x{} for a video of {}x{}", frame.width,
                               frame.height, width_, height_));
  const char* bytes = reinterpret_cast<const char*>(frame.pixels.data());
  std::size_t left = frame.pixels.size() * sizeof(std::uint32_t);
  while (left > 0) {
    const ssize_t n = ::write(pipe_, bytes, left);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const std::string why = std::strerror(errno);
      ::close(pipe_), pipe_ = -1;
      int status = 0;
      ::waitpid(pid_, &status, 0);
      pid_ = -1;
      const std::string said = tail_of(log_);
      throw RunError(fmt::format("ffmpeg stopped taking frames ({}){}{}{}", why,
                                 full_disk_note(temporary_.parent_path()),
                                 said.empty() ? "" : ": ", said));
    }
    bytes += n, left -= static_cast<std::size_t>(n);
  }
}

void VideoEncoder::finish() {
  ::close(pipe_), pipe_ = -1;
  int status = 0;
  while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  pid_ = -1;
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    const std::string said = tail_of(log_);
    throw RunError(fmt::format("ffmpeg failed to encode '{}'{}{}{}", out_.string(),
                               full_disk_note(temporary_.parent_path()),
                               said.empty() ? "" : ": ", said));
  }
  // On disk before it takes the name, as every file orrery writes (io/output_set.hpp).
  const int fd = ::open(temporary_.c_str(), O_RDONLY | O_CLOEXEC);
  const bool synced = fd >= 0 && ::fsync(fd) == 0;
  const int error = errno;
  if (fd >= 0) ::close(fd);
  if (!synced)
    throw RunError(fmt::format("cannot write '{}': {}", out_.string(), std::strerror(error)));
  std::error_code ec;
  const int moved = rename_into_place(temporary_, out_, if_exists_);
  if (moved == EEXIST && if_exists_ == IfExists::refuse)
    throw RunError(fmt::format("cannot write '{}': another process made it while this one "
                               "worked; it is left as it is and this movie is discarded (give "
                               "another name, or --overwrite to replace it)",
                               out_.string()));
  if (moved != 0)
    throw RunError(fmt::format("cannot write '{}': {}", out_.string(), std::strerror(moved)));
  fs::remove(log_, ec);
}

}  // namespace orrery

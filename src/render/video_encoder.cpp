// SPDX-License-Identifier: MIT
#include "orrery/render/video_encoder.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
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
  const std::vector<std::string> args = {
      ffmpeg, "-hide_banner", "-loglevel", "error", "-nostdin", "-y",
      "-f", "rawvideo", "-pix_fmt", "bgr0", "-video_size", fmt::format("{}x{}", width, height),
      "-framerate", fmt::format("{}", fps), "-i", "pipe:0", "-an", "-c:v", "libx264",
      "-crf", kCrf, "-pix_fmt", "yuv420p", "-movflags", "+faststart", "-f", "mp4",
      temporary_.string()};
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0)
    throw RunError(fmt::format("cannot start ffmpeg: {}", std::strerror(errno)));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[0], 0);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, log_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  const int failed = ::posix_spawn(&pid_, ffmpeg.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(fds[0]);
  if (failed != 0) {
    ::close(fds[1]);
    pid_ = -1;
    throw RunError(fmt::format("cannot start '{}': {}", ffmpeg, std::strerror(failed)));
  }
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
      throw RunError(fmt::format("ffmpeg stopped taking frames ({}){}{}", why,
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
    throw RunError(fmt::format("ffmpeg failed to encode '{}'{}{}", out_.string(),
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

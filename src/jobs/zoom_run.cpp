// SPDX-License-Identifier: MIT
// run_zoom_job: the frames folder and its record, the frames not yet made, and the movie.
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <regex>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "orrery/core/error.hpp"
#include "orrery/core/seconds_since.hpp"
#include "orrery/dist/check_on_every_rank.hpp"
#include "orrery/dist/communicator.hpp"
#include "orrery/io/config_file.hpp"
#include "orrery/io/divergence_map_file.hpp"
#include "orrery/io/output_path.hpp"
#include "orrery/io/output_set.hpp"
#include "orrery/io/png_file.hpp"
#include "orrery/io/run_lock.hpp"
#include "orrery/jobs/zoom_job.hpp"
#include "orrery/render/frame_image.hpp"
#include "orrery/render/video_encoder.hpp"

namespace orrery {

namespace fs = std::filesystem;

namespace {

// The record of a frames folder: the parameters that decide what a frame holds. Where the
// frames are, how many threads made them and the movie's rate do not.
constexpr const char* kRecordName = "zoom.toml";
const std::set<std::string> kNotRecorded = {"threads", "cpu-kernel", "devices",  "quiet", "out",
                                            "frames-dir", "data-dir", "fps", "overwrite"};

// The step schedule is recorded only where the steps grow: the record of a zoom of one step
// count is what it was before the schedule existed, so such a zoom's folder resumes.
const std::set<std::string> kScheduleFields = {"steps-to", "steps-growth"};

std::string zoom_record(const ZoomJob& job) {
  return "# The parameters of the zoom whose frames are in this folder (orrery zoom). A zoom\n"
         "# with other parameters is refused here unless --overwrite; --config reads this file.\n" +
         format_config_file(zoom_job_fields(), job, [&job](const ParamSpec& f) {
           if (kScheduleFields.count(f.name)) return job.steps_to > 0;
           return !kNotRecorded.count(f.name);
         });
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

bool is_frame_file(const std::string& name) {
  static const std::regex frame(R"(frame_[0-9]{6}\.(png|h5))");
  return std::regex_match(name, frame);
}

// The first line where two records differ, for the refusal.
std::string first_difference(const std::string& a, const std::string& b) {
  std::istringstream x(a), y(b);
  std::string p, q;
  while (true) {
    const bool more_x = static_cast<bool>(std::getline(x, p));
    const bool more_y = static_cast<bool>(std::getline(y, q));
    if (!more_x && !more_y) return "";
    if (!more_x) p.clear();
    if (!more_y) q.clear();
    if (p != q) return fmt::format("'{}' there, '{}' here", p, q);
  }
}

// Refuses a folder that holds the frames of a zoom of other parameters, or frames without a
// record, unless `overwrite`. Reads only: a refused zoom has changed nothing.
void check_record(const char* flag, const fs::path& folder, const std::string& record,
                  bool overwrite) {
  std::error_code ec;
  if (overwrite || !fs::is_directory(folder, ec)) return;
  const fs::path record_path = folder / kRecordName;
  if (fs::exists(record_path, ec)) {
    const std::string before = read_text(record_path);
    if (before != record)
      throw InputError(fmt::format("{}: '{}' holds the frames of another zoom ({}): give "
                                   "another {}, or --overwrite to discard them",
                                   flag, folder.string(), first_difference(before, record),
                                   flag));
    return;
  }
  for (const auto& entry : fs::directory_iterator(folder))
    if (is_frame_file(entry.path().filename().string()))
      throw InputError(fmt::format("{}: '{}' holds frame files but no {} saying how they were "
                                   "made: give another {}, or --overwrite to discard them",
                                   flag, folder.string(), kRecordName, flag));
}

// Refuses a folder of the zoom where its record, its lock or a frame would be the --config
// file: no --overwrite may replace what the zoom is made from.
void check_folder_holds_no_input(const char* flag, const fs::path& folder, const ZoomJob& job) {
  const fs::path config = job.map.config;
  if (config.empty()) return;
  const std::string name = config.filename().string();
  // Through links too: the config may be a link to the record.
  if (same_file(folder / kRecordName, config) || same_file(folder / kLockFileName, config) ||
      (is_frame_file(name) && same_file(folder / name, config)))
    throw ParameterError(flag, folder.string(),
                         fmt::format("a folder other than the one of the --config file '{}' "
                                     "(the zoom writes its {}, its {} and its frames there)",
                                     shown_text(config.string()), kRecordName, kLockFileName));
}

// Makes the folder and takes it for this zoom (one writer at a time); removes the temporaries
// of a killed run, with `overwrite` the frames already there, and writes the record.
RunLock take_folder(const char* flag, const fs::path& folder, const std::string& record,
                    bool overwrite) {
  std::error_code ec;
  fs::create_directories(folder, ec);
  if (!fs::is_directory(folder, ec))
    throw ParameterError(flag, folder.string(), "a folder, or a path where one can be made");
  RunLock lock(folder);
  for (const auto& entry : fs::directory_iterator(folder)) {
    const std::string name = entry.path().filename().string();
    if (is_output_leftover(name) || (overwrite && is_frame_file(name))) fs::remove(entry.path());
  }
  const fs::path record_path = folder / kRecordName;
  if (overwrite || !fs::exists(record_path, ec)) write_file_atomically(record_path, record);
  return lock;
}

void encode_movie(const ZoomJob& job, const fs::path& frames, ZoomOutcome& outcome) {
  const int fps = static_cast<int>(job.fps);
  const std::string ffmpeg = find_ffmpeg();
  if (ffmpeg.empty()) {
    outcome.note = no_ffmpeg_note(frames, job.out, fps);
    return;
  }
  VideoEncoder encoder(ffmpeg, job.out, job.map.physics.width, job.map.physics.height, fps,
                       job.overwrite ? IfExists::replace : IfExists::refuse);
  for (std::int64_t k = 0; k < job.frames; ++k)
    encoder.add(to_frame_image(read_png(frames / zoom_frame_name(k, "png"))));
  encoder.finish();
  outcome.movie = job.out;
}

// The frames not yet made (both files there), as rank 0 found them, on every rank.
std::vector<std::int64_t> frames_to_do(const ZoomJob& job, const fs::path& frames,
                                       const fs::path& data) {
  std::vector<std::int64_t> to_do;
  if (dist::writes())
    for (std::int64_t k = 0; k < job.frames; ++k) {
      std::error_code ec;
      const bool made = fs::exists(frames / zoom_frame_name(k, "png"), ec) &&
                        (data.empty() || fs::exists(data / zoom_frame_name(k, "h5"), ec));
      if (!made) to_do.push_back(k);
    }
  std::vector<std::byte> bytes(to_do.size() * sizeof(std::int64_t));
  std::memcpy(bytes.data(), to_do.data(), bytes.size());
  dist::broadcast_from_root(bytes);
  to_do.resize(bytes.size() / sizeof(std::int64_t));
  std::memcpy(to_do.data(), bytes.data(), bytes.size());
  return to_do;
}

}  // namespace

ZoomOutcome run_zoom_job(const ZoomJob& job, const ZoomObserver& observer) {
  dist::check_on_every_rank([&] { validate(job); });
  const fs::path frames = zoom_frames_dir(job);
  const fs::path data = job.data_dir;
  const std::string record = zoom_record(job);
  const bool own_data_folder = !data.empty() && !same_file(data, frames);
  // Rank 0 alone looks at the folders, takes them and writes into them.
  std::optional<RunLock> frames_lock, data_lock;
  dist::check_on_every_rank([&] {
    if (!dist::writes()) return;
    check_folder_holds_no_input("--frames-dir", frames, job);
    if (own_data_folder) check_folder_holds_no_input("--data-dir", data, job);
    check_record("--frames-dir", frames, record, job.overwrite);
    if (own_data_folder) check_record("--data-dir", data, record, job.overwrite);
    frames_lock.emplace(take_folder("--frames-dir", frames, record, job.overwrite));
    if (own_data_folder) data_lock.emplace(take_folder("--data-dir", data, record, job.overwrite));
  });

  ZoomOutcome outcome;
  outcome.frames_dir = frames.string();
  const std::vector<std::int64_t> to_do = frames_to_do(job, frames, data);
  outcome.frames_kept = job.frames - static_cast<std::int64_t>(to_do.size());
  // The work of each frame to do, in steps a pixel: later frames may take more.
  double work_to_do = 0;
  for (const std::int64_t k : to_do) work_to_do += static_cast<double>(zoom_steps(job, k));
  double work_done = 0;
  const auto t0 = std::chrono::steady_clock::now();
  const auto since = [&] { return seconds_since(t0); };
  for (const std::int64_t k : to_do) {
    // Every rank stops at the same frame where any was asked to (a gather half the ranks
    // never reach would wait for ever).
    const bool stop_here = observer.stop && observer.stop();
    if (dist::least_over_ranks(stop_here ? 0 : 1) == 0) {
      outcome.stopped = true;
      return outcome;
    }
    MapObserver map_observer;
    if (observer.progress)
      map_observer.progress = [&](const MapProgress& p) {
        const double within = p.pixels_total > 0 ? static_cast<double>(p.pixels_done) /
                                                       static_cast<double>(p.pixels_total)
                                                 : 0.0;
        observer.progress({k, outcome.frames_computed, static_cast<std::int64_t>(to_do.size()),
                           p, outcome.pixel_steps + p.pixel_steps, since(),
                           (work_done + within * static_cast<double>(zoom_steps(job, k))) /
                               work_to_do});
      };
    const DivergenceMap map = compute_zoom_frame(job, k, map_observer);
    if (!dist::writes()) {  // rank 0 alone writes
      ++outcome.frames_computed;
      continue;
    }
    const DivergenceMapParams params = zoom_frame_params(job, k);
    const RgbImage picture = zoom_frame_picture(job, map);
    // The data first and the picture last: a picture in the folder means the frame is made.
    OutputSet outputs;
    if (!data.empty()) {
      const fs::path h5 = data / zoom_frame_name(k, "h5");
      outputs.add(h5, encode_divergence_map_file(h5.string(), params, job.map.precision, map));
    }
    outputs.add(frames / zoom_frame_name(k, "png"), encode_png(picture));
    outputs.commit();
    ++outcome.frames_computed;
    work_done += static_cast<double>(zoom_steps(job, k));
    outcome.pixel_steps += map.pixel_steps;
    outcome.nonfinite_pixels += map.nonfinite_pixels;
    outcome.info = map.info;
    if (observer.frame) observer.frame({k, params, &map, &picture});
  }
  outcome.compute_seconds = since();
  if (dist::writes()) encode_movie(job, frames, outcome);
  return outcome;
}

}  // namespace orrery

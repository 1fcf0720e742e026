// SPDX-License-Identifier: MIT
// Frames to an MP4 (H.264, yuv420p) by Debian's `ffmpeg` program, fed raw frames through a
// pipe. The video is written to a hidden temporary name beside its target and renamed into
// place by finish(), so a failed or interrupted encoding never leaves a truncated movie under
// the name asked for.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <string>

#include "orrery/core/rename_into_place.hpp"
#include "orrery/render/frame_image.hpp"

namespace orrery {

// The `ffmpeg` program on PATH, or "" where there is none.
std::string find_ffmpeg();

// The command that encodes numbered PNG frames (frame_000000.png, ...) in `frames_dir` into
// `out`, for the user to run where this machine has no ffmpeg.
std::string ffmpeg_command_for_frames(const std::filesystem::path& frames_dir,
                                      const std::filesystem::path& out, int fps);
// What a job says where there is no ffmpeg: no movie, where the frames are, and that command.
std::string no_ffmpeg_note(const std::filesystem::path& frames_dir,
                           const std::filesystem::path& out, int fps);

class VideoEncoder {
 public:
  // Starts ffmpeg; RunError when it cannot. Width and height must be even (4:2:0). With
  // IfExists::refuse, finish() takes the name `out` only if it is still free.
  VideoEncoder(const std::string& ffmpeg, const std::filesystem::path& out, int width,
               int height, int fps, IfExists if_exists = IfExists::replace);
  VideoEncoder(const VideoEncoder&) = delete;
  VideoEncoder& operator=(const VideoEncoder&) = delete;
  ~VideoEncoder();  // an unfinished encoding is stopped and its temporary file removed

  void add(const FrameImage& frame);  // RunError when ffmpeg has stopped
  void finish();                      // waits for ffmpeg; RunError with its message on failure

 private:
  void stop();
  std::filesystem::path out_, temporary_, log_;
  int width_, height_;
  IfExists if_exists_;
  int pipe_ = -1;
  pid_t pid_ = -1;
};

}  // namespace orrery

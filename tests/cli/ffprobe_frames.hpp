// SPDX-License-Identifier: MIT
// What ffprobe says of a movie's video stream, decoding every frame: "codec,width,height,frames".
#pragma once

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

namespace orrery::test {

inline bool have_ffprobe() { return std::system("ffprobe -version > /dev/null 2>&1") == 0; }

inline std::string ffprobe_frames(const std::filesystem::path& movie) {
  const std::string cmd = "ffprobe -v error -count_frames -select_streams v:0 -show_entries "
                          "stream=nb_read_frames,width,height,codec_name -of csv=p=0 '" +
                          movie.string() + "'";
  std::string out;
  if (FILE* f = ::popen(cmd.c_str(), "r")) {
    char buf[256];
    while (std::fgets(buf, sizeof buf, f)) out += buf;
    ::pclose(f);
  }
  return out;
}

}  // namespace orrery::test

// SPDX-License-Identifier: MIT
#pragma once

#include <filesystem>
#include <string>

#include "orrery/core/rename_into_place.hpp"
#include "orrery/render/rgb_image.hpp"

namespace orrery {

// The bytes of an 8-bit RGB PNG (libpng's simplified API), for io/output_set.hpp.
std::string encode_png(const RgbImage& image);
// Writes an 8-bit RGB PNG atomically (io/output_set.hpp); throws RunError on failure, naming the
// file and the reason.
void write_png(const std::filesystem::path& path, const RgbImage& image,
               IfExists if_exists = IfExists::replace);
// Reads any PNG as 8-bit RGB; throws InputError when the file is not a readable PNG.
RgbImage read_png(const std::filesystem::path& path);

}  // namespace orrery

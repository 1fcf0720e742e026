// SPDX-License-Identifier: MIT
#pragma once

#include <filesystem>

#include "orrery/render/rgb_image.hpp"

namespace orrery {

// Writes an 8-bit RGB PNG atomically (libpng's simplified API); throws RunError on failure.
void write_png(const std::filesystem::path& path, const RgbImage& image);
// Reads any PNG as 8-bit RGB; throws InputError when the file is not a readable PNG.
RgbImage read_png(const std::filesystem::path& path);

}  // namespace orrery

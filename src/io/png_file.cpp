// SPDX-License-Identifier: MIT
#include "orrery/io/png_file.hpp"

#include <png.h>

#include <cstring>

#include <fmt/format.h>

#include "orrery/core/error.hpp"
#include "orrery/io/atomic_file.hpp"

namespace orrery {

void write_png(const std::filesystem::path& path, const RgbImage& image) {
  AtomicOutput out(path);
  png_image png;
  std::memset(&png, 0, sizeof png);
  png.version = PNG_IMAGE_VERSION;
  png.width = static_cast<png_uint_32>(image.width);
  png.height = static_cast<png_uint_32>(image.height);
  png.format = PNG_FORMAT_RGB;
  if (!png_image_write_to_file(&png, out.temporary().c_str(), 0, image.pixels.data(), 0, nullptr))
    throw RunError(fmt::format("cannot write PNG '{}': {}", path.string(), png.message));
  out.commit();
}

RgbImage read_png(const std::filesystem::path& path) {
  png_image png;
  std::memset(&png, 0, sizeof png);
  png.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&png, path.c_str()))
    throw InputError(fmt::format("cannot read PNG '{}': {}", path.string(), png.message));
  png.format = PNG_FORMAT_RGB;
  RgbImage img{static_cast<int>(png.width), static_cast<int>(png.height), {}};
  img.pixels.resize(PNG_IMAGE_SIZE(png));
  if (!png_image_finish_read(&png, nullptr, img.pixels.data(), 0, nullptr))
    throw InputError(fmt::format("cannot read PNG '{}': {}", path.string(), png.message));
  return img;
}

}  // namespace orrery

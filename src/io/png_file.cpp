// SPDX-License-Identifier: MIT
#include "orrery/io/png_file.hpp"

#include <png.h>

#include <cstring>

#include <fmt/format.h>

#include "orrery/core/error.hpp"
#include "orrery/io/output_set.hpp"

namespace orrery {

std::string encode_png(const RgbImage& image) {
  png_image png;
  std::memset(&png, 0, sizeof png);
  png.version = PNG_IMAGE_VERSION;
  png.width = static_cast<png_uint_32>(image.width);
  png.height = static_cast<png_uint_32>(image.height);
  png.format = PNG_FORMAT_RGB;
  // Compressed once into room for the largest PNG the image can give (libpng's bound), rather
  // than once to learn the size and again to write: the same bytes in half the time.
  png_alloc_size_t size = PNG_IMAGE_PNG_SIZE_MAX(png);
  std::string bytes(size, '\0');
  if (!png_image_write_to_memory(&png, bytes.data(), &size, 0, image.pixels.data(), 0, nullptr))
    throw RunError(fmt::format("cannot encode the PNG: {}", png.message));
  bytes.resize(size);
  return bytes;
}

void write_png(const std::filesystem::path& path, const RgbImage& image, IfExists if_exists) {
  write_file_atomically(path, encode_png(image), if_exists);
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

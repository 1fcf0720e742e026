// SPDX-License-Identifier: MIT
// A rank's results as bytes for dist::gather_to_root, and rank 0 putting every rank's back in
// place. An array of a result holds `blocks` blocks, each with `per` values for every item in
// item order (a map's counts: one block of `width` values per row; an ensemble's drift: one
// block per sample of one value per trajectory). A rank sends its items' values in the order of
// its tiles; rank 0 knows every rank's tiles (dist/rank_share.hpp) and copies each run of values
// to where its tile lies.
#pragma once

#include <cstring>
#include <span>
#include <vector>

#include "orrery/core/error.hpp"
#include "orrery/dist/rank_share.hpp"

namespace orrery::dist {

class TileBytesOut {
 public:
  template <class T>
  void put_value(const T& value) {
    put_raw(&value, sizeof value);
  }
  // An array of `blocks` blocks: its length and block count, then its values.
  template <class T>
  void put_array(std::span<const T> values, std::int64_t blocks) {
    put_value(static_cast<std::int64_t>(values.size()));
    put_value(blocks);
    put_raw(values.data(), values.size_bytes());
  }
  const std::vector<std::byte>& bytes() const { return bytes_; }

 private:
  void put_raw(const void* data, std::size_t n) {
    if (n == 0) return;
    const std::size_t at = bytes_.size();
    bytes_.resize(at + n);
    std::memcpy(bytes_.data() + at, data, n);
  }
  std::vector<std::byte> bytes_;
};

class TileBytesIn {
 public:
  TileBytesIn(const std::vector<std::byte>& bytes, std::vector<ItemRange> tiles,
              std::int64_t total)
      : bytes_(bytes), tiles_(std::move(tiles)), items_(items_in(tiles_)), total_(total) {}

  template <class T>
  T take_value() {
    T value;
    take_raw(&value, sizeof value);
    return value;
  }
  // The next array into `whole` (sized on the first rank that sends values) at its tiles.
  template <class Vector>
  void place_array(Vector& whole) {
    using T = typename Vector::value_type;
    const auto n = take_value<std::int64_t>();
    const auto blocks = take_value<std::int64_t>();
    if (n == 0 || items_ == 0) return;
    const std::int64_t per = n / (blocks * items_);
    const auto size = static_cast<std::size_t>(blocks * total_ * per);
    if (per * blocks * items_ != n || (!whole.empty() && whole.size() != size))
      throw RunError("dist: the ranks' results do not fit together (ranks of other jobs?)");
    if (whole.size() != size) whole.resize(size);
    for (std::int64_t b = 0; b < blocks; ++b)
      for (const ItemRange& t : tiles_)
        take_raw(whole.data() + (b * total_ + t.begin) * per,
                 static_cast<std::size_t>((t.end - t.begin) * per) * sizeof(T));
  }

 private:
  void take_raw(void* into, std::size_t n) {
    if (at_ + n > bytes_.size()) throw RunError("dist: a rank's results ended early");
    std::memcpy(into, bytes_.data() + at_, n);
    at_ += n;
  }
  const std::vector<std::byte>& bytes_;
  std::vector<ItemRange> tiles_;
  std::int64_t items_, total_;
  std::size_t at_ = 0;
};

}  // namespace orrery::dist

// SPDX-License-Identifier: MIT
#include "twin_task_source.hpp"

#include <omp.h>

#include "orrery/core/seconds_since.hpp"

namespace orrery::cpu {

TwinTaskSource::TwinTaskSource(const DivergenceSetup& setup, std::span<const PixelIndex> pixels,
                               std::int32_t* counts_out, std::uint8_t* nonfinite_out,
                               const std::function<void(const MapProgress&)>* progress)
    : counts(counts_out),
      nonfinite(nonfinite_out),
      setup_(setup),
      pixels_(pixels),
      tasks_(pixels.empty() ? std::int64_t{setup.width} * setup.height
                            : static_cast<std::int64_t>(pixels.size())),
      pool_(static_cast<std::uint64_t>(tasks_), pixels.empty(), setup.width, setup.height,
            setup.steps, counts_out),
      progress_(progress),
      start_(std::chrono::steady_clock::now()),
      last_report_(start_) {}

void TwinTaskSource::hand_in(std::int64_t& finished_pixels, std::int64_t& finished_steps) {
  if (finished_pixels > 0) {
    pixels_done_.fetch_add(finished_pixels, std::memory_order_relaxed);
    pixel_steps_.fetch_add(finished_steps, std::memory_order_relaxed);
  }
  finished_pixels = finished_steps = 0;
}

bool TwinTaskSource::next_tile(Tile& tile, std::int64_t& finished_pixels,
                               std::int64_t& finished_steps) {
  hand_in(finished_pixels, finished_steps);
  // The first thread reports progress; the others never wait for it.
  if (progress_ && *progress_ && omp_get_thread_num() == 0) {
    const auto now = std::chrono::steady_clock::now();
    if (now - last_report_ > std::chrono::milliseconds(250)) {
      last_report_ = now;
      report_progress();
    }
  }
  tile.next = 0;
  tile.size = static_cast<int>(pool_.take(std::span<std::uint64_t>(tile.items, Tile::kCapacity)));
  return tile.size > 0;
}

void TwinTaskSource::pixel_of(std::int64_t task, std::int64_t& j, std::int64_t& k) const {
  if (pixels_.empty()) {
    j = task % setup_.width;
    k = task / setup_.width;
  } else {
    j = pixels_[static_cast<std::size_t>(task)][0];
    k = pixels_[static_cast<std::size_t>(task)][1];
  }
}

MapProgress TwinTaskSource::progress() const {
  MapProgress p;
  p.pixels_done = pixels_done_.load(std::memory_order_relaxed);
  p.pixels_total = tasks_;
  p.pixel_steps = pixel_steps_.load(std::memory_order_relaxed);
  p.seconds = seconds_since(start_);
  return p;
}

void TwinTaskSource::report_progress() {
  if (progress_ && *progress_) (*progress_)(progress());
}

}  // namespace orrery::cpu

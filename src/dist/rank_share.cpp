// SPDX-License-Identifier: MIT
#include "orrery/dist/rank_share.hpp"

#include <algorithm>

#include "orrery/device/cpu/cpu_threads.hpp"
#include "orrery/device/cuda_presence.hpp"
#include "orrery/dist/communicator.hpp"

namespace orrery::dist {

std::vector<ItemRange> interleaved_tiles(std::int64_t total, std::int64_t tile, int rank,
                                         int size) {
  std::vector<ItemRange> tiles;
  const std::int64_t step = tile * size;
  for (std::int64_t begin = tile * rank; begin < total; begin += step)
    tiles.push_back({begin, std::min(total, begin + tile)});
  return tiles;
}

std::int64_t items_in(const std::vector<ItemRange>& tiles) {
  std::int64_t n = 0;
  for (const ItemRange& t : tiles) n += t.end - t.begin;
  return n;
}

std::int64_t tile_size(std::int64_t total, int size) {
  const std::int64_t tiles = kTilesPerRank * std::max(1, size);
  return std::clamp<std::int64_t>((total + tiles - 1) / tiles, 1, kMaxTile);
}

int rank_threads(int asked) {
  if (asked > 0 || !distributed()) return asked;
  const RankLayout& l = layout();
  const int cpus = cpu_thread_limit(0);
  const int share = cpus / l.cpu_sharers + (l.cpu_rank < cpus % l.cpu_sharers ? 1 : 0);
  return std::max(1, share);
}

std::string over_ranks_note(const std::string& note) {
  const std::string ranks = "over " + std::to_string(layout().size) +
                            " ranks (the backend, kernel and threads are rank 0's)";
  return note.empty() ? ranks : note + "; " + ranks;
}

std::vector<int> rank_devices(Backend backend, const std::vector<int>& asked) {
  if (!asked.empty() || !distributed() || backend == Backend::cpu || !cuda_built()) return asked;
  const int gpus = cuda_device_count();
  if (gpus == 0) return asked;
  const RankLayout& l = layout();
  std::vector<int> mine;
  if (l.node_size > gpus) return {l.node_rank % gpus};
  for (int d = l.node_rank; d < gpus; d += l.node_size) mine.push_back(d);
  return mine;
}

}  // namespace orrery::dist

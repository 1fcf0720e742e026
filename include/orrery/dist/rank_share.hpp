// SPDX-License-Identifier: MIT
// What one rank of a distributed job does: its tiles of the work, its CPU threads and its GPUs.
// The tiles are static and interleaved (tile t goes to rank t mod R): every rank knows every
// rank's tiles without a message, and the expensive parts of a map or an ensemble, which lie
// together, are shared out among the ranks.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "orrery/core/backend.hpp"

namespace orrery::dist {

struct ItemRange {
  std::int64_t begin = 0, end = 0;  // [begin, end)
};

// The tiles of `tile` items of [0, total) that `rank` of `size` ranks computes: tiles rank,
// rank + size, rank + 2·size, … (the last tile may be shorter). None where rank ≥ the tiles.
std::vector<ItemRange> interleaved_tiles(std::int64_t total, std::int64_t tile, int rank, int size);
std::int64_t items_in(const std::vector<ItemRange>& tiles);

// The tile size for `total` items over `size` ranks: about kTilesPerRank tiles for each rank
// (a rank whose tiles are slower is not left alone at the end), at least 1 and at most kMaxTile
// items.
inline constexpr std::int64_t kTilesPerRank = 16;
inline constexpr std::int64_t kMaxTile = 4096;
std::int64_t tile_size(std::int64_t total, int size);

// CPU threads for this rank: `asked` where > 0 (--threads is per rank); else the CPUs of this
// process's affinity mask shared among the ranks of this host with the same mask (a launcher
// that binds each rank to its own cores has shared them already). One process: `asked`.
int rank_threads(int asked);

// CUDA devices for this rank: `asked` where given (--devices); else, with a backend that may
// use CUDA and G devices on this host shared by L ranks, the devices d with d mod L = its node
// rank where L ≤ G (one rank per GPU, or several GPUs each), and device (node rank mod G) where
// L > G. One process, or no device: `asked` (empty: all).
std::vector<int> rank_devices(Backend backend, const std::vector<int>& asked);

// Run options (a map's, an ensemble's: threads, backend and devices) with this rank's threads
// and devices; unchanged in one process.
template <class Options>
Options for_this_rank(Options options) {
  options.threads = rank_threads(options.threads);
  options.devices = rank_devices(options.backend, options.devices);
  return options;
}

// A run's note, with what a summary of rank 0's part leaves out: "over R ranks (the backend,
// kernel and threads are rank 0's)" after `note`.
std::string over_ranks_note(const std::string& note);

}  // namespace orrery::dist

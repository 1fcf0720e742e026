// SPDX-License-Identifier: MIT
// How the tiles of a map, a zoom frame, an ensemble or a chaos field go to the ranks:
// interleaved (dist/rank_share.hpp: every rank knows its tiles from R alone, no message while
// computing) or, for machines of uneven speed, handed out by rank 0 as the ranks ask for them
// (two-sided messages, no one-sided windows: those hang on some fabrics). Chosen by the
// environment, as OMP_SCHEDULE chooses OpenMP's: ORRERY_MPI_SCHEDULE=static (the default) or
// dynamic, the same on every rank (mpirun -x ORRERY_MPI_SCHEDULE). Either way the results are
// placed by their tiles, so the files are the same bytes.
#pragma once

#include <cstddef>
#include <algorithm>
#include <cstdint>
#include <functional>
#include <vector>

#include "orrery/dist/rank_share.hpp"

namespace orrery::dist {

// Collective. Whether the tiles are handed out (ORRERY_MPI_SCHEDULE=dynamic); another value, or
// values that differ between the ranks, refused as a job's bad input is (said once, naming the
// variable, every rank ending with status 2).
bool tiles_handed_out();

// Collective. Rank 0 hands out the tiles of `tile` items of [0, total) one at a time (first
// the other ranks' first requests, then a tile of its own between answers); every rank
// computes each tile it gets with `compute`, which returns the tile's results as bytes
// (TileBytesOut of that tile alone). Each rank keeps two requests open, so that its next tiles
// are on their way while it computes, whatever rank 0 is computing meanwhile. Returns, on rank
// 0, the bytes of every tile in tile order; on the others nothing.
std::vector<std::vector<std::byte>> hand_out_tiles(
    std::int64_t total, std::int64_t tile,
    const std::function<std::vector<std::byte>(ItemRange)>& compute);

// The tile number `t` of `tile` items of [0, total).
inline ItemRange tile_number(std::int64_t t, std::int64_t tile, std::int64_t total) {
  return {t * tile, std::min(total, (t + 1) * tile)};
}

// Collective. Every rank computes its tiles of `tile` items of [0, total) with `compute`: one
// tile a call as rank 0 hands them out where tiles_handed_out(), else its interleaved share in
// one call. `compute` is told whether the call is the rank's first (whose run information the
// job keeps) and returns the results as bytes (TileBytesOut of the tiles it was given). On the
// rank that writes, `place` then gets each result's bytes with the tiles they hold, in tile
// order or in rank order. Returns whether this rank placed them.
bool compute_and_place_tiles(
    std::int64_t total, std::int64_t tile,
    const std::function<std::vector<std::byte>(const std::vector<ItemRange>&, bool first)>&
        compute,
    const std::function<void(const std::vector<std::byte>&, std::vector<ItemRange>)>& place);

}  // namespace orrery::dist

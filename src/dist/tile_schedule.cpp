// SPDX-License-Identifier: MIT
// dist/tile_schedule.hpp: rank 0's hand-out of tiles, and the gather of what each rank computed.
#include "dist/tile_schedule.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "dist/tile_bytes.hpp"
#include "orrery/core/error.hpp"
#include "orrery/dist/check_on_every_rank.hpp"
#include "orrery/dist/communicator.hpp"

namespace orrery::dist {

namespace {

constexpr int kTileAsked = 7101, kTileGiven = 7102;
constexpr std::int64_t kNoMoreTiles = -1;
// Requests each rank keeps open.
constexpr int kAhead = 2;

std::vector<std::byte> tile_message(std::int64_t t) {
  std::vector<std::byte> bytes(sizeof t);
  std::memcpy(bytes.data(), &t, sizeof t);
  return bytes;
}

std::int64_t tile_in(const std::vector<std::byte>& bytes) {
  std::int64_t t = kNoMoreTiles;
  if (bytes.size() == sizeof t) std::memcpy(&t, bytes.data(), sizeof t);
  return t;
}

}  // namespace

bool tiles_handed_out() {
  // Checked as a job's input is (dist/check_on_every_rank.hpp): said once, every rank ending.
  bool dynamic = false;
  check_on_every_rank([&] {
    const char* given = std::getenv("ORRERY_MPI_SCHEDULE");
    const std::string value = given ? given : "static";
    if (value != "static" && value != "dynamic")
      throw InputError(fmt::format("ORRERY_MPI_SCHEDULE={}: static (tiles interleaved over the "
                                   "ranks, the default) or dynamic (handed out by rank 0)",
                                   value));
    dynamic = value == "dynamic";
  });
  const bool alike = alike_on_every_rank(dynamic ? 1 : 0);
  check_on_every_rank([&] {
    if (!alike)
      throw InputError("ORRERY_MPI_SCHEDULE differs between the ranks: give every rank the same "
                       "(mpirun -x ORRERY_MPI_SCHEDULE)");
  });
  return dynamic;
}

std::vector<std::vector<std::byte>> hand_out_tiles(
    std::int64_t total, std::int64_t tile,
    const std::function<std::vector<std::byte>(ItemRange)>& compute) {
  const RankLayout& l = layout();
  const std::int64_t tiles = (total + tile - 1) / tile;
  std::vector<std::int64_t> mine;
  std::vector<std::vector<std::byte>> results;
  const auto run = [&](std::int64_t t) {
    mine.push_back(t);
    results.push_back(compute(tile_number(t, tile, total)));
  };
  if (l.rank == 0) {
    std::int64_t next = 0;
    int done = 0;
    const auto answer = [&] {  // one request, from whichever rank asked
      int from = 0;
      receive_from(-1, kTileAsked, &from);
      const std::int64_t t = next < tiles ? next++ : kNoMoreTiles;
      if (t == kNoMoreTiles) ++done;
      send_to(from, kTileGiven, tile_message(t));
    };
    // The others' first requests before any tile of its own: no rank waits for rank 0's first.
    for (int k = 0; k < kAhead * (l.size - 1); ++k) answer();
    while (next < tiles) {
      run(next++);
      while (message_waiting(kTileAsked)) answer();
    }
    while (done < kAhead * (l.size - 1)) answer();  // each rank's last requests: no more
  } else {
    // kAhead requests open at all times while there are tiles: the next tiles are on their way
    // while this one is computed, whatever rank 0 is busy with.
    for (int k = 0; k < kAhead; ++k) send_to(0, kTileAsked, {});
    for (int open = kAhead; open > 0;) {
      const std::int64_t t = tile_in(receive_from(0, kTileGiven));
      if (t == kNoMoreTiles) {
        --open;
        continue;
      }
      send_to(0, kTileAsked, {});
      run(t);
    }
  }

  // Every rank's tiles and their results to rank 0, which puts them in tile order.
  TileBytesOut out;
  out.put_value(static_cast<std::int64_t>(mine.size()));
  for (std::size_t k = 0; k < mine.size(); ++k) {
    out.put_value(mine[k]);
    out.put_value(static_cast<std::int64_t>(results[k].size()));
    out.put_array(std::span<const std::byte>(results[k]), 1);
  }
  const auto parts = gather_to_root(out.bytes());
  std::vector<std::vector<std::byte>> by_tile;
  if (!writes()) return by_tile;
  by_tile.resize(static_cast<std::size_t>(tiles));
  for (const auto& part : parts) {
    std::size_t at = 0;
    const auto take = [&](void* into, std::size_t n) {
      if (at + n > part.size()) throw RunError("dist: a rank's tiles ended early");
      std::memcpy(into, part.data() + at, n);
      at += n;
    };
    std::int64_t count = 0;
    take(&count, sizeof count);
    for (std::int64_t k = 0; k < count; ++k) {
      std::int64_t t = 0, size = 0, length = 0, blocks = 0;
      take(&t, sizeof t);
      take(&size, sizeof size);
      take(&length, sizeof length);
      take(&blocks, sizeof blocks);
      if (t < 0 || t >= tiles) throw RunError("dist: a rank sent a tile that was not handed out");
      std::vector<std::byte>& bytes = by_tile[static_cast<std::size_t>(t)];
      bytes.resize(static_cast<std::size_t>(size));
      take(bytes.data(), bytes.size());
    }
  }
  return by_tile;
}

bool compute_and_place_tiles(
    std::int64_t total, std::int64_t tile,
    const std::function<std::vector<std::byte>(const std::vector<ItemRange>&, bool first)>&
        compute,
    const std::function<void(const std::vector<std::byte>&, std::vector<ItemRange>)>& place) {
  const RankLayout& l = layout();
  if (tiles_handed_out()) {
    bool first = true;
    const auto by_tile = hand_out_tiles(
        total, tile, [&](ItemRange t) { return compute({t}, std::exchange(first, false)); });
    if (!writes()) return false;
    for (std::size_t t = 0; t < by_tile.size(); ++t)
      place(by_tile[t], {tile_number(static_cast<std::int64_t>(t), tile, total)});
    return true;
  }
  const auto parts = gather_to_root(compute(interleaved_tiles(total, tile, l.rank, l.size), true));
  if (!writes()) return false;
  for (int r = 0; r < l.size; ++r)
    place(parts[static_cast<std::size_t>(r)], interleaved_tiles(total, tile, r, l.size));
  return true;
}

}  // namespace orrery::dist

// SPDX-License-Identifier: MIT
#include "orrery/dist/map_over_ranks.hpp"

#include <chrono>

#include "dist/tile_bytes.hpp"
#include "dist/tile_schedule.hpp"
#include "orrery/core/seconds_since.hpp"
#include "orrery/dist/communicator.hpp"
#include "orrery/dist/rank_share.hpp"
#include "orrery/ensemble/divergence_map.hpp"

namespace orrery::dist {

namespace {

void put_map_part(TileBytesOut& out, const DivergenceCounts& part) {
  out.put_value(part.pixel_steps);
  out.put_value(part.nonfinite_pixels);
  out.put_array(std::span<const std::int32_t>(part.counts), 1);
  out.put_array(std::span<const std::uint8_t>(part.nonfinite), 1);
}

void place_map_part(TileBytesIn& in, DivergenceMap& map) {
  map.pixel_steps += in.take_value<std::int64_t>();
  map.nonfinite_pixels += in.take_value<std::int64_t>();
  in.place_array(map.counts);
  in.place_array(map.nonfinite);
}

std::vector<PixelIndex> pixels_of(const DivergenceMapParams& params,
                                  const std::vector<ItemRange>& tiles) {
  std::vector<PixelIndex> pixels;
  for (const ItemRange& t : tiles)
    for (auto k = static_cast<std::int32_t>(t.begin); k < t.end; ++k)
      for (std::int32_t j = 0; j < params.width; ++j) pixels.push_back({j, k});
  return pixels;
}

}  // namespace

DivergenceMap map_over_ranks(const DivergenceMapParams& params, const MapRunOptions& options) {
  if (!distributed()) return compute_divergence_map(params, options);
  const auto t0 = std::chrono::steady_clock::now();
  const RankLayout& l = layout();
  // The work is in rows: a row of pixels is the smallest tile.
  const std::int64_t rows = params.height;
  const std::int64_t tile = tile_size(rows, l.size);
  DivergenceMap map;
  const auto compute = [&](const std::vector<ItemRange>& tiles, bool first) {
    const DivergenceCounts part =
        compute_divergence_pixels(params, pixels_of(params, tiles), for_this_rank(options));
    if (first) map.info = part.info;
    TileBytesOut out;
    put_map_part(out, part);
    return out.bytes();
  };
  const auto place = [&](const std::vector<std::byte>& bytes, std::vector<ItemRange> tiles) {
    TileBytesIn in(bytes, std::move(tiles), rows);
    place_map_part(in, map);
  };
  if (!compute_and_place_tiles(rows, tile, compute, place)) return map;
  map.width = params.width;
  map.height = params.height;
  map.info.wall_seconds = seconds_since(t0);
  map.info.note = over_ranks_note(map.info.note);
  return map;
}

}  // namespace orrery::dist

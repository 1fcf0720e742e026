// SPDX-License-Identifier: MIT
#include "orrery/dist/map_over_ranks.hpp"

#include <chrono>

#include "dist/tile_bytes.hpp"
#include "orrery/core/seconds_since.hpp"
#include "orrery/dist/communicator.hpp"
#include "orrery/dist/rank_share.hpp"
#include "orrery/ensemble/divergence_map.hpp"

namespace orrery::dist {

DivergenceMap map_over_ranks(const DivergenceMapParams& params, const MapRunOptions& options) {
  if (!distributed()) return compute_divergence_map(params, options);
  const auto t0 = std::chrono::steady_clock::now();
  const RankLayout& l = layout();
  // The work is in rows: a row of pixels is the smallest tile.
  const std::int64_t rows = params.height;
  const std::int64_t tile = tile_size(rows, l.size);
  std::vector<PixelIndex> pixels;
  for (const ItemRange& t : interleaved_tiles(rows, tile, l.rank, l.size))
    for (auto k = static_cast<std::int32_t>(t.begin); k < t.end; ++k)
      for (std::int32_t j = 0; j < params.width; ++j) pixels.push_back({j, k});
  const DivergenceCounts part = compute_divergence_pixels(params, pixels, for_this_rank(options));

  TileBytesOut out;
  out.put_value(part.pixel_steps);
  out.put_value(part.nonfinite_pixels);
  out.put_array(std::span<const std::int32_t>(part.counts), 1);
  out.put_array(std::span<const std::uint8_t>(part.nonfinite), 1);
  const auto parts = gather_to_root(out.bytes());
  DivergenceMap map;
  map.info = part.info;
  if (!writes()) return map;
  map.width = params.width;
  map.height = params.height;
  for (int r = 0; r < l.size; ++r) {
    TileBytesIn in(parts[static_cast<std::size_t>(r)], interleaved_tiles(rows, tile, r, l.size),
                   rows);
    map.pixel_steps += in.take_value<std::int64_t>();
    map.nonfinite_pixels += in.take_value<std::int64_t>();
    in.place_array(map.counts);
    in.place_array(map.nonfinite);
  }
  map.info.wall_seconds = seconds_since(t0);
  map.info.note = over_ranks_note(map.info.note);
  return map;
}

}  // namespace orrery::dist

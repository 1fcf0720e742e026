// SPDX-License-Identifier: MIT
#include "orrery/dist/ensemble_over_ranks.hpp"

#include <utility>

#include "dist/tile_bytes.hpp"
#include "dist/tile_schedule.hpp"
#include "orrery/dist/communicator.hpp"
#include "orrery/dist/rank_share.hpp"
#include "orrery/ensemble/ensemble.hpp"
#include "orrery/ensemble/ensemble_catalogue.hpp"

namespace orrery::dist {

namespace {

// This rank's trajectories: its tiles, and their start rows as the whole ensemble has them.
struct OwnTrajectories {
  std::vector<ItemRange> tiles;
  std::vector<double> rows;
  EnsembleSetup setup;  // the whole setup, narrowed to them
};

OwnTrajectories own_trajectories(const EnsembleSetup& whole, std::vector<ItemRange> tiles) {
  OwnTrajectories own;
  own.tiles = std::move(tiles);
  const auto& info = ensemble_problems().at(static_cast<std::size_t>(whole.problem));
  const int words = info.state_words + info.parameters;
  const std::int64_t count = items_in(own.tiles);
  own.rows.resize(static_cast<std::size_t>(count * words));
  std::int64_t at = 0;
  for (const ItemRange& t : own.tiles)
    for (std::int64_t i = t.begin; i < t.end; ++i, ++at)
      start_row(whole.starts, words, i, whole.trajectories,
                own.rows.data() + static_cast<std::size_t>(at * words));
  own.setup = whole;
  own.setup.trajectories = count;
  own.setup.starts = EnsembleStarts{};
  own.setup.starts.rows = own.rows.data();
  return own;
}

void put_ensemble(TileBytesOut& out, const EnsembleOutcome& o, int samples) {
  out.put_value(o.trajectory_steps);
  out.put_value(o.failed);
  out.put_value(o.state_words);
  out.put_array(std::span<const double>(o.final_state), 1);
  out.put_array(std::span<const float>(o.drift), samples);  // samples × trajectories
  out.put_array(std::span<const std::uint32_t>(o.steps_accepted), 1);
  out.put_array(std::span<const std::uint32_t>(o.steps_rejected), 1);
  out.put_array(std::span<const std::uint8_t>(o.status), 1);
  out.put_array(std::span<const std::int64_t>(o.section_count), 1);
  out.put_array(std::span<const double>(o.section_points), 1);
}

void place_ensemble(TileBytesIn& in, EnsembleOutcome& whole) {
  whole.trajectory_steps += in.take_value<std::int64_t>();
  whole.failed += in.take_value<std::int64_t>();
  if (const int words = in.take_value<int>(); words > 0) whole.state_words = words;
  in.place_array(whole.final_state);
  in.place_array(whole.drift);
  in.place_array(whole.steps_accepted);
  in.place_array(whole.steps_rejected);
  in.place_array(whole.status);
  in.place_array(whole.section_count);
  in.place_array(whole.section_points);
}

}  // namespace

EnsembleOutcome ensemble_over_ranks(const EnsembleSetup& setup, const EnsembleRunOptions& options) {
  if (!distributed()) return run_ensemble(setup, options);
  const RankLayout& l = layout();
  const std::int64_t n = setup.trajectories, tile = tile_size(n, l.size);
  EnsembleOutcome whole;
  const auto run = [&](const std::vector<ItemRange>& tiles, bool keep_info) {
    const OwnTrajectories own = own_trajectories(setup, tiles);
    EnsembleOutcome part;
    if (own.setup.trajectories > 0) part = run_ensemble(own.setup, for_this_rank(options));
    if (keep_info) whole.info = part.info;
    TileBytesOut out;
    put_ensemble(out, part, setup.samples);
    return out.bytes();
  };
  const auto place = [&](const std::vector<std::byte>& bytes, std::vector<ItemRange> tiles) {
    TileBytesIn in(bytes, std::move(tiles), n);
    place_ensemble(in, whole);
  };
  if (!compute_and_place_tiles(n, tile, run, place)) return whole;
  whole.trajectories = n;
  whole.info.note = over_ranks_note(whole.info.note);
  return whole;
}

ChaosOutcome chaos_over_ranks(const ChaosSetup& setup, const EnsembleRunOptions& options) {
  if (!distributed()) return run_chaos(setup, options);
  const RankLayout& l = layout();
  const std::int64_t n = setup.ensemble.trajectories, tile = tile_size(n, l.size);
  ChaosOutcome whole;
  const auto run = [&](const std::vector<ItemRange>& tiles, bool keep_info) {
    const OwnTrajectories own = own_trajectories(setup.ensemble, tiles);
    ChaosSetup mine = setup;
    mine.ensemble = own.setup;
    ChaosOutcome part;
    if (mine.ensemble.trajectories > 0) part = run_chaos(mine, for_this_rank(options));
    if (keep_info) {
      whole.info = part.info;
      whole.sample_time = part.sample_time;
      whole.ensemble.info = part.ensemble.info;
    }
    TileBytesOut out;
    out.put_value(part.outputs);
    out.put_value(part.samples);
    // samples × outputs × trajectories
    out.put_array(std::span<const double>(part.values), std::int64_t{part.samples} * part.outputs);
    put_ensemble(out, part.ensemble, setup.samples);
    return out.bytes();
  };
  const auto place = [&](const std::vector<std::byte>& bytes, std::vector<ItemRange> tiles) {
    TileBytesIn in(bytes, std::move(tiles), n);
    if (const int outputs = in.take_value<int>(); outputs > 0) whole.outputs = outputs;
    if (const int samples = in.take_value<int>(); samples > 0) whole.samples = samples;
    in.place_array(whole.values);
    place_ensemble(in, whole.ensemble);
  };
  if (!compute_and_place_tiles(n, tile, run, place)) return whole;
  whole.trajectories = n;
  whole.info.note = over_ranks_note(whole.info.note);
  whole.ensemble.trajectories = n;
  return whole;
}

}  // namespace orrery::dist

// SPDX-License-Identifier: MIT
// dist/bodies_over_ranks.hpp: the slices put together on rank 0 (gather_to_root, in rank order,
// each slice's values placed where its bodies lie: dist/tile_bytes.hpp), a whole state sliced
// again, and the checkpoint and diagnostics rank 0 read sent to every rank.
#include <array>
#include <cstring>
#include <type_traits>

#include "dist/tile_bytes.hpp"
#include "orrery/core/error.hpp"
#include "orrery/core/float128.hpp"
#include "orrery/dist/bodies_over_ranks.hpp"
#include "orrery/dist/broadcast_values.hpp"
#include "orrery/dist/communicator.hpp"
#include "orrery/nbody/simulation.hpp"

namespace orrery::dist {

namespace {

std::vector<ItemRange> body_slice_tiles(std::size_t total, int rank, int size) {
  const BodySlice s = body_slice(total, rank, size);
  return {ItemRange{static_cast<std::int64_t>(s.begin), static_cast<std::int64_t>(s.end)}};
}

template <class T>
void put_body_blocks(TileBytesOut& out, const std::vector<T>& values, std::size_t bodies) {
  if (bodies == 0 || values.size() % bodies != 0)
    throw RunError("dist: a stepper's state array is not a whole number of values per body");
  out.put_array(std::span<const T>(values), static_cast<std::int64_t>(values.size() / bodies));
}

template <class Real>
class BodyShareOverRanks final : public BodyShare<Real> {
 public:
  explicit BodyShareOverRanks(std::size_t total) : total_(total), slice_(my_body_slice(total)) {}

  Particles<Real> whole(const Particles<Real>& mine) override {
    TileBytesOut out;
    for (const auto* a : arrays_of(mine)) put_body_blocks(out, *a, mine.size());
    if (!mine.softening.empty()) put_body_blocks(out, mine.softening, mine.size());
    put_body_blocks(out, mine.id, mine.size());
    const auto parts = gather_to_root(out.bytes());
    Particles<Real> all;
    if (!writes()) return all;
    if (!mine.softening.empty()) all.softening.resize(total_);
    for (int r = 0; r < layout().size; ++r) {
      TileBytesIn in(parts[static_cast<std::size_t>(r)], tiles_of(r),
                     static_cast<std::int64_t>(total_));
      for (auto* a : arrays_of(all)) in.place_array(*a);
      if (!mine.softening.empty()) in.place_array(all.softening);
      in.place_array(all.id);
    }
    return all;
  }

  StepperState<Real> whole(const StepperState<Real>& mine, std::size_t bodies) override {
    TileBytesOut out;
    for (const auto& a : mine.arrays()) put_body_blocks(out, a.values, bodies);
    const auto parts = gather_to_root(out.bytes());
    StepperState<Real> all;
    if (!writes()) return all;
    std::vector<std::vector<Real>> arrays(mine.arrays().size());
    for (int r = 0; r < layout().size; ++r) {
      TileBytesIn in(parts[static_cast<std::size_t>(r)], tiles_of(r),
                     static_cast<std::int64_t>(total_));
      for (auto& a : arrays) in.place_array(a);
    }
    for (std::size_t k = 0; k < arrays.size(); ++k)
      all.set_array(mine.arrays()[k].name, std::move(arrays[k]));
    for (const auto& s : mine.scalars()) all.set_scalar(s.name, s.value);
    return all;
  }

  StepperState<Real> mine(const StepperState<Real>& whole, std::size_t bodies) override {
    StepperState<Real> mine;
    for (const auto& a : whole.arrays()) {
      if (a.values.size() % total_ != 0)
        throw InputError("a checkpoint's stepper state '" + a.name +
                         "' is not a whole number of values per body");
      const std::size_t blocks = a.values.size() / total_;
      std::vector<Real> values;
      values.reserve(blocks * bodies);
      for (std::size_t b = 0; b < blocks; ++b) {
        const auto from = a.values.begin() + static_cast<std::ptrdiff_t>(b * total_ + slice_.begin);
        values.insert(values.end(), from, from + static_cast<std::ptrdiff_t>(slice_.size()));
      }
      mine.set_array(a.name, std::move(values));
    }
    for (const auto& s : whole.scalars()) mine.set_scalar(s.name, s.value);
    return mine;
  }

  Diagnostics diagnostics(const Particles<Real>& mine, double w, double time) override {
    Diagnostics d;
    const Particles<Real> all = whole(mine);
    if (writes()) d = diagnostics_of(all, w, time);
    broadcast_diagnostics(d);
    return d;
  }

  std::optional<NonFinite> first_nonfinite(std::optional<NonFinite> mine) override {
    const RankLayout& l = layout();
    const int first = least_over_ranks(mine ? l.rank : l.size);
    if (first == l.size) return std::nullopt;
    // The lowest rank that found one holds the first of the whole order: its bytes to rank 0,
    // and from there to every rank.
    struct Found {
      std::uint64_t particle = 0, id = 0;
      int position = 0;
      double value = 0;
    } found;
    if (mine) found = {slice_.begin + mine->particle, mine->id,
                       std::strcmp(mine->what, "position") == 0 ? 1 : 0, mine->value};
    const std::span<const std::byte> bytes = std::as_bytes(std::span(&found, 1));
    const auto parts = gather_to_root(l.rank == first ? bytes : bytes.first(0));
    std::vector<std::byte> chosen(sizeof found);
    if (writes()) chosen = parts[static_cast<std::size_t>(first)];
    broadcast_from_root(chosen);
    std::memcpy(&found, chosen.data(), sizeof found);
    return NonFinite{found.particle, found.id, found.position ? "position" : "velocity",
                     found.value};
  }

 private:
  std::vector<ItemRange> tiles_of(int rank) const {
    return body_slice_tiles(total_, rank, layout().size);
  }
  template <class P>
  static auto arrays_of(P& p) {
    return std::array{&p.x, &p.y, &p.z, &p.vx, &p.vy, &p.vz, &p.mass};
  }

  std::size_t total_;
  BodySlice slice_;
};

template <class T>
void put_checkpoint_values(TileBytesOut& out, const std::vector<T>& v) {
  out.put_value(static_cast<std::int64_t>(v.size()));
  for (const T& x : v) out.put_value(x);
}

template <class T>
std::vector<T> take_checkpoint_values(TileBytesIn& in) {
  std::vector<T> v(static_cast<std::size_t>(in.take_value<std::int64_t>()));
  for (T& x : v) x = in.take_value<T>();
  return v;
}

void put_checkpoint_text(TileBytesOut& out, const std::string& s) {
  put_checkpoint_values(out, std::vector<char>(s.begin(), s.end()));
}
std::string take_checkpoint_text(TileBytesIn& in) {
  const auto v = take_checkpoint_values<char>(in);
  return {v.begin(), v.end()};
}

}  // namespace

template <class Real>
Particles<Real> particles_of(const Particles<Real>& whole, BodySlice s) {
  auto part = [&](const auto& a) {
    using V = std::decay_t<decltype(a)>;
    if (a.empty()) return V{};
    return V(a.begin() + static_cast<std::ptrdiff_t>(s.begin),
             a.begin() + static_cast<std::ptrdiff_t>(s.end));
  };
  Particles<Real> p;
  p.x = part(whole.x), p.y = part(whole.y), p.z = part(whole.z);
  p.vx = part(whole.vx), p.vy = part(whole.vy), p.vz = part(whole.vz);
  p.mass = part(whole.mass), p.softening = part(whole.softening), p.id = part(whole.id);
  return p;
}

template <class Real>
std::unique_ptr<BodyShare<Real>> body_share_over_ranks(std::size_t total) {
  return std::make_unique<BodyShareOverRanks<Real>>(total);
}

template <class Real>
void broadcast_checkpoint(Checkpoint<Real>& c) {
  if (!distributed()) return;
  TileBytesOut out;
  if (writes()) {
    const Particles<Real>& p = c.particles;
    for (const auto* a : {&p.x, &p.y, &p.z, &p.vx, &p.vy, &p.vz, &p.mass, &p.softening})
      put_checkpoint_values(out, *a);
    put_checkpoint_values(out, p.id);
    out.put_value(c.clock);
    out.put_value(static_cast<std::int64_t>(c.stepper.arrays().size()));
    for (const auto& a : c.stepper.arrays()) {
      put_checkpoint_text(out, a.name);
      put_checkpoint_values(out, a.values);
    }
    out.put_value(static_cast<std::int64_t>(c.stepper.scalars().size()));
    for (const auto& s : c.stepper.scalars()) {
      put_checkpoint_text(out, s.name);
      out.put_value(s.value);
    }
    out.put_value(c.next_snapshot);
    out.put_value(c.settings);
    out.put_value(c.drift_warning);
    out.put_value(c.run_crc32);
    out.put_value(c.ranks);
  }
  std::vector<std::byte> bytes = out.bytes();
  broadcast_from_root(bytes);
  if (writes()) return;
  TileBytesIn in(bytes, {}, 0);
  Checkpoint<Real> r;
  Particles<Real>& p = r.particles;
  for (auto* a : {&p.x, &p.y, &p.z, &p.vx, &p.vy, &p.vz, &p.mass, &p.softening})
    *a = take_checkpoint_values<Real>(in);
  p.id = take_checkpoint_values<std::uint64_t>(in);
  r.clock = in.take_value<SimClock>();
  for (auto k = in.take_value<std::int64_t>(); k > 0; --k) {
    std::string name = take_checkpoint_text(in);
    r.stepper.set_array(name, take_checkpoint_values<Real>(in));
  }
  for (auto k = in.take_value<std::int64_t>(); k > 0; --k) {
    std::string name = take_checkpoint_text(in);
    r.stepper.set_scalar(name, in.take_value<Real>());
  }
  r.next_snapshot = in.take_value<std::int64_t>();
  r.settings = in.take_value<RunSettings>();
  r.drift_warning = in.take_value<DriftWarning>();
  r.run_crc32 = in.take_value<std::int64_t>();
  r.ranks = in.take_value<std::int64_t>();
  c = std::move(r);
}

#define ORRERY_BODIES_OVER_RANKS(Real)                                                        \
  template Particles<Real> particles_of(const Particles<Real>&, BodySlice);                   \
  template std::unique_ptr<BodyShare<Real>> body_share_over_ranks<Real>(std::size_t);        \
  template void broadcast_checkpoint(Checkpoint<Real>&);
ORRERY_BODIES_OVER_RANKS(float)
ORRERY_BODIES_OVER_RANKS(double)
ORRERY_BODIES_OVER_RANKS(float128)
#undef ORRERY_BODIES_OVER_RANKS

}  // namespace orrery::dist

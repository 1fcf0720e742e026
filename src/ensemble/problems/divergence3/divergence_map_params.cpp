// SPDX-License-Identifier: MIT
#include "orrery/ensemble/problems/divergence3/divergence_map_params.hpp"

#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "orrery/ensemble/map_integrators.hpp"
#include "orrery/core/double_double.hpp"
#include "orrery/ensemble/problems/divergence3/divergence_setup.hpp"

namespace orrery {

namespace {

using P = DivergenceMapParams;
constexpr std::int64_t kMaxSide = 1 << 20;
// Counts are stored as int32.
constexpr std::int64_t kMaxSteps = std::numeric_limits<std::int32_t>::max();

std::vector<ParamField<P>> make_fields() {
  std::vector<ParamField<P>> f;
  f.push_back(integer_field("width", "pixels per row", &P::width, 1, kMaxSide));
  f.push_back(integer_field("height", "pixels per column", &P::height, 1, kMaxSide));
  {
    ParamField<P> r{"resolution", "sets width and height to N", ParamKind::Integer};
    r.excludes = {"width", "height"};
    r.set = [](P& p, const ParamValue& v) {
      p.width = p.height = static_cast<std::int32_t>(require_integer("resolution", v, 1, kMaxSide));
    };
    f.push_back(std::move(r));
  }
  f.push_back(integer_field("steps", "time steps per pixel", &P::steps, 1, kMaxSteps));
  f.push_back(real_field("dt", "time step", &P::dt, RealRule::Positive));
  {
    ParamField<P> i{"integrator", "time integrator of both systems",
                    ParamKind::Choice};
    i.choices = map_integrator_names();
    i.set = [choices = i.choices](P& p, const ParamValue& v) {
      p.integrator = require_choice("integrator", v, choices);
    };
    i.get = [](const P& p) { return ParamValue{p.integrator}; };
    f.push_back(std::move(i));
  }
  {
    ParamField<P> s{"shift", "twin offset S, applied as (S, S, S)", ParamKind::Real};
    s.excludes = {"shift-vector"};
    s.set = [](P& p, const ParamValue& v) {
      const double x = require_real("shift", v, RealRule::Finite);
      p.shift = {x, x, x};
    };
    f.push_back(std::move(s));
  }
  f.push_back(vec3_field("shift-vector", "twin offset of the varied body", &P::shift,
                         RealRule::Finite));
  f.push_back(real_field("critical-distance", "separation at which the twins count as diverged",
                         &P::critical_distance, RealRule::Positive));
  f.push_back(interval_field("x-range", "window on the plane's first (horizontal) axis, A:B",
                             &P::x_range));
  f.push_back(interval_field("y-range", "window on the plane's second (vertical) axis, A:B",
                             &P::y_range));
  f.push_back(choice_field("plane", "plane of the varied body's start", &P::plane,
                           {"xy", "yz", "xz"}));
  f.push_back(integer_field("vary", "the body whose start the pixel sets (1, 2 or 3)",
                            &P::varied_body, 1, kMapBodies));
  f.push_back(reals_field("masses", "masses m1,m2,m3", &P::masses, RealRule::Positive));
  f.push_back(real_field("g", "gravitational constant G", &P::g, RealRule::Positive));
  f.push_back(reals_field("positions",
                          "start positions x1,y1,z1,x2,...,z3 (the pixel overrides the varied "
                          "body's plane coordinates)",
                          &P::positions, RealRule::Finite));
  f.push_back(reals_field("velocities", "start velocities vx1,vy1,vz1,vx2,...,vz3",
                          &P::velocities, RealRule::Finite));
  return f;
}

bool same_point(const Vec3d& a, const Vec3d& b) { return a.x == b.x && a.y == b.y && a.z == b.z; }

double distance2(const Vec3d& a, const Vec3d& b) {
  const Vec3d d{a.x - b.x, a.y - b.y, a.z - b.z};
  return d.x * d.x + d.y * d.y + d.z * d.z;
}

// Every force of the map divides by a squared distance: one that overflows makes the pixel's
// whole history non-finite. The distance from a window's pixels to a point is largest at a corner
// pixel, so the four corners (and their twins) stand for all pixels.
void require_finite_distances(const DivergenceMapParams& p, const DivergenceSetup& s) {
  const auto where = [](const Vec3d& x) { return fmt::format("({}, {}, {})", x.x, x.y, x.z); };
  for (int a = 0; a < kMapBodies; ++a)
    for (int b = a + 1; b < kMapBodies; ++b)
      if (a != s.body && b != s.body && !std::isfinite(distance2(s.x0[a], s.x0[b])))
        throw ParameterError("positions",
                             fmt::format("bodies {} and {} at {} and {}", a + 1, b + 1,
                                         where(s.x0[a]), where(s.x0[b])),
                             "start points whose squared distances are finite numbers");
  for (const std::int64_t k : {std::int64_t{0}, std::int64_t{p.height} - 1})
    for (const std::int64_t j : {std::int64_t{0}, std::int64_t{p.width} - 1}) {
      const TwinStart t = twin_start(s, j, k);
      for (int n = 0; n < kMapBodies; ++n)
        if (n != s.body && (!std::isfinite(distance2(t.base.x[s.body], s.x0[n])) ||
                            !std::isfinite(distance2(t.twin.x[s.body], s.x0[n]))))
          throw ParameterError(
              "x-range/y-range",
              fmt::format("pixel ({}, {}) at {}, body {} at {}", j, k,
                          where(t.base.x[s.body]), n + 1, where(s.x0[n])),
              "a window whose squared distances to the other bodies are finite numbers");
    }
}

}  // namespace

const std::vector<ParamField<DivergenceMapParams>>& divergence_map_fields() {
  static const auto fields = make_fields();
  return fields;
}

void validate(const DivergenceMapParams& p) {
  // Parameters set in code bypass the setters' rules: apply them again. A deep zoom's window
  // (ends with low parts) may have ends that round to one fp64 value: its order is checked in
  // double-double, and the setters see a stand-in.
  DivergenceMapParams checked = p;
  using D = DoubleDouble<double>;
  const auto deep = [&](const char* name, const std::array<double, 2>& r,
                        const std::array<double, 2>& low, std::array<double, 2>& stand_in) {
    if (low[0] == 0 && low[1] == 0) return;
    if (!std::isfinite(low[0]) || !std::isfinite(low[1]) || !((D(r[1], low[1]) - D(r[0], low[0])).hi > 0))
      throw ParameterError(name, fmt::format("{}{:+}:{}{:+}", r[0], low[0], r[1], low[1]),
                           "an interval A:B in double-double with A < B");
    stand_in = {-1.0, 1.0};
  };
  deep("x-range", p.x_range, p.x_range_low, checked.x_range);
  deep("y-range", p.y_range, p.y_range_low, checked.y_range);
  DivergenceMapParams copy = checked;
  for (const auto& field : divergence_map_fields())
    if (field.get) field.set(copy, field.get(checked));

  const DivergenceSetup s = make_divergence_setup(p);
  require_finite_distances(p, s);
  const auto where = [](const Vec3d& x) { return fmt::format("({}, {}, {})", x.x, x.y, x.z); };
  for (int a = 0; a < kMapBodies; ++a)
    for (int b = a + 1; b < kMapBodies; ++b)
      if (a != s.body && b != s.body && same_point(s.x0[a], s.x0[b]))
        throw ParameterError("positions", fmt::format("bodies {} and {} both at {}", a + 1, b + 1,
                                                      where(s.x0[a])),
                             "distinct start points for all bodies");
  // The varied body (and its twin) meets another body only where that body lies exactly on a
  // grid point of the plane; checking every pixel is cheap next to integrating one.
  for (int n = 0; n < kMapBodies; ++n) {
    if (n == s.body) continue;
    const int fixed_axis = 3 - s.axis_u - s.axis_v;
    const double other_fixed = component(s.x0[n], fixed_axis);
    const double own_fixed = component(s.x0[s.body], fixed_axis);
    const double twin_fixed = own_fixed + component(s.shift, fixed_axis);
    if (other_fixed != own_fixed && other_fixed != twin_fixed) continue;
    for (std::int64_t k = 0; k < p.height; ++k)
      for (std::int64_t j = 0; j < p.width; ++j) {
        const TwinStart t = twin_start(s, j, k);
        if (same_point(t.base.x[s.body], s.x0[n]) || same_point(t.twin.x[s.body], s.x0[n]))
          throw ParameterError(
              "x-range/y-range",
              fmt::format("pixel ({}, {}) starting body {} on body {} at {}", j, k, s.body + 1,
                          n + 1, where(s.x0[n])),
              "a window whose grid points avoid the other bodies' start points");
      }
  }
}

DivergenceSetup make_divergence_setup(const DivergenceMapParams& p) {
  DivergenceSetup s{};
  s.width = p.width;
  s.height = p.height;
  s.steps = p.steps;
  s.dt = p.dt;
  s.critical_distance2 = p.critical_distance * p.critical_distance;
  s.u_min = p.x_range[0];
  s.u_span = p.x_range[1] - p.x_range[0];
  s.v_min = p.y_range[0];
  s.v_span = p.y_range[1] - p.y_range[0];
  using D = DoubleDouble<double>;
  s.u_min_low = p.x_range_low[0];
  s.v_min_low = p.y_range_low[0];
  s.u_span_dd = (D(p.x_range[1], p.x_range_low[1]) - D(p.x_range[0], p.x_range_low[0])).hi;
  s.v_span_dd = (D(p.y_range[1], p.y_range_low[1]) - D(p.y_range[0], p.y_range_low[0])).hi;
  switch (p.plane) {
    case Plane::xy: s.axis_u = 0, s.axis_v = 1; break;
    case Plane::yz: s.axis_u = 1, s.axis_v = 2; break;
    case Plane::xz: s.axis_u = 0, s.axis_v = 2; break;
  }
  s.body = p.varied_body - 1;
  s.integrator = map_integrator_index(p.integrator);
  for (int n = 0; n < kMapBodies; ++n) {
    s.gm[n] = p.g * p.masses[n];
    s.x0[n] = p.position(n);
    s.v0[n] = p.velocity(n);
  }
  s.shift = p.shift;
  return s;
}

}  // namespace orrery

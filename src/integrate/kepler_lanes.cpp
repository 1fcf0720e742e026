// SPDX-License-Identifier: MIT
// The Kepler drifts of bodies side by side (integrate/kepler_lanes.hpp says what and why),
// compiled once per instruction set (ORRERY_CPU_KERNEL names the variant, CMake gives its
// -march): one loop over the bodies without branches, which the compiler turns into SIMD lanes
// (8 a vector with AVX-512, 4 with AVX2, 2 with SSE2), the same operations in every lane.
#include <array>
#include <cstddef>
#include <cstdint>

#include "integrate/kepler_lanes.hpp"
#include "orrery/physics/kepler_drift.hpp"

#ifndef ORRERY_CPU_KERNEL
#error "compile with -DORRERY_CPU_KERNEL=<name>"
#endif

namespace orrery::cpu::ORRERY_CPU_KERNEL {
namespace {

// The series' range (physics/kepler_drift.hpp: c_k summed for |z| ≤ 0.1).
constexpr double kSeriesRange = 0.1;

void drift_loop(const KeplerBodies& b, std::size_t begin, std::size_t end, double h) {
  using namespace kepler_drift_detail;
  double* __restrict x = b.x;
  double* __restrict y = b.y;
  double* __restrict z = b.z;
  double* __restrict vx = b.vx;
  double* __restrict vy = b.vy;
  double* __restrict vz = b.vz;
  const double* __restrict mu = b.mu;
  std::uint64_t* __restrict far = b.far;
#pragma GCC ivdep
  for (std::size_t k = begin; k < end; ++k) {
    const std::array<double, 3> x0{x[k], y[k], z[k]}, v0{vx[k], vy[k], vz[k]};
    std::array<double, 3> xn = x0, vn = v0;
    const KeplerStart<double> s = kepler_start(x0, v0, mu[k], h);
    // stiefel_functions(β, X) where no halving is needed, with its operations.
    const double zs = s.beta * s.X * s.X;
    const std::array<double, 4> c = stumpff_series(zs);
    const std::array<double, 4> g{c[0], s.X * c[1], s.X * s.X * c[2], s.X * s.X * s.X * c[3]};
    const bool close = close_guess_drift(xn, vn, mu[k], h, s, g);
    const bool moved = close & (magnitude(zs) <= kSeriesRange);
    x[k] = moved ? xn[0] : x0[0];
    y[k] = moved ? xn[1] : x0[1];
    z[k] = moved ? xn[2] : x0[2];
    vx[k] = moved ? vn[0] : v0[0];
    vy[k] = moved ? vn[1] : v0[1];
    vz[k] = moved ? vn[2] : v0[2];
    far[k] = moved ? 0 : 1;
  }
}

// Bodies in whole vectors of kLanes: the loop's vectorised body handles only whole vectors (its
// remainder runs one body at a time), so the last few go through a full vector, the unused lanes
// on a circular orbit.
constexpr std::size_t kLanes = 8;

void drifts_f64(const KeplerBodies& b, std::size_t begin, std::size_t end, double h) {
  const std::size_t whole = begin + (end - begin) / kLanes * kLanes;
  if (whole > begin) drift_loop(b, begin, whole, h);
  if (whole == end) return;
  std::array<double, kLanes> x{}, y{}, z{}, vx{}, vy{}, vz{}, mu{};
  std::array<std::uint64_t, kLanes> far{};
  for (std::size_t l = 0; l < kLanes; ++l) {
    const bool used = whole + l < end;
    x[l] = used ? b.x[whole + l] : 1.0;
    y[l] = used ? b.y[whole + l] : 0.0;
    z[l] = used ? b.z[whole + l] : 0.0;
    vx[l] = used ? b.vx[whole + l] : 0.0;
    vy[l] = used ? b.vy[whole + l] : 1.0;
    vz[l] = used ? b.vz[whole + l] : 0.0;
    mu[l] = used ? b.mu[whole + l] : 1.0;
  }
  const KeplerBodies tail{x.data(), y.data(), z.data(), vx.data(), vy.data(), vz.data(),
                          mu.data(), far.data()};
  drift_loop(tail, 0, kLanes, h);
  for (std::size_t l = 0; whole + l < end; ++l) {
    b.x[whole + l] = x[l], b.y[whole + l] = y[l], b.z[whole + l] = z[l];
    b.vx[whole + l] = vx[l], b.vy[whole + l] = vy[l], b.vz[whole + l] = vz[l];
    b.far[whole + l] = far[l];
  }
}

}  // namespace

extern const KeplerDriftsFn kepler_drifts_f64;
const KeplerDriftsFn kepler_drifts_f64 = drifts_f64;

}  // namespace orrery::cpu::ORRERY_CPU_KERNEL

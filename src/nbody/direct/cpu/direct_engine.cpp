// SPDX-License-Identifier: MIT
// Softened Newtonian gravity summed over all pairs,
//   a_i = G Σ_{j≠i} m_j (x_j − x_i) / (|x_j − x_i|² + ε_ij²)^{3/2},
//   U   = −G Σ_{i<j} m_i m_j / (|x_j − x_i|² + ε_ij²)^{1/2},   ε_ij² = (ε_i² + ε_j²)/2
// (Plummer softening; per-particle form as in W. Dehnen, MNRAS 324, 273, 2001). Threads own
// contiguous, block-aligned ranges of the target list (every body, or the listed ones); each
// target's sum and each energy row are computed alone, so the bits depend neither on the thread
// count nor on which other targets are listed.
#include "direct_engine.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <type_traits>

#include "orrery/core/compensated_sum.hpp"
#include "orrery/core/error.hpp"
#include "orrery/core/float128.hpp"
#include "orrery/core/seconds_since.hpp"
#include "orrery/nbody/half_softening.hpp"
#include "orrery/device/cpu/cpu_threads.hpp"
#include "device/cpu/on_threads.hpp"
#include "orrery/physics/softened_pair.hpp"

namespace orrery::cpu {

namespace {

// The fewest pair interactions worth a thread of their own: below this a second thread's
// wake-up and join cost more than its share saves (docs/internals/gravity-cpu.md, "Threads":
// bench/cpu_threads_bench.cpp, rows direct_small/N/1thread and direct_small/N/2threads).
constexpr std::size_t kPairsPerThread = std::size_t{1} << 18;

template <class Real>
constexpr bool kVectorised = std::is_same_v<Real, float> || std::is_same_v<Real, double>;

// float128 (and the reference semantics of every kernel): one target at a time, exact IEEE
// operations; the same sums as the kernels, which only change how 1/r³ is rounded.
template <class Real>
void scalar_accelerations(const DirectSources<Real>& s, Real g, std::size_t i, Real* ax, Real* ay,
                          Real* az) {
  const Vec3<Real> target{s.x[i], s.y[i], s.z[i]};
  Vec3<Real> acc{Real(0), Real(0), Real(0)};
  for (std::size_t j = 0; j < s.n_sources; ++j) {
    if (j == i) continue;
    accumulate_softened_pull(target, Vec3<Real>{s.x[j], s.y[j], s.z[j]}, s.mass[j],
                             s.half_eps2[i] + s.half_eps2[j], acc);
  }
  ax[i] = g * acc.x;
  ay[i] = g * acc.y;
  az[i] = g * acc.z;
}

template <class Real>
double scalar_potential_row(const DirectSources<Real>& s, std::size_t i) {
  CompensatedSum<Real> row;
  for (std::size_t j = i + 1; j < s.n; ++j) {
    const Real dx = s.x[j] - s.x[i], dy = s.y[j] - s.y[i], dz = s.z[j] - s.z[i];
    const Real r2 = softened_distance2(dx, dy, dz, s.half_eps2[i] + s.half_eps2[j]);
    row.add(pair_potential_term(s.mass[i], s.mass[j], r2));
  }
  return static_cast<double>(row.value());
}

}  // namespace

template <class Real>
DirectEngine<Real>::DirectEngine(const EngineOptions& options)
    : options_(options),
      thread_limit_(cpu_thread_limit(options.threads)),
      device_(options.threads, options.min_work_per_thread),
      kernel_(&choose_direct_kernel(options.cpu_kernel)) {}

template <class Real>
std::string DirectEngine<Real>::kernel_name() const {
  return kVectorised<Real> ? kernel_->name : "scalar";
}

template <class Real>
void DirectEngine<Real>::set_bodies(std::span<const Real> mass, std::span<const Real> softening) {
  half_eps2_ = half_softening_squared(softening, mass.size(), options_.softening, "direct");
  mass_.assign(mass.begin(), mass.end());
  n_sources_ = mass_.size();
  while (n_sources_ > 0 && mass_[n_sources_ - 1] == Real(0)) --n_sources_;
}

template <class Real>
DirectSources<Real> DirectEngine<Real>::sources(const DeviceBuffer<Real>& x) const {
  const std::size_t n = mass_.size();
  if (x.size() < 3 * n)
    throw InputError("direct engine: positions hold " + std::to_string(x.size()) +
                     " values for " + std::to_string(n) + " bodies (3N expected)");
  return {x.data(), x.data() + n, x.data() + 2 * n, mass_.data(), half_eps2_.data(), n,
          n_sources_};
}

template <class Real>
int DirectEngine<Real>::thread_count(std::size_t pairs) const {
  const std::size_t grain =
      options_.min_work_per_thread > 0 ? options_.min_work_per_thread : kPairsPerThread;
  return threads_for_work(thread_limit_, pairs, grain);
}

template <class Real>
void DirectEngine<Real>::accelerations(const DeviceBuffer<Real>& x, DeviceBuffer<Real>& a) {
  if (every_body_.size() != mass_.size()) {
    every_body_.resize(mass_.size());
    for (std::size_t i = 0; i < every_body_.size(); ++i)
      every_body_[i] = static_cast<std::uint32_t>(i);
  }
  accelerations_of(x, a, every_body_);
}

template <class Real>
void DirectEngine<Real>::accelerations_of(const DeviceBuffer<Real>& x, DeviceBuffer<Real>& a,
                                          std::span<const std::uint32_t> targets) {
  const DirectSources<Real> s = sources(x);
  const std::size_t n = s.n, m = targets.size();
  Real* ax = a.data();
  Real* ay = ax + n;
  Real* az = ay + n;
  const Real g = static_cast<Real>(options_.g);
  if constexpr (kVectorised<Real>) {
    const DirectKernelOps& ops = *kernel_->ops;
    DirectAccelerationsFn<Real> run;
    std::size_t block;
    if constexpr (std::is_same_v<Real, double>) {
      run = ops.accelerations_f64;
      block = ops.block_f64;
    } else {
      run = ops.accelerations_f32;
      block = ops.block_f32;
    }
    // Equal shares of whole blocks: every thread does the same work per target.
    const std::size_t blocks = (m + block - 1) / block;
    on_threads(thread_count(m * s.n_sources), [&](std::size_t t, std::size_t threads) {
      const std::size_t begin = blocks * t / threads * block;
      const std::size_t end = std::min(m, blocks * (t + 1) / threads * block);
      if (begin < end) run(s, g, targets.data() + begin, end - begin, ax, ay, az);
    });
  } else {
    on_threads(thread_count(m * s.n_sources), [&](std::size_t t, std::size_t threads) {
      for (std::size_t k = m * t / threads; k < m * (t + 1) / threads; ++k)
        scalar_accelerations(s, g, targets[k], ax, ay, az);
    });
  }
}

template <class Real>
void DirectEngine<Real>::accelerations_and_potentials(const DeviceBuffer<Real>& x,
                                                      DeviceBuffer<Real>& a,
                                                      DeviceBuffer<Real>& phi) {
  const auto t0 = std::chrono::steady_clock::now();
  accelerations(x, a);
  // φ_i = −G Σ_{j≠i} m_j / √(r² + ε²), each target alone: the bits do not depend on threads.
  const DirectSources<Real> s = sources(x);
  const std::size_t n = s.n;
  Real* out = phi.data();
  const Real g = static_cast<Real>(options_.g);
  on_threads(thread_count(n * n), [&](std::size_t t, std::size_t threads) {
    const std::size_t begin = n * t / threads, end = n * (t + 1) / threads;
    if constexpr (std::is_same_v<Real, double>) {
      kernel_->ops->potentials_f64(s, g, begin, end, out);
    } else if constexpr (std::is_same_v<Real, float>) {
      kernel_->ops->potentials_f32(s, g, begin, end, out);
    } else {
      for (std::size_t i = begin; i < end; ++i) {
        Real sum(0);
        for (std::size_t j = 0; j < n; ++j) {
          if (j == i) continue;
          const Real dx = s.x[j] - s.x[i], dy = s.y[j] - s.y[i], dz = s.z[j] - s.z[i];
          sum += s.mass[j] /
                 sqrt(softened_distance2(dx, dy, dz, s.half_eps2[i] + s.half_eps2[j]));
        }
        out[i] = -g * sum;
      }
    }
  });
  timings_.force = seconds_since(t0);
}

template <class Real>
double DirectEngine<Real>::potential_energy(const DeviceBuffer<Real>& x) {
  const DirectSources<Real> s = sources(x);
  const std::size_t n = s.n;
  // Each row in its own compensated sum, the rows added in order: the same bits for any thread
  // count. Rows shrink with i, hence the dynamic schedule.
  std::vector<double> rows(n);
  constexpr std::size_t kRows = 16;
  const std::size_t chunks = (n + kRows - 1) / kRows;
  std::atomic<std::size_t> next{0};
  on_threads(thread_count(n * n / 2), [&](std::size_t, std::size_t) {
    for (std::size_t c = next++; c < chunks; c = next++) {
      const std::size_t begin = c * kRows;
      const std::size_t end = std::min(n, begin + kRows);
      if constexpr (std::is_same_v<Real, double>) {
        kernel_->ops->potential_rows_f64(s, begin, end, rows.data());
      } else if constexpr (std::is_same_v<Real, float>) {
        kernel_->ops->potential_rows_f32(s, begin, end, rows.data());
      } else {
        for (std::size_t i = begin; i < end; ++i) rows[i] = scalar_potential_row(s, i);
      }
    }
  });
  CompensatedSum<double> total;
  for (double r : rows) total.add(r);
  return -options_.g * total.value();
}

template class DirectEngine<float>;
template class DirectEngine<double>;
template class DirectEngine<float128>;

}  // namespace orrery::cpu

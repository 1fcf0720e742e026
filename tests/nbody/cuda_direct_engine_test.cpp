// SPDX-License-Identifier: MIT
// The CUDA direct engine and the GPU's array device against the CPU (skipped without a device;
// run on the device with bench/gpu_engines.sh): the fused update bit for bit; sums whose
// sources are split across blocks (small N) and not split (large N) against long-double sums;
// bodies shared among several devices against one device.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "orrery/device/cpu/host_array_device.hpp"
#include "orrery/device/cuda_presence.hpp"
#include "orrery/nbody/engines.hpp"
#if ORRERY_WITH_CUDA
#include "device/cuda/cuda_array_device.hpp"
#endif

namespace orrery {
namespace {

#define ORRERY_NEEDS_GPU(count)                                                  \
  if (cuda_device_count() < (count)) GTEST_SKIP() << "needs " << (count) << " CUDA device(s)"

// Worst relative error of |a| against the long-double sum: fp64 sums of up to 3·10⁵ terms with
// the refined 1/r³ (a few ulp each) stay far below 1e-13; fp32 sums grow their rounding with N
// (about √N ulp, ~1e-5 at 5 000 terms), hence a looser bound beyond 10 000 bodies.
constexpr double kFp64Bound = 1e-13;
constexpr double kFp32Bound = 3e-5, kFp32LargeNBound = 3e-4;
constexpr std::size_t kLargeN = 10000;

std::vector<double> random_values(std::size_t n, unsigned seed, double lo, double hi) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(lo, hi);
  std::vector<double> v(n);
  for (auto& x : v) x = u(rng);
  return v;
}

#if ORRERY_WITH_CUDA
TEST(CudaArrayDevice, FindsANonFiniteValueWhereItLies) {
  ORRERY_NEEDS_GPU(1);
  cuda::CudaArrayDevice<double> gpu(0);
  std::vector<double> v = random_values(300001, 5, -1, 1);
  auto b = gpu.allocate(v.size());
  gpu.copy_to_device(v, b);
  EXPECT_TRUE(gpu.all_finite(b));
  for (double bad : {std::nan(""), HUGE_VAL, -HUGE_VAL}) {
    v[299999] = bad;
    gpu.copy_to_device(v, b);
    EXPECT_FALSE(gpu.all_finite(b));
  }
}

TEST(CudaArrayDevice, CombineHasTheBitsOfTheCpu) {
  ORRERY_NEEDS_GPU(1);
  constexpr std::size_t n = 100003;
  cuda::CudaArrayDevice<double> gpu(0);
  HostArrayDevice<double> cpu(1);
  const auto y = random_values(n, 1, -1, 1), k1 = random_values(n, 2, -1, 1),
             k2 = random_values(n, 3, -1, 1), k3 = random_values(n, 4, -1, 1);
  for (const std::vector<double>& c : std::vector<std::vector<double>>{
           {1.0}, {0.5, 0.0, 0.5}, {1.0 / 6, 1.0 / 3, 1.0 / 3}, {0.0, 0.0, 0.0}, {0.3, 1.0, -0.7}}) {
    auto run = [&](ArrayDevice<double>& d) {
      auto yb = d.allocate(n), a = d.allocate(n), b = d.allocate(n), e = d.allocate(n),
           out = d.allocate(n);
      d.copy_to_device(y, yb), d.copy_to_device(k1, a), d.copy_to_device(k2, b),
          d.copy_to_device(k3, e);
      const DeviceBuffer<double>* ks[] = {&a, &b, &e};
      d.combine(out, yb, 0.01, c, std::span(ks, c.size()));
      std::vector<double> host(n);
      d.copy_to_host(out, host);
      return host;
    };
    EXPECT_EQ(run(gpu), run(cpu));
  }
}
#endif

// Relative error of |a| for `targets` sampled bodies against a long-double sum.
template <class Real>
double worst_error(std::size_t n, std::vector<int> devices, double softening,
                   int targets_per_thread = 0) {
  const auto x = random_values(3 * n, 11, -1, 1), m = random_values(n, 12, 0.5, 1.5);
  EngineOptions o{.g = 1.0, .softening = softening};
  o.backend = Backend::cuda;
  o.devices = std::move(devices);
  o.targets_per_thread = targets_per_thread;
  auto e = make_force_engine<Real>("direct", o);
  std::vector<Real> xr(x.begin(), x.end()), mr(m.begin(), m.end()), a(3 * n);
  auto xd = e->device().allocate(3 * n), ad = e->device().allocate(3 * n);
  e->device().copy_to_device(xr, xd);
  e->set_bodies(mr, {});
  e->accelerations(xd, ad);
  e->device().copy_to_host(ad, a);
  double worst = 0;
  for (std::size_t s = 0; s < std::min<std::size_t>(n, 64); ++s) {
    const std::size_t i = s * 7919 % n;
    long double w[3] = {0, 0, 0};
    for (std::size_t j = 0; j < n; ++j) {
      if (j == i) continue;
      long double d[3], r2 = (long double)softening * softening;
      for (int k = 0; k < 3; ++k) d[k] = (long double)x[k * n + j] - x[k * n + i], r2 += d[k] * d[k];
      for (int k = 0; k < 3; ++k) w[k] += m[j] * d[k] / (r2 * std::sqrt(r2));
    }
    long double d2 = 0, w2 = 0;
    for (int k = 0; k < 3; ++k)
      d2 += (a[k * n + i] - w[k]) * (a[k * n + i] - w[k]), w2 += w[k] * w[k];
    worst = std::max(worst, static_cast<double>(std::sqrt(d2 / w2)));
  }
  return worst;
}

TEST(CudaDirectEngine, SplitAndUnsplitSumsMatchALongDoubleSum) {
  ORRERY_NEEDS_GPU(1);
  // 2–3 bodies (1, no pair, is checked in the engine suite), a tile's edge, a few tiles split
  // into slices, and enough to fill the GPU without splitting; with and without softening; each
  // kernel variant (targets per thread).
  for (std::size_t n : {2, 3, 255, 257, 5000, 300000})
    for (double eps : {0.0, 0.05})
      for (int tpt : {2, 4, 8}) {
        SCOPED_TRACE(testing::Message() << "N = " << n << ", eps = " << eps << ", " << tpt
                                        << " targets per thread");
        EXPECT_LT(worst_error<double>(n, {}, eps, tpt), kFp64Bound);
        EXPECT_LT(worst_error<float>(n, {}, eps, tpt),
                  n > kLargeN ? kFp32LargeNBound : kFp32Bound);
      }
}

TEST(CudaDirectEngine, SeveralDevicesShareTheTargets) {
  ORRERY_NEEDS_GPU(2);
  std::vector<int> all;
  for (int d = 0; d < cuda_device_count(); ++d) all.push_back(d);
  EXPECT_LT(worst_error<double>(100000, all, 0.01), kFp64Bound);
  EXPECT_LT(worst_error<double>(1000, all, 0.01), kFp64Bound);
}

}  // namespace
}  // namespace orrery

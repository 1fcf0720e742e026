// SPDX-License-Identifier: MIT
// accelerations_of (integrate/second_order_system.hpp): the accelerations of listed targets
// equal, bit for bit, those the full call gives the same bodies, and every other value is left
// as it was; for the CPU engines' own subset paths (direct: every instruction-set variant; tree)
// and for the contract's default. Bit for bit, not to rounding: a target's sum does not depend
// on which other targets share its SIMD block (direct) or its group's lists (tree).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "orrery/core/float128.hpp"
#include "orrery/device/cpu/cpu_kernels.hpp"
#include "orrery/device/cuda_presence.hpp"
#include "orrery/nbody/engines.hpp"
#include "orrery/scenes/plummer.hpp"

namespace orrery {
namespace {

// 301 bodies: not a multiple of any SIMD block, so padded blocks are exercised; float128's
// software arithmetic takes 67 (and its one scalar loop, whatever the kernel named).
template <class Real>
constexpr std::int64_t kBodies = std::is_same_v<Real, float128> ? 67 : 301;
// A value no engine computes: untouched entries must keep it.
constexpr double kSentinel = -12345.5;

// Ascending targets: about one body in `every`, and the last body.
std::vector<std::uint32_t> some_targets(std::size_t n, int every, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<std::uint32_t> t;
  for (std::size_t i = 0; i + 1 < n; ++i)
    if (rng() % every == 0) t.push_back(static_cast<std::uint32_t>(i));
  t.push_back(static_cast<std::uint32_t>(n - 1));
  return t;
}

// A system that has only the contract's required calls: accelerations_of is the default.
template <class Real>
class PlainSystem final : public SecondOrderSystem<Real> {
 public:
  explicit PlainSystem(ForceEngine<Real>& engine) : engine_(engine) {}
  ArrayDevice<Real>& device() override { return engine_.device(); }
  void accelerations(const DeviceBuffer<Real>& x, DeviceBuffer<Real>& a) override {
    engine_.accelerations(x, a);
  }

 private:
  ForceEngine<Real>& engine_;
};

template <class Real>
void expect_subset_equals_full(ForceEngine<Real>& engine, SecondOrderSystem<Real>& system,
                               const std::string& what) {
  PlummerParams p;
  p.n = kBodies<Real>;
  p.seed = 3;
  const InitialConditions ic = make_plummer(p);
  const std::size_t n = ic.particles.size();
  std::vector<Real> x(3 * n), mass(n);
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = static_cast<Real>(ic.particles.x[i]);
    x[n + i] = static_cast<Real>(ic.particles.y[i]);
    x[2 * n + i] = static_cast<Real>(ic.particles.z[i]);
    mass[i] = static_cast<Real>(ic.particles.mass[i]);
  }
  engine.set_bodies(mass, {});
  ArrayDevice<Real>& d = engine.device();
  DeviceBuffer<Real> xb = d.allocate(3 * n), full = d.allocate(3 * n), part = d.allocate(3 * n);
  d.copy_to_device(x, xb);
  engine.accelerations(xb, full);
  std::vector<Real> hf(3 * n);
  d.copy_to_host(full, hf);
  for (int every : {1, 3, 40}) {
    const std::vector<std::uint32_t> targets = some_targets(n, every, 11 + every);
    d.copy_to_device(std::vector<Real>(3 * n, Real(kSentinel)), part);
    system.accelerations_of(xb, part, targets);
    std::vector<Real> hp(3 * n);
    d.copy_to_host(part, hp);
    std::vector<char> listed(n, 0);
    for (const std::uint32_t i : targets) listed[i] = 1;
    for (std::size_t c = 0; c < 3; ++c)
      for (std::size_t i = 0; i < n; ++i) {
        const Real want = listed[i] ? hf[c * n + i] : Real(kSentinel);
        ASSERT_EQ(std::memcmp(&hp[c * n + i], &want, sizeof(Real)), 0)
            << what << ", one in " << every << ", body " << i << " component " << c;
      }
  }
}

template <class Real>
void check_engine(const std::string& name, const std::string& cpu_kernel,
                  Backend backend = Backend::cpu) {
  EngineOptions o;
  o.backend = backend;
  o.softening = 0.01;
  o.threads = 2;
  o.min_work_per_thread = 1;  // split even this small system among the threads
  o.cpu_kernel = cpu_kernel;
  auto engine = make_force_engine<Real>(name, o);
  const std::string what = name + " " + (cpu_kernel.empty() ? "default" : cpu_kernel) + " on " +
                           engine->backend();
  expect_subset_equals_full<Real>(*engine, *engine, what);
  PlainSystem<Real> plain(*engine);
  expect_subset_equals_full<Real>(*engine, plain, what + " through the default");
}

template <class Real>
class AccelerationsOf : public ::testing::Test {};
using Reals = ::testing::Types<float, double, float128>;
TYPED_TEST_SUITE(AccelerationsOf, Reals);

TYPED_TEST(AccelerationsOf, DirectSubsetGivesTheFullCallsBitsOnEveryKernel) {
  if constexpr (std::is_same_v<TypeParam, float128>)
    check_engine<TypeParam>("direct", "");
  else
    for (const std::string& kernel : supported_cpu_kernel_names())
      check_engine<TypeParam>("direct", kernel);
}

TYPED_TEST(AccelerationsOf, TreeSubsetGivesTheFullCallsBits) {
  check_engine<TypeParam>("tree", "");
}

// The CUDA engines take the contract's default (a full pass, the listed values kept): the same
// check on the GPU, skipped without one.
TEST(CudaAccelerationsOf, SubsetGivesTheFullCallsBits) {
  if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device";
  for (const std::string& engine : {std::string("direct"), std::string("tree")}) {
    check_engine<float>(engine, "", Backend::cuda);
    check_engine<double>(engine, "", Backend::cuda);
  }
}

}  // namespace
}  // namespace orrery

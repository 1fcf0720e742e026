// SPDX-License-Identifier: MIT
#include "orrery/device/cpu/host_array_device.hpp"

#include <algorithm>
#include <cstdlib>
#include <new>

#include <fmt/format.h>

#include "orrery/core/error.hpp"
#include "orrery/core/finite.hpp"
#include "orrery/core/float128.hpp"
#include "orrery/core/hd_math.hpp"
#include "orrery/device/cpu/cpu_threads.hpp"
#include "device/cpu/on_threads.hpp"

namespace orrery {

namespace {

// The fewest elements of an update worth a thread of their own (docs/internals/gravity-cpu.md,
// "Threads": bench/cpu_threads_bench.cpp, rows combine/N/1thread and combine/N/2threads).
constexpr std::size_t kElementsPerThread = std::size_t{1} << 13;

}  // namespace

template <class Real>
HostArrayDevice<Real>::HostArrayDevice(int threads, std::size_t min_elements_per_thread)
    : threads_(threads),
      thread_limit_(cpu_thread_limit(threads)),
      grain_(min_elements_per_thread > 0 ? min_elements_per_thread : kElementsPerThread) {}

template <class Real>
DeviceBuffer<Real> HostArrayDevice<Real>::allocate(std::size_t n) {
  const std::size_t bytes = ((n * sizeof(Real) + 63) / 64) * 64;
  auto* p = static_cast<Real*>(std::aligned_alloc(64, bytes > 0 ? bytes : 64));
  if (!p) throw std::bad_alloc();
  std::fill(p, p + n, Real(0));
  return DeviceBuffer<Real>(p, n, [](Real* q) { std::free(q); });
}

template <class Real>
void HostArrayDevice<Real>::copy_to_device(std::span<const Real> host, DeviceBuffer<Real>& dst) {
  std::copy(host.begin(), host.end(), dst.data());
}

template <class Real>
void HostArrayDevice<Real>::copy_to_host(const DeviceBuffer<Real>& src, std::span<Real> host) {
  std::copy(src.data(), src.data() + host.size(), host.begin());
}

template <class Real>
void HostArrayDevice<Real>::copy(const DeviceBuffer<Real>& src, DeviceBuffer<Real>& dst) {
  std::copy(src.data(), src.data() + src.size(), dst.data());
}

template <class Real>
void HostArrayDevice<Real>::combine(DeviceBuffer<Real>& out, const DeviceBuffer<Real>& y, Real h,
                                    std::span<const Real> c,
                                    std::span<const DeviceBuffer<Real>* const> k) {
  // Only nonzero coefficients take part; the first is a product (k itself for 1).
  const Real* ks[kMaxCombineTerms];
  Real cs[kMaxCombineTerms];
  int m = 0;
  for (std::size_t j = 0; j < c.size(); ++j) {
    if (c[j] == Real(0)) continue;
    if (m == kMaxCombineTerms)
      throw RunError(fmt::format("combine: more than {} nonzero coefficients", kMaxCombineTerms));
    ks[m] = k[j]->data();
    cs[m] = c[j];
    ++m;
  }
  const bool first_is_one = m > 0 && cs[0] == Real(1);
  const Real* yd = y.data();
  Real* od = out.data();
  const std::size_t n = y.size();
  on_threads(threads_for_work(thread_limit_, n, grain_), [&](std::size_t t, std::size_t parts) {
    const std::size_t end = n * (t + 1) / parts;
    for (std::size_t i = n * t / parts; i < end; ++i) {
      if (m == 0) {
        od[i] = yd[i];
        continue;
      }
      Real s = first_is_one ? ks[0][i] : cs[0] * ks[0][i];
      for (int j = 1; j < m; ++j) s = mul_add(cs[j], ks[j][i], s);
      od[i] = mul_add(h, s, yd[i]);
    }
  });
}

// One thread: a block-step kick touches few bodies, scattered.
template <class Real>
void HostArrayDevice<Real>::combine_listed(DeviceBuffer<Real>& y, Real h, double c,
                                           const DeviceBuffer<Real>& k,
                                           std::span<const std::uint32_t> targets) {
  update_listed(y.data(), k.data(), y.size() / 3, h, c, targets);
}

template <class Real>
bool HostArrayDevice<Real>::all_finite(const DeviceBuffer<Real>& b) {
  for (std::size_t i = 0; i < b.size(); ++i)
    if (!is_finite_value(b.data()[i])) return false;
  return true;
}

template class HostArrayDevice<float>;
template class HostArrayDevice<double>;
template class HostArrayDevice<float128>;

}  // namespace orrery

// SPDX-License-Identifier: MIT
// Arrays on one device and the fused array update the array steppers are made of: the half of a
// force engine that is about memory, not physics. A CPU engine uses host memory
// (device/cpu/host_array_device.hpp), a CUDA engine GPU memory, so a step makes no host round
// trip.
//
// State layout, by convention of its users: a DeviceBuffer of 3N values
// [x_0..x_{N−1}, y_0..y_{N−1}, z_0..z_{N−1}] for positions, the same for velocities and
// accelerations.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "orrery/device/listed_update.hpp"

namespace orrery {

// An array in the memory of one device; move-only, released by the device's deleter.
template <class Real>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  DeviceBuffer(Real* data, std::size_t size, std::function<void(Real*)> release)
      : data_(data), size_(size), release_(std::move(release)) {}
  DeviceBuffer(DeviceBuffer&& o) noexcept
      : data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)),
        release_(std::move(o.release_)) {}
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    if (this != &o) {
      reset();
      data_ = std::exchange(o.data_, nullptr);
      size_ = std::exchange(o.size_, 0);
      release_ = std::move(o.release_);
    }
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer() { reset(); }

  Real* data() { return data_; }
  const Real* data() const { return data_; }
  std::size_t size() const { return size_; }

 private:
  void reset() {
    if (data_ && release_) release_(data_);
    data_ = nullptr;
  }
  Real* data_ = nullptr;
  std::size_t size_ = 0;
  std::function<void(Real*)> release_;
};

// The most nonzero terms one combine takes: the stages of the largest tableau (feagin14: 35)
// with room to spare.
inline constexpr int kMaxCombineTerms = 64;

template <class Real>
class ArrayDevice {
 public:
  virtual ~ArrayDevice() = default;
  virtual std::string name() const = 0;  // "cpu", "cuda:0"
  // Whether the host may read and write a buffer's data() directly (host memory): a stepper
  // whose arithmetic runs on the host then works in place instead of through copies.
  virtual bool host_accessible() const { return false; }

  // n values, all zero.
  virtual DeviceBuffer<Real> allocate(std::size_t n) = 0;
  // The first host.size() values of dst (resp. src).
  virtual void copy_to_device(std::span<const Real> host, DeviceBuffer<Real>& dst) = 0;
  virtual void copy_to_host(const DeviceBuffer<Real>& src, std::span<Real> host) = 0;
  // All of src into dst (dst at least as large).
  virtual void copy(const DeviceBuffer<Real>& src, DeviceBuffer<Real>& dst) = 0;

  // out = y + h Σ_j c_j k_j element-wise, in the order of the register stepper
  // (integrate/runge_kutta/register_stepper.hpp): s = c_first·k_first (k itself for c = 1), then
  // s ← fma(c_j, k_j, s) over the other nonzero c_j, out = fma(h, s, y); out = y when all c_j
  // are zero. `out` may be `y`. Each element is computed alone, so the bits do not depend on how
  // the device splits the work. The c_j come rounded to Real by the caller (a float128 run's
  // tables hold more than a double's digits); at most kMaxCombineTerms of them are nonzero.
  virtual void combine(DeviceBuffer<Real>& out, const DeviceBuffer<Real>& y, Real h,
                       std::span<const Real> c,
                       std::span<const DeviceBuffer<Real>* const> k) = 0;
  // combine's one-term update y ← y + h·c·k for the listed bodies only: `targets` are body
  // indices (ascending, each < n = y.size()/3), each updated in its three components
  // [i, n + i, 2n + i]; every other value of y stays as it was. Each element gets the bits
  // combine would give it. Here through the host (a device overrides it to stay in its memory).
  virtual void combine_listed(DeviceBuffer<Real>& y, Real h, double c, const DeviceBuffer<Real>& k,
                              std::span<const std::uint32_t> targets) {
    std::vector<Real> hy(y.size()), hk(k.size());
    copy_to_host(y, hy);
    copy_to_host(k, hk);
    update_listed(hy.data(), hk.data(), hy.size() / 3, h, c, targets);
    copy_to_device(hy, y);
  }
  // Whether every value of `b` is finite, found where the values are: a run checks its state
  // after every step, and copying it out for that would undo keeping it on the device.
  virtual bool all_finite(const DeviceBuffer<Real>& b) = 0;
  // max_i |e_i| / (atol + rtol · max(|y_i|, |z_i|)): the size of the error estimate e of a step
  // from y to z against a step control's tolerances (Hairer, Nørsett & Wanner I, §II.4, in the
  // maximum norm: the same value whatever order a device visits the elements in). Here on the
  // host, after copying the three arrays out.
  virtual double max_scaled_error(const DeviceBuffer<Real>& e, const DeviceBuffer<Real>& y,
                                  const DeviceBuffer<Real>& z, double atol, double rtol) {
    std::vector<Real> he(e.size()), hy(y.size()), hz(z.size());
    copy_to_host(e, he);
    copy_to_host(y, hy);
    copy_to_host(z, hz);
    double worst = 0;
    for (std::size_t i = 0; i < he.size(); ++i) {
      const double scale = atol + rtol * std::max(std::abs(static_cast<double>(hy[i])),
                                                  std::abs(static_cast<double>(hz[i])));
      worst = std::max(worst, std::abs(static_cast<double>(he[i])) / scale);
    }
    return worst;
  }
};

}  // namespace orrery

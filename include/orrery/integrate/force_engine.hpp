// SPDX-License-Identifier: MIT
// What an array stepper needs from the right-hand side of a large system: accelerations, and
// memory plus fused array updates on the device where the engine keeps the state (host memory
// for CPU engines, GPU memory for CUDA engines), so that a step makes no host round trip.
//
// State layout: a DeviceBuffer of 3N values [x_0..x_{N−1}, y_0..y_{N−1}, z_0..z_{N−1}] for
// positions, the same for velocities and accelerations.
#pragma once

#include <cstddef>
#include <functional>
#include <span>
#include <string>
#include <utility>

namespace orrery {

// An array in the memory of one engine's device; move-only, released by the engine's deleter.
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

template <class Real>
class ForceEngine {
 public:
  virtual ~ForceEngine() = default;
  virtual std::string name() const = 0;         // "direct", "direct-reference", ...
  virtual std::string device_name() const = 0;  // "cpu", "cuda:0"

  // ---- memory on the engine's device
  virtual DeviceBuffer<Real> allocate(std::size_t n) = 0;
  virtual void copy_to_device(std::span<const Real> host, DeviceBuffer<Real>& dst) = 0;
  virtual void copy_to_host(const DeviceBuffer<Real>& src, std::span<Real> host) = 0;
  virtual void copy(const DeviceBuffer<Real>& src, DeviceBuffer<Real>& dst) = 0;

  // out = y + h Σ_j c_j k_j element-wise, in the order of the register stepper
  // (integrate/runge_kutta/register_stepper.hpp): s = c_first·k_first (k itself for c = 1), then
  // s ← fma(c_j, k_j, s) over the other nonzero c_j, out = fma(h, s, y); out = y when all c_j
  // are zero. `out` may be `y`.
  virtual void combine(DeviceBuffer<Real>& out, const DeviceBuffer<Real>& y, Real h,
                       std::span<const double> c,
                       std::span<const DeviceBuffer<Real>* const> k) = 0;

  // ---- the system
  // The bodies whose gravity acts: masses, and per-particle softening ε_i (empty: the engine's
  // global ε). Called before accelerations; the engine keeps its own copy.
  virtual void set_bodies(std::span<const Real> mass, std::span<const Real> softening) = 0;
  // a(x) for positions x (3N each, on the device).
  virtual void accelerations(const DeviceBuffer<Real>& x, DeviceBuffer<Real>& a) = 0;
  // −G Σ_{i<j} m_i m_j / √(r_ij² + ε_ij²), summed with compensation.
  virtual double potential_energy(const DeviceBuffer<Real>& x) = 0;
};

}  // namespace orrery

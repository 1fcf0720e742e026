// SPDX-License-Identifier: MIT
// The arrays an integrator holds, measured rather than tabulated: its array stepper takes two
// steps of a small harmonic system x'' = −x, twice, for two numbers of bodies, on a host device
// that counts every value allocated. Two measures, the larger taken:
//  - the device's count: every buffer the steps created, including any freed before the step
//    ended, so it bounds the peak of the stepper's device arrays from above;
//  - the growth of the heap (glibc's mallinfo2) per body between the two sizes: what the stepper
//    keeps anywhere, host vectors included, its fixed size (tables, the object) cancelling.
#include "stepper_footprint.hpp"

#include <malloc.h>

#include <algorithm>
#include <span>

#include "orrery/core/error.hpp"
#include "orrery/device/cpu/host_array_device.hpp"
#include "orrery/device/forwarding_device.hpp"
#include "orrery/integrate/integrator_registry.hpp"

namespace orrery {

namespace {

class CountingDevice final : public ForwardingDevice<double> {
 public:
  CountingDevice() : ForwardingDevice<double>(host_) {}
  std::size_t allocated = 0;  // values

  DeviceBuffer<double> allocate(std::size_t n) override {
    allocated += n;
    return ForwardingDevice<double>::allocate(n);
  }

 private:
  HostArrayDevice<double> host_{1};
};

class Spring final : public SecondOrderSystem<double> {
 public:
  ArrayDevice<double>& device() override { return device_; }
  void accelerations(const DeviceBuffer<double>& x, DeviceBuffer<double>& a) override {
    for (std::size_t i = 0; i < x.size(); ++i) a.data()[i] = -x.data()[i];
  }

 private:
  CountingDevice device_;
};

double heap_bytes() {
  const struct mallinfo2 m = mallinfo2();
  return static_cast<double>(m.uordblks + m.hblkhd);
}

struct Footprint {
  double device_values, heap_bytes;
};

Footprint measure(const std::string& integrator, double tolerance, std::size_t bodies) {
  Spring system;
  auto& device = static_cast<CountingDevice&>(system.device());
  DeviceBuffer<double> x = device.allocate(3 * bodies), v = device.allocate(3 * bodies);
  for (std::size_t i = 0; i < 3 * bodies; ++i) x.data()[i] = 1.0 + 0.1 * double(i % 7);
  // A method that needs the bodies' gravity (whfast) gets unit masses (made before the heap is
  // measured: they are the system's, not the stepper's); the others ignore them.
  const std::vector<double> masses(bodies, 1.0);
  device.allocated = 0;
  const double before = heap_bytes();
  const auto stepper = make_array_stepper<double>(integrator, tolerance);
  stepper->set_gravity(1.0, masses);
  for (int k = 0; k < 2; ++k) stepper->step(system, x, v, 0.01);
  return {static_cast<double>(device.allocated), heap_bytes() - before};
}

}  // namespace

double stepper_values_per_body(const std::string& integrator, double tolerance) {
  constexpr std::size_t kFew = 64, kMany = 512;
  try {
    make_array_stepper<double>(integrator, tolerance);
  } catch (const ParameterError&) {
    return 0;  // the job's own checks refuse it, naming the flag
  }
  const Footprint few = measure(integrator, tolerance, kFew);
  const Footprint many = measure(integrator, tolerance, kMany);
  const double heap = (many.heap_bytes - few.heap_bytes) / double(kMany - kFew) / sizeof(double);
  return std::max(many.device_values / kMany, heap);
}

}  // namespace orrery

// SPDX-License-Identifier: MIT
#include "orrery/nbody/simulation.hpp"

#include <cmath>

#include "orrery/core/error.hpp"
#include "orrery/core/finite.hpp"
#include "orrery/core/float128.hpp"

namespace orrery {

namespace {

template <class Real>
void to_layout(const std::vector<Real>& a, const std::vector<Real>& b, const std::vector<Real>& c,
               std::vector<Real>& out) {
  const std::size_t n = a.size();
  out.resize(3 * n);
  std::copy(a.begin(), a.end(), out.begin());
  std::copy(b.begin(), b.end(), out.begin() + static_cast<std::ptrdiff_t>(n));
  std::copy(c.begin(), c.end(), out.begin() + static_cast<std::ptrdiff_t>(2 * n));
}

}  // namespace

template <class Real>
Simulation<Real>::Simulation(Particles<Real> particles, std::unique_ptr<ForceEngine<Real>> engine,
                             std::unique_ptr<ArrayStepper<Real>> stepper, SimClock clock)
    : particles_(std::move(particles)),
      engine_(std::move(engine)),
      stepper_(std::move(stepper)),
      clock_(clock) {
  load_bodies();
}

template <class Real>
void Simulation<Real>::load_bodies() {
  const std::size_t n = particles_.size();
  engine_->set_bodies(particles_.mass, particles_.softening);
  ArrayDevice<Real>& device = engine_->device();
  x_ = device.allocate(3 * n);
  v_ = device.allocate(3 * n);
  to_layout(particles_.x, particles_.y, particles_.z, scratch_);
  device.copy_to_device(scratch_, x_);
  to_layout(particles_.vx, particles_.vy, particles_.vz, scratch_);
  device.copy_to_device(scratch_, v_);
  host_current_ = true;
  stepper_->set_gravity(engine_->gravitational_constant(), particles_.mass);
  stepper_->clear();
}

template <class Real>
StepReport<Real> Simulation<Real>::take(double h) {
  const Real step = static_cast<Real>(h);
  const StepReport<Real> report = stepper_->step(*engine_, x_, v_, step);
  // The stepper's suggestion becomes the clock's dt after a regular step or a rejection (not
  // after a step shortened onto an output time), and only where it differs from the step given:
  // a fixed-step method suggests h itself, in fp32 float(h) ≠ h, and the clock keeps its dt.
  const bool regular = h == clock_.dt;
  if (report.next != step && (regular || !report.accepted))
    clock_.dt = static_cast<double>(report.next);
  if (report.accepted) host_current_ = false;
  return report;
}

template <class Real>
StepReport<Real> Simulation<Real>::step(double h) {
  const StepReport<Real> report = take(h);
  if (report.accepted) clock_.advance(h);
  return report;
}

template <class Real>
StepReport<Real> Simulation<Real>::step_onto(double time, double h) {
  const StepReport<Real> report = take(h);
  if (report.accepted) clock_.land(time);
  return report;
}

template <class Real>
void Simulation<Real>::share_bodies(std::unique_ptr<BodyShare<Real>> share) {
  share_ = std::move(share);
}

template <class Real>
StepperState<Real> Simulation<Real>::stepper_state() {
  StepperState<Real> state;
  stepper_->save(*engine_, state);
  return share_ ? share_->whole(state, particles_.size()) : state;
}

template <class Real>
void Simulation<Real>::load_stepper_state(const StepperState<Real>& state) {
  if (share_)
    stepper_->load(*engine_, share_->mine(state, particles_.size()));
  else
    stepper_->load(*engine_, state);
}

template <class Real>
void Simulation<Real>::synchronize() {
  if (!stepper_->behind()) return;
  stepper_->synchronize(*engine_, x_, v_);
  host_current_ = false;
}

template <class Real>
void Simulation<Real>::download() {
  synchronize();
  if (host_current_) return;
  const std::size_t n = particles_.size();
  scratch_.resize(3 * n);
  auto split = [&](std::vector<Real>& a, std::vector<Real>& b, std::vector<Real>& c) {
    std::copy(scratch_.begin(), scratch_.begin() + n, a.begin());
    std::copy(scratch_.begin() + n, scratch_.begin() + 2 * n, b.begin());
    std::copy(scratch_.begin() + 2 * n, scratch_.end(), c.begin());
  };
  engine_->device().copy_to_host(x_, scratch_);
  split(particles_.x, particles_.y, particles_.z);
  engine_->device().copy_to_host(v_, scratch_);
  split(particles_.vx, particles_.vy, particles_.vz);
  host_current_ = true;
}

template <class Real>
const Particles<Real>& Simulation<Real>::particles() {
  download();
  if (!share_) return particles_;
  whole_ = share_->whole(particles_);
  return whole_;
}

template <class Real>
void Simulation<Real>::state_changed() {
  engine_->set_bodies(particles_.mass, particles_.softening);
  host_current_ = false;
  stepper_->set_gravity(engine_->gravitational_constant(), particles_.mass);
  stepper_->clear();
}

template <class Real>
void Simulation<Real>::replace_particles(Particles<Real> particles) {
  if (share_) throw RunError("the bodies of a simulation shared over ranks cannot be replaced");
  if (retain_replaced_) {
    retired_buffers_.push_back(std::move(x_));
    retired_buffers_.push_back(std::move(v_));
    retired_masses_.push_back(std::move(particles_.mass));
  }
  particles_ = std::move(particles);
  load_bodies();
}

template <class Real>
Diagnostics Simulation<Real>::diagnostics() {
  download();
  const double w = engine_->potential_energy(x_);
  Diagnostics d = share_ ? share_->diagnostics(particles_, w, clock_.time())
                         : diagnostics_of(particles_, w, clock_.time());
  d.energy_total += energy_offset_;
  return d;
}

template <class Real>
std::optional<NonFinite> Simulation<Real>::first_nonfinite() {
  // Checked where the state lives; copied out only to name the culprit. A stepper that is behind
  // left in x the positions of its last force evaluation: those are checked (a velocity that
  // stopped being finite shows in them a step later), and the state is brought up to name one.
  ArrayDevice<Real>& device = engine_->device();
  const bool finite =
      device.all_finite(x_) && (stepper_->behind() || device.all_finite(v_));
  if (share_) return share_->first_nonfinite(finite ? std::nullopt : local_nonfinite());
  if (finite) return std::nullopt;
  return local_nonfinite();
}

template <class Real>
std::optional<NonFinite> Simulation<Real>::local_nonfinite() {
  download();
  const auto& p = particles_;
  for (std::size_t i = 0; i < p.size(); ++i) {
    for (const Real* c : {&p.x[i], &p.y[i], &p.z[i]})
      if (!is_finite_value(*c)) return NonFinite{i, p.id[i], "position", static_cast<double>(*c)};
    for (const Real* c : {&p.vx[i], &p.vy[i], &p.vz[i]})
      if (!is_finite_value(*c)) return NonFinite{i, p.id[i], "velocity", static_cast<double>(*c)};
  }
  return std::nullopt;
}

template class Simulation<float>;
template class Simulation<double>;
template class Simulation<float128>;

}  // namespace orrery

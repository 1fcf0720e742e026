// SPDX-License-Identifier: MIT
#include "simulation_core.hpp"

#include <algorithm>
#include <cstring>
#include <limits>
#include <type_traits>

#include "orrery/core/error.hpp"
#include "orrery/core/float128.hpp"
#include "orrery/io/checkpoint_file.hpp"
#include "orrery/jobs/simulation_of_job.hpp"
#include "orrery/nbody/step_schedule.hpp"

namespace orrery::python {

namespace {

template <class Real>
class TypedCore final : public SimulationCore {
 public:
  TypedCore(Simulation<Real> sim, const StepEvents& events)
      : sim_(std::move(sim)), events_(events) {
    sim_.retain_replaced_buffers();  // numpy's views of the state outlive a merge
    remember();
  }

  std::size_t size() const override { return sim_.size(); }
  const SimClock& clock() const override { return sim_.clock(); }
  void set_dt(double dt) override { sim_.set_dt(dt); }
  std::string backend() override { return sim_.engine().backend(); }

  void step() override {
    take_writes();
    // A schedule without an end in sight: one regular step of the clock's dt.
    const double never = std::numeric_limits<double>::infinity();
    const StepSchedule open{sim_.clock().dt < 0 ? -never : never, 0.0, 0.0};
    try {
      const StepMove move = step_on_schedule(sim_, open);
      check_finite();
      events_after(move.h);
    } catch (...) {
      remember();
      throw;
    }
    remember();
  }

  std::int64_t integrate(double t, const std::function<void()>& between,
                         bool between_writes) override {
    take_writes();
    const StepSchedule schedule = StepSchedule::to(t, sim_.clock());
    std::int64_t steps = 0;
    try {
      while (!schedule.finished(sim_.clock())) {
        const StepMove move = step_on_schedule(sim_, schedule);
        check_finite();
        ++steps;
        events_after(move.h);
        if (between) {
          sim_.synchronize();  // numpy's views of x and v see the state at this step
          between();
          if (between_writes) take_writes();  // what a heartbeat wrote is stepped from
        }
      }
    } catch (...) {
      remember();
      throw;
    }
    remember();
    return steps;
  }

  Diagnostics diagnostics() override {
    take_writes();
    return sim_.diagnostics();
  }

  Particles<double> particles() override {
    take_writes();
    return convert_particles<double>(sim_.particles());
  }

  double energy_offset() const override { return sim_.energy_offset(); }
  void set_energy_offset(double offset) override { sim_.set_energy_offset(offset); }
  std::int64_t merged() const override { return merged_; }

  void set_positions(const std::vector<double>& rows) override { put(sim_.positions(), rows); }
  void set_velocities(const std::vector<double>& rows) override { put(sim_.velocities(), rows); }
  void set_masses(const std::vector<double>& m) override {
    take_writes();
    std::copy(m.begin(), m.end(), sim_.masses().begin());
    sim_.state_changed();
    remember();
  }

  void forces(std::vector<double>& rows, std::vector<double>& potential) override {
    take_writes();
    const std::size_t n = sim_.size();
    ForceEngine<Real>& engine = sim_.engine();
    ArrayDevice<Real>& device = engine.device();
    DeviceBuffer<Real> a = device.allocate(3 * n), phi = device.allocate(n);
    engine.accelerations_and_potentials(sim_.positions(), a, phi);
    std::vector<Real> ha(3 * n), hphi(n);
    device.copy_to_host(a, ha);
    device.copy_to_host(phi, hphi);
    rows.resize(3 * n);
    potential.assign(hphi.begin(), hphi.end());
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t k = 0; k < 3; ++k) rows[3 * i + k] = static_cast<double>(ha[k * n + i]);
  }

  std::string saved(const std::string& name, const std::function<void(hid_t)>& more) override {
    take_writes();
    Checkpoint<Real> c{sim_.particles(), sim_.clock(), sim_.stepper_state(), 0, {}, {}};
    c.energy_offset = sim_.energy_offset();
    return encode_checkpoint(name, c, more);
  }

  std::shared_ptr<SimulationCore> copy(const SimJob& job, double g, double softening) override {
    take_writes();
    Simulation<Real> twin = make_simulation(job, sim_.particles(), g, softening, sim_.clock());
    twin.load_stepper_state(sim_.stepper_state());
    twin.set_energy_offset(sim_.energy_offset());
    return std::make_shared<TypedCore<Real>>(std::move(twin), events_);
  }

  HostArray positions() override { return host(sim_.positions().data()); }
  HostArray velocities() override { return host(sim_.velocities().data()); }
  HostArray masses() override { return host(sim_.masses().data()); }

  void take_writes() override {
    if (!in_place()) return;
    const std::size_t n = sim_.size();
    if (!same(sim_.positions().data(), seen_x_, 3 * n) ||
        !same(sim_.velocities().data(), seen_v_, 3 * n) ||
        !same(sim_.masses().data(), seen_m_, n)) {
      sim_.state_changed();
      remember();
    }
  }

 private:
  // Only float and double runs on host memory are shared with numpy in place.
  bool in_place() {
    return (std::is_same_v<Real, float> || std::is_same_v<Real, double>)&&sim_.engine()
        .device()
        .host_accessible();
  }
  HostArray host(Real* data) {
    if (!in_place()) return {};
    return {data, sizeof(Real)};
  }
  static bool same(const Real* a, const std::vector<Real>& b, std::size_t n) {
    return std::memcmp(a, b.data(), n * sizeof(Real)) == 0;
  }
  void remember() {
    if (!in_place()) return;
    const std::size_t n = sim_.size();
    seen_x_.assign(sim_.positions().data(), sim_.positions().data() + 3 * n);
    seen_v_.assign(sim_.velocities().data(), sim_.velocities().data() + 3 * n);
    seen_m_.assign(sim_.masses().begin(), sim_.masses().end());
  }
  // Collisions resolved and exits checked after a step (nbody/step_events.hpp); an exit
  // raises, the state being that after the step.
  void events_after(double h) {
    const EventsDone done = apply_step_events(sim_, events_, h);
    merged_ += done.merged;
    if (done.stop) throw StepEventStop(*done.stop, done.stop->text);
  }
  void check_finite() {
    if (auto bad = sim_.first_nonfinite()) throw RunError(where_nonfinite(*bad, sim_.clock()));
  }
  void put(DeviceBuffer<Real>& buffer, const std::vector<double>& rows) {
    take_writes();
    const std::size_t n = sim_.size();
    std::vector<Real> columns(3 * n);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t k = 0; k < 3; ++k) columns[k * n + i] = static_cast<Real>(rows[3 * i + k]);
    sim_.engine().device().copy_to_device(columns, buffer);
    sim_.state_changed();
    remember();
  }

  Simulation<Real> sim_;
  StepEvents events_;
  std::int64_t merged_ = 0;
  std::vector<Real> seen_x_, seen_v_, seen_m_;
};

template <class Real>
std::shared_ptr<SimulationCore> typed(const SimJob& job, const Particles<double>& p, double g,
                                      double softening, SimClock clock) {
  auto core = std::make_shared<TypedCore<Real>>(
      make_simulation(job, convert_particles<Real>(p), g, softening, clock), step_events_of(job));
  check_step_events_where(job, core->backend());
  return core;
}

template <class Real>
std::shared_ptr<SimulationCore> loaded(const SimJob& job, const std::string& path, double g,
                                       double softening) {
  Checkpoint<Real> c = read_checkpoint_file<Real>(path);
  Simulation<Real> sim = make_simulation(job, std::move(c.particles), g, softening, c.clock);
  sim.load_stepper_state(c.stepper);
  sim.set_energy_offset(c.energy_offset);
  auto core = std::make_shared<TypedCore<Real>>(std::move(sim), step_events_of(job));
  check_step_events_where(job, core->backend());
  return core;
}

}  // namespace

std::shared_ptr<SimulationCore> load_simulation_core(const SimJob& job, const std::string& path,
                                                     double g, double softening) {
  check_simulation_choices(job);
  const SimJob resolved = resolved_simulation_choices(job, softening);
  switch (job.precision) {
    case Precision::fp32:
      return loaded<float>(resolved, path, g, softening);
    case Precision::fp128:
      return loaded<float128>(resolved, path, g, softening);
    default:
      return loaded<double>(resolved, path, g, softening);
  }
}

std::shared_ptr<SimulationCore> make_simulation_core(const SimJob& job, const Particles<double>& p,
                                                     double g, double softening, SimClock clock) {
  check_simulation_choices(job);
  const SimJob resolved = resolved_simulation_choices(job, softening);
  switch (job.precision) {
    case Precision::fp32:
      return typed<float>(resolved, p, g, softening, clock);
    case Precision::fp128:
      return typed<float128>(resolved, p, g, softening, clock);
    default:
      return typed<double>(resolved, p, g, softening, clock);
  }
}

}  // namespace orrery::python

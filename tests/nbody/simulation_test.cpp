// SPDX-License-Identifier: MIT
// Simulation and the stepper contract: a rejected step moves neither the state nor the clock and
// its suggestion becomes the clock's dt; a stepper's saved state loads into a new Simulation
// made from the same particles and continues it bit for bit.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>

#include "orrery/integrate/integrator_registry.hpp"
#include "orrery/nbody/engines.hpp"
#include "orrery/nbody/simulation.hpp"
#include "orrery/scenes/scene_registry.hpp"

namespace orrery {
namespace {

Particles<double> plummer16() {
  return make_scene("plummer", {{"n", ParamValue{std::int64_t{16}}},
                                {"seed", ParamValue{std::int64_t{3}}}})
      .particles;
}

std::unique_ptr<ForceEngine<double>> direct() {
  return make_force_engine<double>("direct", EngineOptions{.g = 1.0, .softening = 0.05});
}

// Leapfrog that rejects any step longer than `limit` and suggests `limit` instead.
class CautiousStepper final : public ArrayStepper<double> {
 public:
  explicit CautiousStepper(double limit)
      : limit_(limit), inner_(make_array_stepper<double>("leapfrog")) {}
  StepReport<double> step(SecondOrderSystem<double>& system, DeviceBuffer<double>& x,
                          DeviceBuffer<double>& v, double h) override {
    if (h > limit_) return {.taken = 0.0, .accepted = false, .error = 2.0, .next = limit_};
    return inner_->step(system, x, v, h);
  }
  void save(SecondOrderSystem<double>& s, StepperState<double>& state) const override {
    inner_->save(s, state);
  }
  void load(SecondOrderSystem<double>& s, const StepperState<double>& state) override {
    inner_->load(s, state);
  }
  void clear() override { inner_->clear(); }

 private:
  double limit_;
  std::unique_ptr<ArrayStepper<double>> inner_;
};

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

TEST(Simulation, ARejectedStepMovesNeitherStateNorClock) {
  SimClock clock;
  clock.dt = 0.1;
  Simulation<double> sim(plummer16(), direct(), std::make_unique<CautiousStepper>(0.025), clock);
  const Particles<double> before = sim.particles();
  const StepReport<double> r = sim.step(sim.clock().dt);
  EXPECT_FALSE(r.accepted);
  EXPECT_EQ(sim.clock().time(), 0.0);
  EXPECT_EQ(sim.clock().steps, 0);
  EXPECT_EQ(sim.clock().dt, 0.025);  // the suggestion
  EXPECT_TRUE(same_bits(sim.particles().x, before.x));
  EXPECT_TRUE(same_bits(sim.particles().vx, before.vx));
  EXPECT_TRUE(sim.step(sim.clock().dt).accepted);
  EXPECT_EQ(sim.clock().time(), 0.025);
  EXPECT_EQ(sim.clock().steps, 1);
  EXPECT_FALSE(same_bits(sim.particles().x, before.x));
}

// Saved after 5 steps, loaded into a Simulation made from the particles and clock of that moment:
// the state round-trips exactly and the two continue with the same bits.
TEST(Simulation, StepperStateRoundTripsAndContinuesBitForBit) {
  SimClock clock;
  clock.dt = 0.01;
  Simulation<double> a(plummer16(), direct(), make_array_stepper<double>("yoshida4"), clock);
  for (int i = 0; i < 5; ++i) a.step(a.clock().dt);
  const StepperState<double> saved = a.stepper_state();
  ASSERT_NE(saved.find_array("accelerations"), nullptr);

  Simulation<double> b(a.particles(), direct(), make_array_stepper<double>("yoshida4"), a.clock());
  b.load_stepper_state(saved);
  const StepperState<double> reloaded = b.stepper_state();
  ASSERT_NE(reloaded.find_array("accelerations"), nullptr);
  EXPECT_TRUE(
      same_bits(*reloaded.find_array("accelerations"), *saved.find_array("accelerations")));
  EXPECT_EQ(reloaded.scalar("accelerations_current"), saved.scalar("accelerations_current"));

  for (int i = 0; i < 5; ++i) {
    a.step(a.clock().dt);
    b.step(b.clock().dt);
  }
  EXPECT_TRUE(same_bits(a.particles().x, b.particles().x));
  EXPECT_TRUE(same_bits(a.particles().vz, b.particles().vz));
  EXPECT_EQ(a.clock().time(), b.clock().time());
  EXPECT_EQ(a.clock().t_error, b.clock().t_error);
}

}  // namespace
}  // namespace orrery

// SPDX-License-Identifier: MIT
// The CPU ensemble kernel, compiled once per instruction set and problem (ORRERY_CPU_KERNEL names
// the variant, with CMake's -march for it; ORRERY_ENSEMBLE_PROBLEM the index into
// ensemble/ensemble_catalogue.hpp). One SIMD lane integrates one trajectory with the shared
// ORRERY_HD steps the CUDA kernel takes, fed by the lanes' agent (lane_agent.hpp; with a
// tolerance integrate_adaptive_trajectory, ensemble/adaptive_trajectory.hpp); a thread takes a
// vector's worth of trajectories at a time.
#include <algorithm>
#include <cmath>
#include <type_traits>
#include <utility>

#include "ensemble/cpu/ensemble_task_source.hpp"
#include "ensemble/cpu/lane_agent.hpp"
#include "ensemble/cpu/lane_block.hpp"
#include "ensemble/index_dispatch.hpp"
#include "orrery/core/simd.hpp"
#include "orrery/ensemble/adaptive_trajectory.hpp"
#include "orrery/ensemble/ensemble_catalogue.hpp"

#if !defined(ORRERY_CPU_KERNEL) || !defined(ORRERY_ENSEMBLE_PROBLEM)
#error "compile with -DORRERY_CPU_KERNEL=<isa> -DORRERY_ENSEMBLE_PROBLEM=<index>"
#endif

namespace orrery::cpu::ORRERY_CPU_KERNEL {
namespace {

// The fixed-step ensembles' client of the lanes' agent (lane_agent.hpp): a task is a trajectory,
// its start a row of the run's starts, no stop rule, a checkpoint at each sample (the energy
// drift), its record the final state. Every trajectory takes the same steps, so a vector's lanes
// start and end together and the agent advances them a sample's steps at a time, as
// integrate_trajectory (the CUDA kernel's) does: the same bits on both. R = double runs fp64 or
// mixed, R = float fp32.
template <class Problem, class Table, class R>
struct FixedStepLanes {
  using V = stdx::native_simd<R>;
  using Mask = typename V::mask_type;
  using System = EnsembleSystem<Problem, V>;
  using Integrator = typename System::template Integrator<Table>;
  static constexpr int lanes = static_cast<int>(V::size());
  static constexpr int D = System::D;
  static constexpr int starter_steps = Integrator::starter_steps;
  static constexpr bool stop_rule = false;

  explicit FixedStepLanes(EnsembleTaskSource& source) : src(source) {}

  EnsembleTaskSource& src;
  const EnsembleSetup& s = src.setup;
  const typename Problem::Data& data = problem_data<Problem>(s);
  const std::int64_t steps = s.steps;
  const int samples = s.samples;
  const V dt = V(static_cast<R>(s.dt));
  LaneBlock<Problem, V> b;
  // Value-initialised at each start (integrate_trajectory says why).
  typename Integrator::Memory memory{};
  std::int64_t first = 0, count = 0, given = 0, finished = 0;
  bool open = true;

  // Blocks of `lanes` consecutive trajectories, handed to the lanes in order.
  bool next(std::int64_t& task) {
    if (given >= count) {
      if (!open || !src.next_block(lanes, first, count, finished)) return open = false;
      given = 0;
    }
    task = first + given++;
    return true;
  }
  auto field() const {
    return lane_field<Problem>(
        precision_field<Problem, V>(data, b.k, s.precision == Precision::mixed));
  }
  void load(int l, std::int64_t task) { b.load(s, data, l, task); }
  void begin() {
    memory = {};
    Integrator::start(b.st, memory, field());
  }
  Mask stopped() const { return Mask(false); }
  void sample(int l, std::int64_t task, int k) {
    if constexpr (Problem::has_energy)
      src.drift[static_cast<std::int64_t>(k - 1) * s.trajectories + task] =
          static_cast<float>(b.drift(data, l, b.st));
  }
  void finish(int l, std::int64_t task, std::int64_t, bool) {
    sample(l, task, samples);
    for (int w = 0; w < D; ++w)
      src.final_state[task * D + w] = static_cast<double>(System::word(b.st, w)[l]);
    ++finished;
  }
  void step(const Mask& starting) {
    Integrator::step(b.st, memory, dt, stdx::any_of(starting), field());
  }
  // k steps past every lane's starter steps (the agent takes those one at a time): the steps
  // integrate_trajectory takes between two samples.
  void run(std::int64_t k) {
    const auto f = field();
    if constexpr (starter_steps > 0) {
      for (std::int64_t i = 0; i < k; ++i) Integrator::step(b.st, memory, dt, false, f);
    } else {
      Integrator::run(b.st, memory, dt, k, f);
    }
  }
  void end() {
    std::int64_t none = 0;
    src.next_block(lanes, first, none, finished);  // hands in the last block
  }
};

template <class Problem, class Table, class R>
void run_lanes(EnsembleTaskSource& src) {
  FixedStepLanes<Problem, Table, R> lanes(src);
  run_lane_agent(lanes);
}

// The same with each lane's own step size and error control (ensemble/adaptive_trajectory.hpp).
template <class Problem, class Table, class R>
void run_adaptive_lanes(EnsembleTaskSource& src) {
  using V = stdx::native_simd<R>;
  using System = EnsembleSystem<Problem, V>;
  constexpr int L = static_cast<int>(V::size());
  constexpr int D = System::D;
  const EnsembleSetup& s = src.setup;
  const typename Problem::Data& data = problem_data<Problem>(s);
  const V h0(static_cast<R>(s.dt)), t_end(static_cast<R>(ensemble_end_time(s)));
  const V tol(static_cast<R>(s.tolerance));
  const std::int64_t n = s.trajectories;

  std::int64_t first = 0, count = 0, finished = 0;
  while (src.next_block(L, first, count, finished)) {
    LaneBlock<Problem, V> b(s, data, first, count);
    const auto field = lane_field<Problem>(
        precision_field<Problem, V>(data, b.k, s.precision == Precision::mixed));
    const auto put_drift = [&](int l, int sample, double value) {
      src.drift[static_cast<std::int64_t>(sample - 1) * n + first + l] = static_cast<float>(value);
    };
    const AdaptiveTally<V> tally = integrate_adaptive_trajectory<Problem, Table, V>(
        b.st, field, h0, t_end, s.samples, tol,
        [&](const typename V::mask_type& landed, const V& sample, const V&,
            const typename System::State& now) {
          if constexpr (Problem::has_energy)
            for (int l = 0; l < count; ++l)
              if (landed[l]) put_drift(l, static_cast<int>(sample[l]), b.drift(data, l, now));
        });
    b.write_final(src.final_state + first * D, count);
    write_tally<Problem>(src, first, count, tally, put_drift);
    finished += count;
  }
  src.next_block(L, first, count, finished);  // hands in the last block
}

template <class Problem>
void run_problem(EnsembleTaskSource& src) {
  for_run_lanes<Problem>(src.setup, [&]<class Table, class R, bool Adaptive>() {
    if constexpr (Adaptive)
      run_adaptive_lanes<Problem, Table, R>(src);
    else
      run_lanes<Problem, Table, R>(src);
  });
}

}  // namespace

template <int Problem>
void run_ensemble_problem(EnsembleTaskSource& src) {
  run_problem<EnsembleProblems::at<Problem>>(src);
}

template void run_ensemble_problem<ORRERY_ENSEMBLE_PROBLEM>(EnsembleTaskSource&);

}  // namespace orrery::cpu::ORRERY_CPU_KERNEL

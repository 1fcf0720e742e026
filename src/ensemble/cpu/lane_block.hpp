// SPDX-License-Identifier: MIT
// What the CPU ensemble lanes (ensemble_lanes.cpp, and with a section ensemble_section_lanes.cpp)
// share: the field of a block of lanes in its precision, the problem's Data, and LaneBlock, the
// trajectories of one vector's lanes. Included inside the instruction set's namespace of a file
// compiled per instruction set (ORRERY_CPU_KERNEL), so that nothing here is shared between them.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "ensemble/cpu/ensemble_task_source.hpp"
#include "ensemble/index_dispatch.hpp"
#include "orrery/core/simd.hpp"
#include "orrery/ensemble/adaptive_trajectory.hpp"
#include "orrery/ensemble/ensemble_catalogue.hpp"
#include "orrery/ensemble/ensemble_run.hpp"

#if !defined(ORRERY_CPU_KERNEL)
#error "compile with -DORRERY_CPU_KERNEL=<isa>"
#endif

namespace orrery::cpu::ORRERY_CPU_KERNEL {
namespace {

// A field called, not inlined, where the problem asks for it (Problem::field_out_of_line: a
// user's dense polynomial, hundreds of multiply-adds): inlined into every stage of every
// integrator it multiplies the compile time of these files, and a call costs little beside it.
// Internal to this file's instruction set, so no variant's code replaces another's at link time.
template <class Field>
struct OutOfLineField {
  Field field;
  template <class Q, class A>
  [[gnu::noinline]] void operator()(const Q& q, A& a) const {
    field(q, a);
  }
};

template <class Problem, class Field>
auto lane_field(const Field& field) {
  constexpr bool out_of_line = [] {
    if constexpr (requires { Problem::field_out_of_line; })
      return Problem::field_out_of_line;
    else
      return false;
  }();
  if constexpr (out_of_line)
    return OutOfLineField<Field>{field};
  else
    return field;
}

// fp64 and mixed lanes share one instantiation of every integrator: the field chooses at run
// time, a branch that goes the same way at every evaluation of a run, and mixed's fp32 field is
// called out of line. Compiled apart, mixed added about a third to these files' compile time
// for a mode that is slower than fp64 on the CPU anyway (the conversions each way).
template <class Problem, class V>
struct DoubleOrMixedField {
  using Own = decltype(ensemble_field<Problem, V, false>(
      std::declval<const typename Problem::Data&>(),
      std::declval<const ParameterPack<V, Problem::parameters>&>()));
  Own own;
  MixedField<Problem, V> mixed;
  bool use_mixed;
  template <class Q, class A>
  void operator()(const Q& q, A& a) const {
    if (use_mixed)
      call_mixed(q, a);
    else
      own(q, a);
  }
  template <class Q, class A>
  [[gnu::noinline]] void call_mixed(const Q& q, A& a) const {
    mixed(q, a);
  }
};

template <class Problem, class V>
auto precision_field(const typename Problem::Data& data,
                     const ParameterPack<V, Problem::parameters>& k, bool mixed) {
  if constexpr (std::is_same_v<lane_scalar_t<V>, float>)
    return ensemble_field<Problem, V, false>(data, k);
  else
    return DoubleOrMixedField<Problem, V>{ensemble_field<Problem, V, false>(data, k),
                                          ensemble_field<Problem, V, true>(data, k), mixed};
}

// The problem's Data of a run (EnsembleSetup::data), or Data{} where it has none.
template <class Problem>
const typename Problem::Data& problem_data(const EnsembleSetup& s) {
  static const typename Problem::Data none{};
  return s.data ? *static_cast<const typename Problem::Data*>(s.data) : none;
}

// The trajectories first … first + count − 1 of a run, one a lane: their state and parameter
// words, each lane's row and its energy at the start. Lanes past the last trajectory integrate a
// copy of it (finite values, results dropped).
template <class Problem, class V>
struct LaneBlock {
  using System = EnsembleSystem<Problem, V>;
  using R = lane_scalar_t<V>;
  static constexpr int L = static_cast<int>(V::size()), D = System::D, P = System::P;
  typename System::State st;
  typename System::Parameters k;
  double rows[L][kEnsembleMaxWords];
  double e0[L];

  LaneBlock(const EnsembleSetup& s, const typename Problem::Data& data, std::int64_t first,
            std::int64_t count) {
    for (int l = 0; l < L; ++l) load(s, data, l, first + std::min<std::int64_t>(l, count - 1));
  }
  LaneBlock() = default;

  // Lane l's start: trajectory i's row.
  void load(const EnsembleSetup& s, const typename Problem::Data& data, int l, std::int64_t i) {
    start_row(s.starts, D + P, i, s.trajectories, rows[l]);
    for (int w = 0; w < D; ++w) System::word(st, w)[l] = static_cast<R>(rows[l][w]);
    for (int w = 0; w < P; ++w) k.value[w][l] = static_cast<R>(rows[l][D + w]);
    if constexpr (Problem::has_energy) e0[l] = Problem::energy(data, rows[l] + D, rows[l]);
  }

  // The relative energy drift of lane l's trajectory at `now`.
  double drift(const typename Problem::Data& data, int l,
               const typename System::State& now) const {
    double y[D];
    for (int w = 0; w < D; ++w) y[w] = static_cast<double>(System::word(now, w)[l]);
    return relative_drift(Problem::energy(data, rows[l] + D, y), e0[l]);
  }

  // The first `count` lanes' final states, as rows of D doubles from `out`.
  void write_final(double* out, std::int64_t count) const {
    for (std::int64_t l = 0; l < count; ++l)
      for (int w = 0; w < D; ++w) out[l * D + w] = static_cast<double>(System::word(st, w)[l]);
  }
};

// With a tolerance: the first `count` lanes' steps accepted and rejected and their status, and
// NaN for the drift samples a failed trajectory never reached (put_drift(lane, sample, value)).
template <class Problem, class V, class PutDrift>
void write_tally(const EnsembleTaskSource& src, std::int64_t first, std::int64_t count,
                 const AdaptiveTally<V>& tally, const PutDrift& put_drift) {
  for (int l = 0; l < static_cast<int>(count); ++l) {
    src.steps_accepted[first + l] = static_cast<std::uint32_t>(tally.accepted[l]);
    src.steps_rejected[first + l] = static_cast<std::uint32_t>(tally.rejected[l]);
    src.status[first + l] = static_cast<std::uint8_t>(tally.status[l]);
    if constexpr (Problem::has_energy)
      for (int k = static_cast<int>(tally.next_sample[l]); k <= src.setup.samples; ++k)
        put_drift(l, k, NAN);
  }
}

// The run's integrator and lane precision as types: run.template operator()<Table, R, Adaptive>()
// for the table of s.integrator, R float (fp32) or double (fp64 and mixed, DoubleOrMixedField),
// Adaptive where a tolerance is given to an embedded pair.
template <class Problem, class Run>
void for_run_lanes(const EnsembleSetup& s, const Run& run) {
  visit_index<kEnsembleIntegratorCount>(s.integrator, [&]<int I>() {
    using Table = EnsembleIntegrators::at<I>;
    if constexpr (integrator_applies<Problem, Table>) {
      if constexpr (integrator_adapts<Table>) {
        if (s.tolerance > 0) {
          if (s.precision == Precision::fp32)
            run.template operator()<Table, float, true>();
          else
            run.template operator()<Table, double, true>();
          return;
        }
      }
      if (s.precision == Precision::fp32)
        run.template operator()<Table, float, false>();
      else
        run.template operator()<Table, double, false>();
    }
  });
}

}  // namespace
}  // namespace orrery::cpu::ORRERY_CPU_KERNEL

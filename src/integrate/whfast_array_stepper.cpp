// SPDX-License-Identifier: MIT
// WHFast's step (integrate/wisdom_holman/array_stepper.hpp has its equations and references).
#include "orrery/integrate/wisdom_holman/array_stepper.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <span>
#include <type_traits>

#include <fmt/format.h>

#include "orrery/core/error.hpp"
#include "orrery/core/float128.hpp"
#include "orrery/integrate/wisdom_holman/whfast_table.hpp"
#include "orrery/physics/jacobi_coordinates.hpp"
#include "orrery/physics/kepler_drift.hpp"
#include "integrate/kepler_lanes.hpp"
#include "device/cpu/on_threads.hpp"
#include "orrery/device/cpu/cpu_threads.hpp"
#include "orrery/device/cpu/host_array_device.hpp"

namespace orrery {

namespace {
// The fewest Kepler drifts worth a thread of their own (a few microseconds of work against the
// wake-up and join of a second thread).
constexpr std::size_t kDriftsPerThread = 2048;
}  // namespace

namespace whfast_corrector {

// The corrector's operators Z(a h, b h) in the order applied, for each order (Wisdom, Holman &
// Touma 1996, Table 1 of their §5; REBOUND's integrator_whfast.c applies the same sequence):
// a_k = k √(7/40) … as multiples of the step, b from their table. The inverse corrector applies
// the same list with every b negated.
struct CorrectorTerm {
  double a, b;
};
constexpr double kA1 = 0.41833001326703777398908601289259374469640768464934;
constexpr double kA2 = 0.83666002653407554797817202578518748939281536929867;
constexpr double kA3 = 1.2549900398011133219672580386777812340892230539480;
constexpr double kA4 = 1.6733200530681510959563440515703749787856307385973;
constexpr double kA5 = 2.0916500663351888699454300644629687234820384232467;
constexpr double kA6 = 2.5099800796022266439345160773555624681784461078960;
constexpr double kA7 = 2.9283100928692644179236020902481562128748537925454;
constexpr double kA8 = 3.3466401061363021919126881031407499575712614771947;
constexpr double kB31 = -0.024900596027799867499350357910273437184309981229127;
constexpr double kB51 = -0.0083001986759332891664501193034244790614366604097090;
constexpr double kB52 = 0.041500993379666445832250596517122395307183302048545;
constexpr double kB71 = 0.0024926811426922105779030593952776964450539008582219;
constexpr double kB72 = -0.018270923246702131478062356884535264841652263842597;
constexpr double kB73 = 0.053964399093127498721765893493510877532452806339655;
constexpr double kB111 = 0.00020361579647854651301632818774633716473696537436847;
constexpr double kB112 = -0.0023487215292295354188307328851055489876255097419754;
constexpr double kB113 = 0.012309078592019946317544564763237909911330686448336;
constexpr double kB114 = -0.038121613681288650508647613260247372125243616270670;
constexpr double kB115 = 0.072593394748842738674253180742744961827622366521517;
constexpr double kB171 = -0.0000043347415473373580190650223498124944896789841432241;
constexpr double kB172 = 0.000076436355227935738363241846979413475106795392377415;
constexpr double kB173 = -0.00063599983075817658983166881625078545864140848560259;
constexpr double kB174 = 0.0033132577069380655655490196833451994080066801611459;
constexpr double kB175 = -0.012071760822342291062449751726959664253913904872527;
constexpr double kB176 = 0.032422198864713580293681523029577130832258806467604;
constexpr double kB177 = -0.065192863576377893658290760803725762027864651086787;
constexpr double kB178 = 0.093056103771425958591541059067553547100903397724386;

constexpr std::array<CorrectorTerm, 2> kCorrector3{{{kA1, -kB31}, {-kA1, kB31}}};
constexpr std::array<CorrectorTerm, 4> kCorrector5{
    {{-kA2, -kB51}, {-kA1, -kB52}, {kA1, kB52}, {kA2, kB51}}};
constexpr std::array<CorrectorTerm, 6> kCorrector7{
    {{-kA3, -kB71}, {-kA2, -kB72}, {-kA1, -kB73}, {kA1, kB73}, {kA2, kB72}, {kA3, kB71}}};
constexpr std::array<CorrectorTerm, 10> kCorrector11{{{-kA5, -kB111},
                                                       {-kA4, -kB112},
                                                       {-kA3, -kB113},
                                                       {-kA2, -kB114},
                                                       {-kA1, -kB115},
                                                       {kA1, kB115},
                                                       {kA2, kB114},
                                                       {kA3, kB113},
                                                       {kA4, kB112},
                                                       {kA5, kB111}}};
constexpr std::array<CorrectorTerm, 16> kCorrector17{
    {{-kA8, -kB171}, {-kA7, -kB172}, {-kA6, -kB173}, {-kA5, -kB174}, {-kA4, -kB175},
     {-kA3, -kB176}, {-kA2, -kB177}, {-kA1, -kB178}, {kA1, kB178},   {kA2, kB177},
     {kA3, kB176},   {kA4, kB175},   {kA5, kB174},   {kA6, kB173},   {kA7, kB172},
     {kA8, kB171}}};

std::span<const CorrectorTerm> corrector_terms(int order) {
  switch (order) {
    case 3: return kCorrector3;
    case 5: return kCorrector5;
    case 7: return kCorrector7;
    case 11: return kCorrector11;
    case 17: return kCorrector17;
    default: return {};
  }
}

}  // namespace whfast_corrector

template <class Real>
WhfastArrayStepper<Real>::WhfastArrayStepper(int corrector, bool kept, int saba)
    : corrector_(corrector),
      kept_(kept),
      g_(static_cast<Real>(std::numeric_limits<double>::quiet_NaN())) {
  if (std::find(Whfast::corrector_orders.begin(), Whfast::corrector_orders.end(), corrector) ==
      Whfast::corrector_orders.end())
    throw ParameterError("corrector", std::to_string(corrector),
                         "one of 0 (none), 3, 5, 7, 11, 17");
  if (saba < 0 || saba > 4)
    throw ParameterError("saba", std::to_string(saba), "0 (whfast) or 1 to 4 (SABA1 … SABA4)");
  if (saba != 0 && corrector != 0)
    throw ParameterError("corrector", std::to_string(corrector),
                         fmt::format("0 for saba{} (the corrector is whfast's)", saba));
  // Laskar & Robutel 2001, Table 1: the drifts c₁ … (mirrored), the kicks d₁ … (mirrored).
  using M = LaneMath<Real>;
  const Real one(1), half = one / Real(2);
  std::vector<Real> c, d;
  switch (saba) {
    case 0:
    case 1: c = {half}, d = {one}; break;
    case 2: {
      const Real r3 = M::sqrt(Real(3));
      c = {half - r3 / Real(6), r3 / Real(3)}, d = {half};
      break;
    }
    case 3: {
      const Real r15 = M::sqrt(Real(15));
      c = {half - r15 / Real(10), r15 / Real(10)}, d = {Real(5) / Real(18), Real(4) / Real(9)};
      break;
    }
    default: {
      const Real r30 = M::sqrt(Real(30));
      const Real plus = M::sqrt(Real(525) + Real(70) * r30);
      const Real minus = M::sqrt(Real(525) - Real(70) * r30);
      c = {half - plus / Real(70), (plus - minus) / Real(70), minus / Real(35)};
      d = {Real(1) / Real(4) - r30 / Real(72), Real(1) / Real(4) + r30 / Real(72)};
    }
  }
  // SABA_n: n kicks, n + 1 drifts, each list mirrored about its middle.
  const std::size_t kicks = saba == 0 ? 1 : static_cast<std::size_t>(saba);
  for (std::size_t k = 0; k <= kicks; ++k) drifts_.push_back(c[std::min(k, kicks - k)]);
  for (std::size_t k = 0; k < kicks; ++k) kicks_.push_back(d[std::min(k, kicks - 1 - k)]);
}

template <class Real>
void WhfastArrayStepper<Real>::set_gravity(double g, std::span<const Real> mass) {
  if (!(std::isfinite(g) && g > 0))
    throw ParameterError("G", fmt::format("{}", g), "a finite G > 0 for whfast");
  if (mass.empty() || !(mass[0] > Real(0)))
    throw ParameterError("mass", fmt::format("{}", mass.empty() ? 0.0 : double(mass[0])),
                         "a first body of mass > 0 for whfast (the central body of its Kepler "
                         "orbits)");
  for (std::size_t i = 1; i < mass.size(); ++i)
    if (!(mass[i] >= Real(0)))
      throw ParameterError("mass", fmt::format("{}", double(mass[i])),
                           fmt::format("masses >= 0 for whfast (body {})", i));
  g_ = static_cast<Real>(g);
  mass_.assign(mass.begin(), mass.end());
  eta_.resize(mass_.size());
  Real eta(0);
  for (std::size_t i = 0; i < mass_.size(); ++i) eta_[i] = eta += mass_[i];
  mu_.resize(mass_.size());
  inverse_eta_.resize(mass_.size());
  pull_.resize(mass_.size());
  for (std::size_t i = 0; i < mass_.size(); ++i) {
    mu_[i] = g_ * eta_[i];
    inverse_eta_[i] = Real(1) / eta_[i];
  }
  far_.assign(mass_.size(), 0);
  active_ = mass_.size();
  while (active_ > 1 && mass_[active_ - 1] == Real(0)) --active_;
}

template <class Real>
void WhfastArrayStepper<Real>::kepler(Real h) {
  const std::size_t n = mass_.size();
  if (h == Real(0) || n < 2) return;
  std::size_t begin = 1;
  if constexpr (std::is_same_v<Real, double>) {
    // All bodies side by side in SIMD lanes; those the lanes leave (far_) alone below.
    const cpu::KeplerBodies bodies{xj_.data(),     xj_.data() + n,     xj_.data() + 2 * n,
                                   vj_.data(),     vj_.data() + n,     vj_.data() + 2 * n,
                                   mu_.data(),     far_.data()};
    const cpu::KeplerDriftsFn drifts = cpu::widest_kepler_lanes().drifts_f64;
    // Threads own whole vectors of bodies; each body's drift is alone, so the bits do not depend
    // on the thread count.
    constexpr std::size_t kVector = 8;
    const std::size_t vectors = (n - 1 + kVector - 1) / kVector;
    on_threads(threads_for_work(thread_limit_, n - 1, kDriftsPerThread),
               [&](std::size_t t, std::size_t threads) {
                 const std::size_t begin = 1 + vectors * t / threads * kVector;
                 const std::size_t end = std::min(n, 1 + vectors * (t + 1) / threads * kVector);
                 if (begin < end) drifts(bodies, begin, end, h);
               });
    begin = n;
    for (std::size_t i = 1; i < n; ++i)
      if (far_[i]) drift_one(i, h);
  }
  for (std::size_t i = begin; i < n; ++i) drift_one(i, h);
}

template <class Real>
void WhfastArrayStepper<Real>::drift_one(std::size_t i, Real h) {
  const std::size_t n = mass_.size();
  std::array<Real, 3> x{xj_[i], xj_[n + i], xj_[2 * n + i]};
  std::array<Real, 3> v{vj_[i], vj_[n + i], vj_[2 * n + i]};
  kepler_drift(x, v, mu_[i], h);
  for (std::size_t c = 0; c < 3; ++c) {
    xj_[c * n + i] = x[c];
    vj_[c * n + i] = v[c];
  }
}

template <class Real>
void WhfastArrayStepper<Real>::drift(Real h) {
  kepler(h);
  const std::size_t n = mass_.size();
  for (std::size_t c = 0; c < 3; ++c) xj_[c * n] += h * vj_[c * n];
}

template <class Real>
void WhfastArrayStepper<Real>::kick(SecondOrderSystem<Real>& system, DeviceBuffer<Real>& x,
                                    Real h) {
  const std::size_t n = mass_.size();
  ArrayDevice<Real>& device = system.device();
  jacobi_to_inertial<Real>(mass_, eta_, inverse_eta_, active_, xj_.data(), inertial_.data());
  device.copy_to_device(inertial_, x);
  system.accelerations(x, acceleration_);
  device.copy_to_host(acceleration_, inertial_);
  inertial_to_jacobi<Real>(mass_, inverse_eta_, active_, inertial_.data(), aj_.data());
  // The Kepler part of a', which the drift already follows, taken out: one loop per operation,
  // each over all bodies (SIMD lanes).
  Real* __restrict pull = pull_.data();
  const Real* __restrict xj = xj_.data();
  const Real* __restrict mu = mu_.data();
  for (std::size_t i = 1; i < n; ++i) {
    const Real r2 = xj[i] * xj[i] + xj[n + i] * xj[n + i] + xj[2 * n + i] * xj[2 * n + i];
    pull[i] = mu[i] / (r2 * LaneMath<Real>::sqrt(r2));
  }
  for (std::size_t c = 0; c < 3; ++c) {
    Real* __restrict vj = vj_.data() + c * n;
    const Real* __restrict aj = aj_.data() + c * n;
    const Real* __restrict xc = xj + c * n;
    for (std::size_t i = 1; i < n; ++i) vj[i] += h * (aj[i] + pull[i] * xc[i]);
  }
}

template <class Real>
void WhfastArrayStepper<Real>::corrector_z(SecondOrderSystem<Real>& system,
                                           DeviceBuffer<Real>& x, Real a, Real b) {
  // Kepler orbits only: the barycentre's drifts of a, −2a and a would cancel.
  kepler(a);
  kick(system, x, -b);
  kepler(Real(-2) * a);
  kick(system, x, b);
  kepler(a);
}

template <class Real>
void WhfastArrayStepper<Real>::correct(SecondOrderSystem<Real>& system, DeviceBuffer<Real>& x,
                                       Real sign, Real h) {
  for (const whfast_corrector::CorrectorTerm& t : whfast_corrector::corrector_terms(corrector_))
    corrector_z(system, x, static_cast<Real>(t.a) * h, sign * static_cast<Real>(t.b) * h);
}

template <class Real>
void WhfastArrayStepper<Real>::prepare(ArrayDevice<Real>& device, std::size_t n3) {
  const std::size_t n = mass_.size();
  if (n == 0 || n3 != 3 * n)
    throw InputError(fmt::format(
        "whfast stepper: {} masses set (set_gravity) for a state of {} values (3N expected)", n,
        n3));
  if (acceleration_.size() != 3 * n) {
    // A system call: asked once, as an engine does.
    if (auto* host = dynamic_cast<HostArrayDevice<Real>*>(&device))
      thread_limit_ = cpu_thread_limit(host->threads());
    acceleration_ = device.allocate(3 * n);
    xj_.resize(3 * n), vj_.resize(3 * n), inertial_.resize(3 * n), aj_.resize(3 * n);
    jacobi_current_ = false;
  }
}

template <class Real>
void WhfastArrayStepper<Real>::finish(SecondOrderSystem<Real>& system, DeviceBuffer<Real>& x,
                                      DeviceBuffer<Real>& v, Real h) {
  ArrayDevice<Real>& device = system.device();
  drift(drifts_.back() * h);
  if (corrector_ != 0) correct(system, x, Real(-1), h);
  jacobi_to_inertial<Real>(mass_, eta_, inverse_eta_, active_, xj_.data(), inertial_.data());
  device.copy_to_device(inertial_, x);
  jacobi_to_inertial<Real>(mass_, eta_, inverse_eta_, active_, vj_.data(), inertial_.data());
  device.copy_to_device(inertial_, v);
}

template <class Real>
StepReport<Real> WhfastArrayStepper<Real>::step(SecondOrderSystem<Real>& system,
                                                DeviceBuffer<Real>& x, DeviceBuffer<Real>& v,
                                                Real h) {
  ArrayDevice<Real>& device = system.device();
  if (x.size() != v.size())
    throw InputError("whfast stepper: positions and velocities of different sizes");
  prepare(device, x.size());
  if (jacobi_current_ && h != last_step_) {
    // Settled at the last size, then started anew at this one.
    finish(system, x, v, last_step_);
    jacobi_current_ = false;
  }
  if (jacobi_current_) {
    drift((drifts_.back() + drifts_.front()) * h);  // the owed last drift and this step's first
  } else {
    device.copy_to_host(x, inertial_);
    inertial_to_jacobi<Real>(mass_, inverse_eta_, active_, inertial_.data(), xj_.data());
    device.copy_to_host(v, inertial_);
    inertial_to_jacobi<Real>(mass_, inverse_eta_, active_, inertial_.data(), vj_.data());
    if (corrector_ != 0) correct(system, x, Real(1), h);
    drift(drifts_.front() * h);
  }
  for (std::size_t k = 0; k < kicks_.size(); ++k) {
    if (k > 0) drift(drifts_[k] * h);
    kick(system, x, kicks_[k] * h);
  }
  last_step_ = h;
  if (kept_) {
    jacobi_current_ = true;
    behind_ = true;
  } else {
    finish(system, x, v, h);
  }
  return {.taken = h, .accepted = true, .error = std::nullopt, .next = h};
}

template <class Real>
void WhfastArrayStepper<Real>::synchronize(SecondOrderSystem<Real>& system, DeviceBuffer<Real>& x,
                                           DeviceBuffer<Real>& v) {
  if (!behind_) return;
  xj_copy_ = xj_, vj_copy_ = vj_;
  finish(system, x, v, last_step_);
  std::swap(xj_, xj_copy_), std::swap(vj_, vj_copy_);
  behind_ = false;
}

template <class Real>
void WhfastArrayStepper<Real>::save(SecondOrderSystem<Real>&, StepperState<Real>& state) const {
  state = StepperState<Real>();
  if (!kept_ || !jacobi_current_) return;
  state.set_array("jacobi_position", xj_);
  state.set_array("jacobi_velocity", vj_);
  state.set_scalar("last_step", last_step_);
}

template <class Real>
void WhfastArrayStepper<Real>::load(SecondOrderSystem<Real>& system,
                                    const StepperState<Real>& state) {
  behind_ = false;
  jacobi_current_ = false;
  if (state.empty()) return;
  const auto* xj = state.find_array("jacobi_position");
  const auto* vj = state.find_array("jacobi_velocity");
  if (!kept_ || !xj || !vj || xj->size() != 3 * mass_.size() || vj->size() != xj->size())
    throw InputError("whfast stepper: the state to load is not one it saved");
  prepare(system.device(), xj->size());
  xj_ = *xj, vj_ = *vj;
  last_step_ = state.scalar("last_step");
  jacobi_current_ = true;
}

template class WhfastArrayStepper<float>;
template class WhfastArrayStepper<double>;
template class WhfastArrayStepper<float128>;

}  // namespace orrery

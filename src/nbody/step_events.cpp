// SPDX-License-Identifier: MIT
#include "orrery/nbody/step_events.hpp"

#include <cmath>

#include <fmt/format.h>

#include "orrery/core/float128.hpp"

namespace orrery {

namespace {

template <class Real>
double event_pair_distance(const Particles<Real>& p, std::size_t i, std::size_t j) {
  const double dx = static_cast<double>(p.x[i] - p.x[j]);
  const double dy = static_cast<double>(p.y[i] - p.y[j]);
  const double dz = static_cast<double>(p.z[i] - p.z[j]);
  return std::sqrt(dx * dx + dy * dy + dz * dz);
}

template <class Real>
std::optional<EventStop> encounter_of(const Particles<Real>& p, double d_min, double time) {
  // The closest pair, so the message names the one that matters.
  std::optional<EventStop> closest;
  for (std::size_t i = 0; i < p.size(); ++i)
    for (std::size_t j = i + 1; j < p.size(); ++j) {
      const double d = event_pair_distance(p, i, j);
      if (d < d_min && (!closest || d < closest->distance))
        closest = EventStop{StopReason::encounter, p.id[i], p.id[j], d, time, {}};
    }
  if (closest)
    closest->text = fmt::format(
        "close encounter: bodies {} and {} are {:.6g} apart at t = {}, closer than "
        "--exit-min-distance {:g}",
        closest->id_a, closest->id_b, closest->distance, time, d_min);
  return closest;
}

template <class Real>
std::optional<EventStop> escape_of(const Particles<Real>& p, double d_max, double time) {
  const CentreOfMass c = centre_of_mass(p);
  std::optional<EventStop> farthest;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const double dx = static_cast<double>(p.x[i]) - c.position.x;
    const double dy = static_cast<double>(p.y[i]) - c.position.y;
    const double dz = static_cast<double>(p.z[i]) - c.position.z;
    const double d = std::sqrt(dx * dx + dy * dy + dz * dz);
    if (d > d_max && (!farthest || d > farthest->distance))
      farthest = EventStop{StopReason::escape, p.id[i], 0, d, time, {}};
  }
  if (farthest)
    farthest->text = fmt::format(
        "escape: body {} is {:.6g} from the centre of mass at t = {}, farther than "
        "--exit-max-distance {:g}",
        farthest->id_a, farthest->distance, time, d_max);
  return farthest;
}

}  // namespace

template <class Real>
EventsDone apply_step_events(Simulation<Real>& sim, const StepEvents& events, double h) {
  EventsDone done;
  if (!events.any()) return done;
  const double time = sim.clock().time();
  if (events.collisions != CollisionRule::none) {
    Particles<Real> p = sim.particles();
    const std::vector<Contact> contacts = find_contacts(p, events.search, h);
    if (!contacts.empty()) {
      if (events.collisions == CollisionRule::stop) {
        const Contact c = contacts.front();
        const double d = event_pair_distance(p, c.i, c.j);
        done.stop = EventStop{StopReason::collision, p.id[c.i], p.id[c.j], d, time,
                              fmt::format("collision: bodies {} and {} touch at t = {} ({:.6g} "
                                          "apart, radii {:g} and {:g}; --collisions stop)",
                                          p.id[c.i], p.id[c.j], time, d,
                                          static_cast<double>(p.radius[c.i]),
                                          static_cast<double>(p.radius[c.j]))};
        return done;
      }
      const double before = sim.diagnostics().energy_total;
      // Index of each body now, or n where a merge removed it (pairs of a removed body are
      // passed over, as REBOUND does).
      std::vector<std::size_t> now(p.size());
      for (std::size_t k = 0; k < now.size(); ++k) now[k] = k;
      const std::size_t gone = p.size();
      for (const Contact& c : contacts) {
        const std::size_t i = now[c.i], j = now[c.j];
        if (i == gone || j == gone) continue;
        if (events.collisions == CollisionRule::bounce) {
          done.bounced += bounce_bodies(p, i, j) ? 1 : 0;
          continue;
        }
        merge_bodies(p, i, j);
        ++done.merged;
        for (auto& k : now)
          if (k == j)
            k = gone;
          else if (k != gone && k > j)
            --k;
      }
      if (done.merged + done.bounced > 0) {
        sim.replace_particles(std::move(p));
        // E = K + W + offset before equals it after.
        sim.set_energy_offset(sim.energy_offset() + before - sim.diagnostics().energy_total);
      }
    }
  }
  if (events.exit_min_distance > 0 || events.exit_max_distance > 0) {
    const Particles<Real>& p = sim.particles();
    if (events.exit_min_distance > 0)
      if (auto stop = encounter_of(p, events.exit_min_distance, time)) {
        done.stop = std::move(stop);
        return done;
      }
    if (events.exit_max_distance > 0)
      if (auto stop = escape_of(p, events.exit_max_distance, time)) done.stop = std::move(stop);
  }
  return done;
}

template EventsDone apply_step_events<float>(Simulation<float>&, const StepEvents&, double);
template EventsDone apply_step_events<double>(Simulation<double>&, const StepEvents&, double);
template EventsDone apply_step_events<float128>(Simulation<float128>&, const StepEvents&, double);

}  // namespace orrery

// SPDX-License-Identifier: MIT
// The collisions and exits of a sim job (jobs/simulation_of_job.hpp): its words, the radii of
// its bodies, and where they can run.
#include <algorithm>
#include <iterator>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "orrery/core/backend.hpp"
#include "orrery/core/error.hpp"
#include "orrery/dist/communicator.hpp"
#include "orrery/jobs/simulation_of_job.hpp"

namespace orrery {

namespace {

template <class E, std::size_t N>
E collision_word_of(const char* flag, const std::string& word, const char* const (&names)[N]) {
  for (std::size_t k = 0; k < N; ++k)
    if (word == names[k]) return static_cast<E>(k);
  throw ParameterError(flag, word, fmt::format("one of: {}", fmt::join(names, ", ")));
}

}  // namespace

StepEvents step_events_of(const SimJob& job) {
  StepEvents e;
  e.collisions = collision_word_of<CollisionRule>("--collisions", job.collisions, kCollisionRuleNames);
  e.search = collision_word_of<CollisionSearch>("--collision-search", job.collision_search,
                                      kCollisionSearchNames);
  e.exit_min_distance = job.exit_min_distance;
  e.exit_max_distance = job.exit_max_distance;
  return e;
}

void apply_job_radii(const SimJob& job, Particles<double>& p, const std::string& source) {
  if (job.radius > 0) {
    if (!p.radius.empty())
      throw ParameterError("--radius", fmt::format("{}", job.radius),
                           fmt::format("nothing: {} gives every body its radius", source));
    p.radius.assign(p.size(), job.radius);
  }
  if (step_events_of(job).collisions == CollisionRule::none) return;
  const bool any = std::any_of(p.radius.begin(), p.radius.end(), [](double r) { return r > 0; });
  if (!any)
    throw ParameterError("--collisions", job.collisions,
                         fmt::format("none: no body of {} has a radius (give an r column in the "
                                     "input or --radius)",
                                     source));
}

void check_step_events_where(const SimJob& job, const std::string& backend) {
  const StepEvents e = step_events_of(job);
  if (!e.any()) return;
  const char* flag = e.collisions != CollisionRule::none ? "--collisions"
                     : e.exit_min_distance > 0         ? "--exit-min-distance"
                                                       : "--exit-max-distance";
  if (backend != to_string(Backend::cpu))
    throw ParameterError(flag, "given",
                         fmt::format("a run whose forces are computed on the CPU (this one: {}; "
                                     "give --backend cpu): collisions and exits are found on the "
                                     "host after every step, not built for a GPU engine",
                                     backend));
  if (dist::distributed())
    throw ParameterError(flag, "given",
                         "a run of one process (start it without mpirun): collisions and exits "
                         "need the whole state in one process after every step");
}

}  // namespace orrery

// SPDX-License-Identifier: MIT
// Precision modes are named and tested, never silent: fp64 (the reference semantics), fp32,
// fp128 (__float128 on the CPU), mixed (state in fp64, the gravitational pair factor in
// fp32), and dd (double-double, core/double_double.hpp: the deep zoom's state). Each job accepts its own subset (jobs/map_job.hpp, jobs/sim_job.hpp) and refuses the
// others by name.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

namespace orrery {

enum class Precision { fp32, fp64, fp128, mixed, dd };

// The words of every mode, in enumerator order.
inline const std::vector<std::string>& precision_names() {
  static const std::vector<std::string> names{"fp32", "fp64", "fp128", "mixed", "dd"};
  return names;
}
inline const std::string& to_string(Precision p) {
  return precision_names().at(static_cast<std::size_t>(p));
}

// (word, mode) pairs of the modes a job accepts, in the order its help lists them.
inline std::vector<std::pair<std::string, Precision>> precision_words(
    std::initializer_list<Precision> accepted) {
  std::vector<std::pair<std::string, Precision>> words;
  for (Precision p : accepted) words.emplace_back(to_string(p), p);
  return words;
}

}  // namespace orrery

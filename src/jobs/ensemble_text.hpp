// SPDX-License-Identifier: MIT
// The small languages of `orrery ensemble`'s options, read once into numbers: a plane "y:py", a
// start state "0,-0.25,0.42081,0", parameters "rho=28,beta=2.6667", a sweep "rho=0:21", and
// CSV rows of starts. Each refusal names the option, the text and what is accepted.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "orrery/ensemble/ensemble_catalogue.hpp"
#include "orrery/jobs/ensemble_job.hpp"

namespace orrery {

std::array<std::string, 2> split_pair(std::string_view text, char separator,
                                      const std::string& option);
// The index of a state word (or, with `parameters`, of a parameter word after the state's).
int word_index(const EnsembleProblemInfo& info, std::string_view name, bool parameters,
               const std::string& option);
// The row every start begins from: --state (or the problem's default state), then the problem's
// parameters changed by --parameters.
std::vector<double> base_row(const EnsembleJob& job, const EnsembleProblemInfo& info);

struct SweptWord {
  int word = 0;
  double from = 0, to = 0;
};
SweptWord parse_sweep(std::string_view text, const EnsembleProblemInfo& info);

// Rows of state (or state and parameter) words, comma- or space-separated, '#' lines skipped, an
// optional header line of word names; parameters missing from a row take the defaults.
std::vector<double> read_csv_rows(const std::string& path, const EnsembleProblemInfo& info);

}  // namespace orrery

// SPDX-License-Identifier: MIT
#include "progress_line.hpp"

#include <unistd.h>

#include <cmath>
#include <cstdio>

#include <fmt/format.h>

namespace orrery::cli {

ProgressLine::ProgressLine(bool quiet, std::string what, std::string rate_unit)
    : enabled_(!quiet && ::isatty(STDERR_FILENO)),
      what_(std::move(what)),
      unit_(std::move(rate_unit)) {}

ProgressLine::~ProgressLine() { finish(); }

std::string format_duration(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return "--:--";
  const auto s = static_cast<long>(seconds + 0.5);
  if (s >= 3600) return fmt::format("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60);
  return fmt::format("{}:{:02}", s / 60, s % 60);
}

void ProgressLine::update(std::int64_t done, std::int64_t total, double rate, double seconds) {
  if (!enabled_) return;
  const double fraction = total > 0 ? static_cast<double>(done) / total : 0.0;
  const double eta = done > 0 ? seconds * (1.0 - fraction) / fraction : NAN;
  std::fprintf(stderr, "\r\033[K%s %lld/%lld (%.1f%%)  %.3g %s/s  elapsed %s  ETA %s",
               what_.c_str(), static_cast<long long>(done), static_cast<long long>(total),
               100.0 * fraction, rate, unit_.c_str(), format_duration(seconds).c_str(),
               format_duration(eta).c_str());
  std::fflush(stderr);
  drawn_ = true;
}

void ProgressLine::finish() {
  if (drawn_) {
    std::fprintf(stderr, "\r\033[K");
    std::fflush(stderr);
    drawn_ = false;
  }
}

}  // namespace orrery::cli

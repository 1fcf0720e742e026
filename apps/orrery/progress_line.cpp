// SPDX-License-Identifier: MIT
#include "progress_line.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <fmt/format.h>

namespace orrery::cli {

namespace {

// Often enough to look alive, rarely enough to cost nothing next to a step.
constexpr std::chrono::milliseconds kRedrawInterval{200};

// Columns of the terminal on stderr; a conservative width where it does not say.
std::size_t terminal_columns() {
  winsize ws{};
  if (::ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
  return 80;
}

}  // namespace

ProgressLine::ProgressLine(bool quiet, std::string rate_unit)
    : enabled_(!quiet && ::isatty(STDERR_FILENO)), unit_(std::move(rate_unit)) {}

ProgressLine::~ProgressLine() { finish(); }

std::string format_duration(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return "--:--";
  const auto s = static_cast<long>(seconds + 0.5);
  if (s >= 3600) return fmt::format("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60);
  return fmt::format("{}:{:02}", s / 60, s % 60);
}

void ProgressLine::update(const std::string& position, double fraction, double rate,
                          double seconds) {
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  if (drawn_ && now - last_draw_ < kRedrawInterval) return;
  last_draw_ = now;
  fraction = std::clamp(std::isfinite(fraction) ? fraction : 0.0, 0.0, 1.0);
  const double eta = fraction > 0 ? seconds * (1.0 - fraction) / fraction : NAN;
  std::string line = fmt::format("{} ({:.1f}%)  {:.3g} {}/s  elapsed {}  ETA {}", position,
                                 100.0 * fraction, rate, unit_, format_duration(seconds),
                                 format_duration(eta));
  // The last column stays empty: writing into it makes some terminals wrap.
  const std::size_t width = terminal_columns() - 1;
  if (line.size() > width) line.resize(width);
  std::fprintf(stderr, "\r\033[K%s", line.c_str());
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

// SPDX-License-Identifier: MIT
// Ctrl-C (SIGINT) and SIGTERM during a long command: the first asks the command to stop at a safe
// point (a run writes a checkpoint first); the second ends the process at once, with the status
// a shell expects of that signal (128 + its number). Whatever was written whole stays whole.
#pragma once

namespace orrery::cli {

class StopSignals {
 public:
  StopSignals();  // installs the handlers
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;
  ~StopSignals();  // restores the previous ones

  // The signal received (SIGINT or SIGTERM), 0 if none.
  static int received();
  static const char* name(int signal);
};

}  // namespace orrery::cli

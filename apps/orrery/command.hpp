// SPDX-License-Identifier: MIT
// A subcommand of the orrery CLI: it registers its options on a CLI11 subcommand and runs when
// that subcommand was given. Exit status: 0 done, 2 input refused, 1 run failed.
#pragma once

#include <chrono>
#include <memory>

#include <CLI/CLI.hpp>

namespace orrery::cli {

class Command {
 public:
  virtual ~Command() = default;
  virtual CLI::App& app() = 0;
  virtual int run() = 0;
};

// When main() began (commands that time their phases count from it).
std::chrono::steady_clock::time_point main_entered();

std::unique_ptr<Command> make_map_command(CLI::App& parent);
std::unique_ptr<Command> make_ensemble_command(CLI::App& parent);
std::unique_ptr<Command> make_chaos_command(CLI::App& parent);
std::unique_ptr<Command> make_section_command(CLI::App& parent);
std::unique_ptr<Command> make_sim_command(CLI::App& parent);
std::unique_ptr<Command> make_forces_command(CLI::App& parent);
std::unique_ptr<Command> make_plot_command(CLI::App& parent);
std::unique_ptr<Command> make_render_command(CLI::App& parent);
std::unique_ptr<Command> make_zoom_command(CLI::App& parent);
std::unique_ptr<Command> make_view_command(CLI::App& parent);

}  // namespace orrery::cli

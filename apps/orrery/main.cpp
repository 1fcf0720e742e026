// SPDX-License-Identifier: MIT
// The orrery command-line program: one subcommand per job.
#include <signal.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <new>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "command.hpp"
#include "orrery/core/error.hpp"
#include "orrery/core/text_error.hpp"
#include "orrery/core/version.hpp"
#include "orrery/device/cpu/cpu_threads.hpp"
#include "orrery/dist/check_on_every_rank.hpp"
#include "orrery/dist/communicator.hpp"

namespace {

std::chrono::steady_clock::time_point g_main_entered;

// A message as one line on a terminal, whatever text from files or flags it quotes.
constexpr std::size_t kMessageLimit = 2000;
std::string shown(const char* message) { return orrery::shown_text(message, kMessageLimit); }

const char* g_command = "";  // the command running, for the terminate handler

// Under mpirun or srun, which rank says it ("rank 2 of 4: "); "" in one process.
std::string rank_words() {
  const orrery::dist::RankLayout& l = orrery::dist::layout();
  return l.size > 1 ? fmt::format("rank {} of {}: ", l.rank, l.size) : "";
}

// The commands that run over the ranks of an MPI job (docs/guide/mpi.md); the others refuse
// more than one rank rather than each doing the whole job and racing for its files.
bool runs_over_ranks(const std::string& command) {
  return command == "map" || command == "zoom" || command == "ensemble" || command == "chaos" ||
         command == "sim" || command == "forces";
}

// Says why the command failed and ends it with `status`. In one process, or where every rank
// stopped together at the job's checks (dist/check_on_every_rank.hpp), the status is returned.
// Otherwise the other ranks may be waiting for this one: it names itself and ends them all. An
// error in what the user gave is met by every rank at once, and rank 0 ends the job first: the
// other ranks wait a moment before they speak, so that it is said once.
int report_failure(const std::string& command, const std::string& text, int status, bool input) {
  using namespace orrery;
  if (!dist::distributed() || dist::stopped_together()) {
    const std::string who = dist::writes() ? "" : rank_words();
    std::fprintf(stderr, "orrery %s: %s%s\n", command.c_str(), who.c_str(), text.c_str());
    return status;
  }
  if (input && !dist::writes()) std::this_thread::sleep_for(std::chrono::seconds(2));
  std::fprintf(stderr, "orrery %s: %s%s\n", command.c_str(), rank_words().c_str(), text.c_str());
  dist::abort_all(status);
}

// std::bad_alloc thrown on a worker thread ends in std::terminate, not in main's catch: said in
// the same words as there, with status 1, instead of an abort (134).
[[noreturn]] void on_terminate() {
  if (const std::exception_ptr e = std::current_exception()) {
    try {
      std::rethrow_exception(e);
    } catch (const std::bad_alloc&) {
      std::fprintf(stderr, "orrery %s: %serror: out of memory (the job asked for more memory "
                           "than this process could get)\n", g_command, rank_words().c_str());
      std::_Exit(1);
    } catch (...) {
    }
  }
  std::abort();
}

// Starts and joins as many threads as the command's CPU code may use (its --threads, else all
// the process may use), so that a limit that stops them (ulimit -u, or a stack limit that no
// thread's stack fits in memory) is said in orrery's words and with what to do, before any
// work: OpenMP's runtime would end the process later with a line of its own ("libgomp: Thread
// creation failed: Resource temporarily unavailable").
void check_threads_start(const CLI::App& command) {
  int asked = 0;  // a value the command will refuse is its to refuse, after this
  if (const CLI::Option* o = command.get_option_no_throw("--threads"); o && o->count() > 0) {
    try {
      asked = std::max(0, o->as<int>());
    } catch (const CLI::Error&) {
    }
  }
  const int count = orrery::cpu_thread_limit(asked);
  std::vector<std::thread> threads;
  try {
    for (int k = 1; k < count; ++k) threads.emplace_back([] {});
  } catch (...) {
    for (auto& t : threads) t.join();
    throw;
  }
  for (auto& t : threads) t.join();
}

// Runs the command. Over ranks, input refused before the job's first check (a flag, a config
// file) is refused by every rank alike: this rank joins the others at that check with its
// refusal, so that the ranks end together and one says why.
int run_command(orrery::cli::Command& command) {
  try {
    return command.run();
  } catch (const orrery::InputError&) {
    if (orrery::dist::distributed() && orrery::dist::before_first_check())
      orrery::dist::check_on_every_rank([] { throw; });
    throw;
  }
}

// A fingerprint of this program and its arguments (FNV-1a), the same on every rank started alike.
std::uint64_t started_as(int argc, char** argv) {
  std::uint64_t h = 14695981039346656037ull;
  const auto add = [&h](const std::string& text) {
    for (const unsigned char c : text + '\0') h = (h ^ c) * 1099511628211ull;
  };
  add(orrery::version());
  add(orrery::git_hash());
  for (int k = 1; k < argc; ++k) add(argv[k]);
  return h;
}

}  // namespace

std::chrono::steady_clock::time_point orrery::cli::main_entered() { return g_main_entered; }

int main(int argc, char** argv) {
  g_main_entered = std::chrono::steady_clock::now();
  using namespace orrery;
  // MPI only where mpirun or srun started this process; rank 0 alone speaks on stdout.
  const dist::MpiSession mpi(argc, argv);
  if (!dist::writes() && !std::freopen("/dev/null", "w", stdout)) std::fclose(stdout);
  if (dist::distributed() && !dist::alike_on_every_rank(started_as(argc, argv))) {
    if (dist::writes())
      std::fprintf(stderr, "orrery: the %d ranks were not started alike (another orrery build or "
                           "other arguments on some): start one command on every rank\n",
                   dist::layout().size);
    return 2;
  }
  // A file past `ulimit -f` then fails its write with EFBIG, which every output reports by name
  // and cleans up after ("cannot write 'x.h5': File too large"), instead of the process being
  // killed without a word and leaving its temporaries.
  ::signal(SIGXFSZ, SIG_IGN);
  CLI::App app{"orrery: gravitational and Hamiltonian dynamics at GPU speed", "orrery"};
  // MPI's library is asked only here, when --version is given (dist/mpi_calls.hpp).
  app.set_version_flag("--version", [] {
    return fmt::format("orrery {} ({}), MPI: {}", version(), git_hash(),
                       dist::mpi_built() ? dist::mpi_library() : "not built in");
  });
  app.require_subcommand(1);
  std::vector<std::unique_ptr<cli::Command>> commands;
  commands.push_back(cli::make_map_command(app));
  commands.push_back(cli::make_ensemble_command(app));
  commands.push_back(cli::make_chaos_command(app));
  commands.push_back(cli::make_section_command(app));
  commands.push_back(cli::make_sim_command(app));
  commands.push_back(cli::make_forces_command(app));
  commands.push_back(cli::make_plot_command(app));
  commands.push_back(cli::make_render_command(app));
  commands.push_back(cli::make_zoom_command(app));
  commands.push_back(cli::make_view_command(app));

  // A first word that names no command (CLI11 says only "A subcommand is required").
  if (argc > 1 && argv[1][0] != '-') {
    std::string names;
    bool known = false;
    for (auto& command : commands) {
      const std::string name = command->app().get_name();
      known = known || name == argv[1];
      names += (names.empty() ? "" : ", ") + name;
    }
    if (!known) {
      if (!dist::writes()) return 2;  // every rank parses the same words: rank 0 says it
      std::fprintf(stderr, "orrery: '%s' is not a command (expected one of: %s; see orrery --help)\n",
                   shown(argv[1]).c_str(), names.c_str());
      return 2;
    }
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::Success& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    if (!dist::writes()) return 2;
    std::fprintf(stderr, "orrery: %s (see orrery --help)\n", shown(e.what()).c_str());
    return 2;
  }

  for (auto& command : commands) {
    if (!command->app().parsed()) continue;
    const std::string name = command->app().get_name();
    g_command = name.c_str();
    std::set_terminate(on_terminate);
    if (dist::distributed() && !runs_over_ranks(name)) {
      if (dist::writes())
        std::fprintf(stderr, "orrery %s: runs as one process, not over %d ranks (map, zoom, "
                             "ensemble, chaos, sim and forces run over the ranks of mpirun or srun): "
                             "start it without mpirun, or with one rank\n",
                     name.c_str(), dist::layout().size);
      return 2;
    }
    try {
      check_threads_start(command->app());
      return run_command(*command);
    } catch (const dist::StoppedElsewhere& e) {  // the rank that refused says why
      return e.status();
    } catch (const TextParameterError& e) {  // the text again, with a caret at the character
      return report_failure(name, shown(e.what()) + "\n" + e.pointer(), 2, true);
    } catch (const InputError& e) {
      return report_failure(name, shown(e.what()), 2, true);
    } catch (const std::bad_alloc&) {
      return report_failure(name, "error: out of memory (the job asked for more memory than this "
                                  "process could get)", 1, false);
    } catch (const std::system_error& e) {
      // std::thread says only "Resource temporarily unavailable" where it cannot start one.
      const bool thread = e.code() == std::errc::resource_unavailable_try_again;
      return report_failure(
          name,
          "error: " + shown(e.what()) +
              (thread ? " (a thread could not be started: the limit of processes and threads "
                        "(ulimit -u) or the memory for their stacks is reached; --threads N "
                        "asks for fewer)"
                      : ""),
          1, false);
    } catch (const std::exception& e) {
      return report_failure(name, "error: " + shown(e.what()), 1, false);
    }
  }
  return 2;
}

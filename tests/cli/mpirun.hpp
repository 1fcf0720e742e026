// SPDX-License-Identifier: MIT
// Starting the program under `mpirun -np R` on this one host, as the MPI tests do, and why they
// cannot run here where they cannot.
#pragma once

#include <signal.h>
#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "orrery/io/run_store.hpp"
#include "run_cli.hpp"

namespace orrery::test {

// Open MPI as root, in a container without a network: shared memory between the ranks of this
// host and nothing else (no network transports to probe at each start), no single-copy
// mechanism (containers refuse it), no ssh, more ranks than cores (--oversubscribe) and no
// binding, so that the ranks share the cores and divide their threads.
inline const char* const kMpirunEnvironment =
    "env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader "
    "OMPI_MCA_pml=ob1 OMPI_MCA_mtl=^ofi,psm2 OMPI_MCA_osc=^ucx "
    "OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_plm_rsh_agent=";

// The prefix of run_cli() that starts `ranks` ranks.
inline std::string mpirun(int ranks) {
  return std::string(kMpirunEnvironment) + " mpirun --oversubscribe --bind-to none -np " +
         std::to_string(ranks);
}

// Why the MPI tests cannot run here, or "".
inline std::string mpi_missing() {
  TempDir dir;
  const auto version = run_cli({"--version"}, dir.path());
  if (version.out.find("MPI: not built in") != std::string::npos)
    return "this build has no MPI (ORRERY_MPI)";
  if (std::system("command -v mpirun > /dev/null 2>&1") != 0) return "no mpirun on the path";
  return "";
}

// The orrery processes running in `cwd` (the ranks of an mpirun started there).
inline std::vector<pid_t> orrery_processes_in(const std::filesystem::path& cwd) {
  std::vector<pid_t> found;
  const std::filesystem::path program = std::filesystem::canonical(ORRERY_CLI_PATH);
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator("/proc", ec)) {
    const std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::error_code e1, e2;
    const std::filesystem::path exe = std::filesystem::read_symlink(entry.path() / "exe", e1);
    const std::filesystem::path dir = std::filesystem::read_symlink(entry.path() / "cwd", e2);
    if (!e1 && !e2 && exe == program && dir == std::filesystem::canonical(cwd))
      found.push_back(static_cast<pid_t>(std::stoi(name)));
  }
  return found;
}

// Whether the process is gone or a zombie (it holds no lock and writes nothing).
inline bool ended_or_zombie(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text;
  if (!std::getline(stat, text)) return true;
  const auto close = text.rfind(')');
  return close == std::string::npos || text.compare(close + 2, 1, "Z") == 0;
}

// Starts the program with `args` under `ranks` ranks in the background in `folder` (its output
// in out.txt and err.txt there), waits until the run in folder/run has kept a checkpoint at
// step `checkpoint` or later (three minutes at most), then kills every rank at once with SIGKILL
// (a host lost: no rank gets to say anything) and waits until each is gone. Returns how many
// ranks it killed: fewer than `ranks` means the run ended before the kill, or never started.
inline std::size_t kill_every_rank_at_checkpoint(const std::filesystem::path& folder, int ranks,
                                                 const std::vector<std::string>& args,
                                                 std::int64_t checkpoint) {
  std::string line = "cd '" + folder.string() + "' && " + mpirun(ranks) + " '" ORRERY_CLI_PATH "'";
  for (const auto& a : args) line += " '" + a + "'";
  line += " > out.txt 2> err.txt &";
  if (std::system(line.c_str()) != 0) return 0;
  const auto until = std::chrono::steady_clock::now() + std::chrono::minutes(3);
  const auto newest_checkpoint = [&] {
    if (!std::filesystem::exists(folder / "run")) return std::int64_t{-1};
    const auto kept = run_checkpoints(folder / "run");
    return kept.empty() ? std::int64_t{-1} : kept.back();
  };
  while (newest_checkpoint() < checkpoint && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  const auto found = orrery_processes_in(folder);
  for (const pid_t pid : found) ::kill(pid, SIGKILL);
  for (const pid_t pid : found)
    while (!ended_or_zombie(pid)) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  return found.size();
}

}  // namespace orrery::test

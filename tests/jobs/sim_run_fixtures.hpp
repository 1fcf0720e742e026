// SPDX-License-Identifier: MIT
// The small runs the run-loop tests compare (sim_run_test.cpp, sim_checkpoint_test.cpp): a
// 48-body Plummer sphere, its resume, and every byte its snapshots and diagnostics hold.
#pragma once

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "orrery/io/hdf5_file.hpp"
#include "orrery/io/run_store.hpp"
#include "orrery/jobs/sim_job.hpp"

namespace orrery::test {

inline SimJob small_plummer(const std::filesystem::path& out, const std::string& integrator,
                     Precision precision) {
  SimJob job;
  job.backend = Backend::cpu;  // compared with CPU engines below, also where a GPU is present
  job.scene = "plummer";
  job.scene_settings = {{"n", ParamValue{std::int64_t{48}}}, {"seed", ParamValue{std::int64_t{7}}}};
  job.integrator = integrator;
  job.precision = precision;
  job.dt = 1.0 / 64;
  job.t_end = 1.3;  // not a whole number of steps: the last step is shortened
  job.every = 10;
  job.checkpoint_every = 10;
  job.threads = 2;
  job.out = out.string();
  return job;
}

// The resume of the run in `out` on the CPU (as the runs it resumes), snapshots every 10 steps.
inline SimJob resume_of(const std::filesystem::path& out, std::int64_t checkpoint_every = 10) {
  SimJob rest;
  rest.backend = Backend::cpu;
  rest.resume = true;
  rest.out = out.string();
  rest.every = 10;
  rest.checkpoint_every = checkpoint_every;
  return rest;
}

// Every dataset and attribute of every snapshot of the run in `run`, and the diagnostics table's
// file, as raw bytes.
inline std::vector<std::vector<std::uint8_t>> snapshot_bytes(const std::filesystem::path& run) {
  std::vector<std::vector<std::uint8_t>> all;
  for (std::int64_t index : run_snapshots(run)) {
    h5::Handle g = h5::open_file(snapshot_path(run, index).string());
    for (const char* d : {"position", "velocity", "mass", "id"}) {
      auto v = h5::read_dataset<double>(g.id(), d);
      std::vector<std::uint8_t> b(v.size() * sizeof(double));
      std::memcpy(b.data(), v.data(), b.size());
      all.push_back(b);
    }
    for (const char* a : {"time", "energy", "drift_energy"}) {
      const double x = h5::read_attribute(g.id(), a).reals.at(0);
      std::vector<std::uint8_t> b(sizeof x);
      std::memcpy(b.data(), &x, sizeof x);
      all.push_back(b);
    }
  }
  std::ifstream table(diagnostics_table_path(run), std::ios::binary);
  all.emplace_back(std::istreambuf_iterator<char>(table), std::istreambuf_iterator<char>());
  return all;
}

}  // namespace orrery::test

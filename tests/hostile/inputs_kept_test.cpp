// SPDX-License-Identifier: MIT
// What a user owns survives every command aimed at it, --overwrite or not: a snapshot of the
// run a command reads, a particle file given as --input, a config file, a file the user named
// `lock`, and whatever a `lock` link points to. Each case is a real orrery process on real
// files; the file must come out byte for byte as it went in, and the command must refuse with
// one line saying why. Before, each of these files was replaced (issue 32).
#include <gtest/gtest.h>
#include <unistd.h>

#include <string>

#include "../cli/spawn_cli.hpp"
#include "hostile_commands.hpp"

namespace orrery {
namespace {

namespace fs = std::filesystem;

struct AimedAtInput {
  std::string name;
  std::function<void(const fs::path&)> prepare;
  std::vector<std::string> args;
  std::string kept;         // a file that must come out as it went in
  std::string words;        // what the refusal says
  std::string not_made;     // a file that must not appear ("" for none)
};

std::ostream& operator<<(std::ostream& os, const AimedAtInput& c) { return os << c.name; }

void small_run(const fs::path& d) { test::make_small_run(d); }

// A zoom's config, as a user keeps it beside the frames.
void zoom_config(const fs::path& d) {
  test::write_text(d / "zoom.toml", "resolution = 8\nsteps = 100\nframes = 2\n");
}

void foreign_lock_in(const fs::path& folder) {
  fs::create_directories(folder);
  test::write_text(folder / "lock", "my notes, in a file I happened to call lock\n");
}

// The run's lock replaced by a link to a file of the user's (or to where one would be made).
void run_with_lock_linked_to(const fs::path& d, const std::string& target) {
  test::make_small_run(d);
  test::write_text(d / "victim.txt", "the victim's text\n");
  fs::remove(d / "run" / "lock");
  fs::create_symlink(d / target, d / "run" / "lock");
}

const std::vector<std::string> kZoom = {"zoom", "--resolution", "8", "--steps", "100",
                                        "--frames", "2", "--backend", "cpu", "--quiet",
                                        "--out", "z.mp4"};
const std::vector<std::string> kResume = {"sim", "--out", "run", "--resume", "--t-end", "2",
                                          "--quiet"};

const std::vector<AimedAtInput>& cases() {
  static const std::vector<AimedAtInput> rows = {
      {"forces_out_a_snapshot_of_its_input_run", small_run,
       {"forces", "--input", "run", "--out", "run/snapshot_000004.h5", "--overwrite", "--backend",
        "cpu"},
       "run/snapshot_000004.h5", "outside the folder 'run' that --input reads"},
      {"forces_out_its_input_snapshot_spelled_otherwise", small_run,
       {"forces", "--input", "run/snapshot_000005.h5", "--out", "./run/../run/snapshot_000005.h5",
        "--overwrite", "--backend", "cpu"},
       "run/snapshot_000005.h5", "other than the --input file"},
      {"forces_out_another_snapshot_of_its_input_snapshots_run", small_run,
       {"forces", "--input", "run/snapshot_000004.h5", "--out", "run/snapshot_000005.h5",
        "--overwrite", "--backend", "cpu"},
       "run/snapshot_000005.h5", "outside the run 'run' of the --input file"},
      {"render_out_a_snapshot_of_its_run", small_run,
       {"render", "run", "--out", "run/snapshot_000001.h5", "--overwrite", "--width", "16",
        "--height", "16"},
       "run/snapshot_000001.h5", "outside the folder 'run' that RUN reads"},
      {"view_screenshot_its_input",
       [](const fs::path& d) { test::make_small_particles(d, "gin.csv"); },
       {"view", "--input", "gin.csv", "--screenshot", "gin.csv", "--exit-after-frames", "1"},
       "gin.csv", "other than the --input file 'gin.csv'"},
      {"view_screenshot_its_input_with_overwrite",
       [](const fs::path& d) { test::make_small_particles(d, "gin.csv"); },
       {"view", "--input", "gin.csv", "--screenshot", "./gin.csv", "--overwrite",
        "--exit-after-frames", "1"},
       "gin.csv", "other than the --input file 'gin.csv'"},
      {"view_screenshot_a_snapshot_of_its_run", small_run,
       {"view", "run", "--screenshot", "run/snapshot_000001.h5", "--overwrite",
        "--exit-after-frames", "1"},
       "run/snapshot_000001.h5", "outside the folder 'run' that RUN reads"},
      {"zoom_record_over_its_config", zoom_config,
       {"zoom", "--config", "zoom.toml", "--frames-dir", ".", "--overwrite", "--backend", "cpu",
        "--quiet", "--out", "z.mp4"},
       "zoom.toml", "--frames-dir: . is not accepted (expected a folder other than the one of "
                    "the --config file 'zoom.toml'"},
      {"zoom_lock_over_a_file_of_the_users_in_frames_dir",
       [](const fs::path& d) { foreign_lock_in(d / "frames"); },
       test::with(kZoom, {"--frames-dir", "frames"}), "frames/lock",
       "'frames/lock' is not orrery's lock file (it holds other data)"},
      {"zoom_lock_over_a_file_of_the_users_in_data_dir",
       [](const fs::path& d) { foreign_lock_in(d / "data"); },
       test::with(kZoom, {"--frames-dir", "frames", "--data-dir", "data"}), "data/lock",
       "'data/lock' is not orrery's lock file (it holds other data)"},
      {"zoom_lock_a_link_in_frames_dir",
       [](const fs::path& d) {
         test::write_text(d / "victim.txt", "the victim's text\n");
         fs::create_directories(d / "frames");
         fs::create_symlink(d / "victim.txt", d / "frames" / "lock");
       },
       test::with(kZoom, {"--frames-dir", "frames"}), "victim.txt", "(a symbolic link)"},
      {"sim_resume_lock_a_link_to_a_file",
       [](const fs::path& d) { run_with_lock_linked_to(d, "victim.txt"); }, kResume,
       "victim.txt", "'run/lock' is not orrery's lock file (a symbolic link)"},
      {"sim_resume_lock_a_link_to_no_file_yet",
       [](const fs::path& d) { run_with_lock_linked_to(d, "made.txt"); }, kResume,
       "victim.txt", "'run/lock' is not orrery's lock file (a symbolic link)", "made.txt"},
      {"sim_resume_lock_a_hard_link",
       [](const fs::path& d) {
         test::make_small_run(d);
         test::write_text(d / "victim.txt", "pid 1 on host h, started then\n");
         fs::remove(d / "run" / "lock");
         fs::create_hard_link(d / "victim.txt", d / "run" / "lock");
       },
       kResume, "victim.txt", "'run/lock' is not orrery's lock file (not a regular file with one "
                              "name)"},
  };
  return rows;
}

class HostileInputKept : public ::testing::TestWithParam<AimedAtInput> {};

TEST_P(HostileInputKept, TheFileSurvivesAndTheCommandSaysWhy) {
  const AimedAtInput& c = GetParam();
  test::TempDir dir;
  c.prepare(dir.path());
  const std::string bytes = test::read_bytes(dir / c.kept);
  ASSERT_FALSE(bytes.empty());
  const test::CliResult r = test::run_cli(c.args, dir.path());
  test::expect_refusal(r, c.words);
  EXPECT_EQ(test::read_bytes(dir / c.kept), bytes) << c.kept << " changed";
  if (!c.not_made.empty()) {
    EXPECT_FALSE(fs::exists(dir / c.not_made)) << c.not_made << " made";
  }
}

INSTANTIATE_TEST_SUITE_P(EveryCase, HostileInputKept, ::testing::ValuesIn(cases()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace orrery

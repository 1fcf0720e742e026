// SPDX-License-Identifier: MIT
// Inputs that cannot hurt the run: step counts that overflow or never end, memory beyond what
// the process may use, hostile bytes in files, and help that says what is accepted. Each is
// refused in one line (status 2) before any work, or accepted and run.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdlib>

#include "orrery/device/cpu/cpu_threads.hpp"
#include "orrery/device/cuda_presence.hpp"
#include "orrery/io/hdf5_file.hpp"
#include "run_cli.hpp"
#include "spawn_cli.hpp"

namespace orrery {
namespace {

using test::run_cli;

void expect_refused(const test::CliResult& r, const std::string& names) {
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find(names), std::string::npos) << r.err;
}

// The program under a shell's `ulimit -v` (KiB of address space), and stopped after a minute:
// a run that never ends fails the test instead of hanging it.
test::CliResult run_limited(const std::string& kib, const std::string& args,
                            const std::filesystem::path& cwd) {
  const std::string cmd = "cd '" + cwd.string() + "' && (ulimit -v " + kib + "; timeout 60 '" +
                          ORRERY_CLI_PATH "' " + args + ") > .stdout 2> .stderr";
  const int raw = std::system(cmd.c_str());
  test::CliResult r;
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  r.out = test::read_text(cwd / ".stdout");
  r.err = test::read_text(cwd / ".stderr");
  return r;
}

TEST(InputLimitsCli, StepCountsThatOverflowOrNeverEndAreRefused) {
  test::TempDir dir;
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases{
      {{"--t-end", "1e300"}, "--t-end: 1e+300 is not accepted"},
      {{"--dt", "1e-300"}, "--dt: 1e-300 is not accepted"},
      {{"--eccentricity", "0.9999999999"}, "(the step of kepler) is not accepted"},
      {{"--dt", "1", "--t-end", "2e6", "--every", "1"}, "--every: 1 (2e+06 snapshots)"},
  };
  for (const auto& [flags, names] : cases) {
    std::string args = "sim --scene kepler --out run.h5";
    for (const auto& f : flags) args += " " + f;
    expect_refused(run_limited("unlimited", args, dir.path()), names);
    EXPECT_FALSE(std::filesystem::exists(dir / "run.h5"));
  }
  // A resumed run is held to the same limits, before anything in it changes.
  ASSERT_EQ(run_limited("unlimited", "sim --scene kepler --t-end 1 --out run --quiet", dir.path())
                .status,
            0);
  const auto before = test::run_outputs(dir / "run");
  expect_refused(run_limited("unlimited", "sim --resume --out run --t-end 1e300", dir.path()),
                 "reaches t-end = 1e+300 from t = 1 in at most 1e+10 steps");
  EXPECT_TRUE(test::run_outputs(dir / "run") == before);
}

TEST(InputLimitsCli, MemoryBeyondTheLimitIsRefusedWithBothFigures) {
  test::TempDir dir;
  const auto map = run_limited("4000000", "map --resolution 100000 --out m.png", dir.path());
  expect_refused(map, "a 100000x100000 map needs about 520 GB of memory; this process may use ");
  EXPECT_NE(map.err.find("(ulimit -v)"), std::string::npos) << map.err;
  const auto sim =
      run_limited("4000000", "sim --scene plummer --n 30000000 --out run.h5", dir.path());
  expect_refused(sim, "scene plummer with --n 30000000 in fp64 with leapfrog needs about");
  EXPECT_FALSE(std::filesystem::exists(dir / "run.h5"));
}

// h5py's create_dataset(shape=(10**12,)) without data: declared, never stored.
TEST(InputLimitsCli, AnHdf5FileDeclaringMoreParticlesThanItHoldsIsRefused) {
  test::TempDir dir;
  {
    h5::Handle f = h5::create_file((dir / "huge.h5").string());
    const hsize_t n = 1'000'000'000'000, rows[2] = {n, 3};
    h5::Handle one(H5Screate_simple(1, &n, nullptr), H5Sclose);
    h5::Handle three(H5Screate_simple(2, rows, nullptr), H5Sclose);
    for (const auto& [name, space] : {std::pair{"mass", one.id()},
                                      std::pair{"position", three.id()},
                                      std::pair{"velocity", three.id()}})
      h5::Handle(H5Dcreate2(f.id(), name, H5T_NATIVE_DOUBLE, space, H5P_DEFAULT, H5P_DEFAULT,
                            H5P_DEFAULT),
                 H5Dclose);
  }
  expect_refused(run_cli({"sim", "--input", "huge.h5", "--out", "run.h5"}, dir.path()),
                 "declares 1000000000000 values but the file holds data for 0");
}

TEST(InputLimitsCli, MessagesStayOneShortPrintableLine) {
  test::TempDir dir;
  std::string huge = "masses = [";
  for (int i = 0; i < 2'000'000; ++i) huge += "1,";
  test::write_text(dir / "huge.toml", huge + "1]\n");
  const auto big = run_cli({"map", "--config", "huge.toml"}, dir.path());
  expect_refused(big, "more bytes) is not accepted (expected 3 values");
  EXPECT_LT(big.err.size(), 400u);

  test::write_text(dir / "esc.csv", "m,x,\x1b[2J\x1b[H,z,vx,vy,vz\n1,0,0,0,0,0,0\n");
  const auto esc = run_cli({"sim", "--input", "esc.csv", "--out", "run.h5"}, dir.path());
  expect_refused(esc, "\\x1b[2J\\x1b[H");
  EXPECT_EQ(esc.err.find('\x1b'), std::string::npos) << "an ESC reached the terminal";

  test::write_text(dir / "nul.toml", "colormap = \"inf\\u0000erno\"\n");
  expect_refused(run_cli({"map", "--config", "nul.toml"}, dir.path()),
                 "colormap: inf\\x00erno is not accepted (expected one of: inferno, ");
}

TEST(InputLimitsCli, AByteOrderMarkIsNotPartOfTheFirstName) {
  test::TempDir dir;
  test::write_text(dir / "bom.csv",
                   "\xEF\xBB\xBFm,x,y,z,vx,vy,vz\n1,-0.5,0,0,0,-0.5,0\n1,0.5,0,0,0,0.5,0\n");
  const auto csv = run_cli({"sim", "--input", "bom.csv", "--dt", "0.01", "--t-end", "0.1",
                            "--out", "run.h5", "--quiet"},
                           dir.path());
  EXPECT_EQ(csv.status, 0) << csv.err;
  test::write_text(dir / "bom.toml", "\xEF\xBB\xBFsteps = 10\nresolution = 4\n");
  const auto toml = run_cli({"map", "--config", "bom.toml", "--quiet"}, dir.path());
  EXPECT_EQ(toml.status, 0) << toml.err;
}

TEST(InputLimitsCli, ATruncatedOrBusyRunFileSaysWhich) {
  test::TempDir dir;
  ASSERT_EQ(run_cli({"sim", "--scene", "kepler", "--t-end", "1", "--every", "1000", "--out",
                     "run", "--quiet"},
                    dir.path())
                .status,
            0);
  std::filesystem::copy(dir / "run", dir / "cut");
  const auto description = dir / "cut" / "run.h5";
  std::filesystem::resize_file(description, std::filesystem::file_size(description) / 2);
  expect_refused(run_cli({"sim", "--resume", "--out", "cut", "--t-end", "2"}, dir.path()),
                 "run.h5' is truncated");
  const h5::Handle held = h5::open_file_rw((dir / "run" / "run.h5").string());
  expect_refused(run_cli({"sim", "--resume", "--out", "run", "--t-end", "2"}, dir.path()),
                 "run.h5' is in use");
}

TEST(InputLimitsCli, HelpSaysWhatIsAcceptedAndBothFacesAgree) {
  test::TempDir dir;
  const auto sim = run_cli({"sim", "--help"}, dir.path());
  ASSERT_EQ(sim.status, 0);
  // Defaults that the parameter itself refuses (0 for --stop-after, --every-time) are not shown.
  for (const char* wrong : {"TEXT", "(default: )", "(default: 0)", "length, m", "devices PATH"})
    EXPECT_EQ(sim.out.find(wrong), std::string::npos) << wrong << "\n" << sim.out;
  EXPECT_NE(sim.out.find("--devices all|N,..."), std::string::npos) << sim.out;
  EXPECT_NE(sim.out.find("--n N"), std::string::npos) << sim.out;
  const auto map = run_cli({"map", "--help"}, dir.path());
  EXPECT_NE(map.out.find("--overwrite"), std::string::npos) << map.out;

  // Device 7 exists on no machine this runs on: none here, or fewer GPUs than eight.
  const int gpus = cuda_device_count();
  expect_refused(run_cli({"sim", "--scene", "kepler", "--devices", "7", "--out", "r"},
                         dir.path()),
                 gpus == 0 ? std::string("--devices: 7 is not accepted (expected all (the "
                                         "default): there is no CUDA device here")
                           : "--devices: 7 is not accepted (expected device numbers from 0 to " +
                                 std::to_string(gpus - 1) + ", or all)");
  test::write_text(dir / "both.toml", "resolution = 8\nwidth = 4\n");
  expect_refused(run_cli({"map", "--config", "both.toml"}, dir.path()),
                 "key 'resolution': 8 is not accepted (expected no key 'width' beside it");
}

// On a terminal (a pseudo-terminal of `script`, 60 columns) the progress line shows the
// simulation time, never runs past the width (a wrapped line could not be cleared) and is
// cleared at the end; off a terminal it is not written at all.
TEST(InputLimitsCli, ProgressShowsSimulationTimeFitsTheTerminalAndIsCleared) {
  test::TempDir dir;
  if (std::system("script --version > /dev/null 2>&1") != 0)
    GTEST_SKIP() << "no `script` (util-linux) to give the program a terminal";
  const std::string cmd = "cd '" + dir.path().string() +
                          "' && script -qec \"stty cols 60; '" ORRERY_CLI_PATH
                          "' sim --scene kepler --t-end 5 --every 100000 --out run.h5 "
                          "2>&1 >/dev/null\" /dev/null > tty.txt";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  const std::string tty = test::read_text(dir / "tty.txt");
  const std::string clear = "\r\x1b[K";
  ASSERT_NE(tty.find(clear + "sim: t = "), std::string::npos) << tty;
  std::size_t at = 0;
  while ((at = tty.find(clear, at)) != std::string::npos) {
    at += clear.size();
    const std::size_t end = std::min(tty.find('\r', at), tty.size());
    EXPECT_LE(end - at, 59u) << tty.substr(at, end - at);
  }
  EXPECT_EQ(tty.rfind(clear), tty.size() - clear.size()) << "the last line is not cleared";

  const auto off = run_cli({"sim", "--scene", "kepler", "--t-end", "5", "--every", "1000",
                            "--out", "r2.h5"},
                           dir.path());
  EXPECT_EQ(off.status, 0);
  EXPECT_EQ(off.err, "") << "progress written where stderr is not a terminal";
}

// Bodies 1e-170 apart: r² = 1e-340 is 0 in fp64, so the pull between them is infinite. Every
// engine refuses them before work, as one point (the tree engines dropped the pair).
TEST(InputLimitsCli, BodiesWhoseSeparationSquaredUnderflowsAreRefusedByEveryEngine) {
  test::TempDir dir;
  test::write_text(dir / "near.csv",
                   "x,y,z,vx,vy,vz,mass\n0,0,0,0,0,0,1\n1e-170,0,0,0,0,0,1\n5,0,0,0,0.3,0,1\n");
  for (const std::string engine : {"direct", "tree"}) {
    expect_refused(run_cli({"sim", "--input", "near.csv", "--engine", engine, "--dt", "0.01",
                            "--t-end", "0.02", "--out", "run", "--quiet"},
                           dir.path()),
                   "particles 0 and 1 (ids 0 and 1)");
    EXPECT_FALSE(std::filesystem::exists(dir / "run")) << engine;
    expect_refused(
        run_cli({"forces", "--input", "near.csv", "--engine", engine, "--out", "f.h5"}, dir.path()),
        "square of their separation is 0 in fp64");
    EXPECT_FALSE(std::filesystem::exists(dir / "f.h5")) << engine;
  }
}

// A config that is not TOML is refused before work, whatever size the file reports: files of
// /proc report 0 bytes and were read as an empty config (the default map ran).
TEST(InputLimitsCli, AConfigThatIsNotTomlIsRefused) {
  test::TempDir dir;
  const auto environ = run_cli({"map", "--config", "/proc/self/environ", "--out", "m.png"},
                               dir.path());
  expect_refused(environ, "--config: '/proc/self/environ'");
  EXPECT_FALSE(std::filesystem::exists(dir / "m.png"));
  test::write_text(dir / "nul.toml", std::string("steps = 10\0resolution = 4\n", 26));
  expect_refused(run_cli({"map", "--config", "nul.toml", "--out", "m.png"}, dir.path()),
                 "NUL byte at byte 10");
  EXPECT_FALSE(std::filesystem::exists(dir / "m.png"));
}

// A config that cannot be read is refused with the system's reason for it, not another:
// /proc/self/mem opens and fails at its first read (EIO), also for root; a file without read
// permission fails to open (EACCES) where the tests do not run as root.
TEST(InputLimitsCli, AnUnreadableConfigIsRefusedWithItsReason) {
  test::TempDir dir;
  expect_refused(run_cli({"map", "--config", "/proc/self/mem", "--out", "m.png"}, dir.path()),
                 "--config: '/proc/self/mem' cannot be read: Input/output error");
  EXPECT_FALSE(std::filesystem::exists(dir / "m.png"));
  std::filesystem::create_directory(dir / "folder.toml");
  expect_refused(run_cli({"map", "--config", "folder.toml", "--out", "m.png"}, dir.path()),
                 "--config: folder.toml is not accepted (expected an existing, readable TOML");
  if (::geteuid() != 0) {
    test::write_text(dir / "closed.toml", "steps = 10\n");
    std::filesystem::permissions(dir / "closed.toml", std::filesystem::perms::none);
    expect_refused(run_cli({"map", "--config", "closed.toml", "--out", "m.png"}, dir.path()),
                   "--config: 'closed.toml' cannot be opened: Permission denied");
  }
  EXPECT_FALSE(std::filesystem::exists(dir / "m.png"));
}

// A limit that stops threads from starting (here a stack limit: every thread's stack would be
// a terabyte, which no memory holds) is said in orrery's words with what to do, before any
// work; not in OpenMP's own line ("libgomp: Thread creation failed: ...") after the checks.
TEST(InputLimitsCli, ThreadsThatCannotStartAreSaidBeforeWork) {
  if (affinity_cpu_count() < 2) GTEST_SKIP() << "one CPU: no second thread to start";
  test::TempDir dir;
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"map", "--resolution", "8", "--steps", "10", "--backend", "cpu",
                                 "--threads", "2", "--out", "made"},
        std::vector<std::string>{"sim", "--scene", "plummer", "--n", "2000", "--t-end", "0.01",
                                 "--dt", "0.01", "--backend", "cpu", "--threads", "2", "--out",
                                 "made"}}) {
    SCOPED_TRACE(args.front());
    const auto r = run_cli(args, dir.path(), "ulimit -s 1000000000 &&");
    if (r.status == 0) GTEST_SKIP() << "this system maps a terabyte stack (overcommit)";
    EXPECT_EQ(r.status, 1) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find("orrery " + args.front() + ": error: "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("a thread could not be started"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("--threads N asks for fewer"), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir / "made"));
  }
}

TEST(InputLimitsCli, AWordThatIsNoCommandIsNamed) {
  test::TempDir dir;
  const auto r = run_cli({"bogus"}, dir.path());
  expect_refused(r, "orrery: 'bogus' is not a command (expected one of: map, ");
  EXPECT_NE(r.err.find("view"), std::string::npos) << r.err;
}

TEST(InputLimitsCli, EveryCommandTakesQuiet) {
  test::TempDir dir;
  for (const std::string command : {"map", "ensemble", "sim", "forces", "plot", "render", "zoom",
                                    "view"}) {
    const auto r = run_cli({command, "--help"}, dir.path());
    EXPECT_EQ(r.status, 0) << command;
    EXPECT_NE(r.out.find("--quiet"), std::string::npos) << command << " has no --quiet";
  }
}

// Under an address-space limit a map or zoom either fits or is refused before work, naming its
// need and the limit: never std::bad_alloc's abort (status 134) on the way.
TEST(InputLimitsCli, AMapUnderUlimitFitsOrIsRefusedNeverAborts) {
  test::TempDir dir;
  for (const std::string args :
       {"map --resolution 3000 --steps 10 --backend cpu --quiet --out m.png",
        "map --resolution 3000 --steps 10 --backend cpu --quiet --out m.png --data m.h5",
        "zoom --resolution 2600 --steps 10 --frames 2 --backend cpu --quiet --out z.mp4"}) {
    const auto r = run_limited("300000", args, dir.path());
    EXPECT_TRUE(r.status == 0 || r.status == 2) << args << ": " << r.status << " " << r.err;
    if (r.status == 2) EXPECT_NE(r.err.find("needs about"), std::string::npos) << r.err;
  }
}

}  // namespace
}  // namespace orrery

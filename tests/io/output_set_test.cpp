// SPDX-License-Identifier: MIT
// A set of outputs is committed whole or not at all (io/output_set.hpp).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "orrery/core/error.hpp"
#include "orrery/io/output_set.hpp"
#include "temp_dir.hpp"

namespace orrery {
namespace {

TEST(OutputSet, CommitsEveryFile) {
  test::TempDir dir;
  test::write_text(dir / "p.h5", "old data");
  {
    OutputSet set;
    set.add(dir / "p.h5", "new data");
    set.add(dir / "p.png", "new picture");
    EXPECT_EQ(test::read_text(dir / "p.h5"), "old data") << "a target changed before commit";
    EXPECT_FALSE(std::filesystem::exists(dir / "p.png"));
    set.commit();
  }
  EXPECT_EQ(test::read_text(dir / "p.h5"), "new data");
  EXPECT_EQ(test::read_text(dir / "p.png"), "new picture");
  EXPECT_EQ(test::listing(dir.path()), (std::vector<std::string>{"p.h5", "p.png"}));
}

TEST(OutputSet, LeavesNothingWhenNotCommitted) {
  test::TempDir dir;
  test::write_text(dir / "p.h5", "old data");
  {
    OutputSet set;
    set.add(dir / "p.h5", "new data");
  }
  EXPECT_EQ(test::read_text(dir / "p.h5"), "old data");
  EXPECT_EQ(test::listing(dir.path()), std::vector<std::string>{"p.h5"});
}

// The picture cannot be put in place (its path is now a folder that is not empty): the data
// renamed before it is put back, old where there was an old file and absent where there was not.
TEST(OutputSet, PutsBackWhatItReplacedWhenALaterRenameFails) {
  test::TempDir dir;
  test::write_text(dir / "p.h5", "old data");
  OutputSet set;
  set.add(dir / "p.h5", "new data");
  set.add(dir / "fresh.h5", "new fresh");
  set.add(dir / "p.png", "new picture");
  std::filesystem::create_directories(dir / "p.png" / "inside");
  try {
    set.commit();
    FAIL() << "commit over a folder succeeded";
  } catch (const RunError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("p.png"), std::string::npos) << what;
    EXPECT_NE(what.find("every output is as it was"), std::string::npos) << what;
  }
  EXPECT_EQ(test::read_text(dir / "p.h5"), "old data");
  EXPECT_FALSE(std::filesystem::exists(dir / "fresh.h5"));
}

TEST(OutputSet, WriteFailuresNameTheFileAndTheReason) {
  test::TempDir dir;
  OutputSet set;
  try {
    set.add(dir / "no-such-folder" / "p.png", "x");
    FAIL();
  } catch (const RunError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot write '"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("No such file or directory"), std::string::npos)
        << e.what();
  }
}

// Without --overwrite a set takes only names still free when it commits: a file another process
// made meanwhile stays, the set's files already renamed are taken back, and no hidden file is
// left.
TEST(OutputSet, RefusingSetKeepsAFileMadeMeanwhile) {
  test::TempDir dir;
  {
    OutputSet set(IfExists::refuse);
    set.add(dir / "p.h5", "new data");
    set.add(dir / "p.png", "new picture");
    test::write_text(dir / "p.png", "the other process's picture");
    try {
      set.commit();
      FAIL() << "commit replaced a file made meanwhile";
    } catch (const RunError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("p.png': another process made it while this one worked"),
                std::string::npos)
          << what;
    }
  }
  EXPECT_EQ(test::read_text(dir / "p.png"), "the other process's picture");
  EXPECT_EQ(test::listing(dir.path()), std::vector<std::string>{"p.png"});
}

TEST(OutputSet, RefusingSetWritesNewFiles) {
  test::TempDir dir;
  write_file_atomically(dir / "p.h5", "data", IfExists::refuse);
  EXPECT_EQ(test::read_text(dir / "p.h5"), "data");
  EXPECT_THROW(write_file_atomically(dir / "p.h5", "again", IfExists::refuse), RunError);
  EXPECT_EQ(test::read_text(dir / "p.h5"), "data");
  EXPECT_EQ(test::listing(dir.path()), std::vector<std::string>{"p.h5"});
}

// A pid no process has: a child that has ended and been waited for.
pid_t ended_pid() {
  const pid_t pid = ::fork();
  if (pid == 0) ::_exit(0);
  ::waitpid(pid, nullptr, 0);
  return pid;
}

// A process killed while writing (SIGKILL, SIGXFSZ before orrery ignored it) leaves its hidden
// temporaries; the next writer of the same name removes those whose maker is gone and which
// nobody has touched for an hour, and no other file.
TEST(OutputSet, RemovesTheAbandonedTemporariesOfItsTarget) {
  test::TempDir dir;
  const std::string dead = std::to_string(ended_pid()), alive = std::to_string(::getppid());
  const std::vector<std::string> kept = {"." + std::string("p.h5.tmp-") + alive + "-0",
                                         ".p.h5.tmp-" + dead + "-9",  // fresh: may be a host's
                                         ".q.h5.tmp-" + dead + "-0", ".p.h5.tmp-x-0", "p.h5"};
  for (const auto& name : kept) test::write_text(dir / name, "x");
  const auto hours_ago = std::filesystem::file_time_type::clock::now() - std::chrono::hours(2);
  for (const auto& name : {kept[0], kept[2], kept[3]})
    std::filesystem::last_write_time(dir / name, hours_ago);
  for (const auto& name : {".p.h5.tmp-" + dead + "-0", ".p.h5.old-" + dead + "-3"}) {
    test::write_text(dir / name, "abandoned");
    std::filesystem::last_write_time(dir / name, hours_ago);
  }
  remove_abandoned_temporaries(dir / "p.h5");
  auto expected = kept;
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(test::listing(dir.path()), expected);
}

}  // namespace
}  // namespace orrery

// SPDX-License-Identifier: MIT
// The lock of a run (or of a zoom's folders) is orrery's own file: one that is a link, a pipe,
// a file with a second name, or that holds other text, is refused and left as it was.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <string>

#include "orrery/core/error.hpp"
#include "orrery/io/run_lock.hpp"
#include "temp_dir.hpp"

namespace orrery {
namespace {

namespace fs = std::filesystem;

std::string refusal(const fs::path& folder) {
  try {
    RunLock lock(folder);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(RunLock, TakesANewFolderAndALockLeftByAnEndedHolder) {
  test::TempDir dir;
  { RunLock lock(dir.path()); }
  const std::string left = test::read_text(dir / kLockFileName);
  EXPECT_EQ(left.rfind("pid ", 0), 0u) << left;
  EXPECT_EQ(refusal(dir.path()), "");
  test::write_text(dir / kLockFileName, "");
  EXPECT_EQ(refusal(dir.path()), "");
}

TEST(RunLock, NeverWritesThroughALink) {
  test::TempDir dir;
  fs::create_directory(dir / "run");
  test::write_text(dir / "victim.txt", "the victim's text\n");
  fs::create_symlink(dir / "victim.txt", dir / "run" / kLockFileName);
  EXPECT_NE(refusal(dir / "run").find("is not orrery's lock file (a symbolic link)"),
            std::string::npos);
  EXPECT_EQ(test::read_text(dir / "victim.txt"), "the victim's text\n");
  fs::remove(dir / "run" / kLockFileName);
  fs::create_symlink(dir / "made.txt", dir / "run" / kLockFileName);
  EXPECT_NE(refusal(dir / "run"), "");
  EXPECT_FALSE(fs::exists(dir / "made.txt"));
  EXPECT_FALSE(RunLock::held(dir / "run"));
}

TEST(RunLock, RefusesAFileOfTheUsers) {
  test::TempDir dir;
  test::write_text(dir / kLockFileName, "shopping: milk\n");
  EXPECT_NE(refusal(dir.path()).find("(it holds other data)"), std::string::npos);
  EXPECT_EQ(test::read_text(dir / kLockFileName), "shopping: milk\n");
}

TEST(RunLock, RefusesAHardLinkAndAPipeWithoutWaiting) {
  test::TempDir dir;
  fs::create_directory(dir / "a");
  test::write_text(dir / "victim.txt", "pid 1 on host h, started then\n");
  fs::create_hard_link(dir / "victim.txt", dir / "a" / kLockFileName);
  EXPECT_NE(refusal(dir / "a").find("not a regular file with one name"), std::string::npos);
  EXPECT_EQ(test::read_text(dir / "victim.txt"), "pid 1 on host h, started then\n");
  fs::create_directory(dir / "b");
  ASSERT_EQ(::mkfifo((dir / "b" / kLockFileName).c_str(), 0600), 0);
  EXPECT_NE(refusal(dir / "b").find("not a regular file with one name"), std::string::npos);
  EXPECT_FALSE(RunLock::held(dir / "b"));
}

}  // namespace
}  // namespace orrery

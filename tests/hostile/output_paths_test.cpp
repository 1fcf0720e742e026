// SPDX-License-Identifier: MIT
// Every output flag of every command (hostile_commands.hpp) refuses, before any work, a path it
// could not write or must not: an empty name, a name too long for the filesystem, a folder that
// does not exist, a current folder that was deleted, and an existing file without --overwrite.
// Before, `map --out ""` computed and wrote nothing (exit 0), and a 300-byte name or a deleted
// current folder was found only after the computation.
#include <gtest/gtest.h>

#include <string>

#include "hostile_commands.hpp"

namespace orrery {
namespace {

namespace fs = std::filesystem;
using test::CommandOutput;

class HostileOutputPath : public ::testing::TestWithParam<CommandOutput> {
 protected:
  void SetUp() override {
    if (GetParam().prepare) GetParam().prepare(dir.path());
    before = test::listing(dir.path());
  }
  test::CliResult run(const std::string& value) {
    return test::run_cli(
        test::in_folder(test::with(GetParam().args, {GetParam().flag, value}), dir.path()),
        dir.path());
  }
  test::TempDir dir;
  std::vector<std::string> before;
};

TEST_P(HostileOutputPath, RefusesAnEmptyName) {
  test::expect_refusal(run(""), GetParam().flag + ": an empty value is not accepted");
  EXPECT_EQ(test::listing(dir.path()), before);
}

// 300 bytes: more than any Linux filesystem takes in one name (255).
TEST_P(HostileOutputPath, RefusesANameTooLongForTheFilesystemBeforeWork) {
  const std::string name(300, 'n');
  test::expect_refusal(run(name), "bytes");
  test::expect_refusal(run(name), GetParam().flag + ": ");
  EXPECT_EQ(test::listing(dir.path()), before);
}

// A name that fits the filesystem but not with the hidden temporary's longer name beside it.
TEST_P(HostileOutputPath, RefusesANameWithNoRoomForItsTemporary) {
  test::expect_refusal(run(std::string(250, 'n')), "hidden name");
  EXPECT_EQ(test::listing(dir.path()), before);
}

TEST_P(HostileOutputPath, RefusesAFolderThatDoesNotExist) {
  test::expect_refusal(run("missing/" + GetParam().file), "existing folder ('missing'");
  EXPECT_EQ(test::listing(dir.path()), before);
}

TEST_P(HostileOutputPath, RefusesACurrentFolderThatWasDeletedBeforeWork) {
  const test::CliResult r = test::run_cli_in_deleted_folder(
      test::in_folder(test::with(GetParam().args, {GetParam().flag, GetParam().file}),
                      dir.path()),
      dir.path());
  test::expect_refusal(r, "has been deleted: it is the current folder");
  EXPECT_EQ(test::listing(dir.path()), before);
}

TEST_P(HostileOutputPath, KeepsAnExistingFileWithoutOverwrite) {
  if (!GetParam().refuses_existing) GTEST_SKIP() << GetParam().name << " has no --overwrite";
  const std::string& written =
      GetParam().written.empty() ? GetParam().file : GetParam().written;
  test::write_text(dir / written, "the user's");
  before = test::listing(dir.path());
  test::expect_refusal(run(GetParam().file), GetParam().flag + ": " + written);
  EXPECT_EQ(test::read_text(dir / written), "the user's");
  EXPECT_EQ(test::listing(dir.path()), before);
}

INSTANTIATE_TEST_SUITE_P(EveryCommand, HostileOutputPath,
                         ::testing::ValuesIn(test::command_outputs()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace orrery

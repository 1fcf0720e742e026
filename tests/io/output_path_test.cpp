// SPDX-License-Identifier: MIT
// Outputs go only into regular files or new paths, and never onto an input.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <string>

#include "orrery/core/error.hpp"
#include "orrery/io/output_path.hpp"
#include "temp_dir.hpp"

namespace orrery {
namespace {

std::string refusal(const std::filesystem::path& path) {
  try {
    check_output_path("--out", path);
  } catch (const ParameterError& e) {
    return e.what();
  }
  return "";
}

TEST(OutputPath, AcceptsNewPathsAndRegularFiles) {
  test::TempDir dir;
  EXPECT_EQ(refusal(dir / "new.png"), "");
  test::write_text(dir / "old.png", "x");
  EXPECT_EQ(refusal(dir / "old.png"), "");
}

TEST(OutputPath, RefusesDevicesPipesFoldersAndLinksToThem) {
  test::TempDir dir;
  EXPECT_NE(refusal("/dev/null").find("--out: /dev/null is not accepted (expected a regular file "
                                      "or a new path (this is a character device"),
            std::string::npos)
      << refusal("/dev/null");
  ASSERT_EQ(::mkfifo((dir / "pipe").c_str(), 0600), 0);
  EXPECT_NE(refusal(dir / "pipe").find("a named pipe"), std::string::npos);
  std::filesystem::create_directory(dir / "folder");
  EXPECT_NE(refusal(dir / "folder").find("not a folder"), std::string::npos);
  std::filesystem::create_symlink("/dev/null", dir / "null-link");
  EXPECT_NE(refusal(dir / "null-link").find("character device"), std::string::npos);
  EXPECT_NE(refusal("").find("a file path"), std::string::npos);
  EXPECT_NE(refusal(dir / "missing" / "x.png").find("existing folder"), std::string::npos);
}

TEST(OutputPath, RefusesAnOutputThatIsAnInputNamingBoth) {
  test::TempDir dir;
  test::write_text(dir / "p.toml", "steps = 10\n");
  std::filesystem::create_symlink(dir / "p.toml", dir / "link.toml");
  EXPECT_NO_THROW(check_output_is_not_input("--out", dir / "p.png", "--config", dir / "p.toml"));
  EXPECT_NO_THROW(check_output_is_not_input("--out", dir / "p.png", "--config", ""));
  for (const auto& out : {dir / "p.toml", dir / "link.toml", dir / "." / "p.toml"}) {
    try {
      check_output_is_not_input("--data", out, "--config", dir / "p.toml");
      FAIL() << out << " accepted";
    } catch (const ParameterError& e) {
      const std::string what = e.what();
      EXPECT_EQ(what.rfind("--data: ", 0), 0u) << what;
      EXPECT_NE(what.find("other than the --config file"), std::string::npos) << what;
    }
  }
  EXPECT_TRUE(same_file(dir / "a" / ".." / "new", dir / "new"));
  EXPECT_FALSE(same_file(dir / "new1", dir / "new2"));
}

// The temporary written beside an output has a longer name; both must fit the filesystem.
TEST(OutputPath, RefusesNamesTooLongForTheFolderWithTheirTemporary) {
  test::TempDir dir;
  const std::size_t most = 255 - kHiddenNameExtra;
  EXPECT_EQ(refusal(dir / std::string(most, 'n')), "");
  const std::string longer = refusal(dir / std::string(most + 1, 'n'));
  EXPECT_NE(longer.find("a file name of at most " + std::to_string(most) + " bytes"),
            std::string::npos)
      << longer;
  EXPECT_NE(refusal(dir / std::string(300, 'n')).find("this one has 300"), std::string::npos);
}

// A run's folder is read whole: no output may go into it, whatever its name.
TEST(OutputPath, RefusesAnOutputInsideAFolderThatIsAnInput) {
  test::TempDir dir;
  std::filesystem::create_directory(dir / "run");
  test::write_text(dir / "run" / "snapshot_000001.h5", "snapshot");
  for (const auto& out : {dir / "run" / "snapshot_000001.h5", dir / "run" / "new.h5",
                          dir / "run" / ".." / "run" / "x.png"}) {
    try {
      check_output("--out", out, true, {{"--input", dir / "run"}});
      FAIL() << out << " accepted";
    } catch (const ParameterError& e) {
      EXPECT_NE(std::string(e.what()).find("a file outside the folder"), std::string::npos)
          << e.what();
    }
  }
  EXPECT_NO_THROW(check_output("--out", dir / "beside.h5", true, {{"--input", dir / "run"}}));
}

TEST(OutputPath, RefusesAnExistingFileUnlessOverwrite) {
  test::TempDir dir;
  test::write_text(dir / "old.png", "x");
  EXPECT_NO_THROW(check_output("--out", dir / "old.png", true));
  EXPECT_NO_THROW(check_output("--out", dir / "new.png", false));
  EXPECT_THROW(check_output("--out", dir / "old.png", false), ParameterError);
  // A dangling link is a name that exists: writing would replace the link.
  std::filesystem::create_symlink(dir / "nowhere", dir / "dangling.png");
  EXPECT_THROW(check_output("--out", dir / "dangling.png", false), ParameterError);
}

}  // namespace
}  // namespace orrery

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

}  // namespace
}  // namespace orrery

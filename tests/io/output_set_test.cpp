// SPDX-License-Identifier: MIT
// A set of outputs is committed whole or not at all (io/output_set.hpp).
#include <gtest/gtest.h>

#include <algorithm>
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

}  // namespace
}  // namespace orrery

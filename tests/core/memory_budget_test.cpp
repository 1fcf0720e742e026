// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>

#include <string>

#include "orrery/core/error.hpp"
#include "orrery/core/memory_budget.hpp"

namespace orrery {
namespace {

TEST(MemoryBudget, IsSomethingAndNamesWhatLimitsIt) {
  const MemoryBudget b = memory_budget();
  EXPECT_GT(b.bytes, 0u);
  EXPECT_FALSE(b.limited_by.empty());
}

TEST(MemoryBudget, RefusesMoreThanThereIsWithBothFigures) {
  EXPECT_NO_THROW(check_memory("a small job", 1e6));
  try {
    check_memory("a map of 10^12 pixels", 1.1e16);
    FAIL() << "11 PB accepted";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("a map of 10^12 pixels needs about 11 PB of memory; this process may use "),
              std::string::npos)
        << what;
  }
}

TEST(MemoryBudget, FormatsBytesInDecimalUnits) {
  EXPECT_EQ(format_bytes(512), "512 bytes");
  EXPECT_EQ(format_bytes(1.1e11), "110 GB");
  EXPECT_EQ(format_bytes(2.345e9), "2.35 GB");
}

}  // namespace
}  // namespace orrery

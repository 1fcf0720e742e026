// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>

namespace orrery::tables {

extern const std::uint32_t inferno[256];
extern const std::uint32_t magma[256];
extern const std::uint32_t viridis[256];

}  // namespace orrery::tables

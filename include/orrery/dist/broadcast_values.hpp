// SPDX-License-Identifier: MIT
// What rank 0 alone reads (a run's stored parameters, its description, its diagnostics) sent
// to every rank. Collective; without ranks, nothing.
#pragma once

#include <cstring>
#include <type_traits>
#include <vector>

#include "orrery/core/parameter.hpp"
#include "orrery/dist/communicator.hpp"
#include "orrery/nbody/diagnostics.hpp"

namespace orrery::dist {

// Rank 0's `value` (plain bytes: numbers, structs of numbers) on every rank.
template <class T>
void broadcast_values(T& value) {
  static_assert(std::is_trivially_copyable_v<T>);
  if (!distributed()) return;
  std::vector<std::byte> bytes(sizeof value);
  std::memcpy(bytes.data(), &value, sizeof value);
  broadcast_from_root(bytes);
  std::memcpy(&value, bytes.data(), sizeof value);
}

inline void broadcast_diagnostics(Diagnostics& d) { broadcast_values(d); }

// Rank 0's parameter values on every rank (the same count on every rank).
void broadcast_param_values(std::vector<ParamValue>& values);

}  // namespace orrery::dist

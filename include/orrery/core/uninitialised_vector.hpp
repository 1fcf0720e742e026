// SPDX-License-Identifier: MIT
// A std::vector whose resize() leaves new elements of a trivial type uninitialised: for large
// results every element of which is written before it is read (an ensemble's final states, 200 MB
// for the Lorenz benchmark), where zero-filling first would cost as much as the copy itself and
// fault every page in on one thread.
#pragma once

#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace orrery {

template <class T>
struct UninitialisedAllocator : std::allocator<T> {
  static_assert(std::is_trivially_default_constructible_v<T>);
  using value_type = T;
  template <class U>
  struct rebind {
    using other = UninitialisedAllocator<U>;
  };
  UninitialisedAllocator() = default;
  template <class U>
  UninitialisedAllocator(const UninitialisedAllocator<U>&) noexcept {}
  // Value-initialisation (resize(n)) becomes default-initialisation: no write.
  template <class U>
  void construct(U* p) noexcept {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};

template <class T>
using UninitialisedVector = std::vector<T, UninitialisedAllocator<T>>;

}  // namespace orrery

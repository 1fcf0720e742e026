// SPDX-License-Identifier: MIT
// The rooted trees that index the order conditions of a Runge–Kutta method (Butcher; Hairer,
// Nørsett & Wanner, "Solving ODEs I", §II.2): a method has order p when, for every tree t with
// |t| ≤ p nodes,
//
//   Σ_i b_i Φ_i(t) = 1/γ(t),   Φ_i(t) = Π_k (A Φ(t_k))_i,   γ(t) = |t| Π_k γ(t_k),
//
// t_k the subtrees at t's root (Φ = 1 for the single node). Each tree is listed once, as the
// non-decreasing list of its subtrees' indices in this same list, order by order.
#pragma once

#include <vector>

namespace orrery::test {

struct RootedTree {
  int order;
  std::vector<int> subtrees;  // indices of earlier trees
  double gamma;               // the density γ(t), an integer
};

inline std::vector<RootedTree> rooted_trees(int max_order) {
  std::vector<RootedTree> trees{{1, {}, 1.0}};
  for (int n = 2; n <= max_order; ++n) {
    const int smaller = static_cast<int>(trees.size());
    std::vector<int> subtrees;
    // Subtrees of total order n − 1, indices non-decreasing so each multiset appears once.
    auto extend = [&](auto& self, int remaining, int first) -> void {
      if (remaining == 0) {
        double gamma = n;
        for (int k : subtrees) gamma *= trees[k].gamma;
        trees.push_back({n, subtrees, gamma});
        return;
      }
      for (int k = first; k < smaller; ++k) {
        if (trees[k].order > remaining) continue;
        subtrees.push_back(k);
        self(self, remaining - trees[k].order, k);
        subtrees.pop_back();
      }
    };
    extend(extend, n - 1, 0);
  }
  return trees;
}

}  // namespace orrery::test

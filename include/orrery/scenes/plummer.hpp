// SPDX-License-Identifier: MIT
// A Plummer sphere (H. C. Plummer, MNRAS 71, 460, 1911) of N equal masses, sampled as in
// S. J. Aarseth, M. Hénon & R. Wielen, A&A 37, 183 (1974), appendix:
//   ρ(r) = (3M / 4πa³) (1 + r²/a²)^(−5/2),   M(<r) = M r³ / (r² + a²)^(3/2);
//   position: the mass fraction X uniform in (0, 1) gives r = a (X^(−2/3) − 1)^(−1/2), direction
//             isotropic;
//   velocity: v = q v_esc(r), v_esc = √(2GM) (r² + a²)^(−1/4), with q drawn from
//             g(q) = q² (1 − q²)^(7/2) by von Neumann rejection (0.1 bounds g), direction
//             isotropic.
// Hénon units: G = M = 1 and E = −3πGM²/(64a) = −1/4, so a = 3π/16; the Lagrangian radii of
// 10/50/90 % of the mass are 0.3087/0.7686/2.1837 and the virial ratio K/|W| is 1/2.
// The sample is moved to its centre-of-mass frame. Nothing is rescaled to the sample's own
// energy: K, W and the radii carry sampling noise of order 1/√N, as AHW's do.
#pragma once

#include <cstdint>
#include <vector>

#include "orrery/core/parameter.hpp"
#include "orrery/scenes/initial_conditions.hpp"
#include "orrery/scenes/scene.hpp"

namespace orrery {

struct PlummerParams {
  std::int64_t n = 1000;
  std::uint64_t seed = 1;
  // Sample only the inner fraction of the mass (X uniform in (0, mass_cut)); 1 keeps the whole
  // sphere, whose few far particles (1.5 in 10⁴ beyond 100 a) can stretch a picture.
  double mass_cut = 1.0;
  double softening = 0.01;
};

const std::vector<ParamField<PlummerParams>>& plummer_fields();
InitialConditions make_plummer(const PlummerParams& params);
SceneEntry plummer_scene();

// The Plummer scale radius in Hénon units, 3π/16.
double plummer_scale_radius_henon();

}  // namespace orrery

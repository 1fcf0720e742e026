// SPDX-License-Identifier: MIT
// The tree walk on the GPU: one warp per group of up to 32 or 64 consecutive sorted bodies (one
// or two targets per lane; walk_groups.cu forms them), which walk the depth-first tree together
// without a stack, as the CPU walk does (nbody/tree/cpu/tree_walk.hpp): a cell of size s whose centre of mass lies at
// distance d from the group's bounding box is taken whole when s < θ d (J. Barnes, J. Comput.
// Phys. 87, 161, 1990), a leaf that is not is taken body by body, any other cell is opened; a
// cell holding one of the group's bodies is always opened. Every decision is the same for the
// whole warp — the group's, not a lane's — so the warp never diverges, and every source a warp
// loads serves all its lanes: the tree's answer to the direct engine's shared-memory tile. Each
// cell acts through its monopole and quadrupole (physics/multipole.hpp), each body through the
// softened pair; 1/r from the hardware estimate (physics/inverse_sqrt.hpp). Sums in the engine's
// precision, in the walk's order: the same bits on every run.
#include <cuda_runtime.h>

#include "device/cuda/cuda_check.hpp"
#include "nbody/tree/cell_opening.hpp"
#include "nbody/tree/cuda/tree_walk_launch.hpp"
#include "orrery/physics/inverse_sqrt.hpp"
#include "orrery/physics/multipole.hpp"
#include "orrery/physics/softened_pair.hpp"

namespace orrery::cuda {

namespace {

constexpr int kWalkThreads = 128;  // four warps, four groups per block
constexpr unsigned kFullWarp = 0xffffffffu;

template <class Real>
__device__ Real warp_min(Real v) {
  for (int o = 16; o > 0; o /= 2) {
    const Real w = __shfl_xor_sync(kFullWarp, v, o);
    v = w < v ? w : v;
  }
  return v;
}

template <class Real>
__device__ Real warp_max(Real v) {
  for (int o = 16; o > 0; o /= 2) {
    const Real w = __shfl_xor_sync(kFullWarp, v, o);
    v = w > v ? w : v;
  }
  return v;
}

template <class Real>
struct Target {
  Real x, y, z, h;
  Real ax = 0, ay = 0, az = 0, phi = 0;
};

template <class Real, int PerLane, bool Quadrupole_, bool OwnSoftening, bool Potentials>
__global__ void __launch_bounds__(kWalkThreads) tree_walk(TreePass<Real> p) {
  const OctreeView<Real>& tree = p.tree;
  const int lane = threadIdx.x & 31;
  const std::size_t g = (std::size_t(blockIdx.x) * kWalkThreads + threadIdx.x) / 32;
  if (g >= tree.group_count) return;  // the whole warp
  const std::uint32_t first = tree.groups[g].begin, end = tree.groups[g].end;

  Target<Real> t[PerLane];
  Real lo[3], hi[3];
  for (int q = 0; q < PerLane; ++q) {
    const std::uint32_t s = first + lane + 32 * q;
    const Real4<Real> b = tree.body[s < end ? s : first];  // idle lanes repeat the first target
    t[q].x = b.x, t[q].y = b.y, t[q].z = b.z;
    t[q].h = OwnSoftening ? tree.body_h[s < end ? s : first] : p.global_half_eps2;
    const Real v[3] = {b.x, b.y, b.z};
    for (int a = 0; a < 3; ++a) {
      lo[a] = q == 0 || v[a] < lo[a] ? v[a] : lo[a];
      hi[a] = q == 0 || v[a] > hi[a] ? v[a] : hi[a];
    }
  }
  for (int a = 0; a < 3; ++a) lo[a] = warp_min(lo[a]), hi[a] = warp_max(hi[a]);

  for (std::uint32_t i = 0; i < tree.nodes;) {
    const TreeLink link = tree.link[i];
    const Real4<Real> c = tree.com[i];
    const Real4<Real> qb = tree.quad_b[i];  // Q_yz, Q_zz, ε²/2, size²
    if (link.begin >= end || first >= link.begin + link.count) {  // holds none of the targets
      const Real d2 = distance2_to_box(lo, hi, c.x, c.y, c.z);
      if (taken_whole(qb.w, p.theta2, d2)) {
        Real4<Real> qa{};
        if constexpr (Quadrupole_) qa = tree.quad_a[i];
#pragma unroll
        for (int q = 0; q < PerLane; ++q) {
          Target<Real>& u = t[q];
          const Real dx = c.x - u.x, dy = c.y - u.y, dz = c.z - u.z;
          const Real inv_r = fast_inverse_sqrt(softened_distance2(dx, dy, dz, u.h + qb.z));
          accumulate_monopole(dx, dy, dz, inv_r, c.w, u.ax, u.ay, u.az, u.phi);
          if constexpr (Quadrupole_)
            accumulate_quadrupole(dx, dy, dz, inv_r,
                                  Quadrupole<Real>{qa.x, qa.y, qa.z, qa.w, qb.x, qb.y}, u.ax,
                                  u.ay, u.az, u.phi);
        }
        i = link.next;
        continue;
      }
    }
    if (link.leaf) {
      for (std::uint32_t s = link.begin; s < link.begin + link.count; ++s) {
        const Real4<Real> b = tree.body[s];
        const Real bh = OwnSoftening ? tree.body_h[s] : p.global_half_eps2;
#pragma unroll
        for (int q = 0; q < PerLane; ++q) {
          Target<Real>& u = t[q];
          const Real dx = b.x - u.x, dy = b.y - u.y, dz = b.z - u.z;
          const Real r2 = softened_distance2(dx, dy, dz, u.h + bh);
          // A target meets itself here: with ε = 0 it adds nothing.
          const Real inv_r = r2 > Real(0) ? fast_inverse_sqrt(r2) : Real(0);
          accumulate_monopole(dx, dy, dz, inv_r, b.w, u.ax, u.ay, u.az, u.phi);
        }
      }
      i = link.next;
    } else {
      ++i;
    }
  }

  // Back to the caller's order, times G; a softened target's own term leaves φ.
  for (int q = 0; q < PerLane; ++q) {
    const std::uint32_t s = first + lane + 32 * q;
    if (s >= end) continue;
    const std::uint32_t o = tree.original[s];
    p.ax[o] = p.g * t[q].ax;
    p.ay[o] = p.g * t[q].ay;
    p.az[o] = p.g * t[q].az;
    if constexpr (Potentials) {
      p.phi[o] = p.g * (t[q].phi + own_softened_potential(tree.body[s].w, t[q].h));
    }
  }
}

template <class Real, int PerLane, bool Quadrupole_, bool OwnSoftening>
void launch_with(const TreePass<Real>& p, cudaStream_t stream) {
  const std::size_t blocks = (p.tree.group_count + kWalkThreads / 32 - 1) / (kWalkThreads / 32);
  if (p.phi)
    tree_walk<Real, PerLane, Quadrupole_, OwnSoftening, true>
        <<<static_cast<unsigned>(blocks), kWalkThreads, 0, stream>>>(p);
  else
    tree_walk<Real, PerLane, Quadrupole_, OwnSoftening, false>
        <<<static_cast<unsigned>(blocks), kWalkThreads, 0, stream>>>(p);
}

template <class Real, int PerLane>
void launch_per_lane(const TreePass<Real>& p, cudaStream_t stream) {
  const bool own = p.tree.body_h != nullptr;
  if (p.quadrupole)
    own ? launch_with<Real, PerLane, true, true>(p, stream)
        : launch_with<Real, PerLane, true, false>(p, stream);
  else
    own ? launch_with<Real, PerLane, false, true>(p, stream)
        : launch_with<Real, PerLane, false, false>(p, stream);
}

}  // namespace

template <class Real>
void launch_tree_walk(const TreePass<Real>& p, cudaStream_t stream) {
  if (p.tree.group_count == 0) return;
  if (p.group == kWarpGroupLarge)
    launch_per_lane<Real, 2>(p, stream);
  else
    launch_per_lane<Real, 1>(p, stream);
  ORRERY_CUDA_CHECK(cudaGetLastError(), "launching the tree walk");
}

template void launch_tree_walk<float>(const TreePass<float>&, cudaStream_t);
template void launch_tree_walk<double>(const TreePass<double>&, cudaStream_t);

}  // namespace orrery::cuda

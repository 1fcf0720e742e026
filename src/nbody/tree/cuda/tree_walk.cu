// SPDX-License-Identifier: MIT
// The tree walk on the GPU: one warp per group of up to 32 or 64 consecutive sorted bodies (one
// or two targets per lane; walk_groups.cu forms them). The opening test is the CPU walk's
// (nbody/tree/cpu/tree_walk.hpp): a cell of size s whose centre of mass lies at distance d from
// the group's bounding box is taken whole when s < θ d (J. Barnes, J. Comput. Phys. 87, 161,
// 1990), a leaf that is not is taken body by body, any other cell is opened; a cell holding one
// of the group's bodies is always opened. So the GPU takes the CPU's cells and bodies for the
// same group; only the order of the sums differs.
//
// The walk is breadth-wise, 32 nodes at a time (J. Bédorf, E. Gaburov & S. Portegies Zwart,
// J. Comput. Phys. 231, 2825, 2012, "Bonsai"): each lane tests one node of a warp-wide stack,
// ballots place the cells taken into a shared-memory list and the nodes to visit back on the
// stack, and a list holding 32 sources is summed by every lane for its targets, the sources read
// from shared memory. A node tested costs the warp a few instructions instead of a pass of its
// own, so the warp's issue slots go to the interactions. Depth-first storage with skip links
// needs no child lists: a stack entry (c, end) stands for node c and, after it, its siblings up
// to `end` (c's parent's skip link); opening c pushes (c + 1, next of c), and an entry whose
// `next` is below `end` pushes (next, end).
//
// Each cell acts through its monopole and quadrupole (physics/multipole.hpp), each body through
// the softened pair; 1/r from the hardware estimate (physics/inverse_sqrt.hpp). Sums in the
// engine's precision in the walk's order, which is fixed: the same bits on every run.
#include <cuda_runtime.h>

#include <algorithm>

#include "device/cuda/cuda_check.hpp"
#include "nbody/tree/cell_opening.hpp"
#include "nbody/tree/cuda/tree_walk_launch.hpp"
#include "orrery/physics/inverse_sqrt.hpp"
#include "orrery/physics/multipole.hpp"
#include "orrery/physics/softened_pair.hpp"

namespace orrery::cuda {

namespace {

constexpr int kWarpsPerBlock = 2;
constexpr int kWalkThreads = 32 * kWarpsPerBlock;
constexpr unsigned kFullWarp = 0xffffffffu;
constexpr int kBatch = 32;  // sources summed at once: one per lane of the warp that loaded them

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

// One warp's shared memory: the stack of nodes to test and the two lists of sources waiting to
// be summed (up to a batch each, plus the most one round of tests can add).
template <class Real>
struct WalkLists {
  Real4<Real> cell_com[2 * kBatch];  // centre of mass, mass
  Real4<Real> cell_qa[2 * kBatch];   // Q_xx, Q_xy, Q_xz, Q_yy
  Real4<Real> cell_qb[2 * kBatch];   // Q_yz, Q_zz, ε²/2, size²
  Real4<Real> body[2 * kBatch];      // position, mass
  Real body_h[2 * kBatch];           // ε²/2
  std::uint32_t node[kWalkStack], end[kWalkStack];
};

template <class Real>
struct Target {
  Real x, y, z, h;
  Real ax = 0, ay = 0, az = 0, phi = 0;
};

template <class Real, int PerLane, bool Quadrupole_, bool OwnSoftening, bool Potentials>
__device__ void sum_cells(const WalkLists<Real>& s, int count, Real global_half_eps2,
                          Target<Real> (&t)[PerLane]) {
#pragma unroll 4
  for (int j = 0; j < count; ++j) {
    const Real4<Real> c = s.cell_com[j];
    const Real4<Real> qb = s.cell_qb[j];
    Real4<Real> qa{};
    if constexpr (Quadrupole_) qa = s.cell_qa[j];
#pragma unroll
    for (int q = 0; q < PerLane; ++q) {
      Target<Real>& u = t[q];
      const Real dx = c.x - u.x, dy = c.y - u.y, dz = c.z - u.z;
      // With one ε for all bodies every cell's mean ε²/2 is the global one: the sum is then the
      // same for every cell and leaves the loop.
      const Real e2 = u.h + (OwnSoftening ? qb.z : global_half_eps2);
      const Real inv_r = fast_inverse_sqrt(softened_distance2(dx, dy, dz, e2));
      Real phi = u.phi;
      if constexpr (Quadrupole_)
        accumulate_cell(dx, dy, dz, inv_r, c.w, Quadrupole<Real>{qa.x, qa.y, qa.z, qa.w, qb.x, qb.y},
                        u.ax, u.ay, u.az, phi);
      else
        accumulate_monopole(dx, dy, dz, inv_r, c.w, u.ax, u.ay, u.az, phi);
      if constexpr (Potentials) u.phi = phi;
    }
  }
}

template <class Real, int PerLane, bool OwnSoftening, bool Potentials>
__device__ void sum_bodies(const WalkLists<Real>& s, int count, Real global_half_eps2,
                           Target<Real> (&t)[PerLane]) {
#pragma unroll 4
  for (int j = 0; j < count; ++j) {
    const Real4<Real> b = s.body[j];
    const Real bh = OwnSoftening ? s.body_h[j] : global_half_eps2;
#pragma unroll
    for (int q = 0; q < PerLane; ++q) {
      Target<Real>& u = t[q];
      const Real dx = b.x - u.x, dy = b.y - u.y, dz = b.z - u.z;
      const Real r2 = softened_distance2(dx, dy, dz, u.h + bh);
      // A target meets itself among its own leaf's bodies: with ε = 0 it adds nothing.
      const Real inv_r = r2 > Real(0) ? fast_inverse_sqrt(r2) : Real(0);
      Real phi = u.phi;
      accumulate_monopole(dx, dy, dz, inv_r, b.w, u.ax, u.ay, u.az, phi);
      if constexpr (Potentials) u.phi = phi;
    }
  }
}

template <class Real, int PerLane, bool Quadrupole_, bool OwnSoftening, bool Potentials>
__global__ void __launch_bounds__(kWalkThreads) tree_walk(TreePass<Real> p) {
  extern __shared__ unsigned char shared_bytes[];
  WalkLists<Real>& s = reinterpret_cast<WalkLists<Real>*>(shared_bytes)[threadIdx.x / 32];
  const OctreeView<Real>& tree = p.tree;
  const int lane = threadIdx.x & 31;
  const unsigned below = (1u << lane) - 1;
  const std::size_t w = (std::size_t(blockIdx.x) * kWalkThreads + threadIdx.x) / 32;
  if (w >= p.groups) return;  // the whole warp
  const std::size_t g = p.first_group + w * std::size_t(p.group_stride);
  const std::uint32_t first = tree.groups[g].begin, last = tree.groups[g].end;

  Target<Real> t[PerLane];
  Real lo[3], hi[3];
  for (int q = 0; q < PerLane; ++q) {
    const std::uint32_t k = first + lane + 32 * q;
    const Real4<Real> b = tree.body[k < last ? k : first];  // idle lanes repeat the first target
    t[q].x = b.x, t[q].y = b.y, t[q].z = b.z;
    t[q].h = OwnSoftening ? tree.body_h[k < last ? k : first] : p.global_half_eps2;
    const Real v[3] = {b.x, b.y, b.z};
    for (int a = 0; a < 3; ++a) {
      lo[a] = q == 0 || v[a] < lo[a] ? v[a] : lo[a];
      hi[a] = q == 0 || v[a] > hi[a] ? v[a] : hi[a];
    }
  }
  for (int a = 0; a < 3; ++a) lo[a] = warp_min(lo[a]), hi[a] = warp_max(hi[a]);

  if (lane == 0) s.node[0] = 0, s.end[0] = tree.nodes;
  int top = 1, cells = 0, bodies = 0;
  __syncwarp();
  while (top > 0) {
    // Each entry tested pushes at most two. Near the top of the stack the warp tests one entry at
    // a time: that walks depth-first, and a depth-first walk grows the stack by at most one entry
    // per level, far fewer than the room kept (tree_walk_launch.hpp).
    const int take = kWalkStack - top >= kWalkStackRoom ? min(kBatch, top) : 1;
    if (top + take > kWalkStack) {  // cannot happen while the tree is shallower than the room
      if (lane == 0) atomicOr(p.overflow, 1u);
      return;
    }
    top -= take;
    const bool mine = lane < take;
    std::uint32_t c = 0, end = 0;
    if (mine) c = s.node[top + lane], end = s.end[top + lane];
    __syncwarp();
    TreeLink link{};
    Real4<Real> com{}, qb{};
    bool taken = false, leaf = false, open = false, sibling = false;
    if (mine) {
      link = tree.link[c];
      com = tree.com[c];
      qb = tree.quad_b[c];
      const bool holds = !(link.begin >= last || first >= link.begin + link.count);
      taken = !holds && taken_whole(qb.w, p.theta2, distance2_to_box(lo, hi, com.x, com.y, com.z));
      leaf = !taken && link.leaf;
      open = !taken && !link.leaf;
      sibling = link.next < end;
    }
    const unsigned opened = __ballot_sync(kFullWarp, open);
    const unsigned siblings = __ballot_sync(kFullWarp, sibling);
    int at = top + __popc(opened & below) + __popc(siblings & below);
    if (open) s.node[at] = c + 1, s.end[at] = link.next, ++at;
    if (sibling) s.node[at] = link.next, s.end[at] = end;
    top += __popc(opened) + __popc(siblings);

    const unsigned takers = __ballot_sync(kFullWarp, taken);
    if (taken) {
      const int slot = cells + __popc(takers & below);
      s.cell_com[slot] = com;
      s.cell_qb[slot] = qb;
      if constexpr (Quadrupole_) s.cell_qa[slot] = tree.quad_a[c];
    }
    cells += __popc(takers);
    __syncwarp();
    if (cells >= kBatch) {
      sum_cells<Real, PerLane, Quadrupole_, OwnSoftening, Potentials>(s, kBatch,
                                                                      p.global_half_eps2, t);
      __syncwarp();
      if (lane < cells - kBatch) {
        s.cell_com[lane] = s.cell_com[kBatch + lane];
        s.cell_qa[lane] = s.cell_qa[kBatch + lane];
        s.cell_qb[lane] = s.cell_qb[kBatch + lane];
      }
      cells -= kBatch;
      __syncwarp();
    }

    // The bodies of the leaves opened, leaf by leaf, loaded by consecutive lanes.
    for (unsigned leaves = __ballot_sync(kFullWarp, leaf); leaves != 0; leaves &= leaves - 1) {
      const int from = __ffs(leaves) - 1;
      const std::uint32_t begin = __shfl_sync(kFullWarp, link.begin, from);
      const std::uint32_t count = __shfl_sync(kFullWarp, link.count, from);
      for (std::uint32_t k = 0; k < count; k += kBatch) {
        const int m = static_cast<int>(min(count - k, std::uint32_t(kBatch)));
        if (lane < m) {
          s.body[bodies + lane] = tree.body[begin + k + lane];
          if constexpr (OwnSoftening) s.body_h[bodies + lane] = tree.body_h[begin + k + lane];
        }
        bodies += m;
        __syncwarp();
        if (bodies >= kBatch) {
          sum_bodies<Real, PerLane, OwnSoftening, Potentials>(s, kBatch, p.global_half_eps2, t);
          __syncwarp();
          if (lane < bodies - kBatch) {
            s.body[lane] = s.body[kBatch + lane];
            if constexpr (OwnSoftening) s.body_h[lane] = s.body_h[kBatch + lane];
          }
          bodies -= kBatch;
          __syncwarp();
        }
      }
    }
  }
  sum_cells<Real, PerLane, Quadrupole_, OwnSoftening, Potentials>(s, cells, p.global_half_eps2,
                                                                  t);
  sum_bodies<Real, PerLane, OwnSoftening, Potentials>(s, bodies, p.global_half_eps2, t);

  // Back to the caller's order, times G; a softened target's own term leaves φ.
  for (int q = 0; q < PerLane; ++q) {
    const std::uint32_t k = first + lane + 32 * q;
    if (k >= last) continue;
    const std::uint32_t o = tree.original[k];
    p.ax[o] = p.g * t[q].ax;
    p.ay[o] = p.g * t[q].ay;
    p.az[o] = p.g * t[q].az;
    if constexpr (Potentials) {
      p.phi[o] = p.g * (t[q].phi + own_softened_potential(tree.body[k].w, t[q].h));
    }
  }
}

template <class Real, int PerLane, bool Quadrupole_, bool OwnSoftening, bool Potentials>
void launch_kernel(const TreePass<Real>& p, cudaStream_t stream) {
  auto* kernel = tree_walk<Real, PerLane, Quadrupole_, OwnSoftening, Potentials>;
  constexpr int bytes = kWarpsPerBlock * sizeof(WalkLists<Real>);
  static const bool sized = [&] {
    ORRERY_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           bytes),
                      "sizing the tree walk's shared memory");
    return true;
  }();
  (void)sized;
  const std::size_t blocks = (p.groups + kWarpsPerBlock - 1) / kWarpsPerBlock;
  kernel<<<static_cast<unsigned>(blocks), kWalkThreads, bytes, stream>>>(p);
}

template <class Real, int PerLane, bool Quadrupole_, bool OwnSoftening>
void launch_with(const TreePass<Real>& p, cudaStream_t stream) {
  if (p.phi)
    launch_kernel<Real, PerLane, Quadrupole_, OwnSoftening, true>(p, stream);
  else
    launch_kernel<Real, PerLane, Quadrupole_, OwnSoftening, false>(p, stream);
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

template <class Real>
__global__ void add_into(const Real* from, Real* to, std::size_t count) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < count;
       i += std::size_t(gridDim.x) * blockDim.x)
    to[i] += from[i];
}

}  // namespace

template <class Real>
void launch_tree_add(const Real* from, Real* to, std::size_t count, cudaStream_t stream) {
  if (count == 0) return;
  constexpr unsigned threads = 256, most_blocks = 4096;
  const auto blocks = static_cast<unsigned>(
      std::min<std::size_t>(most_blocks, (count + threads - 1) / threads));
  add_into<Real><<<blocks, threads, 0, stream>>>(from, to, count);
  ORRERY_CUDA_CHECK(cudaGetLastError(), "adding a device's share of the tree's results");
}

template <class Real>
void launch_tree_walk(const TreePass<Real>& p, cudaStream_t stream) {
  if (p.groups == 0) return;
  if (p.group == kWarpGroupLarge)
    launch_per_lane<Real, 2>(p, stream);
  else
    launch_per_lane<Real, 1>(p, stream);
  ORRERY_CUDA_CHECK(cudaGetLastError(), "launching the tree walk");
}

template void launch_tree_walk<float>(const TreePass<float>&, cudaStream_t);
template void launch_tree_walk<double>(const TreePass<double>&, cudaStream_t);
template void launch_tree_add<float>(const float*, float*, std::size_t, cudaStream_t);
template void launch_tree_add<double>(const double*, double*, std::size_t, cudaStream_t);

}  // namespace orrery::cuda

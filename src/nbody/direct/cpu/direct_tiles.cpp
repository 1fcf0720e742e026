// SPDX-License-Identifier: MIT
// Direct gravity on the CPU, compiled once per instruction set (ORRERY_CPU_KERNEL names the
// variant, CMake gives its -march):
//
//   a_i = G Σ_{j≠i} m_j (x_j − x_i) / (|x_j − x_i|² + ε_ij²)^{3/2}
//
// One SIMD lane per target. A block of kBlocks vectors of targets (position, ε²/2 and the three
// accumulators) lives in registers while the sources stream past, one broadcast per source, in
// tiles small enough to stay in L1 for every block of the thread's targets. A target's sum runs
// over j in increasing order whatever block, tile or thread it lands in, so its bits do not
// depend on the thread count; the self term j = i is skipped by a masked update (ε may be 0).
// The tiled all-pairs scheme: L. Nyland, M. Harris, J. Prins, "Fast N-Body Simulation with
// CUDA", GPU Gems 3, ch. 31 (2007).
//
// The factor m_j/r³: AVX-512 and AVX2 refine the hardware reciprocal square root
// (physics/inverse_cube_refined.hpp: ≤ 3.5 ulp against 3 ulp for the IEEE formula) because the
// IEEE square root and division share one divider, which caps fp64 far below the FMA ports'
// rate (bench/README.md, "Why not the IEEE square root and division"). The generic variant
// (SSE2, no FMA unit assumed) keeps the exact m / (r²·√r²) and so gives the bits of the plain
// scalar loop. Variants may therefore differ in the last bits; within one variant results are
// bit-identical across thread counts.
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "direct_kernel.hpp"
#include "nbody/lane_inverse_sqrt.hpp"
#include "orrery/core/compensated_sum.hpp"
#include "orrery/core/simd.hpp"
#include "orrery/physics/inverse_cube_refined.hpp"
#include "orrery/physics/softened_pair.hpp"

#ifndef ORRERY_CPU_KERNEL
#error "compile with -DORRERY_CPU_KERNEL=<name>"
#endif

namespace orrery::cpu::ORRERY_CPU_KERNEL {
namespace {

template <class R>
using Lanes = stdx::native_simd<R>;

// Target vectors per block: independent chains that hide the latency of the factor's dependent
// chain, few enough that block, sources and temporaries fit the register file. Chosen with
// bench/direct_engine_bench.cpp (bench/README.md, "Block and tile"): AVX-512 reaches the port
// limit from 2 on; AVX2 runs 1 and 2 alike, and 1 spills nothing into its 16 registers; the
// generic variant waits on the divider either way.
#if defined(__AVX512F__)
constexpr int kBlocks = 2;
#elif defined(__AVX2__)
constexpr int kBlocks = 1;
#else
constexpr int kBlocks = 2;
#endif

// Sources per tile: five arrays of a tile take 40 KiB, inside a 48 KiB L1 data cache.
template <class R>
constexpr std::size_t kTile = 40 * 1024 / (5 * sizeof(R));

ORRERY_HD std::size_t lesser(std::size_t a, std::size_t b) { return a < b ? a : b; }
ORRERY_HD std::size_t clamp_to(std::size_t v, std::size_t lo, std::size_t hi) {
  return v < lo ? lo : v > hi ? hi : v;
}

// m / (r²·√r²) per lane.
template <class R>
ORRERY_HD Lanes<R> mass_over_cube(const Lanes<R>& r2, const Lanes<R>& m) {
  using V [[maybe_unused]] = Lanes<R>;
#if defined(__AVX512F__)
  if constexpr (std::is_same_v<R, double>)
    return mass_over_cube_refined<4>(r2, V(_mm512_rsqrt14_pd(static_cast<__m512d>(r2))), m);
  else
    return mass_over_cube_refined<2>(r2, V(_mm512_rsqrt14_ps(static_cast<__m512>(r2))), m);
#elif defined(__AVX2__)
  if constexpr (std::is_same_v<R, double>) {
    // There is no fp64 estimate below AVX-512: take fp32's (|δ| ≤ 1.5·2⁻¹²) and one more term.
    const V y0(_mm256_cvtps_pd(_mm_rsqrt_ps(_mm256_cvtpd_ps(static_cast<__m256d>(r2)))));
    const V k = mass_over_cube_refined<5>(r2, y0, m);
    // Outside fp32's range (r² beyond about 10^±38) the estimate is 0, ∞ or coarse, and
    // e = 1 − r²y₀² far from its bound 3·2⁻¹² (or NaN); those lanes take the IEEE formula.
    // Every lane with |e| ≤ 2⁻¹⁰ is accurate whatever its estimate: the series' remainder is
    // then below 2.9·2⁻⁶⁰.
    const __m256d e = static_cast<__m256d>(mul_add(-r2, y0 * y0, V(1)));
    const __m256d off = _mm256_cmp_pd(_mm256_andnot_pd(_mm256_set1_pd(-0.0), e),
                                      _mm256_set1_pd(0x1p-10), _CMP_NLE_UQ);
    if (_mm256_movemask_pd(off) != 0) [[unlikely]]
      return V(_mm256_blendv_pd(static_cast<__m256d>(k),
                                static_cast<__m256d>(mass_over_cube_exact(r2, m)), off));
    return k;
  } else {
    return mass_over_cube_refined<2>(r2, V(_mm256_rsqrt_ps(static_cast<__m256>(r2))), m);
  }
#else
  return mass_over_cube_exact(r2, m);
#endif
}

template <class R>
struct TargetBlock {
  Lanes<R> x[kBlocks], y[kBlocks], z[kBlocks], half_eps2[kBlocks];
  Lanes<R> ax[kBlocks], ay[kBlocks], az[kBlocks];
};

// Sources [jb, je) on a block of targets, every lane updated.
template <class R>
ORRERY_HD void sweep(const DirectSources<R>& s, std::size_t jb, std::size_t je, TargetBlock<R>& t) {
  using V = Lanes<R>;
  for (std::size_t j = jb; j < je; ++j) {
    const V sx(s.x[j]), sy(s.y[j]), sz(s.z[j]), sh(s.half_eps2[j]), sm(s.mass[j]);
    ORRERY_UNROLL
    for (int b = 0; b < kBlocks; ++b) {
      const V dx = sx - t.x[b], dy = sy - t.y[b], dz = sz - t.z[b];
      const V k = mass_over_cube<R>(softened_distance2(dx, dy, dz, t.half_eps2[b] + sh), sm);
      t.ax[b] = mul_add(k, dx, t.ax[b]);
      t.ay[b] = mul_add(k, dy, t.ay[b]);
      t.az[b] = mul_add(k, dz, t.az[b]);
    }
  }
}

// Source j, which is the target of some lanes (index[lane] == j): those lanes keep their sums
// unchanged, exactly as if j were not there.
template <class R>
ORRERY_HD void sweep_self(const DirectSources<R>& s, std::size_t j, const std::size_t* index,
                          TargetBlock<R>& t) {
  using V = Lanes<R>;
  constexpr int W = static_cast<int>(V::size());
  const V sx(s.x[j]), sy(s.y[j]), sz(s.z[j]), sh(s.half_eps2[j]), sm(s.mass[j]);
  ORRERY_UNROLL
  for (int b = 0; b < kBlocks; ++b) {
    const V dx = sx - t.x[b], dy = sy - t.y[b], dz = sz - t.z[b];
    const V k = mass_over_cube<R>(softened_distance2(dx, dy, dz, t.half_eps2[b] + sh), sm);
    const V own([&](auto l) { return index[b * W + static_cast<int>(l)] == j ? R(1) : R(0); });
    const auto other = own == V(R(0));
    stdx::where(other, t.ax[b]) = mul_add(k, dx, t.ax[b]);
    stdx::where(other, t.ay[b]) = mul_add(k, dy, t.ay[b]);
    stdx::where(other, t.az[b]) = mul_add(k, dz, t.az[b]);
  }
}

// One block of kBlocks·W targets (tx..th; lane l is body index[l], ascending) against source
// tile [tb, te); the sums so far are in ax..az (ignored on the first tile) and go back there,
// times g after the last tile. A target's sum runs over j in increasing order, skipping itself.
template <class R>
void accumulate_block(const DirectSources<R>& s, R g, const std::size_t* index, const R* tx,
                      const R* ty, const R* tz, const R* th, R* ax, R* ay, R* az, std::size_t tb,
                      std::size_t te, bool first, bool last) {
  using V = Lanes<R>;
  constexpr std::size_t W = V::size();
  TargetBlock<R> t;
  ORRERY_UNROLL
  for (int b = 0; b < kBlocks; ++b) {
    const std::size_t o = b * W;
    t.x[b].copy_from(tx + o, stdx::element_aligned);
    t.y[b].copy_from(ty + o, stdx::element_aligned);
    t.z[b].copy_from(tz + o, stdx::element_aligned);
    t.half_eps2[b].copy_from(th + o, stdx::element_aligned);
    if (first) {
      t.ax[b] = t.ay[b] = t.az[b] = V(R(0));
    } else {
      t.ax[b].copy_from(ax + o, stdx::element_aligned);
      t.ay[b].copy_from(ay + o, stdx::element_aligned);
      t.az[b].copy_from(az + o, stdx::element_aligned);
    }
  }
  // Only the block's own targets need a mask; a repeated index (padding) is swept once.
  std::size_t j = tb;
  for (std::size_t l = 0; l < kBlocks * W; ++l) {
    const std::size_t self = index[l];
    if (self < j || self >= te) continue;
    sweep<R>(s, j, self, t);
    sweep_self<R>(s, self, index, t);
    j = self + 1;
  }
  sweep<R>(s, j, te, t);
  ORRERY_UNROLL
  for (int b = 0; b < kBlocks; ++b) {
    const std::size_t o = b * W;
    if (last) {
      t.ax[b] = V(g) * t.ax[b];
      t.ay[b] = V(g) * t.ay[b];
      t.az[b] = V(g) * t.az[b];
    }
    t.ax[b].copy_to(ax + o, stdx::element_aligned);
    t.ay[b].copy_to(ay + o, stdx::element_aligned);
    t.az[b].copy_to(az + o, stdx::element_aligned);
  }
}

// Targets targets[0..count) (ascending body indices), gathered block by block into aligned
// copies (the last block padded with its last target, whose extra lanes are never stored), the
// sources streamed tile by tile past every block; each result written to its body.
template <class R>
void accelerations(const DirectSources<R>& s, R g, const std::uint32_t* targets,
                   std::size_t count, R* ax, R* ay, R* az) {
  if (count == 0) return;
  constexpr std::size_t BW = kBlocks * Lanes<R>::size();
  const std::size_t blocks = (count + BW - 1) / BW;
  struct alignas(64) Block {
    R target[4][BW];
    R acc[3][BW];
    std::size_t index[BW];
  };
  // A call of few targets (a three-body step makes sixteen) reuses this thread's blocks: taking
  // them from the heap and giving them back each time cost more than the interactions (the free
  // merged into the heap's top and made glibc consolidate its bins). Many targets take their own.
  constexpr std::size_t kReusedBytes = std::size_t{1} << 16;
  thread_local std::vector<Block> reused;
  std::vector<Block> own;
  std::vector<Block>& work = blocks * sizeof(Block) <= kReusedBytes ? reused : own;
  if (work.size() < blocks) work.resize(blocks);
  for (std::size_t b = 0; b < blocks; ++b)
    for (std::size_t l = 0; l < BW; ++l) {
      const std::size_t i = targets[lesser(b * BW + l, count - 1)];
      work[b].index[l] = i;
      work[b].target[0][l] = s.x[i];
      work[b].target[1][l] = s.y[i];
      work[b].target[2][l] = s.z[i];
      work[b].target[3][l] = s.half_eps2[i];
    }
  if (s.n_sources == 0) {  // every body massless: nothing pulls
    for (std::size_t k = 0; k < count; ++k) ax[targets[k]] = ay[targets[k]] = az[targets[k]] = R(0);
    return;
  }
  for (std::size_t tb = 0; tb < s.n_sources; tb += kTile<R>) {
    const std::size_t te = lesser(s.n_sources, tb + kTile<R>);
    for (std::size_t b = 0; b < blocks; ++b) {
      Block& w = work[b];
      accumulate_block(s, g, w.index, w.target[0], w.target[1], w.target[2], w.target[3],
                       w.acc[0], w.acc[1], w.acc[2], tb, te, tb == 0, te == s.n_sources);
    }
  }
  for (std::size_t k = 0; k < count; ++k) {
    const Block& w = work[k / BW];
    const std::size_t i = targets[k];
    ax[i] = w.acc[0][k % BW];
    ay[i] = w.acc[1][k % BW];
    az[i] = w.acc[2][k % BW];
  }
}

// The sources as vectors of W along j: from the arrays, and the last, partial vector from a
// copy padded with the last source (its extra lanes are masked off by the caller).
template <class R>
struct SourceVectors {
  Lanes<R> x, y, z, h, m;
};

template <class R>
class PaddedSources {
 public:
  static constexpr std::size_t W = Lanes<R>::size();
  explicit PaddedSources(const DirectSources<R>& s) : s_(s), full_(s.n / W * W) {
    for (std::size_t l = 0; full_ < s.n && l < W; ++l) {
      const std::size_t j = full_ + l < s.n ? full_ + l : s.n - 1;
      pad_[0][l] = s.x[j], pad_[1][l] = s.y[j], pad_[2][l] = s.z[j];
      pad_[3][l] = s.half_eps2[j], pad_[4][l] = s.mass[j];
    }
  }
  SourceVectors<R> at(std::size_t j) const {
    SourceVectors<R> v;
    if (j < full_) {
      v.x.copy_from(s_.x + j, stdx::element_aligned);
      v.y.copy_from(s_.y + j, stdx::element_aligned);
      v.z.copy_from(s_.z + j, stdx::element_aligned);
      v.h.copy_from(s_.half_eps2 + j, stdx::element_aligned);
      v.m.copy_from(s_.mass + j, stdx::element_aligned);
    } else {
      v.x.copy_from(pad_[0], stdx::vector_aligned);
      v.y.copy_from(pad_[1], stdx::vector_aligned);
      v.z.copy_from(pad_[2], stdx::vector_aligned);
      v.h.copy_from(pad_[3], stdx::vector_aligned);
      v.m.copy_from(pad_[4], stdx::vector_aligned);
    }
    return v;
  }

 private:
  const DirectSources<R>& s_;
  std::size_t full_;
  alignas(64) R pad_[5][W];
};

// Row i of the potential energy: sources j > i in aligned vectors (lanes outside (i, n) add 0),
// each lane summed with TwoSum (Knuth; exact error term, no branch), the lanes then added in
// order. Every term is the correctly rounded m_i m_j / √r², the same on every variant.
template <class R>
void potential_rows(const DirectSources<R>& s, std::size_t begin, std::size_t end,
                    double* rows) {
  using V = Lanes<R>;
  constexpr std::size_t W = V::size();
  const std::size_t n = s.n;
  const PaddedSources<R> sources(s);
  const V lane([](auto l) { return static_cast<R>(static_cast<int>(l)); });
  for (std::size_t i = begin; i < end; ++i) {
    const V xi(s.x[i]), yi(s.y[i]), zi(s.z[i]), hi(s.half_eps2[i]), mi(s.mass[i]);
    V sum(R(0)), carry(R(0));
    const std::size_t j0 = (i + 1) / W * W;
    for (std::size_t j = j0; j < n; j += W) {
      const auto [x, y, z, h, m] = sources.at(j);
      const V dx = x - xi, dy = y - yi, dz = z - zi;
      const V r2 = softened_distance2(dx, dy, dz, hi + h);
      V term = pair_potential_term(mi, m, r2);
      // Lane l is source j + l: it counts when i < j + l < n (small integers, exact in R).
      const R after = j > i ? R(-1) : static_cast<R>(i - j);
      const R before = static_cast<R>(lesser(n - j, W));
      stdx::where(!(lane > V(after) && lane < V(before)), term) = V(R(0));
      V error;
      sum = two_sum(sum, term, error);
      carry += error;
    }
    CompensatedSum<R> row;
    for (std::size_t l = 0; l < W; ++l) row.add(sum[l]);
    for (std::size_t l = 0; l < W; ++l) row.add(carry[l]);
    rows[i] = static_cast<double>(row.value());
  }
}

// Potentials: lanes along the sources with the target broadcast, 1/r from the refined estimate
// (nbody/lane_inverse_sqrt.hpp); the target's own lane and lanes past n add nothing.
template <class R>
void potentials(const DirectSources<R>& s, R g, std::size_t begin, std::size_t end, R* phi) {
  using V = Lanes<R>;
  constexpr std::size_t W = V::size();
  const std::size_t n = s.n;
  const PaddedSources<R> sources(s);
  const V lane([](auto l) { return static_cast<R>(static_cast<int>(l)); });
  for (std::size_t i = begin; i < end; ++i) {
    const V xi(s.x[i]), yi(s.y[i]), zi(s.z[i]), hi(s.half_eps2[i]);
    V sum(R(0));
    for (std::size_t j = 0; j < n; j += W) {
      const auto [x, y, z, h, m] = sources.at(j);
      const V dx = x - xi, dy = y - yi, dz = z - zi;
      V term = m * lane_inverse_sqrt<R>(softened_distance2(dx, dy, dz, hi + h));
      if (i >= j && i < j + W) stdx::where(lane == V(static_cast<R>(i - j)), term) = V(R(0));
      if (j + W > n) stdx::where(lane >= V(static_cast<R>(n - j)), term) = V(R(0));
      sum += term;
    }
    phi[i] = -g * stdx::reduce(sum);
  }
}

}  // namespace

extern const DirectKernelOps direct_kernel_ops;
const DirectKernelOps direct_kernel_ops{
    kBlocks * Lanes<double>::size(), kBlocks * Lanes<float>::size(),
    accelerations<double>,           accelerations<float>,
    potential_rows<double>,          potential_rows<float>,
    potentials<double>,              potentials<float>,
};

}  // namespace orrery::cpu::ORRERY_CPU_KERNEL

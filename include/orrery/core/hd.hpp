// SPDX-License-Identifier: MIT
// ORRERY_HD marks code that runs on the host and on the device: the right-hand sides, the
// register steppers and the per-trajectory logic are written once with it and compiled by both
// the C++ compiler (CPU backends) and nvcc (CUDA backends).
//
// On the host it also forces inlining. Besides speed, that keeps the per-ISA kernels safe: the
// AVX-512 and AVX2 translation units include these headers too, and an out-of-line copy of an
// inline function compiled there could be chosen by the linker for code that runs on a CPU
// without those instructions.
#pragma once

#if defined(__CUDACC__)
#define ORRERY_HD __host__ __device__ __forceinline__
#else
#define ORRERY_HD inline __attribute__((always_inline))
#endif

// Unrolls a loop with a small constant trip count (nvcc's own pragma in both of its passes, which
// warns of GCC's; GCC's for the host compiler alone).
#if defined(__CUDACC__)
#define ORRERY_UNROLL _Pragma("unroll")
#else
#define ORRERY_UNROLL _Pragma("GCC unroll 16")
#endif

// SPDX-License-Identifier: MIT
// The domains of the tree over ranks: the Morton curve of one global root box cut into R pieces
// of equal work (M. S. Warren & J. K. Salmon, Supercomputing '93; as GADGET-2, V. Springel,
// MNRAS 364, 1105, 2005, and Bonsai, J. Bédorf et al., SC'14, cut it). Each body's work is what
// its force cost in the previous evaluation (the sources its group listed; 1 each at the first),
// summed over the ranks in integers, which round nothing: every rank finds the same cuts. A cut
// is a boundary of an octree cell (a key whose low bits below some level are zero), so each
// domain is a union of whole cells.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace orrery::dist {

// Collective. The R + 1 keys that bound the domains of `ranks` ranks: rank r's is [cut[r],
// cut[r + 1]), cut[0] = 0 and cut[R] = 2⁶³ (past every 63-bit key). `keys` are this rank's
// bodies' keys in ascending order, `work` their work in the same order. Found by refining the
// cell that holds each cut, eight levels at a time (a histogram of the work in its sub-cells,
// summed over the ranks), until it holds at most 1/256 of a domain's work or is a finest cell;
// the cut is then the nearer boundary of that cell.
std::vector<std::uint64_t> domain_cuts(std::span<const std::uint64_t> keys,
                                       std::span<const std::uint64_t> work, int ranks);

// The rank whose domain holds `key`.
int domain_of(std::span<const std::uint64_t> cuts, std::uint64_t key);

}  // namespace orrery::dist

// SPDX-License-Identifier: MIT
// Pixels of the canonical 1000×1000, 50 000-step map with the counts of the program that
// published it (tests/data/seed-map-1000x50k-sample.csv: column j, row k, x, y, count).
#pragma once

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "orrery/ensemble/divergence_map.hpp"

namespace orrery::test {

struct ReferencePixels {
  std::vector<PixelIndex> pixels;
  std::vector<std::int32_t> counts;
};

inline ReferencePixels published_reference_pixels() {
  ReferencePixels r;
  std::ifstream in(ORRERY_TEST_DATA_DIR "/seed-map-1000x50k-sample.csv");
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#' || line[0] == 'j') continue;
    std::istringstream row(line);
    std::string j, k, x, y, count;
    std::getline(row, j, ',');
    std::getline(row, k, ',');
    std::getline(row, x, ',');
    std::getline(row, y, ',');
    std::getline(row, count, ',');
    r.pixels.push_back({std::stoi(j), std::stoi(k)});
    r.counts.push_back(std::stoi(count));
  }
  return r;
}

}  // namespace orrery::test

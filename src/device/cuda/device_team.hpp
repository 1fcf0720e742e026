// SPDX-License-Identifier: MIT
// The GPUs one force evaluation is spread over (the direct and tree engines on CUDA): the
// devices named, or every device of the host when none is. The first runs on the caller's stream
// (its CudaArrayDevice's, where the simulation's arrays live); every other gets a stream of its
// own and, where the hardware has it, peer access to the first, which speeds the copies of
// positions out and of results back.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace orrery::cuda {

struct TeamMember {
  int device = 0;
  int sms = 0;  // multiprocessors, for shares in proportion to them
  cudaStream_t stream = nullptr;
};

// `named`, or every device when it is empty; `engine` names the caller in the error thrown when
// there is no device at all ("the CUDA tree engine").
std::vector<int> devices_or_all(const std::vector<int>& named, const std::string& engine);

class DeviceTeam {
 public:
  // `devices` not empty; the streams of all but the first are the team's own.
  DeviceTeam(const std::vector<int>& devices, cudaStream_t first_stream);
  ~DeviceTeam();
  DeviceTeam(const DeviceTeam&) = delete;
  DeviceTeam& operator=(const DeviceTeam&) = delete;

  std::size_t size() const { return members_.size(); }
  const TeamMember& operator[](std::size_t k) const { return members_[k]; }

 private:
  std::vector<TeamMember> members_;
};

// An engine's per-device parts, one for each member of the team, each starting as its member.
template <class Share>
std::vector<std::unique_ptr<Share>> shares_of(const DeviceTeam& team) {
  std::vector<std::unique_ptr<Share>> shares;
  for (std::size_t k = 0; k < team.size(); ++k) {
    shares.push_back(std::make_unique<Share>());
    static_cast<TeamMember&>(*shares.back()) = team[k];
  }
  return shares;
}

// Items [0, total) split into consecutive ranges, each share's `first` and `n` in proportion to
// its multiprocessors (the last takes what rounding leaves).
template <class Share>
void split_by_multiprocessors(std::vector<std::unique_ptr<Share>>& shares, std::int64_t total) {
  std::int64_t sms = 0;
  for (const auto& s : shares) sms += s->sms;
  std::int64_t given = 0, weight = 0;
  for (auto& s : shares) {
    weight += s->sms;
    s->first = given;
    s->n = total * weight / sms - given;
    given += s->n;
  }
}

}  // namespace orrery::cuda

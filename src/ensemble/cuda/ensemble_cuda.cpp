// SPDX-License-Identifier: MIT
#include "ensemble/cuda/ensemble_cuda.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include <fmt/format.h>

#include "device/cuda/cuda_check.hpp"
#include "orrery/core/backend.hpp"
#include "orrery/core/error.hpp"
#include "device/cuda/device_info.hpp"
#include "device/cuda/device_team.hpp"
#include "device/cuda/memory.hpp"
#include "ensemble/cuda/ensemble_kernel.hpp"
#include "orrery/core/seconds_since.hpp"
#include "orrery/ensemble/ensemble_catalogue.hpp"

namespace orrery::cuda {

namespace {

// A device's buffers, kept for the life of the process: allocating and pinning hundreds of
// megabytes costs more than a run of a million trajectories (GrowingArray only grows).
struct EnsembleBuffers {
  DeviceArray<double> rows;
  DeviceArray<unsigned char> final_state;
  DeviceArray<float> drift;
  PinnedArray<unsigned char> final_host;
  PinnedArray<float> drift_host;
  // With a tolerance: steps accepted and rejected, status (uint32, uint32, uint8 per trajectory).
  DeviceArray<unsigned char> tally;
  PinnedArray<unsigned char> tally_host;
  // With a section: each trajectory's crossings and its K slots of D + 1 doubles.
  DeviceArray<std::int64_t> section_count;
  DeviceArray<double> section_points;
  PinnedArray<std::int64_t> section_count_host;
  PinnedArray<double> section_points_host;
};

// Bytes of a trajectory's tally (steps accepted and rejected, status).
constexpr std::size_t kTallyBytes = 2 * sizeof(std::uint32_t) + sizeof(std::uint8_t);

EnsembleBuffers& buffers_of(int device) {
  static std::mutex lock;
  static std::map<int, std::unique_ptr<EnsembleBuffers>> all;
  const std::lock_guard<std::mutex> hold(lock);
  auto& b = all[device];
  if (!b) b = std::make_unique<EnsembleBuffers>();
  return *b;
}

// A device's share of the trajectories is launched in chunks, each copied back while the next
// ones compute, and gathered into the outcome on the host as soon as it is back: the copy and
// the conversion to rows of doubles (hundreds of megabytes at 2²³ trajectories) then hide
// behind the kernels but for the last chunk. Each chunk's results are a structure of arrays of
// its own, at its offset in the device's buffers. Fewer chunks where a chunk would not fill the
// device several times over.
constexpr int kMostChunks = 4;
constexpr std::int64_t kLeastChunkTrajectories = std::int64_t{1} << 18;

// One chunk of a device's share: trajectories [first + offset, first + offset + n).
struct EnsembleChunk {
  std::int64_t offset = 0, n = 0;
  cudaEvent_t computed = nullptr, copied = nullptr;
};

// One device's share: its trajectories, its buffers, its chunks, the stream their copies go on
// and the events around its kernels.
struct EnsembleShare : TeamMember {
  std::int64_t first = 0, n = 0;
  EnsembleBuffers* buffers = nullptr;
  cudaEvent_t begin = nullptr, end = nullptr;
  cudaStream_t copies = nullptr;
  std::vector<EnsembleChunk> chunks;
  ~EnsembleShare() {
    if (begin) cudaEventDestroy(begin);
    if (end) cudaEventDestroy(end);
    for (auto& c : chunks) {
      if (c.computed) cudaEventDestroy(c.computed);
      if (c.copied) cudaEventDestroy(c.copied);
    }
    if (copies) cudaStreamDestroy(copies);
  }
};

// A chunk's structure of arrays in the precision's Real as rows of doubles, on every core.
template <class R>
void gather_state(const EnsembleShare& s, const EnsembleChunk& c, int words,
                  EnsembleOutcome& out) {
  const R* soa = reinterpret_cast<const R*>(s.buffers->final_host.get()) + c.offset * words;
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < c.n; ++i)
    for (int w = 0; w < words; ++w)
      out.final_state[static_cast<std::size_t>((s.first + c.offset + i) * words + w)] =
          static_cast<double>(soa[w * c.n + i]);
}

// A chunk's steps accepted, rejected and status into the outcome's, on every core.
void gather_tally(const EnsembleShare& s, const EnsembleChunk& c, EnsembleOutcome& out) {
  const unsigned char* t = s.buffers->tally_host.get() + c.offset * kTallyBytes;
  const auto* accepted = reinterpret_cast<const std::uint32_t*>(t);
  const std::uint32_t* rejected = accepted + c.n;
  const unsigned char* status = t + 2 * c.n * sizeof(std::uint32_t);
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < c.n; ++i) {
    const auto to = static_cast<std::size_t>(s.first + c.offset + i);
    out.steps_accepted[to] = accepted[i];
    out.steps_rejected[to] = rejected[i];
    out.status[to] = status[i];
  }
}

// Writes one element of every page of [p, p + n) on every core.
template <class T>
void touch_pages(T* p, std::size_t n) {
  constexpr std::size_t kPage = 4096 / sizeof(T);
  const auto pages = static_cast<std::int64_t>((n + kPage - 1) / kPage);
#pragma omp parallel for schedule(static)
  for (std::int64_t k = 0; k < pages; ++k) p[static_cast<std::size_t>(k) * kPage] = T(0);
}

// Enqueues a share's chunks: each kernel on the share's stream, then its copies back on the
// copy stream once it is done.
void launch_share(const EnsembleSetup& setup, EnsembleShare& s, int words, int row_words,
                  std::size_t real, bool drift) {
  const std::string where = fmt::format("the ensemble on device {}", s.device);
  EnsembleBuffers& b = *s.buffers;
  const auto n = static_cast<std::size_t>(s.n);
  double* rows = nullptr;
  if (setup.starts.rows) {
    rows = b.rows.reserve(n * row_words);
    ORRERY_CUDA_CHECK(cudaMemcpyAsync(rows, setup.starts.rows + s.first * row_words,
                                      n * row_words * sizeof(double), cudaMemcpyHostToDevice,
                                      s.stream),
                      where);
  }
  const std::size_t slot_row = static_cast<std::size_t>(setup.section.capacity) *
                               static_cast<std::size_t>(words + 1);
  unsigned char* final_state = b.final_state.reserve(n * words * real);
  unsigned char* final_host = b.final_host.reserve(n * words * real);
  float* drift_dev = drift ? b.drift.reserve(n * setup.samples) : nullptr;
  float* drift_host = drift ? b.drift_host.reserve(n * setup.samples) : nullptr;
  const bool adaptive = setup.tolerance > 0, sectioned = setup.section.word >= 0;
  unsigned char* tally = adaptive ? b.tally.reserve(n * kTallyBytes) : nullptr;
  unsigned char* tally_host = adaptive ? b.tally_host.reserve(n * kTallyBytes) : nullptr;
  std::int64_t* count = sectioned ? b.section_count.reserve(n) : nullptr;
  std::int64_t* count_host = sectioned ? b.section_count_host.reserve(n) : nullptr;
  double* points = sectioned ? b.section_points.reserve(n * slot_row) : nullptr;
  double* points_host = sectioned ? b.section_points_host.reserve(n * slot_row) : nullptr;

  const auto copy = [&](void* to, const void* from, std::size_t bytes) {
    ORRERY_CUDA_CHECK(cudaMemcpyAsync(to, from, bytes, cudaMemcpyDeviceToHost, s.copies), where);
  };
  ORRERY_CUDA_CHECK(cudaEventRecord(s.begin, s.stream), where);
  for (EnsembleChunk& c : s.chunks) {
    const auto off = static_cast<std::size_t>(c.offset), m = static_cast<std::size_t>(c.n);
    EnsembleKernelArgs a;
    a.starts = setup.starts;
    if (rows) a.starts.rows = rows + off * row_words;
    a.first = s.first + c.offset;
    a.n = c.n;
    a.total = setup.trajectories;
    a.dt = setup.dt;
    a.steps = setup.steps;
    a.samples = setup.samples;
    a.final_state = final_state + off * words * real;
    if (drift) a.drift = drift_dev + off * setup.samples;
    a.tolerance = setup.tolerance;
    a.t_end = ensemble_end_time(setup);
    if (adaptive) {
      unsigned char* t = tally + off * kTallyBytes;
      a.steps_accepted = reinterpret_cast<std::uint32_t*>(t);
      a.steps_rejected = a.steps_accepted + m;
      a.status = t + 2 * m * sizeof(std::uint32_t);
    }
    if (sectioned) {
      a.section = setup.section;
      a.section_count = count + off;
      a.section_points = points + off * slot_row;
    }
    launch_ensemble_kernel(setup, a, s.stream);
    ORRERY_CUDA_CHECK(cudaEventRecord(c.computed, s.stream), where);
    ORRERY_CUDA_CHECK(cudaStreamWaitEvent(s.copies, c.computed, 0), where);
    copy(final_host + off * words * real, a.final_state, m * words * real);
    if (drift) copy(drift_host + off * setup.samples, a.drift, m * setup.samples * sizeof(float));
    if (adaptive) copy(tally_host + off * kTallyBytes, tally + off * kTallyBytes, m * kTallyBytes);
    if (sectioned) {
      copy(count_host + off, a.section_count, m * sizeof(std::int64_t));
      copy(points_host + off * slot_row, a.section_points, m * slot_row * sizeof(double));
    }
    ORRERY_CUDA_CHECK(cudaEventRecord(c.copied, s.copies), where);
  }
  ORRERY_CUDA_CHECK(cudaEventRecord(s.end, s.stream), where);
}

// A chunk's results, once copied back, into the outcome.
void gather_chunk(const EnsembleSetup& setup, const EnsembleShare& s, const EnsembleChunk& c,
                  int words, EnsembleOutcome& out) {
  const std::string where = fmt::format("the ensemble on device {}", s.device);
  ORRERY_CUDA_CHECK(cudaEventSynchronize(c.copied), where);
  if (setup.precision == Precision::fp32)
    gather_state<float>(s, c, words, out);
  else
    gather_state<double>(s, c, words, out);
  if (setup.tolerance > 0) gather_tally(s, c, out);
  const auto first = static_cast<std::size_t>(s.first + c.offset);
  const auto m = static_cast<std::size_t>(c.n);
  if (setup.section.word >= 0) {
    const std::size_t row =
        static_cast<std::size_t>(setup.section.capacity) * static_cast<std::size_t>(words + 1);
    const auto off = static_cast<std::size_t>(c.offset);
    std::copy_n(s.buffers->section_count_host.get() + off, m, out.section_count.begin() + first);
    std::copy_n(s.buffers->section_points_host.get() + off * row, m * row,
                out.section_points.begin() + static_cast<std::ptrdiff_t>(first * row));
  }
  if (!out.drift.empty()) {
    const float* drift = s.buffers->drift_host.get() + c.offset * setup.samples;
    for (int k = 0; k < setup.samples; ++k)
      std::copy_n(drift + static_cast<std::size_t>(k) * m, m,
                  out.drift.begin() +
                      static_cast<std::ptrdiff_t>(k * setup.trajectories + first));
  }
}

}  // namespace

void run_ensemble(const EnsembleSetup& setup, const EnsembleRunOptions& options,
                  EnsembleOutcome& out) {
  const EnsembleProblemInfo& problem = ensemble_problems()[static_cast<std::size_t>(setup.problem)];
  const int words = problem.state_words, row_words = words + problem.parameters;
  const std::size_t real = setup.precision == Precision::fp32 ? sizeof(float) : sizeof(double);
  const auto start = std::chrono::steady_clock::now();

  // The first device works on its default stream, the others on the team's.
  DeviceTeam team(devices_or_all(options.devices, "the CUDA ensemble"), nullptr);
  auto shares = shares_of<EnsembleShare>(team);
  std::int64_t sms = 0;
  for (const auto& s : shares) sms += s->sms;
  std::int64_t given = 0, weight = 0;
  for (auto& s : shares) {
    weight += s->sms;
    s->first = given;
    s->n = setup.trajectories * weight / sms - given;
    given += s->n;
  }

  for (auto& s : shares) {
    if (s->n == 0) continue;
    const std::string where = fmt::format("the ensemble on device {}", s->device);
    ORRERY_CUDA_CHECK(cudaSetDevice(s->device), where);
    s->buffers = &buffers_of(s->device);
    ORRERY_CUDA_CHECK(cudaEventCreate(&s->begin), where);
    ORRERY_CUDA_CHECK(cudaEventCreate(&s->end), where);
    // Not blocking: the first device's kernels run on the legacy default stream, with which a
    // blocking stream would serialise.
    ORRERY_CUDA_CHECK(cudaStreamCreateWithFlags(&s->copies, cudaStreamNonBlocking), where);
    const auto chunks = static_cast<int>(
        std::clamp<std::int64_t>(s->n / kLeastChunkTrajectories, 1, kMostChunks));
    s->chunks.resize(static_cast<std::size_t>(chunks));
    // Chunks begin at multiples of a block of trajectories, so that each chunk's arrays in the
    // shared buffers stay aligned (a tally is 9 bytes a trajectory: its 32-bit counts need
    // offsets that are multiples of 4).
    const auto boundary = [&](int c) {
      return c == chunks ? s->n : s->n * c / chunks / kEnsembleThreadsPerBlock * kEnsembleThreadsPerBlock;
    };
    for (int c = 0; c < chunks; ++c) {
      EnsembleChunk& k = s->chunks[static_cast<std::size_t>(c)];
      k.offset = boundary(c);
      k.n = boundary(c + 1) - k.offset;
      ORRERY_CUDA_CHECK(cudaEventCreateWithFlags(&k.computed, cudaEventDisableTiming), where);
      ORRERY_CUDA_CHECK(cudaEventCreateWithFlags(&k.copied, cudaEventDisableTiming), where);
    }
    launch_share(setup, *s, words, row_words, real, !out.drift.empty());
  }

  // While the devices compute: the results' pages faulted in on every core, so that gathering
  // them after the kernels is a copy (the outcome's arrays are not zero-filled).
  touch_pages(out.final_state.data(), out.final_state.size());
  touch_pages(out.drift.data(), out.drift.size());
  touch_pages(out.steps_accepted.data(), out.steps_accepted.size());
  touch_pages(out.steps_rejected.data(), out.steps_rejected.size());
  touch_pages(out.status.data(), out.status.size());

  double kernel_seconds = 0;
  for (auto& s : shares) {
    if (s->n == 0) continue;
    const std::string where = fmt::format("the ensemble on device {}", s->device);
    ORRERY_CUDA_CHECK(cudaSetDevice(s->device), where);
    for (const EnsembleChunk& c : s->chunks) gather_chunk(setup, *s, c, words, out);
    ORRERY_CUDA_CHECK(cudaEventSynchronize(s->end), where);
    float ms = 0;
    ORRERY_CUDA_CHECK(cudaEventElapsedTime(&ms, s->begin, s->end), where);
    kernel_seconds = std::max(kernel_seconds, ms / 1e3);
  }

  out.info.seconds = seconds_since(start);
  out.info.kernel_seconds = kernel_seconds;
  out.info.backend = to_string(Backend::cuda);
  out.info.kernel = device_name(team[0].device);
  out.info.threads = static_cast<int>(team.size());
  if (options.progress) {
    EnsembleProgress p;
    p.trajectories_done = p.trajectories_total = setup.trajectories;
    p.seconds = out.info.seconds;
    options.progress(p);
  }
}

}  // namespace orrery::cuda

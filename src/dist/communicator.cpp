// SPDX-License-Identifier: MIT
// dist/communicator.hpp: one rank of one, or, where a launcher started this process, the ranks of
// an MPI job through the plugin (dist/mpi_calls.hpp), loaded then and only then.
#include <dlfcn.h>

#include <cstdio>
#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "dist/launcher.hpp"
#include "dist/mpi_calls.hpp"
#include "orrery/dist/communicator.hpp"

namespace orrery::dist {

namespace {

RankLayout g_layout;
const MpiCalls* g_calls = nullptr;  // while MPI runs: between MpiSession's start and its end

// The plugin of this build: <this program's folder>/../lib/liborrery_mpi.so (build/bin and
// build/lib; an installed bin/ and lib/ alike).
std::filesystem::path plugin_path() {
  std::error_code ec;
  const std::filesystem::path program = std::filesystem::read_symlink("/proc/self/exe", ec);
  return program.parent_path().parent_path() / "lib" / kMpiPluginName;
}

// The plugin's calls, loaded once (RTLD_GLOBAL: Open MPI's own components, which it loads in
// turn, look for libmpi's symbols there); null with the reason in *why.
const MpiCalls* plugin(std::string* why) {
  static std::string failure;
  static const MpiCalls* const calls = []() -> const MpiCalls* {
    if (!ORRERY_WITH_MPI) {
      failure = "this build has no MPI (configured with ORRERY_MPI=OFF, or without "
                "libopenmpi-dev): rebuild with -DORRERY_MPI=ON";
      return nullptr;
    }
    const std::filesystem::path path = plugin_path();
    void* handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL);
    if (!handle) {
      failure = std::string("its MPI part did not load (") + ::dlerror() + ")";
      return nullptr;
    }
    const auto entry =
        reinterpret_cast<const MpiCalls* (*)()>(::dlsym(handle, kMpiPluginEntry));
    const MpiCalls* c = entry ? entry() : nullptr;
    if (!c || c->version != kMpiCallsVersion) {
      failure = "its MPI part '" + path.string() + "' is of another build: rebuild orrery";
      return nullptr;
    }
    return c;
  }();
  if (why) *why = failure;
  return calls;
}

bool several() { return g_calls && g_layout.size > 1; }

}  // namespace

bool mpi_built() { return ORRERY_WITH_MPI; }

std::string mpi_library() {
  std::string why;
  const MpiCalls* calls = plugin(&why);
  return calls ? calls->library() : why;
}

bool in_mpi_job() { return g_calls != nullptr; }

const RankLayout& layout() { return g_layout; }

MpiSession::MpiSession(int& argc, char**& argv) {
  if (!launched_as_rank()) return;
  std::string why;
  const MpiCalls* calls = plugin(&why);
  if (!calls) {
    // One rank alone is one process; several would each do the whole job and race for the
    // same files.
    if (launcher_rank_count() <= 1) return;
    std::fprintf(stderr, "orrery: started as one of %d ranks, but %s; or run one process "
                         "without mpirun\n", launcher_rank_count(), why.c_str());
    std::exit(2);
  }
  g_layout = calls->start(&argc, &argv);
  g_calls = calls;
  initialised_ = true;
}

MpiSession::~MpiSession() {
  if (!initialised_) return;
  std::fflush(nullptr);
  g_calls->finish();
  g_calls = nullptr;
  g_layout = RankLayout{};
}

std::vector<std::vector<std::byte>> gather_to_root(std::span<const std::byte> mine) {
  if (several()) return g_calls->gather_to_root(mine);
  return {std::vector<std::byte>(mine.begin(), mine.end())};
}

void broadcast_from_root(std::vector<std::byte>& bytes) {
  if (several()) g_calls->broadcast_from_root(bytes);
}

int least_over_ranks(int value) { return several() ? g_calls->least_over_ranks(value) : value; }

std::int64_t sum_over_ranks(std::int64_t value) {
  return several() ? g_calls->sum_over_ranks(value) : value;
}

double max_over_ranks(double value) { return several() ? g_calls->max_over_ranks(value) : value; }

void all_gather_bytes(std::span<const std::byte> mine, std::span<std::byte> all,
                      std::span<const std::int64_t> counts, std::size_t unit) {
  if (several()) {
    g_calls->all_gather(mine, all, counts, unit);
    return;
  }
  std::copy(mine.begin(), mine.end(), all.begin());
}

void all_to_all_bytes(std::span<const std::byte> send, std::span<const std::int64_t> send_counts,
                      std::span<std::byte> receive, std::span<const std::int64_t> receive_counts,
                      std::size_t unit) {
  if (several()) {
    g_calls->all_to_all(send, send_counts, receive, receive_counts, unit);
    return;
  }
  std::copy(send.begin(), send.end(), receive.begin());
}

std::vector<std::int64_t> exchange_counts(std::span<const std::int64_t> send_counts) {
  std::vector<std::int64_t> received(send_counts.size());
  const std::vector<std::int64_t> ones(send_counts.size(), 1);
  all_to_all<std::int64_t>(send_counts, ones, received, ones);
  return received;
}

void send_to(int to, int tag, std::span<const std::byte> bytes) {
  if (several()) g_calls->send(to, tag, bytes);
}

bool message_waiting(int tag) { return several() && g_calls->message_waiting(tag); }

std::vector<std::byte> receive_from(int from, int tag, int* sender) {
  if (!several()) return {};
  return g_calls->receive(from, tag, sender);
}

bool alike_on_every_rank(std::uint64_t value) {
  // As halves of 31 bits, each equal everywhere where its least and its negation's least agree.
  for (const std::uint64_t half : {value & 0x7fffffffu, (value >> 32) & 0x7fffffffu}) {
    const int v = static_cast<int>(half);
    if (least_over_ranks(v) != -least_over_ranks(-v)) return false;
  }
  return true;
}

void abort_all(int status) {
  std::fflush(nullptr);
  if (g_calls) g_calls->abort_all(status);
  std::exit(status);
}

}  // namespace orrery::dist

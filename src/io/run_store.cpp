// SPDX-License-Identifier: MIT
#include "orrery/io/run_store.hpp"

#include <fcntl.h>
#include <stdio.h>
#include <zlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>

#include <fmt/format.h>

#include "orrery/core/error.hpp"
#include "orrery/core/float128.hpp"
#include "orrery/io/output_set.hpp"
#include "io/diagnostics_attributes.hpp"

namespace orrery {

namespace fs = std::filesystem;

namespace {

constexpr const char* kDescription = "run.h5";
constexpr const char* kSnapshotPrefix = "snapshot_";
constexpr const char* kCheckpointPrefix = "checkpoint_";
constexpr int kCheckpointsKept = 2;

// A checkpoint that verifies but belongs to another run.h5: refused whole, not passed over as
// damaged (every older checkpoint of this run would be renamed otherwise).
class RunMismatch : public InputError {
 public:
  using InputError::InputError;
};

template <class Real>
std::vector<double> interleaved(const std::vector<Real>& a, const std::vector<Real>& b,
                                const std::vector<Real>& c) {
  std::vector<double> out(3 * a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    out[3 * i] = static_cast<double>(a[i]);
    out[3 * i + 1] = static_cast<double>(b[i]);
    out[3 * i + 2] = static_cast<double>(c[i]);
  }
  return out;
}

template <class Real>
std::vector<double> widened(const std::vector<Real>& a) {
  std::vector<double> out(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) out[i] = static_cast<double>(a[i]);
  return out;
}

// The numbers of the files "<prefix>NNN.h5" in `folder`, ascending.
std::vector<std::int64_t> numbered(const fs::path& folder, const std::string& prefix) {
  std::vector<std::int64_t> out;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(folder, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.size() <= prefix.size() + 3 || name.compare(0, prefix.size(), prefix) != 0 ||
        name.compare(name.size() - 3, 3, ".h5") != 0)
      continue;
    const std::string digits = name.substr(prefix.size(), name.size() - prefix.size() - 3);
    if (digits.empty() || !std::all_of(digits.begin(), digits.end(), [](char ch) { return ch >= '0' && ch <= '9'; })) continue;
    out.push_back(std::stoll(digits));
  }
  std::sort(out.begin(), out.end());
  return out;
}

void remove_file(const fs::path& path) {
  std::error_code ec;
  fs::remove(path, ec);
  if (ec)
    throw RunError(fmt::format("cannot remove '{}': {}", path.string(), ec.message()));
}

// The hidden working folders of new runs named `name` whose makers are gone.
void remove_abandoned_starts(const fs::path& name) {
  const fs::path parent = name.has_parent_path() ? name.parent_path() : ".";
  const std::string prefix = fmt::format(".{}.tmp-", name.filename().string());
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(parent, ec)) {
    const std::string f = entry.path().filename().string();
    if (f.compare(0, prefix.size(), prefix) == 0 && entry.is_directory(ec) &&
        !RunLock::held(entry.path()))
      fs::remove_all(entry.path(), ec);
  }
}

// The CRC-32 (zlib) of the bytes of `path`.
std::int64_t file_crc32(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  const std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  if (!in.good() && !in.eof())
    throw InputError(fmt::format("'{}' cannot be read", path.string()));
  return static_cast<std::int64_t>(
      crc32_z(crc32(0L, Z_NULL, 0), reinterpret_cast<const Bytef*>(bytes.data()), bytes.size()));
}

}  // namespace

fs::path run_description_path(const fs::path& folder) { return folder / kDescription; }
fs::path snapshot_path(const fs::path& folder, std::int64_t index) {
  return folder / fmt::format("{}{:06}.h5", kSnapshotPrefix, index);
}
fs::path checkpoint_path(const fs::path& folder, std::int64_t steps) {
  return folder / fmt::format("{}{:06}.h5", kCheckpointPrefix, steps);
}
std::vector<std::int64_t> run_snapshots(const fs::path& folder) {
  return numbered(folder, kSnapshotPrefix);
}
std::vector<std::int64_t> run_checkpoints(const fs::path& folder) {
  return numbered(folder, kCheckpointPrefix);
}
bool is_run_folder(const fs::path& folder) {
  std::error_code ec;
  return fs::is_regular_file(run_description_path(folder), ec);
}

namespace {

// The rows of the snapshots `indices` from their attributes.
std::vector<DiagnosticsRow> rows_of_snapshots(const fs::path& folder,
                                              const std::vector<std::int64_t>& indices) {
  std::vector<DiagnosticsRow> rows;
  for (std::int64_t index : indices) {
    h5::Handle f = h5::open_file(snapshot_path(folder, index).string());
    rows.push_back(diagnostics_row_of_snapshot(f.id()));
  }
  return rows;
}

}  // namespace

std::vector<DiagnosticsRow> run_diagnostics(const fs::path& folder) {
  std::error_code ec;
  if (fs::exists(diagnostics_table_path(folder), ec)) return read_diagnostics_table(folder);
  return rows_of_snapshots(folder, run_snapshots(folder));
}

RunStore::RunStore(fs::path folder, fs::path name, RunLock lock)
    : folder_(std::move(folder)), name_(std::move(name)), lock_(std::move(lock)) {}

RunStore RunStore::create(const fs::path& name) {
  std::error_code ec;
  if (fs::exists(name, ec) || fs::is_symlink(name, ec))
    throw ParameterError("--out", name.string(),
                         "a name that does not exist yet (add --resume to continue the run)");
  remove_abandoned_starts(name);
  static std::atomic<int> serial{0};
  const fs::path parent = name.has_parent_path() ? name.parent_path() : ".";
  const fs::path work = parent / fmt::format(".{}.tmp-{}-{}", name.filename().string(),
                                             ::getpid(), serial.fetch_add(1));
  if (::mkdir(work.c_str(), 0755) != 0)
    throw RunError(fmt::format("cannot make the folder '{}': {}", work.string(),
                               std::strerror(errno)));
  return RunStore(work, name, RunLock(work));
}

RunStore RunStore::open(const fs::path& name) {
  std::error_code ec;
  if (!fs::is_directory(name, ec)) {
    if (fs::exists(name, ec))
      throw InputError(fmt::format("'{}' is not an orrery run: runs are folders (a run file of "
                                   "an older orrery cannot be continued)",
                                   name.string()));
    throw ParameterError("--out", name.string(), "an existing run to --resume");
  }
  if (!is_run_folder(name))
    throw InputError(fmt::format("'{}' is not an orrery run (it has no {})", name.string(),
                                 kDescription));
  RunStore store(name, name, RunLock(name));
  for (const auto& entry : fs::directory_iterator(name, ec))
    if (is_output_leftover(entry.path().filename().string())) remove_file(entry.path());
  store.load_header();
  return store;
}

void RunStore::write_description(const std::function<void(hid_t root)>& describe,
                                 const Diagnostics& initial) {
  std::string image;
  {
    h5::Handle file = h5::create_memory_file(run_description_path(folder_).string());
    describe(file.id());
    h5::Handle init = h5::create_group(file.id(), "initial_diagnostics");
    write_diagnostics(init.id(), initial);
    image = h5::file_image(file.id());
  }
  write_file_atomically(run_description_path(folder_), image);
  load_header();
}

void RunStore::publish() {
  if (folder_ == name_) return;
  const fs::path parent = name_.has_parent_path() ? name_.parent_path() : ".";
  if (::renameat2(AT_FDCWD, folder_.c_str(), AT_FDCWD, name_.c_str(), RENAME_NOREPLACE) != 0) {
    const int error = errno;
    throw RunError(fmt::format("cannot make the run '{}': {}{}", name_.string(),
                               std::strerror(error),
                               error == EEXIST ? " (another run took the name meanwhile)" : ""));
  }
  folder_ = name_;
  sync_directory(parent);
}

void RunStore::discard_unpublished() noexcept {
  if (folder_ == name_ || folder_.empty()) return;
  lock_ = RunLock();  // its file is in the folder
  std::error_code ec;
  fs::remove_all(folder_, ec);
}

void RunStore::load_header() {
  h5::Handle f = description();
  const hid_t root = f.id();
  header_.g = h5::read_attribute(root, "G").reals.at(0);
  header_.softening = h5::read_attribute(root, "softening").reals.at(0);
  header_.units = h5::read_attribute(root, "units").text;
  description_crc32_ = file_crc32(run_description_path(folder_));
}

h5::Handle RunStore::description() const {
  return h5::open_file(run_description_path(folder_).string());
}

Diagnostics RunStore::initial_diagnostics() const {
  h5::Handle f = description();
  h5::Handle g = h5::open_group(f.id(), "initial_diagnostics");
  return read_diagnostics(g.id());
}

std::vector<std::int64_t> RunStore::snapshots() const { return run_snapshots(folder_); }

template <class Real>
std::string encode_snapshot(const std::string& name, std::int64_t index, const Particles<Real>& p,
                            const SimClock& clock, const SnapshotHeader& header,
                            const Diagnostics& now, const Drift& drift, double t_end,
                            const DriftWarning& warning) {
  h5::Handle file = h5::create_memory_file(name);
  const hid_t g = file.id();
  const hsize_t n = p.size();
  const hsize_t dims3[2] = {n, 3}, dims1[1] = {n};
  h5::write_dataset<double>(g, "position", interleaved(p.x, p.y, p.z), dims3);
  h5::write_dataset<double>(g, "velocity", interleaved(p.vx, p.vy, p.vz), dims3);
  h5::write_dataset<double>(g, "mass", widened(p.mass), dims1);
  h5::write_dataset<std::uint64_t>(g, "id", p.id, dims1);
  if (!p.softening.empty())
    h5::write_dataset<double>(g, "softening", widened(p.softening), dims1);
  if (!p.radius.empty()) h5::write_dataset<double>(g, "radius", widened(p.radius), dims1);
  h5::write_attribute(g, "format", std::string("orrery snapshot"));
  h5::write_attribute(g, "index", index);
  h5::write_attribute(g, "step", clock.steps);
  h5::write_attribute(g, "dt", clock.dt);
  h5::write_attribute(g, "t-end", t_end);
  h5::write_attribute(g, "G", header.g);
  h5::write_attribute(g, "softening", header.softening);
  h5::write_attribute(g, "units", header.units);
  for (const auto& q : diagnostics_quantities(now, drift))
    if (q.value.size() == 1)
      h5::write_attribute(g, q.name, q.value[0]);
    else
      h5::write_attribute(g, q.name, std::span<const double>(q.value));
  write_diagnostics(g, now);  // time, energy and the scales, under their fixed names
  if (warning.raised()) {
    const double w[3] = {warning.time, static_cast<double>(warning.step), warning.drift};
    h5::write_attribute(g, "drift_warning", std::span<const double>(w, 3));
  }
  return h5::file_image(g);
}

template <class Real>
void RunStore::write_snapshot(std::int64_t index, const Particles<Real>& p, const SimClock& clock,
                              const Diagnostics& now, const Drift& drift, double t_end,
                              const DriftWarning& warning) {
  const std::string image = encode_snapshot(snapshot_path(folder_, index).string(), index, p,
                                            clock, header_, now, drift, t_end, warning);
  write_file_atomically(snapshot_path(folder_, index), image);
  table_.push_back(diagnostics_row(index, clock.steps, now, drift));
  write_file_atomically(diagnostics_table_path(folder_), encode_diagnostics_table(table_));
}

// Removals are not fsynced: a removed file that comes back after a crash is one the next
// resume removes (snapshots) or passes over (older checkpoints) again.
void RunStore::remove_snapshots_from(std::int64_t first) {
  for (std::int64_t index : snapshots())
    if (index >= first) remove_file(snapshot_path(folder_, index));
  table_.clear();
  try {
    table_ = read_diagnostics_table(folder_);
  } catch (const InputError&) {
  }
  std::erase_if(table_, [first](const DiagnosticsRow& r) { return r.index >= first; });
  bool whole = std::ssize(table_) == first;
  for (std::size_t r = 0; whole && r < table_.size(); ++r)
    whole = table_[r].index == static_cast<std::int64_t>(r);
  if (!whole) {
    std::vector<std::int64_t> kept(static_cast<std::size_t>(first));
    for (std::int64_t index = 0; index < first; ++index) kept[index] = index;
    table_ = rows_of_snapshots(folder_, kept);
  }
  write_file_atomically(diagnostics_table_path(folder_), encode_diagnostics_table(table_));
}

template <class Real>
void RunStore::write_checkpoint(const Checkpoint<Real>& c) {
  Checkpoint<Real> bound = c;
  bound.run_crc32 = description_crc32_;
  write_checkpoint_file(checkpoint_path(folder_, c.clock.steps), bound);
  auto all = run_checkpoints(folder_);
  if (all.size() <= static_cast<std::size_t>(kCheckpointsKept)) return;
  all.resize(all.size() - kCheckpointsKept);
  for (std::int64_t steps : all) remove_file(checkpoint_path(folder_, steps));
}

template <class Real>
Checkpoint<Real> RunStore::read_checkpoint(std::vector<std::string>& notes) {
  auto all = run_checkpoints(folder_);
  std::vector<fs::path> damaged;
  for (auto it = all.rbegin(); it != all.rend(); ++it) {
    const fs::path path = checkpoint_path(folder_, *it);
    try {
      Checkpoint<Real> c = read_checkpoint_file<Real>(path);
      if (c.clock.steps != *it)
        throw InputError(fmt::format("'{}' holds step {}", path.string(), c.clock.steps));
      if (c.run_crc32 >= 0 && c.run_crc32 != description_crc32_)
        throw RunMismatch(fmt::format(
            "--resume: '{}' was not written by the run in '{}': its record of {} does not match "
            "the one there (a checkpoint copied from another run, or {} changed or damaged "
            "since); not resumed",
            path.string(), name_.string(), kDescription, kDescription));
      for (const auto& d : damaged) {
        std::error_code ec;
        fs::rename(d, fs::path(d.string() + ".damaged"), ec);
      }
      if (!damaged.empty()) sync_directory(folder_);
      if (!damaged.empty())
        notes.push_back(fmt::format("resuming from the older '{}' (step {}, t = {}); the damaged "
                                    "one is kept as '{}.damaged'",
                                    path.string(), c.clock.steps, c.clock.t,
                                    damaged.front().filename().string()));
      return c;
    } catch (const RunMismatch&) {
      throw;
    } catch (const InputError& e) {
      notes.push_back(e.what());
      damaged.push_back(path);
    }
  }
  throw InputError(fmt::format("--resume: '{}' holds no checkpoint that verifies{}{}",
                               name_.string(), notes.empty() ? "" : ": ",
                               notes.empty() ? std::string() : notes.front()));
}

#define ORRERY_RUN_STORE(Real)                                                                 \
  template std::string encode_snapshot<Real>(                                                   \
      const std::string&, std::int64_t, const Particles<Real>&, const SimClock&,                \
      const SnapshotHeader&, const Diagnostics&, const Drift&, double, const DriftWarning&);    \
  template void RunStore::write_snapshot<Real>(std::int64_t, const Particles<Real>&,            \
                                               const SimClock&, const Diagnostics&,             \
                                               const Drift&, double, const DriftWarning&);      \
  template void RunStore::write_checkpoint<Real>(const Checkpoint<Real>&);                      \
  template Checkpoint<Real> RunStore::read_checkpoint<Real>(std::vector<std::string>&);
ORRERY_RUN_STORE(float)
ORRERY_RUN_STORE(double)
ORRERY_RUN_STORE(float128)
#undef ORRERY_RUN_STORE

}  // namespace orrery

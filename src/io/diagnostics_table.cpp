// SPDX-License-Identifier: MIT
#include "orrery/io/diagnostics_table.hpp"

#include <fmt/format.h>

#include "orrery/core/error.hpp"
#include "orrery/io/hdf5_file.hpp"

namespace orrery {

namespace {

constexpr const char* kFile = "diagnostics.h5";
constexpr const char* kGroup = "diagnostics";

// Name, width (1 or 3) and meaning of each column after index and step.
struct Column {
  std::string name;
  std::size_t width;
  std::string help;
  std::size_t offset;  // into DiagnosticsRow::values
};

const std::vector<Column>& columns() {
  static const std::vector<Column> all = [] {
    std::vector<Column> out;
    std::size_t offset = 0;
    for (const auto& q : diagnostics_quantities(Diagnostics{}, Drift{})) {
      out.push_back({q.name, q.value.size(), q.help, offset});
      offset += q.value.size();
    }
    return out;
  }();
  return all;
}

std::size_t row_width() { return columns().back().offset + columns().back().width; }

}  // namespace

DiagnosticsRow diagnostics_row(std::int64_t index, std::int64_t step, const Diagnostics& now,
                               const Drift& drift) {
  DiagnosticsRow row{index, step, {}};
  for (const auto& q : diagnostics_quantities(now, drift))
    row.values.insert(row.values.end(), q.value.begin(), q.value.end());
  return row;
}

DiagnosticsRow diagnostics_row_of_snapshot(hid_t root) {
  DiagnosticsRow row;
  row.index = h5::read_attribute(root, "index").integer;
  row.step = h5::read_attribute(root, "step").integer;
  for (const auto& c : columns()) {
    if (!h5::has_attribute(root, c.name))
      throw InputError(fmt::format("a snapshot has no attribute '{}'", c.name));
    const auto a = h5::read_attribute(root, c.name);
    if (a.reals.size() != c.width)
      throw InputError(fmt::format("a snapshot's attribute '{}' has {} values, not {}", c.name,
                                   a.reals.size(), c.width));
    row.values.insert(row.values.end(), a.reals.begin(), a.reals.end());
  }
  return row;
}

std::filesystem::path diagnostics_table_path(const std::filesystem::path& run) {
  return run / kFile;
}

std::string encode_diagnostics_table(const std::vector<DiagnosticsRow>& rows) {
  h5::Handle file = h5::create_memory_file(kFile);
  h5::write_attribute(file.id(), "format", std::string("orrery diagnostics"));
  h5::Handle g = h5::create_group(file.id(), kGroup);
  const hsize_t n = rows.size();
  std::vector<std::int64_t> index(n), step(n);
  for (std::size_t r = 0; r < n; ++r) index[r] = rows[r].index, step[r] = rows[r].step;
  const hsize_t dims1[1] = {n};
  h5::write_dataset<std::int64_t>(g.id(), "index", index, dims1);
  h5::write_dataset<std::int64_t>(g.id(), "step", step, dims1);
  for (const auto& c : columns()) {
    std::vector<double> data;
    data.reserve(n * c.width);
    for (const auto& row : rows)
      data.insert(data.end(), row.values.begin() + c.offset,
                  row.values.begin() + c.offset + c.width);
    const hsize_t dims2[2] = {n, c.width};
    h5::write_dataset<double>(g.id(), c.name, data,
                              std::span<const hsize_t>(c.width == 1 ? dims1 : dims2,
                                                       c.width == 1 ? 1 : 2));
    h5::Handle d(H5Dopen2(g.id(), c.name.c_str(), H5P_DEFAULT), H5Dclose);
    h5::write_attribute(d.id(), "help", c.help);
  }
  return h5::file_image(file.id());
}

std::vector<DiagnosticsRow> read_diagnostics_table(const std::filesystem::path& run) {
  const auto path = diagnostics_table_path(run);
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    throw InputError(fmt::format("'{}' has no diagnostics table ({}): a run of an older orrery? "
                                 "--resume writes it",
                                 run.string(), kFile));
  h5::Handle file = h5::open_file(path.string());
  if (!h5::exists(file.id(), kGroup))
    throw InputError(fmt::format("'{}' holds no /{}", path.string(), kGroup));
  h5::Handle g = h5::open_group(file.id(), kGroup);
  const auto index = h5::read_dataset<std::int64_t>(g.id(), "index");
  const auto step = h5::read_dataset<std::int64_t>(g.id(), "step");
  std::vector<DiagnosticsRow> rows(index.size());
  for (std::size_t r = 0; r < rows.size(); ++r) {
    rows[r].index = index[r];
    rows[r].step = step.at(r);
    rows[r].values.resize(row_width());
  }
  for (const auto& c : columns()) {
    const auto data = h5::read_dataset<double>(g.id(), c.name);
    if (data.size() != rows.size() * c.width)
      throw InputError(fmt::format("'{}': /{}/{} has {} values for {} rows", path.string(),
                                   kGroup, c.name, data.size(), rows.size()));
    for (std::size_t r = 0; r < rows.size(); ++r)
      for (std::size_t k = 0; k < c.width; ++k)
        rows[r].values[c.offset + k] = data[r * c.width + k];
  }
  return rows;
}

std::vector<double> diagnostics_column(const std::vector<DiagnosticsRow>& rows,
                                       const std::string& name, int component) {
  if (name == "index" || name == "step") {
    std::vector<double> out;
    for (const auto& row : rows) out.push_back(static_cast<double>(name == "index" ? row.index : row.step));
    return out;
  }
  std::string names;
  for (const auto& c : columns()) {
    names += (names.empty() ? "" : ", ") + c.name;
    if (c.name != name) continue;
    if (component < 0 || static_cast<std::size_t>(component) >= c.width)
      throw ParameterError("component", fmt::format("{}", component),
                           fmt::format("0 to {} for '{}'", c.width - 1, name));
    std::vector<double> out;
    out.reserve(rows.size());
    for (const auto& row : rows) out.push_back(row.values.at(c.offset + component));
    return out;
  }
  throw ParameterError("column", name, "one of: index, step, " + names);
}

}  // namespace orrery

// SPDX-License-Identifier: MIT
// Every dataset of an HDF5 file as the bytes of its values, for comparing the data of two files
// whose attributes (timings, who wrote them) may differ.
#pragma once

#include <hdf5.h>

#include <filesystem>
#include <map>
#include <string>

#include "orrery/io/hdf5_file.hpp"

namespace orrery::test {

// The datasets under `group`, by path, as the bytes of their values.
inline void collect_datasets(hid_t group, const std::string& prefix,
                             std::map<std::string, std::string>& found) {
  for (const std::string& name : h5::child_names(group)) {
    const hid_t object = H5Oopen(group, name.c_str(), H5P_DEFAULT);
    if (H5Iget_type(object) == H5I_GROUP) {
      collect_datasets(object, prefix + name + "/", found);
    } else if (H5Iget_type(object) == H5I_DATASET) {
      const hid_t stored = H5Dget_type(object);
      const hid_t type = H5Tget_native_type(stored, H5T_DIR_ASCEND);
      const hid_t space = H5Dget_space(object);
      const auto points = static_cast<std::size_t>(H5Sget_simple_extent_npoints(space));
      std::string bytes(points * H5Tget_size(type), '\0');
      if (!bytes.empty()) H5Dread(object, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, bytes.data());
      found[prefix + name] = bytes;
      H5Sclose(space);
      H5Tclose(type);
      H5Tclose(stored);
    }
    H5Oclose(object);
  }
}

// Every dataset of an HDF5 file, by path, as the bytes of its values.
inline std::map<std::string, std::string> datasets_of(const std::filesystem::path& path) {
  std::map<std::string, std::string> found;
  const h5::Handle file = h5::open_file(path.string());
  collect_datasets(file.id(), "", found);
  return found;
}

}  // namespace orrery::test

// SPDX-License-Identifier: MIT
// A small RAII layer over the HDF5 C API: files, groups, whole-array datasets and scalar or
// array attributes of the few types orrery stores. Objects carry no modification times, so
// equal contents make equal files. HDF5's own error printing is switched off;
// failures throw with the file and object named.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <hdf5.h>

namespace orrery::h5 {

// Owns one HDF5 identifier and closes it with the matching H5*close.
class Handle {
 public:
  Handle() = default;
  Handle(hid_t id, herr_t (*close)(hid_t)) : id_(id), close_(close) {}
  Handle(Handle&& o) noexcept : id_(o.id_), close_(o.close_) { o.id_ = H5I_INVALID_HID; }
  Handle& operator=(Handle&& o) noexcept;
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  ~Handle();
  hid_t id() const { return id_; }
  explicit operator bool() const { return id_ >= 0; }

 private:
  hid_t id_ = H5I_INVALID_HID;
  herr_t (*close_)(hid_t) = nullptr;
};

Handle create_file(const std::string& path);  // truncates
// A file held in memory only, written out whole with file_image() (io/output_set.hpp), so that
// every disk write and its error are orrery's own, not HDF5's. `name` is for messages.
Handle create_memory_file(const std::string& name);
std::string file_image(hid_t file);  // the bytes of the whole file
Handle open_file(const std::string& path);    // read-only; throws InputError when unreadable
Handle open_file_rw(const std::string& path); // read-write; throws InputError when unreadable
void flush(hid_t file);
void remove(hid_t parent, const std::string& name);  // unlinks a group or dataset
Handle create_group(hid_t parent, const std::string& name);
Handle open_group(hid_t parent, const std::string& name);
bool exists(hid_t parent, const std::string& name);
std::vector<std::string> child_names(hid_t group);  // in name order

// Datasets of any rank, written and read whole (row-major).
template <class T>
void write_dataset(hid_t parent, const std::string& name, std::span<const T> data,
                   std::span<const hsize_t> dims);
template <class T>
std::vector<T> read_dataset(hid_t parent, const std::string& name,
                            std::vector<hsize_t>* dims = nullptr);

void write_attribute(hid_t object, const std::string& name, std::int64_t value);
void write_attribute(hid_t object, const std::string& name, double value);
void write_attribute(hid_t object, const std::string& name, std::span<const double> values);
void write_attribute(hid_t object, const std::string& name, const std::string& value);

// An attribute as stored: integer, real, real array or string.
struct Attribute {
  enum class Type { Integer, Real, Reals, Text } type;
  std::int64_t integer = 0;
  std::vector<double> reals;  // one value for Real
  std::string text;
};
bool has_attribute(hid_t object, const std::string& name);
Attribute read_attribute(hid_t object, const std::string& name);
std::vector<std::string> attribute_names(hid_t object);

}  // namespace orrery::h5

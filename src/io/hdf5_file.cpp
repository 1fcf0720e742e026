// SPDX-License-Identifier: MIT
#include "orrery/io/hdf5_file.hpp"

#include <algorithm>
#include <cstdint>
#include <string_view>
#include <atomic>
#include <mutex>

#include <fmt/format.h>

#include "orrery/core/error.hpp"
#include "orrery/core/memory_budget.hpp"

namespace orrery::h5 {

namespace {

// HDF5 prints its error stack by default; orrery reports errors itself. A thread-safe HDF5
// keeps this setting per thread (view and render read snapshots on threads of their own, which
// printed the stack), so each thread silences it once.
void silence_hdf5() {
  thread_local bool silenced = false;
  if (silenced) return;
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  silenced = true;
}

std::string object_name(hid_t id) {
  char buf[512] = {0};
  char file[512] = {0};
  H5Iget_name(id, buf, sizeof buf);
  H5Fget_name(id, file, sizeof file);
  return fmt::format("{}:{}", file, buf);
}

[[noreturn]] void fail(const std::string& what) { throw RunError("HDF5: " + what); }

// The descriptions on HDF5's error stack, innermost last; read right after the failed call.
std::vector<std::string> error_descriptions() {
  std::vector<std::string> out;
  H5Ewalk2(
      H5E_DEFAULT, H5E_WALK_UPWARD,
      [](unsigned, const H5E_error2_t* e, void* data) -> herr_t {
        if (e->desc) static_cast<std::vector<std::string>*>(data)->emplace_back(e->desc);
        return 0;
      },
      &out);
  return out;
}

// Why H5Fopen refused a file that has HDF5's signature, in words a user can act on.
InputError open_error(const std::string& path, bool writing) {
  const std::vector<std::string> why = error_descriptions();
  const auto says = [&](std::string_view words) {
    return std::any_of(why.begin(), why.end(), [&](const std::string& d) {
      return d.find(words) != std::string::npos;
    });
  };
  const std::string file = shown_text(path, 400);
  if (says("truncated file"))
    return InputError(fmt::format("'{}' is truncated: it ends before the end its HDF5 header "
                                  "records (a copy or a write that did not finish, or a full "
                                  "disk)",
                                  file));
  if (says("unable to lock file") || says("file is already open") || says("lock"))
    return InputError(fmt::format("'{}' is in use: another process has it open{} (HDF5 locks "
                                  "the file; wait for it to finish, or stop it)",
                                  file, writing ? "" : " for writing"));
  return InputError(fmt::format("cannot open HDF5 file '{}'{}: {}", file,
                                writing ? " for writing" : "",
                                why.empty() ? std::string("reason unknown") : why.front()));
}

template <class T>
hid_t native_type();
template <>
hid_t native_type<std::int32_t>() { return H5T_NATIVE_INT32; }
template <>
hid_t native_type<std::int64_t>() { return H5T_NATIVE_INT64; }
template <>
hid_t native_type<std::uint8_t>() { return H5T_NATIVE_UINT8; }
template <>
hid_t native_type<std::uint32_t>() { return H5T_NATIVE_UINT32; }
template <>
hid_t native_type<std::uint64_t>() { return H5T_NATIVE_UINT64; }
template <>
hid_t native_type<double>() { return H5T_NATIVE_DOUBLE; }
template <>
hid_t native_type<float>() { return H5T_NATIVE_FLOAT; }

Handle scalar_space() { return Handle(H5Screate(H5S_SCALAR), H5Sclose); }
Handle simple_space(std::span<const hsize_t> dims) {
  return Handle(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr), H5Sclose);
}

void put_attribute(hid_t object, const std::string& name, hid_t type, hid_t space,
                   const void* data) {
  if (H5Aexists(object, name.c_str()) > 0) H5Adelete(object, name.c_str());
  Handle a(H5Acreate2(object, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
  if (!a || H5Awrite(a.id(), type, data) < 0)
    fail(fmt::format("cannot write attribute '{}' of {}", name, object_name(object)));
}

// Creation properties without modification times (HDF5 stamps objects by default).
Handle untimed(hid_t property_class) {
  Handle p(H5Pcreate(property_class), H5Pclose);
  H5Pset_obj_track_times(p.id(), false);
  return p;
}

}  // namespace

Handle& Handle::operator=(Handle&& o) noexcept {
  if (this != &o) {
    if (id_ >= 0 && close_) close_(id_);
    id_ = o.id_;
    close_ = o.close_;
    o.id_ = H5I_INVALID_HID;
  }
  return *this;
}

Handle::~Handle() {
  if (id_ >= 0 && close_) close_(id_);
}

Handle create_file(const std::string& path) {
  silence_hdf5();
  Handle f(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), H5Fclose);
  if (!f) fail(fmt::format("cannot create '{}'", path));
  return f;
}

Handle create_memory_file(const std::string& name) {
  silence_hdf5();
  // HDF5 refuses to create a file under a name it holds open, in memory too: each gets its own.
  static std::atomic<int> serial{0};
  // The image grows by this much at a time, each growth zeroed: small enough that a small file
  // (a description, a three-body snapshot) costs little, while a large one grows by moving
  // pages (realloc of large blocks remaps them).
  constexpr std::size_t kGrowth = std::size_t{1} << 16;
  Handle fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
  if (!fapl || H5Pset_fapl_core(fapl.id(), kGrowth, false) < 0)
    fail(fmt::format("cannot make an in-memory file for '{}'", name));
  const std::string unique = fmt::format("{}#memory-{}", name, serial.fetch_add(1));
  Handle f(H5Fcreate(unique.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl.id()), H5Fclose);
  if (!f) fail(fmt::format("cannot make an in-memory file for '{}'", name));
  return f;
}

std::string file_image(hid_t file) {
  flush(file);
  const ssize_t size = H5Fget_file_image(file, nullptr, 0);
  if (size <= 0) fail(fmt::format("cannot take the image of {}", object_name(file)));
  std::string bytes(static_cast<std::size_t>(size), '\0');
  if (H5Fget_file_image(file, bytes.data(), bytes.size()) != size)
    fail(fmt::format("cannot take the image of {}", object_name(file)));
  return bytes;
}

Handle open_file(const std::string& path) {
  silence_hdf5();
  if (H5Fis_hdf5(path.c_str()) <= 0)
    throw InputError(fmt::format("'{}' is not a readable HDF5 file", path));
  Handle f(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  if (!f) throw open_error(path, false);
  return f;
}

Handle open_file_rw(const std::string& path) {
  silence_hdf5();
  if (H5Fis_hdf5(path.c_str()) <= 0)
    throw InputError(fmt::format("'{}' is not a readable HDF5 file", path));
  Handle f(H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT), H5Fclose);
  if (!f) throw open_error(path, true);
  return f;
}

void flush(hid_t file) {
  if (H5Fflush(file, H5F_SCOPE_GLOBAL) < 0) fail(fmt::format("cannot flush {}", object_name(file)));
}

void remove(hid_t parent, const std::string& name) {
  if (H5Ldelete(parent, name.c_str(), H5P_DEFAULT) < 0)
    fail(fmt::format("cannot remove '{}' from {}", name, object_name(parent)));
}

Handle create_group(hid_t parent, const std::string& name) {
  Handle gcpl = untimed(H5P_GROUP_CREATE);
  Handle g(H5Gcreate2(parent, name.c_str(), H5P_DEFAULT, gcpl.id(), H5P_DEFAULT), H5Gclose);
  if (!g) fail(fmt::format("cannot create group '{}' in {}", name, object_name(parent)));
  return g;
}

Handle open_group(hid_t parent, const std::string& name) {
  silence_hdf5();  // a file opened on another thread may be read on this one
  Handle g(H5Gopen2(parent, name.c_str(), H5P_DEFAULT), H5Gclose);
  if (!g) throw InputError(fmt::format("{} has no group '{}'", object_name(parent), name));
  return g;
}

bool exists(hid_t parent, const std::string& name) {
  silence_hdf5();
  return H5Lexists(parent, name.c_str(), H5P_DEFAULT) > 0;
}

std::vector<std::string> child_names(hid_t group) {
  std::vector<std::string> names;
  H5Literate(
      group, H5_INDEX_NAME, H5_ITER_INC, nullptr,
      [](hid_t, const char* name, const H5L_info_t*, void* out) -> herr_t {
        static_cast<std::vector<std::string>*>(out)->emplace_back(name);
        return 0;
      },
      &names);
  return names;
}

template <class T>
void write_dataset(hid_t parent, const std::string& name, std::span<const T> data,
                   std::span<const hsize_t> dims) {
  hsize_t n = 1;
  for (auto d : dims) n *= d;
  if (n != data.size()) fail(fmt::format("dataset '{}': {} values for shape of {}", name,
                                         data.size(), n));
  Handle space = simple_space(dims);
  Handle dcpl = untimed(H5P_DATASET_CREATE);
  Handle d(H5Dcreate2(parent, name.c_str(), native_type<T>(), space.id(), H5P_DEFAULT,
                      dcpl.id(), H5P_DEFAULT),
           H5Dclose);
  if (!d || H5Dwrite(d.id(), native_type<T>(), H5S_ALL, H5S_ALL, H5P_DEFAULT, data.data()) < 0)
    fail(fmt::format("cannot write dataset '{}' in {}", name, object_name(parent)));
}

namespace {

// The number of values a dataset declares, refused (InputError) where the product of its
// dimensions overflows, where an unfiltered dataset declares more values than it stores
// bytes for (a damaged or hostile file), or where reading it would take more memory than
// this process may use.
hsize_t checked_value_count(hid_t dataset, const std::string& name, hid_t parent,
                            const std::vector<hsize_t>& shape, std::size_t value_bytes) {
  hsize_t n = 1;
  for (auto s : shape) {
    if (s != 0 && n > UINT64_MAX / s)
      throw InputError(fmt::format("dataset '{}' of {} declares more values than can be counted",
                                   name, object_name(parent)));
    n *= s;
  }
  const double bytes = static_cast<double>(n) * static_cast<double>(value_bytes);
  Handle plist(H5Dget_create_plist(dataset), H5Pclose);
  const bool filtered = plist && H5Pget_nfilters(plist.id()) > 0;
  const bool compact = plist && H5Pget_layout(plist.id()) == H5D_COMPACT;
  const double stored = static_cast<double>(H5Dget_storage_size(dataset));
  Handle type(H5Dget_type(dataset), H5Tclose);
  const double stored_values = type ? stored / static_cast<double>(H5Tget_size(type.id())) : 0;
  if (n > 0 && !filtered && !compact && stored_values < static_cast<double>(n))
    throw InputError(fmt::format("dataset '{}' of {} declares {} values but the file holds data "
                                 "for {:.0f} (a damaged file, or one written incompletely)",
                                 name, object_name(parent), n, stored_values));
  check_memory(fmt::format("reading dataset '{}' of {} ({} values)", name, object_name(parent), n),
               bytes);
  return n;
}

}  // namespace

template <class T>
std::vector<T> read_dataset(hid_t parent, const std::string& name, std::vector<hsize_t>* dims) {
  silence_hdf5();
  Handle d(H5Dopen2(parent, name.c_str(), H5P_DEFAULT), H5Dclose);
  if (!d) throw InputError(fmt::format("{} has no dataset '{}'", object_name(parent), name));
  Handle space(H5Dget_space(d.id()), H5Sclose);
  const int rank = H5Sget_simple_extent_ndims(space.id());
  std::vector<hsize_t> shape(static_cast<std::size_t>(std::max(rank, 0)));
  H5Sget_simple_extent_dims(space.id(), shape.data(), nullptr);
  const hsize_t n = checked_value_count(d.id(), name, parent, shape, sizeof(T));
  std::vector<T> out(n);
  if (n > 0 &&
      H5Dread(d.id(), native_type<T>(), H5S_ALL, H5S_ALL, H5P_DEFAULT, out.data()) < 0)
    throw InputError(fmt::format("cannot read dataset '{}' of {}", name, object_name(parent)));
  if (dims) *dims = shape;
  return out;
}

#define ORRERY_H5_DATASET(T)                                                              \
  template void write_dataset<T>(hid_t, const std::string&, std::span<const T>,           \
                                 std::span<const hsize_t>);                               \
  template std::vector<T> read_dataset<T>(hid_t, const std::string&, std::vector<hsize_t>*);
ORRERY_H5_DATASET(std::int32_t)
ORRERY_H5_DATASET(std::int64_t)
ORRERY_H5_DATASET(std::uint8_t)
ORRERY_H5_DATASET(std::uint32_t)
ORRERY_H5_DATASET(std::uint64_t)
ORRERY_H5_DATASET(double)
ORRERY_H5_DATASET(float)
#undef ORRERY_H5_DATASET

void write_attribute(hid_t object, const std::string& name, std::int64_t value) {
  put_attribute(object, name, H5T_NATIVE_INT64, scalar_space().id(), &value);
}

void write_attribute(hid_t object, const std::string& name, double value) {
  put_attribute(object, name, H5T_NATIVE_DOUBLE, scalar_space().id(), &value);
}

void write_attribute(hid_t object, const std::string& name, std::span<const double> values) {
  const hsize_t n = values.size();
  put_attribute(object, name, H5T_NATIVE_DOUBLE, simple_space({&n, 1}).id(), values.data());
}

void write_attribute(hid_t object, const std::string& name, const std::string& value) {
  Handle type(H5Tcopy(H5T_C_S1), H5Tclose);
  H5Tset_size(type.id(), std::max<std::size_t>(value.size(), 1));
  H5Tset_cset(type.id(), H5T_CSET_UTF8);
  put_attribute(object, name, type.id(), scalar_space().id(), value.data());
}

bool has_attribute(hid_t object, const std::string& name) {
  silence_hdf5();
  return H5Aexists(object, name.c_str()) > 0;
}

Attribute read_attribute(hid_t object, const std::string& name) {
  silence_hdf5();
  Handle a(H5Aopen(object, name.c_str(), H5P_DEFAULT), H5Aclose);
  if (!a) throw InputError(fmt::format("{} has no attribute '{}'", object_name(object), name));
  Handle type(H5Aget_type(a.id()), H5Tclose);
  Handle space(H5Aget_space(a.id()), H5Sclose);
  const hssize_t n = H5Sget_simple_extent_npoints(space.id());
  Attribute out{};
  switch (H5Tget_class(type.id())) {
    case H5T_INTEGER:
      out.type = Attribute::Type::Integer;
      if (n != 1) break;
      H5Aread(a.id(), H5T_NATIVE_INT64, &out.integer);
      return out;
    case H5T_FLOAT:
      out.reals.resize(static_cast<std::size_t>(n));
      out.type = H5Sget_simple_extent_type(space.id()) == H5S_SCALAR ? Attribute::Type::Real
                                                                    : Attribute::Type::Reals;
      H5Aread(a.id(), H5T_NATIVE_DOUBLE, out.reals.data());
      return out;
    case H5T_STRING: {
      out.type = Attribute::Type::Text;
      if (H5Tis_variable_str(type.id()) > 0) break;
      out.text.resize(H5Tget_size(type.id()));
      H5Aread(a.id(), type.id(), out.text.data());
      out.text.erase(std::find(out.text.begin(), out.text.end(), '\0'), out.text.end());
      return out;
    }
    default: break;
  }
  throw InputError(fmt::format("attribute '{}' of {} has a type orrery does not read", name,
                               object_name(object)));
}

std::vector<std::string> attribute_names(hid_t object) {
  std::vector<std::string> names;
  H5Aiterate2(
      object, H5_INDEX_NAME, H5_ITER_INC, nullptr,
      [](hid_t, const char* name, const H5A_info_t*, void* out) -> herr_t {
        static_cast<std::vector<std::string>*>(out)->emplace_back(name);
        return 0;
      },
      &names);
  return names;
}

}  // namespace orrery::h5

// SPDX-License-Identifier: MIT
// Every parameter of a job as an HDF5 attribute named after the parameter, and back: the file
// alone is enough to rerun the job.
#pragma once

#include <vector>

#include <hdf5.h>

#include "orrery/core/parameter.hpp"

namespace orrery {

void write_param_attribute(hid_t object, const std::string& name, const ParamValue& value);
// The attribute as the kind of value `spec` takes; InputError when missing or of another type.
ParamValue read_param_attribute(hid_t object, const ParamSpec& spec);

template <class P>
void write_param_attributes(hid_t object, const std::vector<ParamField<P>>& fields,
                            const P& params) {
  for (const auto& f : fields)
    if (f.get) write_param_attribute(object, f.name, f.get(params));
}

template <class P>
P read_param_attributes(hid_t object, const std::vector<ParamField<P>>& fields) {
  P params{};
  for (const auto& f : fields)
    if (f.get) f.set(params, read_param_attribute(object, f));
  return params;
}

}  // namespace orrery

// SPDX-License-Identifier: MIT
// orrery.load(path): particles from a file, a snapshot or every snapshot of a run, as numpy
// arrays, read as `orrery sim --input` reads them; orrery.load_map(path): the counts of a map's
// data file (`orrery map --data`).
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "orrery/io/divergence_map_file.hpp"
#include "orrery/io/run_store.hpp"
#include "orrery/jobs/simulation_of_job.hpp"

namespace orrery::python {

namespace {

py::dict snapshot(const std::string& path) {
  SimJob in;
  in.input = path;
  SimStart s = read_sim_input(in);
  Particles<double>& p = s.ic.particles;
  const auto n = static_cast<py::ssize_t>(p.size());
  py::dict d;
  d["position"] = owned_array(rows_of_columns(p.x, p.y, p.z), {n, 3});
  d["velocity"] = owned_array(rows_of_columns(p.vx, p.vy, p.vz), {n, 3});
  d["mass"] = owned_array(std::move(p.mass), {n});
  d["id"] = owned_array(std::move(p.id), {n});
  if (!p.softening.empty()) d["particle_softening"] = owned_array(std::move(p.softening), {n});
  d["time"] = s.start_time;
  d["dt"] = s.dt;
  d["G"] = s.ic.g;
  d["softening"] = s.ic.softening;
  d["units"] = s.ic.units;
  return d;
}

py::object load(const std::string& path) {
  if (!is_run_folder(path)) return snapshot(path);
  py::list all;
  for (const std::int64_t index : run_snapshots(path))
    all.append(snapshot(snapshot_path(path, index).string()));
  return all;
}

py::array_t<std::int32_t> load_map(const std::string& path) {
  StoredDivergenceMap stored = read_divergence_map_file(path);
  DivergenceMap& map = stored.map;
  return owned_array(std::move(map.counts),
                     {static_cast<py::ssize_t>(map.height), static_cast<py::ssize_t>(map.width)});
}

}  // namespace

void bind_files(py::module_& m) {
  m.def("load", &load, py::arg("path"),
        R"(load(path) -> dict, or a list of dicts for a run folder

Particles from a CSV or HDF5 file, a snapshot (sim.save() writes one) or each snapshot of a run
(`orrery sim --out run`), as numpy arrays: position (N, 3), velocity (N, 3), mass (N,), id (N,),
particle_softening (N,) where the file has it, and time, dt, G, softening, units.)");
  m.def("load_map", &load_map, py::arg("path"),
        "load_map(path) -> numpy.ndarray[int32, (height, width)]: the counts of a divergence map's "
        "data file\n(`orrery map --data`, or divergence_map(data=...)), row k holding y_k.");
}

}  // namespace orrery::python

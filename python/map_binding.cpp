// SPDX-License-Identifier: MIT
// orrery.divergence_map(**parameters): the map `orrery map` computes (jobs/map_job.hpp), every
// flag a keyword, returned as a numpy int32 array [height, width] that owns the counts: the
// job's vector moves into the array's base, no pixel is copied. The frames of orrery.zoom
// (python/orrery/__init__.py) are those `orrery zoom` computes (jobs/zoom_job.hpp), one a call.
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "orrery/jobs/map_job.hpp"
#include "orrery/jobs/zoom_job.hpp"

namespace orrery::python {

namespace {

// Every flag of `orrery map` but those of its terminal (quiet) and its config file.
std::vector<std::string> map_keywords() {
  std::vector<std::string> k;
  for (const auto& f : map_job_fields())
    if (f.name != "quiet") k.push_back(keyword_of(f.name));
  return k;
}

MapJob python_defaults() {
  MapJob job;
  job.out = "";  // no picture unless asked for
  job.quiet = true;
  return job;
}

// window=(x0, x1, y0, y1) is x_range=(x0, x1), y_range=(y0, y1).
py::dict expanded(const py::kwargs& kwargs) {
  py::dict given;
  for (auto [key, value] : kwargs) {
    const std::string k = key.cast<std::string>();
    if (value.is_none()) continue;
    if (k == "window") {
      const auto w = value.cast<std::vector<double>>();
      if (w.size() != 4)
        throw ParameterError("window", py::str(value), "4 numbers (x0, x1, y0, y1)");
      for (const char* range : {"x_range", "y_range"})
        if (kwargs.contains(range))
          throw ParameterError("window", py::str(value),
                               std::string("no ") + range + " with it (both set the window)");
      given["x_range"] = py::make_tuple(w[0], w[1]);
      given["y_range"] = py::make_tuple(w[2], w[3]);
      continue;
    }
    const auto keywords = map_keywords();
    if (std::find(keywords.begin(), keywords.end(), k) == keywords.end())
      throw py::type_error("divergence_map() got an unexpected keyword argument '" + k + "'");
    given[key] = value;
  }
  return given;
}

py::array_t<std::int32_t> divergence_map(const py::kwargs& kwargs) {
  MapJob job = python_defaults();
  const py::dict given = expanded(kwargs);
  check_exclusive(map_job_fields(), given);
  for (auto [key, value] : given) set_field(job, map_job_fields(), key.cast<std::string>(), value);
  MapOutcome outcome;
  {
    py::gil_scoped_release computing;
    outcome = run_map_job(job);
  }
  DivergenceMap& map = outcome.map;
  return owned_array(std::move(map.counts),
                     {static_cast<py::ssize_t>(map.height), static_cast<py::ssize_t>(map.width)});
}

// The keywords of `orrery zoom` that concern its files, not its frames.
bool is_zoom_file_keyword(const std::string& k) {
  return k == "out" || k == "frames_dir" || k == "data_dir" || k == "fps" || k == "overwrite" ||
         k == "quiet";
}

// Frame k of a zoom: its window (x0, x1, y0, y1) and its counts.
py::tuple zoom_frame(std::int64_t k, const py::kwargs& kwargs) {
  ZoomJob job;
  job.map = python_defaults();
  py::dict given;
  for (auto [key, value] : kwargs) {
    const std::string name = key.cast<std::string>();
    if (is_zoom_file_keyword(name) || name == "window")
      throw py::type_error("zoom() got an unexpected keyword argument '" + name + "'");
    if (!value.is_none()) given[key] = value;
  }
  check_exclusive(zoom_job_fields(), given);
  for (auto [key, value] : given) set_field(job, zoom_job_fields(), key.cast<std::string>(), value);
  if (k < 0 || k >= job.frames)
    throw ParameterError("k", std::to_string(k), "a frame from 0 to frames - 1");
  validate_map_computation(job.map);
  const DivergenceMapParams p = zoom_frame_params(job, k);
  DivergenceMap map;
  {
    py::gil_scoped_release computing;
    map = compute_zoom_frame(job, k);
  }
  return py::make_tuple(
      py::make_tuple(p.x_range[0], p.x_range[1], p.y_range[0], p.y_range[1]),
      owned_array(std::move(map.counts),
                  {static_cast<py::ssize_t>(map.height), static_cast<py::ssize_t>(map.width)}));
}

std::string map_doc() {
  return "divergence_map(**parameters) -> numpy.ndarray[int32, (height, width)]\n\n"
         "The three-body divergence map, computed as `orrery map` computes it: each pixel a start "
         "of one body\n(the varied body's coordinates on `plane`), its count the number of steps "
         "until that system and a twin\nshifted by `shift` separate by more than "
         "`critical_distance`, or `steps` if they never do.\n\n"
         "Row k holds y_k, the smallest y first (imshow(..., origin='lower') shows y upwards); "
         "the array owns\nthe counts (no copy: its base is the capsule that holds them). With "
         "`out` (PNG) and `data` (HDF5)\nthe files `orrery map --out --data` writes are written "
         "too. Refused parameters raise ValueError\nwith the CLI's message.\n\n"
         "Keywords (the flags of `orrery map`, '-' written '_'), with their defaults:\n"
         "    window = (x0, x1, y0, y1): x_range and y_range at once\n" +
         describe_fields(map_job_fields(), python_defaults(), map_keywords()) +
         "\nExample:\n"
         "    counts = orrery.divergence_map(resolution=200, steps=2000, window=(-20, 20, -20, "
         "20))\n";
}

}  // namespace

void bind_map(py::module_& m) {
  static const std::string doc = map_doc();
  m.def("divergence_map", &divergence_map, doc.c_str());
  m.def("_zoom_frame", &zoom_frame, py::arg("k"),
        "_zoom_frame(k, **parameters) -> (window, counts): frame k of a zoom (orrery.zoom).");
  m.attr("_zoom_default_frames") = ZoomJob{}.frames;
  m.def("zoom_width", &zoom_width, py::arg("from_width"), py::arg("to_width"), py::arg("frames"),
        py::arg("k"),
        "zoom_width(from_width, to_width, frames, k): the window width of frame k, "
        "W_k = W0 (W1/W0)^(k/(K-1)): W0 for k = 0, W1 for k = K-1 (exactly).");
}

}  // namespace orrery::python

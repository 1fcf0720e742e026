// SPDX-License-Identifier: MIT
// orrery.chaos(**parameters): the run `orrery chaos` makes (jobs/chaos_job.hpp), every flag a
// keyword, `starts` also an array of rows, returned as numpy arrays that own their values: each
// start's indicator, every value the kernel read at every sample, the starts, the final states,
// the chaotic fraction; the exit and escape time of each start for `indicator='escape'`. Ctrl-C
// stops the run (KeyboardInterrupt) between blocks of trajectories.
#include <pybind11/stl.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include <fmt/format.h>

#include "bindings.hpp"
#include "interrupt.hpp"
#include "orrery/core/error.hpp"
#include "orrery/ensemble/ensemble_catalogue.hpp"
#include "orrery/jobs/chaos_job.hpp"

namespace orrery::python {

namespace {

// The keywords of chaos() that are not orrery ensemble's: read by hand, as the CLI adds them.
constexpr const char* kChaosOwnKeywords[] = {"indicator", "gali_k", "every", "threshold",
                                             "exact", "tangent_precision", "out", "data"};

std::vector<std::string> chaos_ensemble_keywords() {
  std::vector<std::string> k;
  for (const auto& f : chaos_ensemble_fields())
    if (f.name != "quiet") k.push_back(keyword_of(f.name));
  return k;
}

ChaosJob chaos_defaults() {
  ChaosJob job;
  job.ensemble.integrators = "";  // yoshida4, or rk4 for a first-order system
  job.ensemble.out = "";
  job.ensemble.quiet = true;
  job.ensemble.in_memory = true;
  job.in_memory = true;
  return job;
}

template <class T>
T read_keyword(const char* keyword, py::handle value, const char* kind) {
  try {
    // A bool is no number here, and only a bool is a flag.
    if (py::isinstance<py::bool_>(value) != std::is_same_v<T, bool>) throw py::cast_error();
    return value.cast<T>();
  } catch (const py::cast_error&) {
    throw py::type_error(std::string(keyword) + ": expected " + kind + ", got " +
                         std::string(py::str(py::type::handle_of(value).attr("__name__"))));
  }
}

// Rows [N, D] (state words; the parameters take the problem's defaults) or [N, D + P].
std::vector<double> rows_of_array(const ChaosJob& job, py::handle value) {
  const auto a = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(value);
  const EnsembleJobProblem problem = resolve_ensemble_problem(job.ensemble);
  const auto& info = ensemble_problems()[static_cast<std::size_t>(problem.index)];
  const int d = info.state_words, p = info.parameters;
  if (!a || a.ndim() != 2 || a.shape(0) < 1 || (a.shape(1) != d && a.shape(1) != d + p))
    throw ParameterError("starts",
                         a ? "an array of shape " + std::string(py::str(value.attr("shape")))
                           : std::string("that value"),
                         fmt::format("'grid', 'random', a file, or an array [N, {}] (the state "
                                     "words of {}){}",
                                     d, info.name,
                                     p > 0 ? fmt::format(" or [N, {}] (and its parameters)", d + p)
                                           : ""));
  const auto n = static_cast<std::size_t>(a.shape(0)), w = static_cast<std::size_t>(a.shape(1));
  std::vector<double> rows(n * static_cast<std::size_t>(d + p));
  for (std::size_t i = 0; i < n; ++i)
    for (int k = 0; k < d + p; ++k)
      rows[i * static_cast<std::size_t>(d + p) + static_cast<std::size_t>(k)] =
          static_cast<std::size_t>(k) < w ? a.at(static_cast<py::ssize_t>(i), k)
                                          : info.parameter_defaults[static_cast<std::size_t>(k - d)];
  return rows;
}

py::array_t<double> vector_array(std::vector<double>&& v) {
  const auto n = static_cast<py::ssize_t>(v.size());
  return owned_array(std::move(v), {n});
}

py::dict chaos(const py::kwargs& kwargs) {
  ChaosJob job = chaos_defaults();
  const auto keywords = chaos_ensemble_keywords();
  py::dict given;
  py::object starts_array = py::none();
  for (auto [key, value] : kwargs) {
    const std::string k = key.cast<std::string>();
    const bool own = std::find_if(std::begin(kChaosOwnKeywords), std::end(kChaosOwnKeywords),
                                  [&](const char* o) { return k == o; }) !=
                     std::end(kChaosOwnKeywords);
    if (!own && std::find(keywords.begin(), keywords.end(), k) == keywords.end())
      throw py::type_error("chaos() got an unexpected keyword argument '" + k + "'");
    if (value.is_none()) continue;
    if (k == "indicator") job.indicator = read_keyword<std::string>("indicator", value, "str");
    else if (k == "gali_k") job.gali_k = read_keyword<std::int64_t>("gali_k", value, "int");
    else if (k == "every") job.every = read_keyword<std::int64_t>("every", value, "int");
    else if (k == "threshold") job.threshold = read_keyword<double>("threshold", value, "float");
    else if (k == "exact") job.exact = read_keyword<bool>("exact", value, "bool");
    else if (k == "tangent_precision")
      job.tangent_precision = read_keyword<std::string>("tangent_precision", value, "str");
    else if (k == "out") job.out = read_keyword<std::string>("out", value, "str");
    else if (k == "data") job.data = read_keyword<std::string>("data", value, "str");
    else if (k == "starts" && !py::isinstance<py::str>(value)) starts_array = py::reinterpret_borrow<py::object>(value);
    else given[key] = value;
  }
  check_exclusive(chaos_ensemble_fields(), given);
  for (auto [key, value] : given)
    set_field(job.ensemble, chaos_ensemble_fields(), key.cast<std::string>(), value);
  job.overwrite = job.ensemble.overwrite;
  if (!starts_array.is_none()) {
    job.ensemble.start_rows = rows_of_array(job, starts_array);
    job.ensemble.starts = "array";
  }
  ChaosJobOutcome o;
  {
    py::gil_scoped_release computing;
    InterruptPoll poll;
    o = run_chaos_job(job, [&](const EnsembleProgress&) { poll(); });
  }
  EnsembleStartSet& s = o.starts;
  const auto n = static_cast<py::ssize_t>(s.trajectories);
  const auto samples = static_cast<py::ssize_t>(o.run.samples),
             outputs = static_cast<py::ssize_t>(o.run.outputs);
  EnsembleStartColumns starts = start_columns(s);
  py::dict out;
  if (!o.escape_time.empty()) {
    std::vector<std::int64_t> exit(o.field.size());
    for (std::size_t i = 0; i < exit.size(); ++i) exit[i] = static_cast<std::int64_t>(o.field[i]);
    out["exit"] = owned_array(std::move(exit), {n});
    out["escape_time"] = vector_array(std::move(o.escape_time));
    out["escaped"] = o.escaped;
  }
  out["indicator"] = vector_array(std::move(o.field));
  out["values"] = owned_array(std::move(o.run.values), {samples, outputs, n});
  out["sample_time"] = vector_array(std::move(o.run.sample_time));
  out["start_state"] = owned_array(std::move(starts.state), {n, s.state_words});
  out["final_state"] = owned_array(std::move(o.run.ensemble.final_state), {n, s.state_words});
  if (s.parameter_words > 0)
    out["parameters"] = owned_array(std::move(starts.parameters), {n, s.parameter_words});
  if (!s.grid_index.empty()) {
    const auto g = static_cast<py::ssize_t>(s.grid_index.size());
    out["grid_index"] = owned_array(std::move(s.grid_index), {g});
  }
  out["chaotic_fraction"] =
      o.chaotic_fraction ? py::object(py::float_(*o.chaotic_fraction)) : py::object(py::none());
  out["threshold"] = o.threshold ? py::object(py::float_(*o.threshold)) : py::object(py::none());
  out["non_finite"] = o.non_finite;
  out["steps"] = o.steps;
  out["integrator"] = o.integrator;
  out["description"] = s.description;
  out["backend"] = o.run.info.backend;
  out["seconds"] = o.run.info.seconds;
  return out;
}

std::string chaos_doc() {
  std::string indicators;
  for (const auto& i : chaos_indicators())
    indicators += "    " + std::string(i.name) + ": " + std::string(i.description) + "\n";
  return "chaos(**parameters) -> dict\n\n"
         "An indicator of chaos for every start of an ensemble, as `orrery chaos` computes it: "
         "indicator [N]\n(the chosen indicator of each start at the end), values [S, O, N] (every "
         "value the kernel\nread at each of the S samples: lyapunov, fli, megno, exit, escape_time; "
         "or sali; or the\nspectrum's exponents; or GALI_1..GALI_D), sample_time [S], start_state "
         "[N, D], final_state [N, D]\n(and parameters [N, P], grid_index [N] for grid starts), "
         "chaotic_fraction and threshold\n(None without a threshold), non_finite, steps, "
         "integrator, description, backend, seconds.\nindicator='escape' adds exit [N] (0 up, 1 "
         "left, 2 right, -1 none), escape_time [N] (NaN: stayed)\nand escaped (the count per "
         "exit). `starts` takes 'grid', 'random', a CSV/HDF5 file, or an array\n[N, D] of "
         "start states (or [N, D + P] with parameters). With `out` (PNG) and `data` (HDF5)\nthe "
         "files are written too. Ctrl-C raises KeyboardInterrupt. Refused parameters raise "
         "ValueError\nwith the CLI's message.\n\nIndicators:\n" +
         indicators +
         "\nKeywords: indicator = 'megno', gali_k = 2 (gali: the vectors of the volume), every "
         "= 10 (steps\nbetween renormalisations; divides the steps), threshold (sali, gali: below, the "
         "others: above;\ndefault 1e-8 for sali), exact = False (on the GPU, the CPU's bits for three "
         "bodies: the exact 1/r^3), tangent_precision = 'fp64' ('dd': double-double deviation\nvectors, "
         "sali on the CPU), out, data, and those of `orrery ensemble` "
         "('-' written '_'):\n" +
         describe_fields(chaos_ensemble_fields(), chaos_defaults().ensemble,
                         chaos_ensemble_keywords()) +
         "\nExample, MEGNO over the Henon-Heiles section at E = 1/8:\n"
         "    r = orrery.chaos(problem='henon-heiles', energy=0.125, plane='y:py', resolution=64,\n"
         "                     indicator='megno', threshold=4, dt=0.01, t_end=1000)\n"
         "    r['chaotic_fraction'], r['indicator'].reshape(...)\n";
}

}  // namespace

void bind_chaos(py::module_& m) {
  static const std::string doc = chaos_doc();
  m.def("chaos", &chaos, doc.c_str());
}

}  // namespace orrery::python

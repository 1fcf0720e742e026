// SPDX-License-Identifier: MIT
// Bodies from orbital elements and elements from bodies, for orrery.Simulation
// (python/simulation_orbits.hpp); the mathematics is physics/orbital_elements.hpp's.
#include "simulation_orbits.hpp"

#include <iterator>
#include <limits>
#include <optional>
#include <string>
#include <utility>

#include "orrery/core/error.hpp"
#include "orrery/physics/orbit_primary.hpp"
#include "simulation_settings.hpp"

namespace orrery::python {

namespace {

constexpr const char* kElementsAccepted =
    "an orbital element: a, P, e, inc, Omega, omega, pomega, f, M, E, l, theta or T";

Primary primary_choice(const py::handle& primary) {
  if (primary.is_none()) return {};
  if (py::isinstance<py::str>(primary)) {
    const std::string name = py::str(primary);
    if (name == "jacobi") return {};
    if (name == "barycentre" || name == "barycenter" || name == "com")
      return {PrimaryKind::barycentre};
    throw ParameterError("primary", name,
                         "None or 'jacobi' (the barycentre of the bodies before), 'barycentre' "
                         "(of all bodies) or the index of a body");
  }
  if (py::isinstance<py::int_>(primary) && !py::isinstance<py::bool_>(primary)) {
    const long long k = primary.cast<long long>();
    if (k >= 0) return {PrimaryKind::body, static_cast<std::size_t>(k)};
  }
  throw ParameterError("primary", py::str(primary),
                       "None or 'jacobi', 'barycentre', or the index of a body (an int >= 0)");
}

// One number for every body, or one number each.
std::vector<double> per_added_body(const py::handle& value, std::size_t n, const char* name) {
  const py::array a = py::array::ensure(value);
  if (!a) PyErr_Clear();
  if (a && a.ndim() == 0)
    return std::vector<double>(n, per_body(py::make_tuple(value), 1, false, name)[0]);
  return per_body(value, n, false, name);
}

std::optional<double>* field_of(OrbitGiven& g, const std::string& name) {
  for (auto [key, field] :
       {std::pair{"a", &g.a}, {"P", &g.P}, {"e", &g.e}, {"inc", &g.inc}, {"Omega", &g.Omega},
        {"omega", &g.omega}, {"pomega", &g.pomega}, {"f", &g.f}, {"M", &g.M}, {"E", &g.E},
        {"l", &g.l}, {"theta", &g.theta}, {"T", &g.T}})
    if (name == key) return field;
  return nullptr;
}

void append(Particles<double>& p, const PointMass& b) {
  const std::size_t i = p.size();
  p.resize(i + 1);
  p.mass[i] = b.mass;
  p.x[i] = b.position.x, p.y[i] = b.position.y, p.z[i] = b.position.z;
  p.vx[i] = b.velocity.x, p.vy[i] = b.velocity.y, p.vz[i] = b.velocity.z;
}

}  // namespace

void append_orbits(Particles<double>& p, const std::vector<double>& masses,
                   const py::dict& elements, const py::handle& primary, double g, double time) {
  const std::size_t n = masses.size();
  const Primary choice = primary_choice(primary);
  OrbitGiven probe;
  std::vector<std::pair<std::string, std::vector<double>>> values;
  for (auto [key, value] : elements) {
    const std::string name = py::str(key);
    if (!field_of(probe, name)) throw ParameterError(name, "a keyword of add()", kElementsAccepted);
    if (!value.is_none()) values.emplace_back(name, per_added_body(value, n, name.c_str()));
  }
  for (std::size_t i = 0; i < n; ++i) {
    OrbitGiven given;
    for (const auto& [name, v] : values) *field_of(given, name) = v[i];
    try {
      append(p, body_from_orbit(g, primary_of(p, p.size(), choice), masses[i], given, time));
    } catch (const ParameterError& err) {
      if (n == 1) throw;
      throw err.renamed(err.parameter() + " (body " + std::to_string(i) + " of those added)");
    }
  }
}

py::dict orbits_of(const Particles<double>& p, const py::handle& primary, double g, double time) {
  const Primary choice = primary_choice(primary);
  const std::size_t rows = p.size() > 0 ? p.size() - 1 : 0;
  if (choice.kind == PrimaryKind::body && choice.body >= p.size())
    throw ParameterError("primary", std::to_string(choice.body),
                         "the index of a body, 0 to " + std::to_string(p.size()) + " - 1");
  constexpr double kNone = std::numeric_limits<double>::quiet_NaN();
  static constexpr const char* kNames[] = {"d", "v", "h", "P", "n", "a", "e", "inc", "Omega",
                                          "omega", "pomega", "f", "M", "E", "l", "theta", "T"};
  static_assert(sizeof(kNames) / sizeof(kNames[0]) == sizeof(Orbit) / sizeof(double));
  std::vector<std::vector<double>> columns(std::size(kNames), std::vector<double>(rows, kNone));
  for (std::size_t i = 1; i < p.size(); ++i) {
    if (choice.kind == PrimaryKind::body && choice.body == i) continue;
    Orbit o;
    try {
      o = orbit_about(g, point_mass(p, i), primary_of(p, i, choice), time);
    } catch (const ParameterError& err) {
      throw err.renamed(err.parameter() + " (body " + std::to_string(i) + ")");
    }
    const double values[] = {o.d,     o.v,     o.h,      o.P, o.n, o.a, o.e, o.inc, o.Omega,
                             o.omega, o.pomega, o.f,     o.M, o.E, o.l, o.theta, o.T};
    for (std::size_t k = 0; k < std::size(kNames); ++k) columns[k][i - 1] = values[k];
  }
  py::dict out;
  for (std::size_t k = 0; k < std::size(kNames); ++k)
    out[kNames[k]] = owned_array(std::move(columns[k]), {static_cast<py::ssize_t>(rows)});
  return out;
}

}  // namespace orrery::python

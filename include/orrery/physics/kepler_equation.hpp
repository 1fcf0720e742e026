// SPDX-License-Identifier: MIT
// Kepler's equation and the anomalies of a conic (Murray & Dermott, Solar System Dynamics,
// 1999, §2.4–2.5; the hyperbolic forms e.g. Danby, Fundamentals of Celestial Mechanics, 1988,
// §6.8):
//   ellipse (0 ≤ e < 1):  M = E − e sin E,     tan(f/2) = √((1 + e)/(1 − e)) tan(E/2)
//   hyperbola (e > 1):    M = e sinh F − F,    tan(f/2) = √((e + 1)/(e − 1)) tanh(F/2)
// The angles of the ellipse are in radians and come back in [0, 2π); the hyperbola's M and F
// are not angles and run over the whole real line (M = n (t − T), n the mean motion).
// Plain C++ for the host: elements are set up and read out, never stepped, here.
#pragma once

namespace orrery {

// x reduced to [0, 2π).
double wrap_two_pi(double x);

// E (F for e > 1) with M = E − e sin E (M = e sinh F − F): Newton's method from Danby's start
// (Danby & Burkardt 1983), kept inside a bracket of the root that halves whenever a Newton step
// would leave it, so it converges for every e in [0, 1) ∪ (1, ∞) and every finite M.
// ParameterError for e < 0, e = 1, or an e or M that is not finite; RunError (naming e and M)
// if the bounded iteration ends without converging, which the bracket rules out.
double eccentric_anomaly(double e, double mean_anomaly);

// f from E (e < 1) or from F (e > 1); the ellipse's f in [0, 2π), the hyperbola's in
// (−acos(−1/e), acos(−1/e)).
double true_anomaly_of_eccentric(double e, double eccentric);
// E (e < 1, in [0, 2π)) or F (e > 1) from f; f of a hyperbola within its asymptotes.
double eccentric_anomaly_of_true(double e, double true_anomaly);
// M from E (e < 1, in [0, 2π)) or from F (e > 1).
double mean_anomaly_of_eccentric(double e, double eccentric);

}  // namespace orrery

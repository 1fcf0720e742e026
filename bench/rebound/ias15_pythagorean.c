// SPDX-License-Identifier: MIT
// REBOUND's side of the Pythagorean comparison (bench/rebound_side_by_side.sh): IAS15 from t = 0
// to t = 70 on Burrau's problem (masses 3, 4, 5 at rest at (1, 3), (−2, −1), (1, −1); G = 1),
// the first step 2⁻¹⁶ as orrery's scene, with the step criterion given: 2 (PRS23, REBOUND's
// default, Pham, Rein & Spiegel 2024) or 1 (global, Rein & Spiegel 2015). Built only by that
// script, against a REBOUND source tree; orrery does not depend on it.
//
//   ias15_pythagorean ADAPTIVE_MODE   prints one JSON line
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "clocks.h"
#include "rebound.h"
extern const char* reb_version_str;
extern const char* reb_githash_str;
#include "integrator_ias15.h"


int main(int argc, char* argv[]) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s ADAPTIVE_MODE (2: PRS23, 1: global)\n", argv[0]);
    return 2;
  }
  const int mode = atoi(argv[1]);
  struct reb_simulation* r = reb_simulation_create();
  r->G = 1;
  const double m[3] = {3, 4, 5}, x[3] = {1, -2, 1}, y[3] = {3, -1, -1};
  for (int i = 0; i < 3; ++i) {
    struct reb_particle p = {0};
    p.m = m[i], p.x = x[i], p.y = y[i];
    reb_simulation_add(r, p);
  }
  reb_simulation_set_integrator(r, "ias15");
  struct reb_integrator_ias15_state* ias15 = r->integrator.state;
  ias15->adaptive_mode = mode;
  r->dt = 0x1.0p-16;
  const double e0 = reb_simulation_energy(r);
  const double t0 = seconds_now(), c0 = cpu_seconds_now();
  reb_simulation_integrate(r, 70.0);
  const double seconds = seconds_now() - t0, cpu_seconds = cpu_seconds_now() - c0;
  const double de = fabs((reb_simulation_energy(r) - e0) / e0);
  printf("{\"program\": \"rebound ias15\", \"version\": \"%s\", \"githash\": \"%s\", "
         "\"adaptive_mode\": %d, \"steps\": %llu, \"t\": %.17g, \"energy_error\": %.3e, "
         "\"seconds_in_process\": %.6f, \"cpu_seconds_in_process\": %.6f}\n",
         reb_version_str, reb_githash_str, mode, (unsigned long long)r->steps_done, r->t, de,
         seconds, cpu_seconds);
  reb_simulation_free(r);
  return 0;
}

// SPDX-License-Identifier: MIT
// REBOUND's SABA on the outer Solar System (REBOUND's initial conditions, G = 1), for
// tests/integrate/saba_test.cpp's expectations: the largest relative energy error at STEPS/100
// equal intervals of STEPS steps of DT, for SABA1 … SABA4 (no corrector, safe_mode = 0, keep_unsynchronized = 1).
// Built against a REBOUND source tree (as bench/rebound_side_by_side.sh builds its drivers);
// orrery does not depend on it.
//
//   saba_energy STEPS DT   prints one JSON line per method
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "rebound.h"
#include "integrator_saba.h"

int main(int argc, char* argv[]) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s STEPS DT\n", argv[0]);
    return 2;
  }
  const long steps = atol(argv[1]);
  const double dt = strtod(argv[2], NULL);
  const char* names[] = {"saba1", "saba2", "saba3", "saba4"};
  for (int n = 1; n <= 4; ++n) {
    struct reb_simulation* r = reb_simulation_create();
    reb_simulation_add_fmt(r, "outer solar system");
    reb_simulation_set_integrator(r, "saba");
    struct reb_integrator_saba_state* saba = r->integrator.state;
    saba->type = (unsigned)(n - 1);  // SABA1 … SABA4
    saba->safe_mode = 0;
    saba->keep_unsynchronized = 1;  // as orrery: a synchronisation on a copy
    r->dt = dt;
    const double e0 = reb_simulation_energy(r);
    double worst = 0;
    for (int s = 0; s < 100; ++s) {
      reb_simulation_steps(r, (size_t)(steps / 100));
      reb_simulation_synchronize(r);
      const double de = fabs((reb_simulation_energy(r) - e0) / e0);
      if (de > worst) worst = de;
    }
    printf("{\"method\": \"%s\", \"steps\": %ld, \"dt\": %.17g, \"energy_error_max\": %.3e}\n",
           names[n - 1], steps, dt, worst);
    reb_simulation_free(r);
  }
  return 0;
}

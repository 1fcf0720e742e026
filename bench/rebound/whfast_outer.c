// SPDX-License-Identifier: MIT
// REBOUND's side of the outer Solar System comparison (bench/rebound_side_by_side.sh): WHFast in
// Jacobi coordinates with a symplectic corrector, REBOUND's own initial conditions ("outer solar
// system" of its src/tools.c, G = 1), a number of steps of dt in equal segments, each ending in a
// synchronisation and REBOUND's energy (what an output costs). Built only by that script,
// against a REBOUND source tree; orrery does not depend on it.
//
//   whfast_outer CORRECTOR SAFE_MODE STEPS DT SEGMENTS   prints one JSON line
//   whfast_outer --csv                                   the initial conditions as orrery's CSV
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clocks.h"
#include "rebound.h"
extern const char* reb_version_str;
extern const char* reb_githash_str;
#include "integrator_whfast.h"


int main(int argc, char* argv[]) {
  struct reb_simulation* r = reb_simulation_create();
  reb_simulation_add_fmt(r, "outer solar system");
  if (argc == 2 && strcmp(argv[1], "--csv") == 0) {
    printf("m,x,y,z,vx,vy,vz\n");
    for (size_t i = 0; i < r->N; ++i) {
      const struct reb_particle p = r->particles[i];
      printf("%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n", p.m, p.x, p.y, p.z, p.vx, p.vy, p.vz);
    }
    reb_simulation_free(r);
    return 0;
  }
  if (argc != 6) {
    fprintf(stderr, "usage: %s CORRECTOR SAFE_MODE STEPS DT SEGMENTS | --csv\n", argv[0]);
    return 2;
  }
  const int corrector = atoi(argv[1]);
  const int safe_mode = atoi(argv[2]);
  const long steps = atol(argv[3]);
  const double dt = strtod(argv[4], NULL);
  const long segments = atol(argv[5]);
  reb_simulation_set_integrator(r, "whfast");
  struct reb_integrator_whfast_state* whfast = r->integrator.state;
  whfast->corrector = (unsigned)corrector;
  whfast->safe_mode = (unsigned)safe_mode;
  r->dt = dt;
  const double e0 = reb_simulation_energy(r);
  double worst = 0;
  const double t0 = seconds_now(), c0 = cpu_seconds_now();
  for (long s = 0; s < segments; ++s) {
    reb_simulation_steps(r, (size_t)(steps / segments));
    reb_simulation_synchronize(r);
    const double de = fabs((reb_simulation_energy(r) - e0) / e0);
    if (de > worst) worst = de;
  }
  const double seconds = seconds_now() - t0, cpu_seconds = cpu_seconds_now() - c0;
  const double de = fabs((reb_simulation_energy(r) - e0) / e0);
  printf("{\"program\": \"rebound whfast\", \"version\": \"%s\", \"githash\": \"%s\", "
         "\"corrector\": %d, \"safe_mode\": %d, \"steps\": %llu, \"dt\": %.17g, \"t\": %.17g, "
         "\"segments\": %ld, \"energy_error_final\": %.3e, \"energy_error_max\": %.3e, "
         "\"seconds_in_process\": %.6f, \"cpu_seconds_in_process\": %.6f, \"cpu_microseconds_per_step\": %.4f}\n",
         reb_version_str, reb_githash_str, corrector, safe_mode,
         (unsigned long long)r->steps_done, dt, r->t, segments, de, worst, seconds, cpu_seconds,
         1e6 * cpu_seconds / (double)r->steps_done);
  reb_simulation_free(r);
  return 0;
}

// SPDX-License-Identifier: MIT
// REBOUND's side of the planets-and-test-particles comparison (bench/rebound_side_by_side.sh):
// the Sun and eight planets (REBOUND's "solar system" of its src/tools.c, G = 1) and TEST
// massless bodies in the asteroid belt (a in [2.2, 3.3), e < 0.2, i < 0.1, angles uniform, about
// the Sun, from a fixed linear congruential sequence), N_active = 9, WHFast in Jacobi
// coordinates without a corrector (safe_mode = 0), a number of steps of DT, one synchronisation
// at the end. Built only by that script, against a REBOUND source tree (with or without OpenMP);
// orrery does not depend on it.
//
//   whfast_test_particles TEST STEPS DT   prints one JSON line
//   whfast_test_particles TEST --csv      the initial conditions as orrery's CSV
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clocks.h"
#include "rebound.h"
#include "integrator_whfast.h"


// A uniform number in [0, 1) from a 64-bit linear congruential sequence (Knuth's MMIX constants).
static unsigned long long state = 12345;
static double uniform(void) {
  state = state * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(state >> 11) * 0x1p-53;
}

int main(int argc, char* argv[]) {
  if (argc != 3 && argc != 4) {
    fprintf(stderr, "usage: %s TEST STEPS DT | TEST --csv\n", argv[0]);
    return 2;
  }
  const long test = atol(argv[1]);
  struct reb_simulation* r = reb_simulation_create();
  reb_simulation_add_fmt(r, "solar system");
  const double pi = 3.14159265358979323846;
  for (long k = 0; k < test; ++k) {
    const double a = 2.2 + 1.1 * uniform(), e = 0.2 * uniform(), inc = 0.1 * uniform();
    const double Omega = 2 * pi * uniform(), omega = 2 * pi * uniform(), M = 2 * pi * uniform();
    reb_simulation_add_fmt(r, "primary a e inc Omega omega M", r->particles[0], a, e, inc,
                           Omega, omega, M);
  }
  r->N_active = 9;
  if (argc == 3 && strcmp(argv[2], "--csv") == 0) {
    printf("m,x,y,z,vx,vy,vz\n");
    for (size_t i = 0; i < r->N; ++i) {
      const struct reb_particle p = r->particles[i];
      printf("%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n", p.m, p.x, p.y, p.z, p.vx, p.vy, p.vz);
    }
    reb_simulation_free(r);
    return 0;
  }
  const long steps = atol(argv[2]);
  const double dt = strtod(argv[3], NULL);
  reb_simulation_set_integrator(r, "whfast");
  struct reb_integrator_whfast_state* whfast = r->integrator.state;
  whfast->safe_mode = 0;
  r->dt = dt;
  const double e0 = reb_simulation_energy(r);
  const double t0 = seconds_now(), c0 = cpu_seconds_now();
  reb_simulation_steps(r, (size_t)steps);
  reb_simulation_synchronize(r);
  const double seconds = seconds_now() - t0, cpu_seconds = cpu_seconds_now() - c0;
  const double de = fabs((reb_simulation_energy(r) - e0) / e0);
  printf("{\"program\": \"rebound whfast test particles\", \"test_particles\": %ld, "
         "\"steps\": %llu, \"dt\": %.17g, \"energy_error_final\": %.3e, "
         "\"seconds_in_process\": %.6f, \"cpu_seconds_in_process\": %.6f, "
         "\"microseconds_per_step\": %.3f, \"cpu_microseconds_per_step\": %.3f}\n",
         test, (unsigned long long)r->steps_done, dt, de, seconds, cpu_seconds,
         1e6 * seconds / (double)r->steps_done, 1e6 * cpu_seconds / (double)r->steps_done);
  reb_simulation_free(r);
  return 0;
}

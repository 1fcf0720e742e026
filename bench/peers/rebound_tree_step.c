// One force evaluation (tree build + walk) of REBOUND's Barnes-Hut tree on a Plummer sphere,
// timed over several leapfrog steps: the peer figure for orrery's CPU tree (issue 13).
#include "rebound.h"
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <time.h>
static double now(void){ struct timespec t; clock_gettime(CLOCK_MONOTONIC,&t); return t.tv_sec+1e-9*t.tv_nsec; }
int main(int argc, char* argv[]){
    int n = argc > 1 ? atoi(argv[1]) : 100000;
    struct reb_simulation* r = reb_simulation_create();
    r->G = 1; r->dt = 1e-4;
    reb_simulation_set_integrator(r, "leapfrog");
    r->gravity = REB_GRAVITY_TREE;
    r->opening_angle2 = 0.25;   // theta = 0.5
    r->softening = 0.0;
    r->root_size = 2000.;        // Plummer with scale 1: a few bodies out to ~100
    r->N_root_x = r->N_root_y = r->N_root_z = 1;
    r->boundary = REB_BOUNDARY_OPEN;
    reb_simulation_add_plummer(r, n, 1., 1.);
    reb_simulation_move_to_com(r);
    reb_simulation_steps(r, 1);  // warm-up: builds the tree the first time
    int steps = argc > 2 ? atoi(argv[2]) : 5; double best = 1e30, total = 0;
    for (int s = 0; s < steps; s++) { double t0 = now(); reb_simulation_steps(r, 1); double dt = now()-t0; total += dt; if (dt < best) best = dt; }
    printf("{\"code\":\"rebound\",\"n\":%d,\"N_left\":%d,\"steps\":%d,\"mean_s_per_step\":%.4f,\"best_s_per_step\":%.4f}\n", n, r->N, steps, total/steps, best);
    return 0;
}

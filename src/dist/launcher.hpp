// SPDX-License-Identifier: MIT
// What a launcher (mpirun, srun, mpiexec) tells the processes it starts, through their
// environment: read without MPI, so that a process started alone never initialises it.
#pragma once

namespace orrery::dist {

// Open MPI's OMPI_COMM_WORLD_SIZE, PMIx's PMIX_RANK, PMI's PMI_RANK or PMI_SIZE (Slurm, MPICH).
bool launched_as_rank();
// The ranks the launcher started, where its environment says (0 where it does not).
int launcher_rank_count();

}  // namespace orrery::dist

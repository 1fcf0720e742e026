# MPI (Debian: libopenmpi-dev openmpi-bin; on a cluster, its own MPI): maps, zooms, ensembles and
# chaos fields over the ranks of mpirun or srun (docs/guide/mpi.md). Only the C interface, and
# only in src/dist/communicator_mpi.cpp: the other files compile the same with MPI or without,
# so turning it on or off recompiles that one file and links again.
set(ORRERY_WITH_MPI OFF)
if(NOT ORRERY_MPI MATCHES "^(AUTO|ON|OFF)$")
  message(FATAL_ERROR "ORRERY_MPI: '${ORRERY_MPI}': AUTO (when MPI is found), ON or OFF")
endif()
if(NOT ORRERY_MPI STREQUAL "OFF")
  if(ORRERY_MPI STREQUAL "ON")
    find_package(MPI REQUIRED COMPONENTS C)
  else()
    find_package(MPI QUIET COMPONENTS C)
  endif()
  if(MPI_C_FOUND)
    set(ORRERY_WITH_MPI ON)
  else()
    message(STATUS "orrery: no MPI (libopenmpi-dev): maps, zooms and ensembles run in one process")
  endif()
endif()

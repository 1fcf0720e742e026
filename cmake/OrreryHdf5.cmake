# HDF5, found once, linked two ways (Debian: libhdf5-dev). The library and the Python module use
# the shared library. The executables use HDF5's static archive where it links here: the shared
# library loads 36 more (libcurl, TLS and Kerberos, for HDF5's read-only S3 driver), and the
# dynamic loading alone took half the CPU time of a short run (docs/guide/integrators.md, IAS15);
# from the archive the linker takes only what orrery calls, and --as-needed drops the rest.
# Where the archive or its libraries are missing, or a test program does not link, the
# executables take the shared library too. ORRERY_STATIC_HDF5=OFF asks for that.
find_package(HDF5 REQUIRED COMPONENTS C)
option(ORRERY_STATIC_HDF5 "Link the executables with HDF5's static archive where it links" ON)

set(orrery_hdf5_for_executables HDF5::HDF5)
if(ORRERY_STATIC_HDF5)
  # The archive beside the shared library, and the libraries it needs from its settings file.
  foreach(lib IN LISTS HDF5_C_LIBRARIES)
    if(lib MATCHES "/libhdf5(_serial)?\\.so$")
      get_filename_component(dir "${lib}" DIRECTORY)
      if(EXISTS "${dir}/libhdf5.a" AND EXISTS "${dir}/libhdf5.settings")
        set(archive "${dir}/libhdf5.a")
        file(STRINGS "${dir}/libhdf5.settings" extra REGEX "Extra libraries:")
      endif()
    endif()
  endforeach()
  if(archive)
    string(REGEX MATCHALL "-l[A-Za-z0-9_+.-]+" flags "${extra}")
    set(needed "${archive}")
    foreach(flag IN LISTS flags)
      string(SUBSTRING "${flag}" 2 -1 name)
      list(APPEND needed "${name}")
    endforeach()
    include(CheckCSourceCompiles)
    set(CMAKE_REQUIRED_INCLUDES ${HDF5_C_INCLUDE_DIRS} ${HDF5_INCLUDE_DIRS})
    set(CMAKE_REQUIRED_LINK_OPTIONS "LINKER:--as-needed")
    set(CMAKE_REQUIRED_LIBRARIES ${needed})
    set(CMAKE_REQUIRED_QUIET ON)
    check_c_source_compiles([[
      #include <hdf5.h>
      int main(void) {
        hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
        H5Pset_fapl_core(fapl, 65536, 0);
        hid_t f = H5Fcreate("t.h5", H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
        return H5Fget_file_image(f, 0, 0) < 0;
      }]] ORRERY_HDF5_ARCHIVE_LINKS)
    unset(CMAKE_REQUIRED_INCLUDES)
    unset(CMAKE_REQUIRED_LINK_OPTIONS)
    unset(CMAKE_REQUIRED_LIBRARIES)
    unset(CMAKE_REQUIRED_QUIET)
    if(ORRERY_HDF5_ARCHIVE_LINKS)
      add_library(orrery_hdf5_static INTERFACE)
      target_include_directories(orrery_hdf5_static SYSTEM INTERFACE ${HDF5_C_INCLUDE_DIRS}
                                                                     ${HDF5_INCLUDE_DIRS})
      target_compile_definitions(orrery_hdf5_static INTERFACE ${HDF5_C_DEFINITIONS})
      target_link_options(orrery_hdf5_static INTERFACE "LINKER:--as-needed")
      target_link_libraries(orrery_hdf5_static INTERFACE ${needed})
      set(orrery_hdf5_for_executables orrery_hdf5_static)
    endif()
  endif()
  if(orrery_hdf5_for_executables STREQUAL "HDF5::HDF5")
    message(STATUS "orrery: executables link the shared HDF5 (no static archive that links)")
  else()
    message(STATUS "orrery: executables link HDF5's static archive ${archive}")
  endif()
endif()

# What a target links for HDF5: the archive for an executable, the shared library otherwise.
add_library(orrery_hdf5 INTERFACE)
target_link_libraries(orrery_hdf5 INTERFACE
  "$<IF:$<STREQUAL:$<TARGET_PROPERTY:TYPE>,EXECUTABLE>,${orrery_hdf5_for_executables},HDF5::HDF5>")

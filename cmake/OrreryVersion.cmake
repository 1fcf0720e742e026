# The git hash is recorded at configure time so that outputs and benchmarks name the code
# that produced them; a tree with local changes is marked "-dirty".
set(ORRERY_GIT_HASH "unknown")
find_package(Git QUIET)
if(GIT_FOUND)
  execute_process(COMMAND ${GIT_EXECUTABLE} describe --always --dirty --abbrev=12
                  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
                  OUTPUT_VARIABLE _hash OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET
                  RESULT_VARIABLE _rc)
  if(_rc EQUAL 0 AND _hash)
    set(ORRERY_GIT_HASH "${_hash}")
  endif()
endif()

// A source file may include a dispatcher, and its own layer and those below: accepted.
#include "orrery/core/error.hpp"
#include "orrery/nbody/engines.hpp"

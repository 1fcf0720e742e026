// core, the lowest layer, reaching up into jobs: refused.
#pragma once
#include "orrery/jobs/map_job_options.hpp"

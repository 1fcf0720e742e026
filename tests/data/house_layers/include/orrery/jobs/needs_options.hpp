// A header that needs the map's options but includes the dispatcher: refused.
#pragma once
#include "orrery/jobs/map_job.hpp"

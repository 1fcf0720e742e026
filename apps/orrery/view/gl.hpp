// SPDX-License-Identifier: MIT
// OpenGL 3.3 core for the view's window. The functions are those libGL exports (Mesa and the
// vendors' libGL under GLVND export every core function), so no loader is needed.
#pragma once

#define GL_GLEXT_PROTOTYPES 1
#include <GL/gl.h>
#include <GL/glext.h>

#include <string>

namespace orrery::view {

// A linked program of a vertex and a fragment shader; RunError with the compiler's log when
// one does not compile or link.
GLuint link_program(const char* vertex_source, const char* fragment_source);

}  // namespace orrery::view

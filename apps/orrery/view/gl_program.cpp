// SPDX-License-Identifier: MIT
#include <fmt/format.h>

#include "gl.hpp"
#include "orrery/core/error.hpp"

namespace orrery::view {

namespace {

GLuint compile(GLenum kind, const char* source) {
  const GLuint shader = glCreateShader(kind);
  glShaderSource(shader, 1, &source, nullptr);
  glCompileShader(shader);
  GLint ok = 0;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    char log[2048] = {};
    glGetShaderInfoLog(shader, sizeof log, nullptr, log);
    throw RunError(fmt::format("OpenGL: a {} shader did not compile: {}",
                               kind == GL_VERTEX_SHADER ? "vertex" : "fragment", log));
  }
  return shader;
}

}  // namespace

GLuint link_program(const char* vertex_source, const char* fragment_source) {
  const GLuint program = glCreateProgram();
  const GLuint vs = compile(GL_VERTEX_SHADER, vertex_source);
  const GLuint fs = compile(GL_FRAGMENT_SHADER, fragment_source);
  glAttachShader(program, vs);
  glAttachShader(program, fs);
  glLinkProgram(program);
  glDeleteShader(vs);
  glDeleteShader(fs);
  GLint ok = 0;
  glGetProgramiv(program, GL_LINK_STATUS, &ok);
  if (!ok) {
    char log[2048] = {};
    glGetProgramInfoLog(program, sizeof log, nullptr, log);
    throw RunError(fmt::format("OpenGL: the shaders did not link: {}", log));
  }
  return program;
}

}  // namespace orrery::view

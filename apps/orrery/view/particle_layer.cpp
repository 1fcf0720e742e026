// SPDX-License-Identifier: MIT
#include "particle_layer.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "orrery/core/error.hpp"

namespace orrery::view {

namespace {

// A point of 3 pixels covers every pixel centre within 1 of the body's projection, which is
// where splat()'s weights (1 − |dx|)(1 − |dy|) are not zero.
const char* kSplatVertex = R"(#version 330 core
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 colour;
uniform mat4 clip;
uniform vec2 viewport;
flat out vec3 body_colour;
flat out vec2 centre;
void main() {
  gl_Position = clip * vec4(position, 1.0);
  centre = (gl_Position.xy * 0.5 + 0.5) * viewport;
  body_colour = colour;
  gl_PointSize = 3.0;
}
)";

const char* kSplatFragment = R"(#version 330 core
flat in vec3 body_colour;
flat in vec2 centre;
out vec4 light;
void main() {
  vec2 d = abs(gl_FragCoord.xy - centre);
  float w = max(0.0, 1.0 - d.x) * max(0.0, 1.0 - d.y);
  if (w <= 0.0) discard;
  light = vec4(body_colour * w, w);
}
)";

// One triangle over the whole window.
const char* kScreenVertex = R"(#version 330 core
void main() {
  vec2 p = vec2((gl_VertexID << 1) & 2, gl_VertexID & 2);
  gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);
}
)";

const char* kToneFragment = R"(#version 330 core
uniform sampler2D light;
uniform sampler2D overlay;
uniform bool has_overlay;
uniform float inv_knee;
uniform float norm;
out vec4 colour;
void main() {
  ivec2 at = ivec2(gl_FragCoord.xy);
  vec4 p = texelFetch(light, at, 0);
  vec3 c = vec3(0.0);
  if (p.a > 0.0) {
    float brightness = min(1.0, norm * log(1.0 + p.a * inv_knee));
    float top = max(p.r, max(p.g, p.b));
    if (top > 0.0) c = p.rgb * (brightness / top);
  }
  if (has_overlay) c += texelFetch(overlay, ivec2(at.x, textureSize(overlay, 0).y - 1 - at.y), 0).rgb;
  colour = vec4(min(c, vec3(1.0)), 1.0);
}
)";

}  // namespace

ParticleLayer::ParticleLayer() {
  splat_program_ = link_program(kSplatVertex, kSplatFragment);
  tone_program_ = link_program(kScreenVertex, kToneFragment);
  glGenVertexArrays(1, &vertex_array_);
  glGenVertexArrays(1, &empty_array_);
  glGenBuffers(1, &positions_);
  glGenBuffers(1, &colours_);
  glBindVertexArray(vertex_array_);
  glBindBuffer(GL_ARRAY_BUFFER, positions_);
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 0, nullptr);
  glEnableVertexAttribArray(0);
  glBindBuffer(GL_ARRAY_BUFFER, colours_);
  glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, 0, nullptr);
  glBindVertexArray(0);
  glGenFramebuffers(1, &framebuffer_);
  glGenTextures(1, &light_);
  glGenTextures(1, &overlay_);
  glEnable(GL_PROGRAM_POINT_SIZE);
}

ParticleLayer::~ParticleLayer() {
  glDeleteTextures(1, &overlay_);
  glDeleteTextures(1, &light_);
  glDeleteFramebuffers(1, &framebuffer_);
  glDeleteBuffers(1, &colours_);
  glDeleteBuffers(1, &positions_);
  glDeleteVertexArrays(1, &empty_array_);
  glDeleteVertexArrays(1, &vertex_array_);
  glDeleteProgram(tone_program_);
  glDeleteProgram(splat_program_);
}

void ParticleLayer::upload(const ViewFrame& frame) {
  bodies_ = static_cast<GLsizei>(frame.bodies);
  glBindBuffer(GL_ARRAY_BUFFER, positions_);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(frame.position.size() * sizeof(float)),
               frame.position.data(), GL_STREAM_DRAW);
  one_colour_ = frame.colour.size() == 1;
  glBindVertexArray(vertex_array_);
  if (one_colour_) {
    colour_ = frame.colour[0];
    glDisableVertexAttribArray(1);
  } else {
    glBindBuffer(GL_ARRAY_BUFFER, colours_);
    glBufferData(GL_ARRAY_BUFFER,
                 static_cast<GLsizeiptr>(frame.colour.size() * sizeof(BodyColour)),
                 frame.colour.data(), GL_STREAM_DRAW);
    glEnableVertexAttribArray(1);
  }
  glBindVertexArray(0);
}

void ParticleLayer::resize(int width, int height) {
  if (width == width_ && height == height_) return;
  width_ = width, height_ = height;
  glBindTexture(GL_TEXTURE_2D, light_);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA32F, width, height, 0, GL_RGBA, GL_FLOAT, nullptr);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, light_, 0);
  if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
    throw RunError("OpenGL: this driver cannot draw into a float (RGBA32F) picture");
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  has_overlay_ = false;
}

void ParticleLayer::accumulate(const std::array<float, 16>& clip, int width, int height) {
  resize(width, height);
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
  glViewport(0, 0, width, height);
  glClearColor(0, 0, 0, 0);
  glClear(GL_COLOR_BUFFER_BIT);
  glEnable(GL_BLEND);
  glBlendFunc(GL_ONE, GL_ONE);
  glUseProgram(splat_program_);
  glUniformMatrix4fv(glGetUniformLocation(splat_program_, "clip"), 1, GL_FALSE, clip.data());
  glUniform2f(glGetUniformLocation(splat_program_, "viewport"), static_cast<float>(width),
              static_cast<float>(height));
  glBindVertexArray(vertex_array_);
  if (one_colour_) glVertexAttrib3f(1, colour_[0], colour_[1], colour_[2]);
  glDrawArrays(GL_POINTS, 0, bodies_);
  glBindVertexArray(0);
  glDisable(GL_BLEND);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

double ParticleLayer::brightest() {
  std::vector<float> pixels(static_cast<std::size_t>(width_) * height_ * 4);
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
  glReadPixels(0, 0, width_, height_, GL_RGBA, GL_FLOAT, pixels.data());
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  float most = 0;
  for (std::size_t j = 3; j < pixels.size(); j += 4) most = std::max(most, pixels[j]);
  return most;
}

void ParticleLayer::set_overlay(const FrameImage& overlay) {
  glBindTexture(GL_TEXTURE_2D, overlay_);
  // 0x00RRGGBB words are B, G, R, 0 in memory on a little-endian machine.
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, overlay.width, overlay.height, 0, GL_BGRA,
               GL_UNSIGNED_BYTE, overlay.pixels.data());
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  has_overlay_ = overlay.width == width_ && overlay.height == height_;
}

void ParticleLayer::present(double knee, double saturation) {
  glViewport(0, 0, width_, height_);
  glUseProgram(tone_program_);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, light_);
  glActiveTexture(GL_TEXTURE1);
  glBindTexture(GL_TEXTURE_2D, overlay_);
  glActiveTexture(GL_TEXTURE0);
  glUniform1i(glGetUniformLocation(tone_program_, "light"), 0);
  glUniform1i(glGetUniformLocation(tone_program_, "overlay"), 1);
  glUniform1i(glGetUniformLocation(tone_program_, "has_overlay"), has_overlay_ ? 1 : 0);
  glUniform1f(glGetUniformLocation(tone_program_, "inv_knee"), static_cast<float>(1.0 / knee));
  glUniform1f(glGetUniformLocation(tone_program_, "norm"),
              static_cast<float>(1.0 / std::log1p(saturation / knee)));
  glBindVertexArray(empty_array_);
  glDrawArrays(GL_TRIANGLES, 0, 3);
  glBindVertexArray(0);
}

}  // namespace orrery::view

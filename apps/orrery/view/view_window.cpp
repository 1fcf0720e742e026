// SPDX-License-Identifier: MIT
#include "view_window.hpp"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <thread>

#include <fmt/format.h>

#include "gl.hpp"
#include "hud_line.hpp"
#include "orrery/core/error.hpp"
#include "orrery/core/seconds_since.hpp"
#include "orrery/io/png_file.hpp"
#include "orrery/render/frame_overlay.hpp"
#include "orrery/render/view_camera.hpp"
#include "particle_layer.hpp"

namespace orrery::view {

namespace {

// A drag across the window's height turns the camera by about π.
constexpr double kRadiansPerPixel = 0.005;
// An idle window looks for a new state this often (seconds); input wakes it at once.
constexpr double kIdleWait = 0.01;

std::string glfw_error_text;

struct Input {
  ViewSession* session = nullptr;
  Camera camera, home;
  bool dragging = false;
  double last_x = 0, last_y = 0;
};

Input& input_of(GLFWwindow* w) { return *static_cast<Input*>(glfwGetWindowUserPointer(w)); }

void on_key(GLFWwindow* w, int key, int, int action, int) {
  if (action != GLFW_PRESS && action != GLFW_REPEAT) return;
  Input& in = input_of(w);
  ViewSession& s = *in.session;
  switch (key) {
    case GLFW_KEY_SPACE: s.set_paused(!s.paused()); break;
    case GLFW_KEY_RIGHT:
    case GLFW_KEY_PERIOD: s.step(+1); break;
    case GLFW_KEY_LEFT:
    case GLFW_KEY_COMMA: s.step(-1); break;
    case GLFW_KEY_EQUAL:
    case GLFW_KEY_KP_ADD: s.set_speed(s.speed() * 2); break;
    case GLFW_KEY_MINUS:
    case GLFW_KEY_KP_SUBTRACT: s.set_speed(s.speed() / 2); break;
    case GLFW_KEY_R: in.camera = in.home; break;
    case GLFW_KEY_Q:
    case GLFW_KEY_ESCAPE: glfwSetWindowShouldClose(w, GLFW_TRUE); break;
    default: break;
  }
}

void on_button(GLFWwindow* w, int button, int action, int) {
  if (button != GLFW_MOUSE_BUTTON_LEFT) return;
  Input& in = input_of(w);
  in.dragging = action == GLFW_PRESS;
  glfwGetCursorPos(w, &in.last_x, &in.last_y);
}

void on_cursor(GLFWwindow* w, double x, double y) {
  Input& in = input_of(w);
  if (!in.dragging) return;
  orbit(in.camera, x - in.last_x, y - in.last_y, kRadiansPerPixel);
  in.last_x = x, in.last_y = y;
}

void on_scroll(GLFWwindow* w, double, double notches) { zoom(input_of(w).camera, notches); }

struct Glfw {
  Glfw() {
    glfwSetErrorCallback([](int, const char* text) { glfw_error_text = text; });
    if (!glfwInit())
      throw RunError(fmt::format("no window: GLFW could not start ({}); is there a display "
                                 "(DISPLAY, or xvfb-run for none)?",
                                 glfw_error_text));
  }
  ~Glfw() { glfwTerminate(); }
};

// The window's picture, rows from the top, as a PNG.
void write_screenshot(const std::string& path, bool overwrite, int width, int height) {
  RgbImage image{width, height, std::vector<std::uint8_t>(static_cast<std::size_t>(width) * height * 3)};
  std::vector<std::uint8_t> rows(image.pixels.size());
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(GL_BACK);
  glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE, rows.data());
  const std::size_t row = static_cast<std::size_t>(width) * 3;
  for (int r = 0; r < height; ++r)
    std::copy_n(rows.data() + static_cast<std::size_t>(height - 1 - r) * row, row,
                image.pixels.data() + static_cast<std::size_t>(r) * row);
  write_png(path, image, overwrite ? IfExists::replace : IfExists::refuse);
}

}  // namespace

WindowOutcome run_view_window(ViewSession& session, const WindowOptions& options) {
  Glfw glfw;
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  std::unique_ptr<GLFWwindow, void (*)(GLFWwindow*)> window(
      glfwCreateWindow(options.width, options.height, "orrery view", nullptr, nullptr),
      glfwDestroyWindow);
  if (!window)
    throw RunError(fmt::format("no window: {} (OpenGL 3.3 core is needed)", glfw_error_text));
  glfwMakeContextCurrent(window.get());
  // A screenshot run is as fast as it can go; a window follows the display.
  glfwSwapInterval(options.exit_after_frames > 0 ? 0 : 1);

  Input input;
  input.session = &session;
  int width = 0, height = 0;
  glfwGetFramebufferSize(window.get(), &width, &height);
  input.camera = session.first_camera(width, height);
  input.home = input.camera;
  glfwSetWindowUserPointer(window.get(), &input);
  glfwSetKeyCallback(window.get(), on_key);
  glfwSetMouseButtonCallback(window.get(), on_button);
  glfwSetCursorPosCallback(window.get(), on_cursor);
  glfwSetScrollCallback(window.get(), on_scroll);

  ParticleLayer layer;
  HudLine hud(session);
  ViewFrame frame;
  double saturation = 0;
  std::string title;
  WindowOutcome out;
  std::chrono::steady_clock::time_point first;
  // With a frame count, each frame waits for the session's next state: frame K shows the state
  // after K − 1 moves, whatever the speed of this machine, so the picture can be reproduced.
  const bool lockstep = options.exit_after_frames > 0;
  // What the window shows now: it is drawn again only when one of them changes (a new state, a
  // turn, a zoom, a new size, a new heads-up line), so an idle window leaves the cores to the
  // simulation.
  Camera shown_camera;
  int shown_width = 0, shown_height = 0;
  bool idle = false;
  while (!glfwWindowShouldClose(window.get())) {
    if (idle)
      glfwWaitEventsTimeout(kIdleWait);
    else
      glfwPollEvents();
    bool fresh = session.take(frame);
    while (lockstep && !fresh && out.frames > 0 && !session.paused() &&
           session.failure().empty()) {
      std::this_thread::sleep_for(std::chrono::microseconds(200));
      fresh = session.take(frame);
    }
    if (!session.failure().empty()) throw RunError(session.failure());
    if (fresh) {
      layer.upload(frame);
      hud.update(frame);
    }
    glfwGetFramebufferSize(window.get(), &width, &height);
    const std::string& line = hud.text();
    const bool moved = width != shown_width || height != shown_height ||
                       input.camera.width != shown_camera.width ||
                       input.camera.azimuth != shown_camera.azimuth ||
                       input.camera.elevation != shown_camera.elevation;
    idle = !lockstep && !fresh && !moved && line == title;
    if (idle || width <= 0 || height <= 0) {  // nothing new, or minimised
      idle = true;
      continue;
    }
    if (lockstep || fresh || moved)
      layer.accumulate(clip_matrix(input.camera, width, height), width, height);
    if (saturation == 0) saturation = std::max(kLeastSaturation, layer.brightest());
    if (hud.draws_text())
      if (const FrameImage* picture = hud.redrawn(width, height, input.camera))
        layer.set_overlay(*picture);
    layer.present(kKnee, saturation);
    shown_camera = input.camera, shown_width = width, shown_height = height;
    if (line != title) {
      title = line;
      glfwSetWindowTitle(window.get(), ("orrery view: " + title).c_str());
    }
    if (out.frames == 0) first = std::chrono::steady_clock::now();
    ++out.frames;
    if (lockstep && out.frames >= options.exit_after_frames) {
      if (!options.screenshot.empty())
        write_screenshot(options.screenshot, options.overwrite, width, height);
      break;
    }
    glfwSwapBuffers(window.get());
  }
  out.seconds = seconds_since(first);
  return out;
}

}  // namespace orrery::view

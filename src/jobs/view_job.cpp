// SPDX-License-Identifier: MIT
#include "orrery/jobs/view_job.hpp"

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <cmath>
#include <mutex>
#include <numbers>
#include <thread>

#include <fmt/format.h>

#include "jobs/view_sources.hpp"
#include "orrery/core/error.hpp"

namespace orrery {

namespace {

using J = ViewJob;

// Steps or snapshots per frame: beyond this a frame would take minutes.
constexpr std::int64_t kMostSpeed = std::int64_t{1} << 20;

std::vector<ParamField<J>> make_fields() {
  std::vector<ParamField<J>> f;
  add_look_fields(f, &J::colour_by, &J::extent);
  f.push_back(real_field("azimuth", "the camera's first azimuth, degrees (drag to turn it)",
                         &J::azimuth, RealRule::Finite));
  f.push_back(real_field("elevation",
                         "the camera's first elevation above the xy plane, degrees (90: looking "
                         "down the z axis)",
                         &J::elevation, RealRule::Finite));
  f.push_back(integer_field("speed", "steps (live) or snapshots (a run) per frame; + and - "
                                     "double and halve it",
                            &J::speed, 1, kMostSpeed));
  f.push_back(flag_field("paused", "start paused (space plays)", &J::paused));
  return f;
}

// `orrery sim`'s parameters without those about the files it writes.
bool is_file_setting(const std::string& name) {
  for (const char* s : {"every", "every-time", "checkpoint-every", "out", "resume", "stop-after",
                        "max-drift", "stop-on-drift"})
    if (name == s) return true;
  return false;
}

}  // namespace

const std::vector<ParamField<ViewJob>>& view_job_fields() {
  static const auto fields = make_fields();
  return fields;
}

const std::vector<ParamField<SimJob>>& view_sim_fields() {
  static const auto fields = [] {
    std::vector<ParamField<SimJob>> f;
    for (const auto& field : sim_job_fields())
      if (!is_file_setting(field.name)) f.push_back(field);
    return f;
  }();
  return fields;
}

void fill_frame_bodies(const Particles<double>& p, ColourBy by, const FrameLook& look,
                       ViewFrame& out) {
  out.bodies = p.size();
  out.position.resize(3 * p.size());
  for (std::size_t i = 0; i < p.size(); ++i) {
    out.position[3 * i] = static_cast<float>(p.x[i] - look.centre.x);
    out.position[3 * i + 1] = static_cast<float>(p.y[i] - look.centre.y);
    out.position[3 * i + 2] = static_cast<float>(p.z[i] - look.centre.z);
  }
  colour_bodies(by, look, p, out.colour);
}

// The thread makes a frame, then waits until the window has taken it (or a step is asked for)
// before making the next: the simulation runs as fast as frames are drawn, never ahead.
struct ViewSession::Impl {
  std::unique_ptr<FrameSource> source;
  mutable std::mutex mutex;
  std::condition_variable wake;
  ViewFrame latest;
  bool fresh = true;       // `latest` not taken yet
  bool paused = false;
  std::int64_t speed = 1;
  std::int64_t asked = 0;  // moves asked for by step() while paused
  bool stopping = false;
  std::string failure;
  std::thread thread;
  double azimuth = 0, elevation = 0;  // radians

  void run() {
    ViewFrame frame;
    for (;;) {
      std::int64_t moves = 0;
      {
        std::unique_lock lock(mutex);
        wake.wait(lock, [&] {
          return stopping || asked != 0 ||
                 (!paused && !fresh && !source->at_end());
        });
        if (stopping) return;
        moves = asked != 0 ? asked : speed;
        asked = 0;
      }
      try {
        source->advance(moves);
        source->capture(frame);
      } catch (const std::exception& e) {
        std::lock_guard lock(mutex);
        failure = e.what();
        return;
      }
      std::lock_guard lock(mutex);
      std::swap(latest, frame);
      fresh = true;
      if (latest.at_end) paused = true;
    }
  }
};

ViewSession::ViewSession(const ViewJob& job) : impl_(std::make_unique<Impl>()) {
  if (!(std::abs(job.elevation) <= 90))
    throw ParameterError("--elevation", fmt::format("{}", job.elevation),
                         "an angle from -90 to 90 degrees");
  impl_->azimuth = job.azimuth * std::numbers::pi / 180;
  impl_->elevation = job.elevation * std::numbers::pi / 180;
  impl_->source = job.run.empty() ? make_live_source(job) : make_run_source(job);
  impl_->source->capture(impl_->latest);
  impl_->paused = job.paused || impl_->latest.at_end;
  impl_->speed = std::clamp<std::int64_t>(job.speed, 1, kMostSpeed);
  impl_->thread = std::thread([this] { impl_->run(); });
}

ViewSession::~ViewSession() {
  {
    std::lock_guard lock(impl_->mutex);
    impl_->stopping = true;
  }
  impl_->wake.notify_all();
  impl_->thread.join();
}

const FrameLook& ViewSession::look() const { return impl_->source->look; }
Camera ViewSession::first_camera(int width, int height) const {
  return Camera{{0, 0, 0}, picture_width(look(), width, height), impl_->azimuth,
                impl_->elevation};
}

const std::string& ViewSession::units() const { return impl_->source->units; }
double ViewSession::t_end() const { return impl_->source->t_end; }
bool ViewSession::live() const { return impl_->source->live; }

bool ViewSession::take(ViewFrame& out) {
  {
    std::lock_guard lock(impl_->mutex);
    if (!impl_->fresh) return false;
    out = impl_->latest;
    impl_->fresh = false;
  }
  impl_->wake.notify_all();
  return true;
}

void ViewSession::set_paused(bool paused) {
  {
    std::lock_guard lock(impl_->mutex);
    impl_->paused = paused;
  }
  impl_->wake.notify_all();
}

bool ViewSession::paused() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->paused;
}

void ViewSession::step(int direction) {
  {
    std::lock_guard lock(impl_->mutex);
    if (!impl_->paused) return;
    if (direction < 0 && impl_->source->live) return;
    impl_->asked += direction < 0 ? -1 : 1;
  }
  impl_->wake.notify_all();
}

void ViewSession::set_speed(std::int64_t speed) {
  std::lock_guard lock(impl_->mutex);
  impl_->speed = std::clamp<std::int64_t>(speed, 1, kMostSpeed);
}

std::int64_t ViewSession::speed() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->speed;
}

std::string ViewSession::failure() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->failure;
}

}  // namespace orrery

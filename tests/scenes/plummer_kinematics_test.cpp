// SPDX-License-Identifier: MIT
// The Plummer sample's velocities against the model, computed here from the model alone:
// isotropic (β = 1 − σ_t²/(2σ_r²) = 0) and with the one-dimensional dispersion of the
// isotropic Plummer sphere (H. C. Plummer, MNRAS 71, 460, 1911; from Jeans' equation),
//   σ²(r) = G M / (6 √(r² + a²)),
// in Hénon units G = M = 1, a = 3π/16 (E = −3πGM²/(64a) = −1/4). Tolerances in standard
// errors estimated from the sample itself.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <numbers>
#include <numeric>
#include <span>
#include <vector>

#include "orrery/scenes/plummer.hpp"

namespace orrery {
namespace {

// 4σ fails a correct sampler once in ~16 000 checks (the seed is fixed, so a pass is a pass).
constexpr double kSigmas = 4.0;
constexpr std::int64_t kStars = 100'000;
constexpr int kShells = 10;  // of kStars / kShells stars each, by radius

struct Star {
  double r, v_r2, v_t2;  // radius, squared radial and tangential speeds
};

std::vector<Star> stars() {
  PlummerParams params;
  params.n = kStars;
  params.seed = 2025;
  const Particles<double> p = make_plummer(params).particles;
  std::vector<Star> s(p.size());
  for (std::size_t i = 0; i < p.size(); ++i) {
    const double r = std::hypot(p.x[i], p.y[i], p.z[i]);
    const double v_r = (p.x[i] * p.vx[i] + p.y[i] * p.vy[i] + p.z[i] * p.vz[i]) / r;
    const double v2 = p.vx[i] * p.vx[i] + p.vy[i] * p.vy[i] + p.vz[i] * p.vz[i];
    s[i] = {r, v_r * v_r, std::max(0.0, v2 - v_r * v_r)};
  }
  std::sort(s.begin(), s.end(), [](const Star& a, const Star& b) { return a.r < b.r; });
  return s;
}

double model_dispersion2(double r) {
  const double a = 3.0 * std::numbers::pi / 16.0;
  return 1.0 / (6.0 * std::sqrt(r * r + a * a));
}

struct Moments {
  double mean_r, mean_t, var_r, var_t, cov;  // of v_r² and v_t², over stars
};

Moments moments(std::span<const Star> s) {
  const double n = static_cast<double>(s.size());
  Moments m{};
  for (const Star& x : s) {
    m.mean_r += x.v_r2 / n;
    m.mean_t += x.v_t2 / n;
  }
  for (const Star& x : s) {
    m.var_r += (x.v_r2 - m.mean_r) * (x.v_r2 - m.mean_r) / (n - 1);
    m.var_t += (x.v_t2 - m.mean_t) * (x.v_t2 - m.mean_t) / (n - 1);
    m.cov += (x.v_r2 - m.mean_r) * (x.v_t2 - m.mean_t) / (n - 1);
  }
  return m;
}

// β̂ = 1 − T/(2R) from the means R of v_r² and T of v_t², and its standard error by the delta
// method: ∂β/∂T = −1/(2R), ∂β/∂R = T/(2R²).
struct Anisotropy {
  double beta, sigma;
};
Anisotropy anisotropy(std::span<const Star> s) {
  const Moments m = moments(s);
  const double n = static_cast<double>(s.size());
  const double dt = -1.0 / (2.0 * m.mean_r), dr = m.mean_t / (2.0 * m.mean_r * m.mean_r);
  const double var = (dt * dt * m.var_t + dr * dr * m.var_r + 2.0 * dt * dr * m.cov) / n;
  return {1.0 - m.mean_t / (2.0 * m.mean_r), std::sqrt(var)};
}

TEST(PlummerKinematics, VelocitiesAreIsotropic) {
  const std::vector<Star> s = stars();
  const Anisotropy all = anisotropy(s);
  std::cout << "beta = " << all.beta << " (sigma " << all.sigma << ")\n";
  EXPECT_NEAR(all.beta, 0.0, kSigmas * all.sigma);
  // Shell by shell: an anisotropy that cancels overall (radial inside, tangential outside) shows.
  const std::size_t per = s.size() / kShells;
  for (int k = 0; k < kShells; ++k) {
    const Anisotropy b = anisotropy(std::span<const Star>(s).subspan(k * per, per));
    EXPECT_NEAR(b.beta, 0.0, kSigmas * b.sigma) << "shell " << k;
  }
}

TEST(PlummerKinematics, DispersionFollowsThePlummerProfile) {
  const std::vector<Star> s = stars();
  const std::size_t per = s.size() / kShells;
  for (int k = 0; k < kShells; ++k) {
    const auto shell = std::span<const Star>(s).subspan(k * per, per);
    // The model averaged over the shell's own stars: the shell's spread in r cancels.
    double model = 0.0;
    for (const Star& x : shell) model += model_dispersion2(x.r) / static_cast<double>(per);
    const Moments m = moments(shell);
    const double n = static_cast<double>(per);
    const double radial = m.mean_r, tangential = m.mean_t / 2.0;  // per component
    const double sigma_r = std::sqrt(m.var_r / n), sigma_t = std::sqrt(m.var_t / n) / 2.0;
    std::cout << "shell " << k << " (r " << shell.front().r << " .. " << shell.back().r
              << "): sigma_r^2 = " << radial << ", sigma_t^2/2 = " << tangential
              << ", model " << model << "\n";
    EXPECT_NEAR(radial, model, kSigmas * sigma_r) << "shell " << k;
    EXPECT_NEAR(tangential, model, kSigmas * sigma_t) << "shell " << k;
  }
}

}  // namespace
}  // namespace orrery

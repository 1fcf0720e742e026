// A job that times itself as the house does not: the seconds since t0 typed out again, on one
// line and across two, and a backend's name typed as a word.
#include <chrono>
#include <string>

double one_line(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

double two_lines(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                       t0).count();
}

std::string where(bool gpu) { return gpu ? "cuda:0" : "cpu"; }

// A command that checks θ with a range of its own, and refuses CUDA naming the others itself.
#include <stdexcept>

void check(double theta) {
  if (theta < 0 || theta >= 2) throw std::invalid_argument("cpu or auto: theta < 2");
}

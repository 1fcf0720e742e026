// Counters by index, explained in a comment: [0] claimed, [1] parked.
struct Queue {
  unsigned long long counters[9];
};

__device__ void claim(Queue& q) { atomicAdd(&q.counters[0], 1ull); }

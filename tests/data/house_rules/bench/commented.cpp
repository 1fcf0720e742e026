// Words in comments are no copies: "cpu", theta < 2, counters[0], and
// std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count().
int main() { return 0; }  // "cuda"

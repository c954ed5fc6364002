// C++ control flow at -O2: a switch, a call that may throw (invoke and a
// landing pad), a cleanup that resumes unwinding. Compiled by regenerate.sh.
#include <stdexcept>

struct Guard {
  int *slot;
  explicit Guard(int *s) : slot(s) { ++*slot; }
  ~Guard() { --*slot; }
};

__attribute__((noinline)) int risky(int v) {
  if (v > 100)
    throw std::runtime_error("too big");
  return v * 3;
}

int depth = 0;

int classify(int code, int v) {
  int weight;
  switch (code) {
  case 0: weight = 1; break;
  case 1: weight = 7; break;
  case 5: weight = v; break;
  default: weight = -1;
  }
  Guard g(&depth);
  int r = 0;
  try {
    r = risky(v + weight);
  } catch (const std::exception &e) {
    r = -weight;
  }
  return r + depth;
}

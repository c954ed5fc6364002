/* Small C functions whose variables live in registers, on the stack, in
 * memory and in location lists at -O2. Compiled by regenerate.sh. */
struct point {
  int x;
  short y;
  char tag;
};

int counter = 7;

__attribute__((noinline)) int add(int a, int b) { return a + b; }

__attribute__((noinline)) long scale(long v, int k) {
  long r = v * k;
  counter += k;
  return r + counter;
}

__attribute__((noinline)) int sum(const int *p, int n) {
  int total = 0;
  for (int i = 0; i < n; i++)
    total += p[i] * (i + 1);
  return total;
}

__attribute__((noinline)) int norm1(struct point pt) {
  struct point q = pt;
  q.x = q.x < 0 ? -q.x : q.x;
  return q.x + q.y + q.tag;
}

int main(void) {
  int data[4] = {1, 2, 3, 4};
  struct point pt = {-3, 4, 5};
  return add(1, 2) + (int)scale(10, 3) + sum(data, 4) + norm1(pt);
}

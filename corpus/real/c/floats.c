/* The wide floating-point types as clang writes them on x86-64:
   long double is x86_fp80, __float128 is fp128. */
long double scale(long double x, int n) {
  long double k = 2.5L;
  long double r = x * k;
  for (int i = 0; i < n; i++)
    r += x;
  return r;
}

__float128 quad(__float128 q, double d) {
  __float128 s = q + d;
  return s * s;
}

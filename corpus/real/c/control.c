/* Control flow and constructs at -O2 that read as more than br: computed
 * goto (indirectbr), asm goto (callbr), varargs, a VLA, labels that the
 * optimizer removes. Compiled by regenerate.sh. */
#include <stdarg.h>
struct bits { unsigned a : 3, b : 5; int c; } gb = {1, 2, 3};
static const char *names[] = {"a", "b", "c"};
int sumv(int n, ...) { va_list ap; va_start(ap, n); int s = 0; for (int i = 0; i < n; i++) s += va_arg(ap, int); va_end(ap); return s; }
int jump(int k) { static void *t[] = {&&l0, &&l1}; int r = 0; goto *t[k & 1]; l0: r = 1; goto out; l1: r = 2; out: return r + gb.b; }
int vla(int n) { int a[n]; for (int i = 0; i < n; i++) a[i] = i * i; return a[n / 2] + names[n % 3][0]; }
int asmgoto(int x) { asm goto("testl %0, %0; jz %l1" :: "r"(x) :: zero); return 1; zero: return 0; }

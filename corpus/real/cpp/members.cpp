// DIEs that describe types, not objects (dioptra dwarf lists objects only):
// a function pointer type's parameters (DW_TAG_subroutine_type) and a
// member function's declaration in its class; and an abstract instance
// (`add`, inlined into `use` and also out of line). Compiled by regenerate.sh.
struct Counter {
  static int instances;
  int value;
  int bump(int by);
};

int Counter::instances = 0;

__attribute__((noinline)) int Counter::bump(int by) {
  value += by;
  return value;
}

typedef int (*binop)(int lhs, int rhs);

__attribute__((noinline)) int apply(binop f, int x) { return f(x, x + 1); }

static int add(int a, int b) { return a + b; }

int use(Counter *c) { return apply(add, c->bump(3)) + add(Counter::instances, c->value); }

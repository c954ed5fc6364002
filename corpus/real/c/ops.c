/* Structs with function pointer fields: clang 14 (typed pointers) names
   their types `{ void (i8*, i8*)*, i8*, i64 }` and, for a function that
   returns a pointer (CPython's binaryfunc), `{ %struct.object*
   (%struct.object*, %struct.object*)*, i64 }`. Compiled by regenerate.sh. */
struct ops {
  void (*free_fn)(void *, void *);
  void *arg;
  long n;
};

long release(struct ops *o, void *block) {
  o->free_fn(o->arg, block);
  return o->n;
}

struct object;
struct methods {
  struct object *(*add)(struct object *, struct object *);
  long flags;
};

struct object *twice(struct methods *m, struct object *x) {
  struct object *y = m->add(x, x);
  return m->add(y, y);
}

/* A struct with a function pointer field: clang 14 (typed pointers) names
   its type `{ void (i8*, i8*)*, i8*, i64 }`. Compiled by regenerate.sh. */
struct ops {
  void (*free_fn)(void *, void *);
  void *arg;
  long n;
};

long release(struct ops *o, void *block) {
  o->free_fn(o->arg, block);
  return o->n;
}

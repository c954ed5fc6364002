/* gcc describes a declared global twice: the declaration
   (DW_AT_declaration, no location) and the definition that names it
   (DW_AT_specification); and a global defined in another unit by its
   declaration alone. Compiled by regenerate.sh. */
extern long calls;
extern long other_unit;
long calls;

long bump(long by) {
  calls += by;
  return calls + other_unit;
}

/* gcc -O2 -gdwarf-4: a variable whose value is an unsigned division of two
   registers, written with gcc's DWARF 4 typed operations
   (DW_OP_GNU_convert to an unsigned base type, DW_OP_div, and back). */
extern void use(unsigned long);

unsigned long blocks(unsigned long size, unsigned long block) {
  unsigned long count = size / block;
  use(size);
  use(block);
  return size + block;
}

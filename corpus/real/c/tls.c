/* A thread-local variable: its DWARF needs a DTPOFF relocation, which the
 * reader leaves as written. Compiled by regenerate.sh. */
__thread int tls_counter = 3;
int bump(int k) { tls_counter += k; return tls_counter; }

/* A caller for c/typed.c's `blocks`, linked with it into c/split-gcc.exe
   (regenerate.sh): size = 2^63, block = 2. */
extern unsigned long blocks(unsigned long, unsigned long);
void use(unsigned long x) { (void)x; }
int main(void) { return (int)blocks(0x8000000000000000ul, 2); }

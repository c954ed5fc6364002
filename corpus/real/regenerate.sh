#!/usr/bin/env bash
# Regenerates the real compiler output under corpus/real/ from the sources
# beside it: `bash corpus/real/regenerate.sh` (needs clang-14 and rustc;
# `apt-get install -y clang-14`; llvm/ needs llc-22). The objects are checked in so that the
# tests need neither compiler; paths are remapped so the output does not
# depend on where the repository is.
set -euo pipefail
cd "$(dirname "$0")"
here="$PWD"
clang-14 -O2 -g -gdwarf-5 -fdebug-prefix-map="$here"=. -c c/vars.c -o c/vars-dwarf5.o
clang-14 -O2 -g -gdwarf-4 -fdebug-prefix-map="$here"=. -c c/vars.c -o c/vars-dwarf4.o
rustc --edition 2021 -C opt-level=2 -C debuginfo=2 --crate-type lib --emit obj \
  --remap-path-prefix "$here"=. -o rust/lib.o rust/lib.rs
# At -O0 variables live in the frame: DW_OP_fbreg from clang's frame base
# (DW_OP_reg6, the frame pointer) and from gcc's (DW_OP_call_frame_cfa,
# read from .eh_frame).
clang-14 -O0 -g -gdwarf-5 -fdebug-prefix-map="$here"=. -c c/vars.c -o c/vars-O0-dwarf5.o
gcc -O0 -g -gdwarf-5 -fdebug-prefix-map="$here"=. -c c/vars.c -o c/vars-gcc-O0.o
# RISC-V: lengths (DW_AT_high_pc) written as ADD/SUB relocation pairs.
clang-14 --target=riscv64-linux-gnu -O2 -g -gdwarf-5 -fdebug-prefix-map="$here"=. -c c/vars.c -o c/vars-riscv64.o
# gcc -O2's DW_OP_GNU_uninit after a register location.
gcc -O2 -g -gdwarf-5 -fdebug-prefix-map="$here"=. -c c/uninit.c -o c/uninit-gcc.o
# gcc -gdwarf-4's typed operations (DW_OP_GNU_convert) for an unsigned division.
gcc -O2 -g -gdwarf-4 -fdebug-prefix-map="$here"=. -c c/typed.c -o c/typed-gcc.o
# Split DWARF: a skeleton unit in the object, the variables in
# c/typed-split.dwo; and the same compile without -gsplit-dwarf.
clang-14 -O2 -g -gdwarf-5 -fdebug-prefix-map="$here"=. -c c/typed.c -o c/typed-clang.o
clang-14 -O2 -g -gdwarf-5 -gsplit-dwarf -fdebug-prefix-map="$here"=. -c c/typed.c -o c/typed-split.o
# gcc's split DWARF 5 (gdb 13 reads it; it does not read clang's).
gcc -O2 -g -gdwarf-5 -gsplit-dwarf -fdebug-prefix-map="$here"=. -c c/typed.c -o c/typed-gcc-split.o
# Split DWARF packages: c/typed.c and c/main.c linked, their .dwo files
# packed into the program's .dwp (DWARF 5 by llvm-dwp, DWARF 4 by
# binutils' dwp), the .dwo files removed.
clang-14 -O2 -g -gdwarf-5 -gsplit-dwarf -fdebug-prefix-map="$here"=. -c c/typed.c -o c/typed-dwp.o
llvm-dwp-22 c/typed-dwp.dwo -o c/typed-dwp.dwp
rm c/typed-dwp.dwo
for v in 5 4; do
  s=$([ $v = 5 ] && echo split || echo split4)
  exe=$([ $v = 5 ] && echo c/split-gcc.exe || echo c/split-gcc4.exe)
  gcc -O2 -g -gdwarf-$v -gsplit-dwarf -fdebug-prefix-map="$here"=. -c c/typed.c -o c/$s-typed.o
  gcc -O2 -g -gdwarf-$v -gsplit-dwarf -fdebug-prefix-map="$here"=. -c c/main.c -o c/$s-main.o
  gcc -no-pie c/$s-typed.o c/$s-main.o -o $exe
  if [ $v = 5 ]; then llvm-dwp-22 -e $exe -o $exe.dwp; else dwp -e $exe -o $exe.dwp; fi
  rm c/$s-typed.o c/$s-main.o c/$s-typed.dwo c/$s-main.dwo
done
# The same skeleton without its .dwo (a build that did not ship it).
clang-14 -O2 -g -gdwarf-5 -gsplit-dwarf -fdebug-prefix-map="$here"=. -c c/typed.c -o c/typed-nodwo.o
rm c/typed-nodwo.dwo
# gcc's declarations of globals beside their definitions.
gcc -O2 -g -gdwarf-5 -fdebug-prefix-map="$here"=. -c c/extern.c -o c/extern-gcc.o
# Compressed debug sections (SHF_COMPRESSED, zlib).
clang-14 -O2 -g -gdwarf-5 -gz=zlib -fdebug-prefix-map="$here"=. -c c/vars.c -o c/vars-gz.o
# A linked executable: addresses as the linker placed them, no relocations.
clang-14 -O2 -g -gdwarf-5 -fdebug-prefix-map="$here"=. c/vars.c -o c/vars-dwarf5.exe
# A thread-local variable (a relocation the reader does not apply).
clang-14 -O2 -g -gdwarf-5 -fdebug-prefix-map="$here"=. -c c/tls.c -o c/tls.o
# C++: DIEs that describe types, not objects (a function pointer type's
# parameters, a member function's declaration), an abstract instance, and
# a static data member defined through DW_AT_specification.
clang++-14 -O2 -g -gdwarf-5 -fdebug-prefix-map="$here"=. -c cpp/members.cpp -o cpp/members.o
# Type units (-fdebug-types-section): clang's DWARF 5 ones in COMDAT
# .debug_info sections, g++'s DWARF 4 ones in .debug_types.
clang++-14 -O2 -g -gdwarf-5 -fdebug-types-section -fdebug-prefix-map="$here"=. -c cpp/members.cpp -o cpp/members-types.o
g++ -O2 -g -gdwarf-4 -fdebug-types-section -fdebug-prefix-map="$here"=. -c cpp/members.cpp -o cpp/members-types-gcc.o
# The same with g++: `this` is a const pointer (`Counter *const`).
g++ -O2 -g -gdwarf-5 -fdebug-prefix-map="$here"=. -c cpp/members.cpp -o cpp/members-gcc.o
# LLVM IR as the compilers write it (`dioptra ir`, `lifetimes`, `multiloc`):
# clang-14 (typed pointers, debug intrinsics), rustc (its LLVM's opaque
# pointers and #dbg_ records).
clang-14 -O2 -g -fdebug-prefix-map="$here"=. -S -emit-llvm c/vars.c -o c/vars.ll
clang-14 -O0 -g -fdebug-prefix-map="$here"=. -S -emit-llvm c/vars.c -o c/vars-O0.ll
clang-14 -O2 -g -fdebug-prefix-map="$here"=. -S -emit-llvm c/control.c -o c/control.ll
clang++-14 -O2 -g -fdebug-prefix-map="$here"=. -S -emit-llvm cpp/flow.cpp -o cpp/flow.ll
clang-14 -O2 -g -fdebug-prefix-map="$here"=. -S -emit-llvm c/floats.c -o c/floats.ll
clang-14 -O2 -g -fdebug-prefix-map="$here"=. -S -emit-llvm c/ops.c -o c/ops.ll
rustc --edition 2021 -C opt-level=2 -C debuginfo=2 --crate-type lib --emit llvm-ir \
  --remap-path-prefix "$here"=. -o rust/lib.ll rust/lib.rs
rustc --edition 2021 -C opt-level=2 -C debuginfo=2 --crate-type lib --emit llvm-ir \
  --remap-path-prefix "$here"=. -o rust/salvage.ll rust/salvage.rs
# One function of a real crate from the cargo registry (itoa 1.0.18's
# `<u16 as Unsigned>::fmt`), cut out of its module by cut.sh.
itoa=$(ls -d "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/itoa-1.0.18 2>/dev/null | head -1)
if [ -n "$itoa" ]; then
  rustc --edition 2021 -C opt-level=2 -C debuginfo=2 --crate-type lib --emit llvm-ir \
    --cap-lints allow --remap-path-prefix "$itoa"=itoa --remap-path-prefix "$here"=. -o /tmp/itoa-$$.ll "$itoa/src/lib.rs"
  bash cut.sh 'u16$u20$as$u20$lib..Unsigned$GT$3fmt' < /tmp/itoa-$$.ll > rust/itoa-u16.ll
  rm -f /tmp/itoa-$$.ll
else
  echo "itoa 1.0.18 is not in the cargo registry: rust/itoa-u16.ll kept as it is" >&2
fi
# LLVM 22's code generator on what its passes wrote (llvm-codegen.dioptra):
# each llvm/*.ll is the `after.ll` of a `dioptra llvm --emit-repro` bundle
# (the function alone, its ModuleID line dropped), compiled as the harness
# compiles it. Needs llc-22 (`apt-get install -y llvm-22`).
for ll in llvm/*.ll; do
  llc-22 -O2 -filetype=obj "$ll" -o "${ll%.ll}.o"
done

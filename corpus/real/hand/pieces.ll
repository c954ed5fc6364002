; Hand-written in rustc's form (LLVM 22 records, as in the adler2, heck and
; bitflags crates at -O2; simd-adler32 for line 15): a 64-bit variable in
; two 32-bit pieces, one computed on DWARF's 64-bit generic type, a piece
; ended with `ptr poison` whatever its width, and a piece given a wider
; value (the low 32 bits of %w). Lines are referred to by number
; (corpus/real/ir.dioptra).
source_filename = "pieces.rs"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"

define i32 @f(i32 %a, i32 %b, i64 %w) !dbg !10 {
start:
    #dbg_value(i32 %a, !15, !DIExpression(DW_OP_LLVM_fragment, 0, 32), !17)
    #dbg_value(i32 %b, !15, !DIExpression(DW_OP_constu, 4, DW_OP_mul, DW_OP_stack_value, DW_OP_LLVM_fragment, 32, 32), !17)
  %r = add i32 %a, %b, !dbg !17
    #dbg_value(ptr poison, !15, !DIExpression(DW_OP_LLVM_fragment, 0, 32), !17)
    #dbg_value(i64 %w, !15, !DIExpression(DW_OP_LLVM_fragment, 0, 32), !17)
  ret i32 %r, !dbg !17
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!1, !2}
!0 = distinct !DICompileUnit(language: DW_LANG_Rust, file: !3, producer: "rustc", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug, splitDebugInlining: false, nameTableKind: None)
!1 = !{i32 7, !"Dwarf Version", i32 4}
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = !DIFile(filename: "pieces.rs", directory: ".")
!10 = distinct !DISubprogram(name: "f", scope: !3, file: !3, line: 1, type: !11, scopeLine: 1, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !14)
!11 = !DISubroutineType(types: !12)
!12 = !{!13, !13, !13}
!13 = !DIBasicType(name: "u32", size: 32, encoding: DW_ATE_unsigned)
!14 = !{!15}
!15 = !DILocalVariable(name: "pair", scope: !10, file: !3, line: 2, type: !16)
!16 = !DIBasicType(name: "u64", size: 64, encoding: DW_ATE_unsigned)
!17 = !DILocation(line: 2, column: 1, scope: !10)

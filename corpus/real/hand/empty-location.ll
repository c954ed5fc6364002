; Hand-written in the form clang 14 writes (seen in mimalloc's static.c at
; -O2): a dbg.value whose value was deleted names the empty node, which
; the module has numbered for another use (`metadata !4`, `!4 = !{}`); a
; module without that node prints `metadata !{}` (corpus/real/ir.dioptra).
source_filename = "empty.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define dso_local i32 @f(i32 %a) !dbg !10 {
entry:
  call void @llvm.dbg.value(metadata i32 %a, metadata !15, metadata !DIExpression()), !dbg !17
  call void @llvm.dbg.value(metadata !4, metadata !15, metadata !DIExpression()), !dbg !17
  %r = add i32 %a, 1, !dbg !17
  ret i32 %r, !dbg !17
}

declare void @llvm.dbg.value(metadata, metadata, metadata)

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!1, !2}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !3, producer: "clang version 14.0.6", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug, enums: !4, splitDebugInlining: false, nameTableKind: None)
!1 = !{i32 7, !"Dwarf Version", i32 5}
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = !DIFile(filename: "empty.c", directory: ".")
!4 = !{}
!10 = distinct !DISubprogram(name: "f", scope: !3, file: !3, line: 1, type: !11, scopeLine: 1, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !14)
!11 = !DISubroutineType(types: !12)
!12 = !{!13, !13}
!13 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!14 = !{!15}
!15 = !DILocalVariable(name: "a", arg: 1, scope: !10, file: !3, line: 1, type: !13)
!17 = !DILocation(line: 1, column: 1, scope: !10)
%zst = type {}

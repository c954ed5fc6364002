; Hand-written in clang 14's form (mimalloc's static.c at -O1, where SROA
; split an inlined function's by-value struct parameter `memid`): a
; dbg.declare of a [21 x i8] alloca for bits 0-167 of a 192-bit variable,
; and a dbg.value of an i8 for bits 168-175. The declare's pointer is 64
; bits; the piece is the 168 bits in memory at it. Lines are referred to by
; number (corpus/real/ir.dioptra).
source_filename = "declare-piece.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"

define i32 @f(i8 %k) !dbg !10 {
  %p = alloca [21 x i8], align 8
  call void @llvm.dbg.declare(metadata [21 x i8]* %p, metadata !15, metadata !DIExpression(DW_OP_LLVM_fragment, 0, 168)), !dbg !17
  call void @llvm.dbg.value(metadata i8 %k, metadata !15, metadata !DIExpression(DW_OP_LLVM_fragment, 168, 8)), !dbg !17
  ret i32 0, !dbg !17
}

declare void @llvm.dbg.declare(metadata, metadata, metadata)
declare void @llvm.dbg.value(metadata, metadata, metadata)

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!1, !2}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !3, producer: "clang version 14.0.6", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug, splitDebugInlining: false, nameTableKind: None)
!1 = !{i32 7, !"Dwarf Version", i32 5}
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = !DIFile(filename: "declare-piece.c", directory: ".")
!10 = distinct !DISubprogram(name: "f", scope: !3, file: !3, line: 1, type: !11, scopeLine: 1, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !14)
!11 = !DISubroutineType(types: !12)
!12 = !{!13, !20}
!13 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!14 = !{!15}
!15 = !DILocalVariable(name: "memid", arg: 1, scope: !10, file: !3, line: 1, type: !16)
!16 = !DICompositeType(tag: DW_TAG_structure_type, name: "memid", file: !3, line: 1, size: 192, elements: !18)
!17 = !DILocation(line: 2, column: 1, scope: !10)
!18 = !{!19, !21}
!19 = !DIDerivedType(tag: DW_TAG_member, name: "mem", scope: !16, file: !3, line: 1, baseType: !22, size: 168)
!20 = !DIBasicType(name: "char", size: 8, encoding: DW_ATE_signed_char)
!21 = !DIDerivedType(tag: DW_TAG_member, name: "kind", scope: !16, file: !3, line: 1, baseType: !20, size: 8, offset: 168)
!22 = !DICompositeType(tag: DW_TAG_array_type, baseType: !20, size: 168, elements: !23)
!23 = !{!24}
!24 = !DISubrange(count: 21)

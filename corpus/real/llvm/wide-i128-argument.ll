target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(none)
define void @f1(i32 %x0, i128 %x1) local_unnamed_addr #0 !dbg !4 {
entry:
    #dbg_value(i32 %x0, !7, !DIExpression(), !9)
    #dbg_value(i128 %x1, !10, !DIExpression(), !9)
    #dbg_value(i128 %x1, !12, !DIExpression(DW_OP_LLVM_convert, 128, DW_ATE_unsigned, DW_OP_LLVM_convert, 8, DW_ATE_unsigned, DW_OP_stack_value), !9)
    #dbg_value(i128 poison, !14, !DIExpression(), !9)
    #dbg_value(!DIArgList(i128 poison, i128 poison), !15, !DIExpression(DW_OP_LLVM_arg, 0, DW_OP_LLVM_arg, 1, DW_OP_mod, DW_OP_stack_value), !9)
    #dbg_value(i128 poison, !16, !DIExpression(), !9)
  ret void, !dbg !9
}

attributes #0 = { mustprogress nofree norecurse nosync nounwind willreturn memory(none) }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3}

!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "dioptra llvm", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "generated.c", directory: "/dioptra")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = !{i32 7, !"Dwarf Version", i32 5}
!4 = distinct !DISubprogram(name: "f1", scope: !1, file: !1, line: 1, type: !5, scopeLine: 1, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !6)
!5 = !DISubroutineType(types: !6)
!6 = !{}
!7 = !DILocalVariable(name: "x0", arg: 1, scope: !4, file: !1, line: 1, type: !8)
!8 = !DIBasicType(name: "int32", size: 32, encoding: DW_ATE_signed)
!9 = !DILocation(line: 1, column: 1, scope: !4)
!10 = !DILocalVariable(name: "x1", arg: 2, scope: !4, file: !1, line: 1, type: !11)
!11 = !DIBasicType(name: "int128", size: 128, encoding: DW_ATE_signed)
!12 = !DILocalVariable(name: "v0", scope: !4, file: !1, line: 1, type: !13)
!13 = !DIBasicType(name: "int8", size: 8, encoding: DW_ATE_signed)
!14 = !DILocalVariable(name: "v1", scope: !4, file: !1, line: 1, type: !11)
!15 = !DILocalVariable(name: "v2", scope: !4, file: !1, line: 1, type: !11)
!16 = !DILocalVariable(name: "v3", scope: !4, file: !1, line: 1, type: !11)

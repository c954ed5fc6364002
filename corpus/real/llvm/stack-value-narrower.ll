target datalayout = "e-m:e-p:32:32-p270:32:32-p271:32:32-p272:64:64-i128:128-f64:32:64-f80:32-n8:16:32-S128"
target triple = "i686-pc-linux-gnu"

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(none)
define i64 @f49(i32 %x0, i32 %x1) local_unnamed_addr #0 !dbg !4 {
entry:
    #dbg_value(i32 %x0, !7, !DIExpression(), !9)
    #dbg_value(i32 %x1, !10, !DIExpression(), !9)
    #dbg_value(i32 %x0, !11, !DIExpression(DW_OP_LLVM_convert, 32, DW_ATE_unsigned, DW_OP_LLVM_convert, 64, DW_ATE_unsigned, DW_OP_stack_value), !9)
  %v1 = sext i32 %x0 to i64, !dbg !9
    #dbg_value(i64 %v1, !13, !DIExpression(), !9)
  %v2 = shl i64 %v1, %v1, !dbg !9
    #dbg_value(i64 %v2, !14, !DIExpression(), !9)
    #dbg_value(i32 %x0, !15, !DIExpression(DW_OP_LLVM_convert, 32, DW_ATE_unsigned, DW_OP_LLVM_convert, 64, DW_ATE_unsigned, DW_OP_constu, 18446744073709551488, DW_OP_or, DW_OP_stack_value), !9)
    #dbg_value(!DIArgList(i64 %v2, i32 %x0), !16, !DIExpression(DW_OP_LLVM_arg, 0, DW_OP_LLVM_arg, 1, DW_OP_LLVM_convert, 32, DW_ATE_unsigned, DW_OP_LLVM_convert, 64, DW_ATE_unsigned, DW_OP_constu, 18446744073709551488, DW_OP_or, DW_OP_plus, DW_OP_stack_value), !9)
    #dbg_value(i64 -1, !17, !DIExpression(), !9)
    #dbg_value(i64 poison, !18, !DIExpression(), !9)
  ret i64 %v2, !dbg !9
}

attributes #0 = { mustprogress nofree norecurse nosync nounwind willreturn memory(none) }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3}

!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "dioptra llvm", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "generated.c", directory: "/dioptra")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = !{i32 7, !"Dwarf Version", i32 5}
!4 = distinct !DISubprogram(name: "f49", scope: !1, file: !1, line: 1, type: !5, scopeLine: 1, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !6)
!5 = !DISubroutineType(types: !6)
!6 = !{}
!7 = !DILocalVariable(name: "x0", arg: 1, scope: !4, file: !1, line: 1, type: !8)
!8 = !DIBasicType(name: "int32", size: 32, encoding: DW_ATE_signed)
!9 = !DILocation(line: 1, column: 1, scope: !4)
!10 = !DILocalVariable(name: "x1", arg: 2, scope: !4, file: !1, line: 1, type: !8)
!11 = !DILocalVariable(name: "v0", scope: !4, file: !1, line: 1, type: !12)
!12 = !DIBasicType(name: "int64", size: 64, encoding: DW_ATE_signed)
!13 = !DILocalVariable(name: "v1", scope: !4, file: !1, line: 1, type: !12)
!14 = !DILocalVariable(name: "v2", scope: !4, file: !1, line: 1, type: !12)
!15 = !DILocalVariable(name: "v3", scope: !4, file: !1, line: 1, type: !12)
!16 = !DILocalVariable(name: "v4", scope: !4, file: !1, line: 1, type: !12)
!17 = !DILocalVariable(name: "v5", scope: !4, file: !1, line: 1, type: !12)
!18 = !DILocalVariable(name: "v6", scope: !4, file: !1, line: 1, type: !12)

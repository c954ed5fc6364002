target datalayout = "e-m:e-p:32:32-p270:32:32-p271:32:32-p272:64:64-i128:128-f64:32:64-f80:32-n8:16:32-S128"
target triple = "i686-pc-linux-gnu"

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(none)
define i64 @f27(i64 %x0, i16 signext %x1) local_unnamed_addr #0 !dbg !4 {
entry:
    #dbg_value(i64 %x0, !7, !DIExpression(), !9)
    #dbg_value(i16 %x1, !10, !DIExpression(), !9)
    #dbg_value(i16 %x1, !12, !DIExpression(DW_OP_constu, 7, DW_OP_mod, DW_OP_stack_value), !9)
  %v1 = add i64 %x0, -255, !dbg !9
    #dbg_value(i64 %v1, !13, !DIExpression(), !9)
    #dbg_value(i64 %v1, !14, !DIExpression(DW_OP_constu, 40, DW_OP_shr, DW_OP_stack_value), !9)
    #dbg_value(i64 %v1, !15, !DIExpression(DW_OP_constu, 2, DW_OP_le, DW_OP_stack_value), !9)
  ret i64 %v1, !dbg !9
}

attributes #0 = { mustprogress nofree norecurse nosync nounwind willreturn memory(none) }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3}

!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "dioptra llvm", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "generated.c", directory: "/dioptra")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = !{i32 7, !"Dwarf Version", i32 5}
!4 = distinct !DISubprogram(name: "f27", scope: !1, file: !1, line: 1, type: !5, scopeLine: 1, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !6)
!5 = !DISubroutineType(types: !6)
!6 = !{}
!7 = !DILocalVariable(name: "x0", arg: 1, scope: !4, file: !1, line: 1, type: !8)
!8 = !DIBasicType(name: "int64", size: 64, encoding: DW_ATE_signed)
!9 = !DILocation(line: 1, column: 1, scope: !4)
!10 = !DILocalVariable(name: "x1", arg: 2, scope: !4, file: !1, line: 1, type: !11)
!11 = !DIBasicType(name: "int16", size: 16, encoding: DW_ATE_signed)
!12 = !DILocalVariable(name: "v0", scope: !4, file: !1, line: 1, type: !11)
!13 = !DILocalVariable(name: "v1", scope: !4, file: !1, line: 1, type: !8)
!14 = !DILocalVariable(name: "v2", scope: !4, file: !1, line: 1, type: !8)
!15 = !DILocalVariable(name: "v4", scope: !4, file: !1, line: 1, type: !16)
!16 = !DIBasicType(name: "bool", size: 8, encoding: DW_ATE_boolean)

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i8:8:32-i16:16:32-i64:64-i128:128-n32:64-S128-Fn32"
target triple = "aarch64-unknown-linux-gnu"

define void @f38(i8 %x0) !dbg !4 {
entry:
    #dbg_value(i8 %x0, !7, !DIExpression(), !9)
    #dbg_value(i8 %x0, !10, !DIExpression(DW_OP_constu, 8, DW_OP_minus, DW_OP_stack_value), !9)
    #dbg_value(i8 %x0, !11, !DIExpression(), !9)
  %v2 = lshr i8 %x0, 6, !dbg !9
    #dbg_value(i8 %v2, !12, !DIExpression(), !9)
  %v3 = trunc i8 %v2 to i1, !dbg !9
    #dbg_value(!DIArgList(i8 %x0, i8 %x0), !13, !DIExpression(DW_OP_LLVM_arg, 0, DW_OP_LLVM_arg, 1, DW_OP_or, DW_OP_stack_value), !9)
    #dbg_value(i8 %v2, !14, !DIExpression(DW_OP_constu, 4, DW_OP_shl, DW_OP_stack_value), !9)
    #dbg_value(i1 %v3, !15, !DIExpression(), !9)
  ret void, !dbg !9
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3}

!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "dioptra llvm", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "generated.c", directory: "/dioptra")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = !{i32 7, !"Dwarf Version", i32 5}
!4 = distinct !DISubprogram(name: "f38", scope: !1, file: !1, line: 1, type: !5, scopeLine: 1, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !6)
!5 = !DISubroutineType(types: !6)
!6 = !{}
!7 = !DILocalVariable(name: "x0", arg: 1, scope: !4, file: !1, line: 1, type: !8)
!8 = !DIBasicType(name: "int8", size: 8, encoding: DW_ATE_signed)
!9 = !DILocation(line: 1, column: 1, scope: !4)
!10 = !DILocalVariable(name: "v0", scope: !4, file: !1, line: 1, type: !8)
!11 = !DILocalVariable(name: "v1", scope: !4, file: !1, line: 1, type: !8)
!12 = !DILocalVariable(name: "v2", scope: !4, file: !1, line: 1, type: !8)
!13 = !DILocalVariable(name: "v4", scope: !4, file: !1, line: 1, type: !8)
!14 = !DILocalVariable(name: "v5", scope: !4, file: !1, line: 1, type: !8)
!15 = !DILocalVariable(name: "v6", scope: !4, file: !1, line: 1, type: !16)
!16 = !DIBasicType(name: "bool", size: 8, encoding: DW_ATE_boolean)

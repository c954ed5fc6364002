target datalayout = "e-m:e-p:32:32-p270:32:32-p271:32:32-p272:64:64-i128:128-f64:32:64-f80:32-n8:16:32-S128"
target triple = "i686-pc-linux-gnu"

define i64 @f81(i8 signext %x0, i64 %x1) !dbg !4 {
entry:
    #dbg_value(i8 %x0, !7, !DIExpression(), !9)
    #dbg_value(i64 %x1, !10, !DIExpression(), !9)
  %v0 = urem i64 %x1, 8, !dbg !9
  %v1 = sext i8 %x0 to i64, !dbg !9
    #dbg_value(i64 %v1, !12, !DIExpression(), !9)
  %v2 = ashr exact i64 %x1, %x1, !dbg !9
  %v3 = shl nsw i64 %v1, 44, !dbg !9
    #dbg_value(i64 %v3, !13, !DIExpression(), !9)
  %v4.cmp = icmp uge i64 %v3, -1, !dbg !9
  %v4 = zext i1 %v4.cmp to i64, !dbg !9
    #dbg_value(i64 %v4, !14, !DIExpression(), !9)
  ret i64 %v2, !dbg !9
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3}

!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "dioptra llvm", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "generated.c", directory: "/dioptra")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = !{i32 7, !"Dwarf Version", i32 5}
!4 = distinct !DISubprogram(name: "f81", scope: !1, file: !1, line: 1, type: !5, scopeLine: 1, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !6)
!5 = !DISubroutineType(types: !6)
!6 = !{}
!7 = !DILocalVariable(name: "x0", arg: 1, scope: !4, file: !1, line: 1, type: !8)
!8 = !DIBasicType(name: "int8", size: 8, encoding: DW_ATE_signed)
!9 = !DILocation(line: 1, column: 1, scope: !4)
!10 = !DILocalVariable(name: "x1", arg: 2, scope: !4, file: !1, line: 1, type: !11)
!11 = !DIBasicType(name: "int64", size: 64, encoding: DW_ATE_signed)
!12 = !DILocalVariable(name: "v1", scope: !4, file: !1, line: 1, type: !11)
!13 = !DILocalVariable(name: "v3", scope: !4, file: !1, line: 1, type: !11)
!14 = !DILocalVariable(name: "v4", scope: !4, file: !1, line: 1, type: !11)

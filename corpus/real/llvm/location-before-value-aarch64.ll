target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i8:8:32-i16:16:32-i64:64-i128:128-n32:64-S128-Fn32"
target triple = "aarch64-unknown-linux-gnu"

define i8 @f4(ptr %x0, i16 zeroext %x1) !dbg !4 {
entry:
    #dbg_value(ptr %x0, !7, !DIExpression(), !9)
    #dbg_value(i16 %x1, !10, !DIExpression(), !9)
  %v0 = trunc i16 %x1 to i8, !dbg !9
    #dbg_value(i8 %v0, !12, !DIExpression(), !9)
    #dbg_value(i8 poison, !14, !DIExpression(), !9)
  ret i8 %v0, !dbg !9
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3}

!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "dioptra llvm", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "generated.c", directory: "/dioptra")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = !{i32 7, !"Dwarf Version", i32 5}
!4 = distinct !DISubprogram(name: "f4", scope: !1, file: !1, line: 1, type: !5, scopeLine: 1, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !6)
!5 = !DISubroutineType(types: !6)
!6 = !{}
!7 = !DILocalVariable(name: "x0", arg: 1, scope: !4, file: !1, line: 1, type: !8)
!8 = !DIBasicType(name: "uintptr", size: 64, encoding: DW_ATE_address)
!9 = !DILocation(line: 1, column: 1, scope: !4)
!10 = !DILocalVariable(name: "x1", arg: 2, scope: !4, file: !1, line: 1, type: !11)
!11 = !DIBasicType(name: "int16", size: 16, encoding: DW_ATE_signed)
!12 = !DILocalVariable(name: "v0", scope: !4, file: !1, line: 1, type: !13)
!13 = !DIBasicType(name: "int8", size: 8, encoding: DW_ATE_signed)
!14 = !DILocalVariable(name: "v1", scope: !4, file: !1, line: 1, type: !13)

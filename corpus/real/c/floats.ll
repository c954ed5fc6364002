; ModuleID = 'c/floats.c'
source_filename = "c/floats.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; Function Attrs: nofree norecurse nosync nounwind readnone uwtable
define dso_local x86_fp80 @scale(x86_fp80 noundef %0, i32 noundef %1) local_unnamed_addr #0 !dbg !9 {
  call void @llvm.dbg.declare(metadata [6 x i8]* undef, metadata !17, metadata !DIExpression(DW_OP_LLVM_fragment, 80, 48)), !dbg !21
  call void @llvm.dbg.declare(metadata [6 x i8]* undef, metadata !18, metadata !DIExpression(DW_OP_LLVM_fragment, 80, 48)), !dbg !22
  call void @llvm.dbg.value(metadata x86_fp80 %0, metadata !15, metadata !DIExpression()), !dbg !23
  call void @llvm.dbg.value(metadata i32 %1, metadata !16, metadata !DIExpression()), !dbg !23
  call void @llvm.dbg.value(metadata x86_fp80 0xK4000A000000000000000, metadata !17, metadata !DIExpression()), !dbg !23
  %3 = fmul x86_fp80 %0, 0xK4000A000000000000000, !dbg !24
  call void @llvm.dbg.value(metadata x86_fp80 %3, metadata !18, metadata !DIExpression()), !dbg !23
  call void @llvm.dbg.value(metadata i32 0, metadata !19, metadata !DIExpression()), !dbg !25
  %4 = icmp sgt i32 %1, 0, !dbg !26
  br i1 %4, label %5, label %21, !dbg !28

5:                                                ; preds = %2
  %6 = add i32 %1, -1, !dbg !28
  %7 = and i32 %1, 7, !dbg !28
  %8 = icmp ult i32 %6, 7, !dbg !28
  br i1 %8, label %11, label %9, !dbg !28

9:                                                ; preds = %5
  %10 = and i32 %1, -8, !dbg !28
  br label %23, !dbg !28

11:                                               ; preds = %23, %5
  %12 = phi x86_fp80 [ undef, %5 ], [ %33, %23 ]
  %13 = phi x86_fp80 [ %3, %5 ], [ %33, %23 ]
  %14 = icmp eq i32 %7, 0, !dbg !28
  br i1 %14, label %21, label %15, !dbg !28

15:                                               ; preds = %11, %15
  %16 = phi x86_fp80 [ %18, %15 ], [ %13, %11 ]
  %17 = phi i32 [ %19, %15 ], [ 0, %11 ]
  call void @llvm.dbg.value(metadata i32 poison, metadata !19, metadata !DIExpression()), !dbg !25
  call void @llvm.dbg.value(metadata x86_fp80 %16, metadata !18, metadata !DIExpression()), !dbg !23
  %18 = fadd x86_fp80 %16, %0, !dbg !29
  call void @llvm.dbg.value(metadata x86_fp80 %18, metadata !18, metadata !DIExpression()), !dbg !23
  call void @llvm.dbg.value(metadata i32 poison, metadata !19, metadata !DIExpression(DW_OP_plus_uconst, 1, DW_OP_stack_value)), !dbg !25
  %19 = add i32 %17, 1, !dbg !28
  %20 = icmp eq i32 %19, %7, !dbg !28
  br i1 %20, label %21, label %15, !dbg !28, !llvm.loop !30

21:                                               ; preds = %11, %15, %2
  %22 = phi x86_fp80 [ %3, %2 ], [ %12, %11 ], [ %18, %15 ], !dbg !23
  ret x86_fp80 %22, !dbg !32

23:                                               ; preds = %23, %9
  %24 = phi x86_fp80 [ %3, %9 ], [ %33, %23 ]
  %25 = phi i32 [ 0, %9 ], [ %34, %23 ]
  call void @llvm.dbg.value(metadata i32 poison, metadata !19, metadata !DIExpression()), !dbg !25
  call void @llvm.dbg.value(metadata x86_fp80 %24, metadata !18, metadata !DIExpression()), !dbg !23
  %26 = fadd x86_fp80 %24, %0, !dbg !29
  call void @llvm.dbg.value(metadata x86_fp80 %26, metadata !18, metadata !DIExpression()), !dbg !23
  call void @llvm.dbg.value(metadata i32 poison, metadata !19, metadata !DIExpression(DW_OP_plus_uconst, 1, DW_OP_stack_value)), !dbg !25
  call void @llvm.dbg.value(metadata i32 poison, metadata !19, metadata !DIExpression(DW_OP_plus_uconst, 1, DW_OP_stack_value)), !dbg !25
  call void @llvm.dbg.value(metadata x86_fp80 %26, metadata !18, metadata !DIExpression()), !dbg !23
  %27 = fadd x86_fp80 %26, %0, !dbg !29
  call void @llvm.dbg.value(metadata x86_fp80 %27, metadata !18, metadata !DIExpression()), !dbg !23
  call void @llvm.dbg.value(metadata i32 poison, metadata !19, metadata !DIExpression(DW_OP_plus_uconst, 2, DW_OP_stack_value)), !dbg !25
  call void @llvm.dbg.value(metadata i32 poison, metadata !19, metadata !DIExpression(DW_OP_plus_uconst, 2, DW_OP_stack_value)), !dbg !25
  call void @llvm.dbg.value(metadata x86_fp80 %27, metadata !18, metadata !DIExpression()), !dbg !23
  %28 = fadd x86_fp80 %27, %0, !dbg !29
  call void @llvm.dbg.value(metadata x86_fp80 %28, metadata !18, metadata !DIExpression()), !dbg !23
  call void @llvm.dbg.value(metadata i32 poison, metadata !19, metadata !DIExpression(DW_OP_plus_uconst, 3, DW_OP_stack_value)), !dbg !25
  call void @llvm.dbg.value(metadata i32 poison, metadata !19, metadata !DIExpression(DW_OP_plus_uconst, 3, DW_OP_stack_value)), !dbg !25
  call void @llvm.dbg.value(metadata x86_fp80 %28, metadata !18, metadata !DIExpression()), !dbg !23
  %29 = fadd x86_fp80 %28, %0, !dbg !29
  call void @llvm.dbg.value(metadata x86_fp80 %29, metadata !18, metadata !DIExpression()), !dbg !23
  call void @llvm.dbg.value(metadata i32 poison, metadata !19, metadata !DIExpression(DW_OP_plus_uconst, 4, DW_OP_stack_value)), !dbg !25
  call void @llvm.dbg.value(metadata i32 poison, metadata !19, metadata !DIExpression(DW_OP_plus_uconst, 4, DW_OP_stack_value)), !dbg !25
  call void @llvm.dbg.value(metadata x86_fp80 %29, metadata !18, metadata !DIExpression()), !dbg !23
  %30 = fadd x86_fp80 %29, %0, !dbg !29
  call void @llvm.dbg.value(metadata x86_fp80 %30, metadata !18, metadata !DIExpression()), !dbg !23
  call void @llvm.dbg.value(metadata i32 poison, metadata !19, metadata !DIExpression(DW_OP_plus_uconst, 5, DW_OP_stack_value)), !dbg !25
  call void @llvm.dbg.value(metadata i32 poison, metadata !19, metadata !DIExpression(DW_OP_plus_uconst, 5, DW_OP_stack_value)), !dbg !25
  call void @llvm.dbg.value(metadata x86_fp80 %30, metadata !18, metadata !DIExpression()), !dbg !23
  %31 = fadd x86_fp80 %30, %0, !dbg !29
  call void @llvm.dbg.value(metadata x86_fp80 %31, metadata !18, metadata !DIExpression()), !dbg !23
  call void @llvm.dbg.value(metadata i32 poison, metadata !19, metadata !DIExpression(DW_OP_plus_uconst, 6, DW_OP_stack_value)), !dbg !25
  call void @llvm.dbg.value(metadata i32 poison, metadata !19, metadata !DIExpression(DW_OP_plus_uconst, 6, DW_OP_stack_value)), !dbg !25
  call void @llvm.dbg.value(metadata x86_fp80 %31, metadata !18, metadata !DIExpression()), !dbg !23
  %32 = fadd x86_fp80 %31, %0, !dbg !29
  call void @llvm.dbg.value(metadata x86_fp80 %32, metadata !18, metadata !DIExpression()), !dbg !23
  call void @llvm.dbg.value(metadata i32 poison, metadata !19, metadata !DIExpression(DW_OP_plus_uconst, 7, DW_OP_stack_value)), !dbg !25
  call void @llvm.dbg.value(metadata i32 poison, metadata !19, metadata !DIExpression(DW_OP_plus_uconst, 7, DW_OP_stack_value)), !dbg !25
  call void @llvm.dbg.value(metadata x86_fp80 %32, metadata !18, metadata !DIExpression()), !dbg !23
  %33 = fadd x86_fp80 %32, %0, !dbg !29
  call void @llvm.dbg.value(metadata x86_fp80 %33, metadata !18, metadata !DIExpression()), !dbg !23
  call void @llvm.dbg.value(metadata i32 poison, metadata !19, metadata !DIExpression(DW_OP_plus_uconst, 8, DW_OP_stack_value)), !dbg !25
  %34 = add i32 %25, 8, !dbg !28
  %35 = icmp eq i32 %34, %10, !dbg !28
  br i1 %35, label %11, label %23, !dbg !28, !llvm.loop !33
}

; Function Attrs: mustprogress nofree nosync nounwind readnone speculatable willreturn
declare void @llvm.dbg.declare(metadata, metadata, metadata) #1

; Function Attrs: mustprogress nofree norecurse nosync nounwind readnone uwtable willreturn
define dso_local fp128 @quad(fp128 noundef %0, double noundef %1) local_unnamed_addr #2 !dbg !36 {
  call void @llvm.dbg.value(metadata fp128 %0, metadata !42, metadata !DIExpression()), !dbg !45
  call void @llvm.dbg.value(metadata double %1, metadata !43, metadata !DIExpression()), !dbg !45
  %3 = fpext double %1 to fp128, !dbg !46
  %4 = fadd fp128 %3, %0, !dbg !47
  call void @llvm.dbg.value(metadata fp128 %4, metadata !44, metadata !DIExpression()), !dbg !45
  %5 = fmul fp128 %4, %4, !dbg !48
  ret fp128 %5, !dbg !49
}

; Function Attrs: nofree nosync nounwind readnone speculatable willreturn
declare void @llvm.dbg.value(metadata, metadata, metadata) #3

attributes #0 = { nofree norecurse nosync nounwind readnone uwtable "frame-pointer"="none" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { mustprogress nofree nosync nounwind readnone speculatable willreturn }
attributes #2 = { mustprogress nofree norecurse nosync nounwind readnone uwtable willreturn "frame-pointer"="none" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #3 = { nofree nosync nounwind readnone speculatable willreturn }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3, !4, !5, !6, !7}
!llvm.ident = !{!8}

!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "Debian clang version 14.0.6", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug, splitDebugInlining: false, nameTableKind: None)
!1 = !DIFile(filename: "c/floats.c", directory: ".", checksumkind: CSK_MD5, checksum: "c5c4f10dfc9cb4dd7b6ffc7dc36e36f4")
!2 = !{i32 7, !"Dwarf Version", i32 5}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 1, !"wchar_size", i32 4}
!5 = !{i32 7, !"PIC Level", i32 2}
!6 = !{i32 7, !"PIE Level", i32 2}
!7 = !{i32 7, !"uwtable", i32 1}
!8 = !{!"Debian clang version 14.0.6"}
!9 = distinct !DISubprogram(name: "scale", scope: !1, file: !1, line: 3, type: !10, scopeLine: 3, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !14)
!10 = !DISubroutineType(types: !11)
!11 = !{!12, !12, !13}
!12 = !DIBasicType(name: "long double", size: 128, encoding: DW_ATE_float)
!13 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!14 = !{!15, !16, !17, !18, !19}
!15 = !DILocalVariable(name: "x", arg: 1, scope: !9, file: !1, line: 3, type: !12)
!16 = !DILocalVariable(name: "n", arg: 2, scope: !9, file: !1, line: 3, type: !13)
!17 = !DILocalVariable(name: "k", scope: !9, file: !1, line: 4, type: !12)
!18 = !DILocalVariable(name: "r", scope: !9, file: !1, line: 5, type: !12)
!19 = !DILocalVariable(name: "i", scope: !20, file: !1, line: 6, type: !13)
!20 = distinct !DILexicalBlock(scope: !9, file: !1, line: 6, column: 3)
!21 = !DILocation(line: 4, column: 15, scope: !9)
!22 = !DILocation(line: 5, column: 15, scope: !9)
!23 = !DILocation(line: 0, scope: !9)
!24 = !DILocation(line: 5, column: 21, scope: !9)
!25 = !DILocation(line: 0, scope: !20)
!26 = !DILocation(line: 6, column: 21, scope: !27)
!27 = distinct !DILexicalBlock(scope: !20, file: !1, line: 6, column: 3)
!28 = !DILocation(line: 6, column: 3, scope: !20)
!29 = !DILocation(line: 7, column: 7, scope: !27)
!30 = distinct !{!30, !31}
!31 = !{!"llvm.loop.unroll.disable"}
!32 = !DILocation(line: 8, column: 3, scope: !9)
!33 = distinct !{!33, !28, !34, !35}
!34 = !DILocation(line: 7, column: 10, scope: !20)
!35 = !{!"llvm.loop.mustprogress"}
!36 = distinct !DISubprogram(name: "quad", scope: !1, file: !1, line: 11, type: !37, scopeLine: 11, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !41)
!37 = !DISubroutineType(types: !38)
!38 = !{!39, !39, !40}
!39 = !DIBasicType(name: "__float128", size: 128, encoding: DW_ATE_float)
!40 = !DIBasicType(name: "double", size: 64, encoding: DW_ATE_float)
!41 = !{!42, !43, !44}
!42 = !DILocalVariable(name: "q", arg: 1, scope: !36, file: !1, line: 11, type: !39)
!43 = !DILocalVariable(name: "d", arg: 2, scope: !36, file: !1, line: 11, type: !40)
!44 = !DILocalVariable(name: "s", scope: !36, file: !1, line: 12, type: !39)
!45 = !DILocation(line: 0, scope: !36)
!46 = !DILocation(line: 12, column: 22, scope: !36)
!47 = !DILocation(line: 12, column: 20, scope: !36)
!48 = !DILocation(line: 13, column: 12, scope: !36)
!49 = !DILocation(line: 13, column: 3, scope: !36)

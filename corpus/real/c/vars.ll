; ModuleID = 'c/vars.c'
source_filename = "c/vars.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@counter = dso_local local_unnamed_addr global i32 7, align 4, !dbg !0
@__const.main.data = private unnamed_addr constant [4 x i32] [i32 1, i32 2, i32 3, i32 4], align 16

; Function Attrs: mustprogress nofree noinline norecurse nosync nounwind readnone uwtable willreturn
define dso_local i32 @add(i32 noundef %0, i32 noundef %1) local_unnamed_addr #0 !dbg !14 {
  call void @llvm.dbg.value(metadata i32 %0, metadata !18, metadata !DIExpression()), !dbg !20
  call void @llvm.dbg.value(metadata i32 %1, metadata !19, metadata !DIExpression()), !dbg !20
  %3 = add nsw i32 %1, %0, !dbg !21
  ret i32 %3, !dbg !22
}

; Function Attrs: mustprogress nofree nosync nounwind readnone speculatable willreturn
declare void @llvm.dbg.declare(metadata, metadata, metadata) #1

; Function Attrs: mustprogress nofree noinline norecurse nosync nounwind uwtable willreturn
define dso_local i64 @scale(i64 noundef %0, i32 noundef %1) local_unnamed_addr #2 !dbg !23 {
  call void @llvm.dbg.value(metadata i64 %0, metadata !28, metadata !DIExpression()), !dbg !31
  call void @llvm.dbg.value(metadata i32 %1, metadata !29, metadata !DIExpression()), !dbg !31
  %3 = sext i32 %1 to i64, !dbg !32
  %4 = mul nsw i64 %3, %0, !dbg !33
  call void @llvm.dbg.value(metadata i64 %4, metadata !30, metadata !DIExpression()), !dbg !31
  %5 = load i32, i32* @counter, align 4, !dbg !34, !tbaa !35
  %6 = add nsw i32 %5, %1, !dbg !34
  store i32 %6, i32* @counter, align 4, !dbg !34, !tbaa !35
  %7 = sext i32 %6 to i64, !dbg !39
  %8 = add nsw i64 %4, %7, !dbg !40
  ret i64 %8, !dbg !41
}

; Function Attrs: nofree noinline norecurse nosync nounwind readonly uwtable
define dso_local i32 @sum(i32* nocapture noundef readonly %0, i32 noundef %1) local_unnamed_addr #3 !dbg !42 {
  call void @llvm.dbg.value(metadata i32* %0, metadata !48, metadata !DIExpression()), !dbg !53
  call void @llvm.dbg.value(metadata i32 %1, metadata !49, metadata !DIExpression()), !dbg !53
  call void @llvm.dbg.value(metadata i32 0, metadata !50, metadata !DIExpression()), !dbg !53
  call void @llvm.dbg.value(metadata i32 0, metadata !51, metadata !DIExpression()), !dbg !54
  %3 = icmp sgt i32 %1, 0, !dbg !55
  br i1 %3, label %4, label %88, !dbg !57

4:                                                ; preds = %2
  %5 = zext i32 %1 to i64, !dbg !55
  %6 = icmp ult i32 %1, 8, !dbg !57
  br i1 %6, label %85, label %7, !dbg !57

7:                                                ; preds = %4
  %8 = and i64 %5, 4294967288, !dbg !57
  %9 = add nsw i64 %8, -8, !dbg !57
  %10 = lshr exact i64 %9, 3, !dbg !57
  %11 = add nuw nsw i64 %10, 1, !dbg !57
  %12 = and i64 %11, 1, !dbg !57
  %13 = icmp eq i64 %9, 0, !dbg !57
  br i1 %13, label %58, label %14, !dbg !57

14:                                               ; preds = %7
  %15 = and i64 %11, 4611686018427387902, !dbg !57
  br label %16, !dbg !57

16:                                               ; preds = %16, %14
  %17 = phi i64 [ 0, %14 ], [ %52, %16 ], !dbg !58
  %18 = phi <4 x i64> [ <i64 0, i64 1, i64 2, i64 3>, %14 ], [ %53, %16 ]
  %19 = phi <4 x i32> [ zeroinitializer, %14 ], [ %50, %16 ]
  %20 = phi <4 x i32> [ zeroinitializer, %14 ], [ %51, %16 ]
  %21 = phi i64 [ 0, %14 ], [ %54, %16 ]
  %22 = getelementptr inbounds i32, i32* %0, i64 %17, !dbg !58
  %23 = bitcast i32* %22 to <4 x i32>*, !dbg !59
  %24 = load <4 x i32>, <4 x i32>* %23, align 4, !dbg !59, !tbaa !35
  %25 = getelementptr inbounds i32, i32* %22, i64 4, !dbg !59
  %26 = bitcast i32* %25 to <4 x i32>*, !dbg !59
  %27 = load <4 x i32>, <4 x i32>* %26, align 4, !dbg !59, !tbaa !35
  %28 = trunc <4 x i64> %18 to <4 x i32>, !dbg !60
  %29 = add <4 x i32> %28, <i32 1, i32 1, i32 1, i32 1>, !dbg !60
  %30 = trunc <4 x i64> %18 to <4 x i32>, !dbg !60
  %31 = add <4 x i32> %30, <i32 5, i32 5, i32 5, i32 5>, !dbg !60
  %32 = mul nsw <4 x i32> %24, %29, !dbg !60
  %33 = mul nsw <4 x i32> %27, %31, !dbg !60
  %34 = add <4 x i32> %32, %19, !dbg !61
  %35 = add <4 x i32> %33, %20, !dbg !61
  %36 = or i64 %17, 8, !dbg !58
  %37 = add <4 x i64> %18, <i64 8, i64 8, i64 8, i64 8>
  %38 = getelementptr inbounds i32, i32* %0, i64 %36, !dbg !58
  %39 = bitcast i32* %38 to <4 x i32>*, !dbg !59
  %40 = load <4 x i32>, <4 x i32>* %39, align 4, !dbg !59, !tbaa !35
  %41 = getelementptr inbounds i32, i32* %38, i64 4, !dbg !59
  %42 = bitcast i32* %41 to <4 x i32>*, !dbg !59
  %43 = load <4 x i32>, <4 x i32>* %42, align 4, !dbg !59, !tbaa !35
  %44 = trunc <4 x i64> %37 to <4 x i32>, !dbg !60
  %45 = add <4 x i32> %44, <i32 1, i32 1, i32 1, i32 1>, !dbg !60
  %46 = trunc <4 x i64> %37 to <4 x i32>, !dbg !60
  %47 = add <4 x i32> %46, <i32 5, i32 5, i32 5, i32 5>, !dbg !60
  %48 = mul nsw <4 x i32> %40, %45, !dbg !60
  %49 = mul nsw <4 x i32> %43, %47, !dbg !60
  %50 = add <4 x i32> %48, %34, !dbg !61
  %51 = add <4 x i32> %49, %35, !dbg !61
  %52 = add nuw i64 %17, 16, !dbg !58
  %53 = add <4 x i64> %18, <i64 16, i64 16, i64 16, i64 16>
  %54 = add i64 %21, 2, !dbg !58
  %55 = icmp eq i64 %54, %15, !dbg !58
  br i1 %55, label %56, label %16, !dbg !58, !llvm.loop !62

56:                                               ; preds = %16
  %57 = trunc <4 x i64> %53 to <4 x i32>, !dbg !58
  br label %58, !dbg !58

58:                                               ; preds = %56, %7
  %59 = phi <4 x i32> [ undef, %7 ], [ %50, %56 ]
  %60 = phi <4 x i32> [ undef, %7 ], [ %51, %56 ]
  %61 = phi i64 [ 0, %7 ], [ %52, %56 ]
  %62 = phi <4 x i32> [ <i32 0, i32 1, i32 2, i32 3>, %7 ], [ %57, %56 ]
  %63 = phi <4 x i32> [ zeroinitializer, %7 ], [ %50, %56 ]
  %64 = phi <4 x i32> [ zeroinitializer, %7 ], [ %51, %56 ]
  %65 = icmp eq i64 %12, 0, !dbg !58
  br i1 %65, label %79, label %66, !dbg !58

66:                                               ; preds = %58
  %67 = getelementptr inbounds i32, i32* %0, i64 %61, !dbg !58
  %68 = bitcast i32* %67 to <4 x i32>*, !dbg !59
  %69 = load <4 x i32>, <4 x i32>* %68, align 4, !dbg !59, !tbaa !35
  %70 = getelementptr inbounds i32, i32* %67, i64 4, !dbg !59
  %71 = bitcast i32* %70 to <4 x i32>*, !dbg !59
  %72 = load <4 x i32>, <4 x i32>* %71, align 4, !dbg !59, !tbaa !35
  %73 = add <4 x i32> %62, <i32 1, i32 1, i32 1, i32 1>, !dbg !60
  %74 = add <4 x i32> %62, <i32 5, i32 5, i32 5, i32 5>, !dbg !60
  %75 = mul nsw <4 x i32> %69, %73, !dbg !60
  %76 = mul nsw <4 x i32> %72, %74, !dbg !60
  %77 = add <4 x i32> %75, %63, !dbg !61
  %78 = add <4 x i32> %76, %64, !dbg !61
  br label %79, !dbg !57

79:                                               ; preds = %58, %66
  %80 = phi <4 x i32> [ %59, %58 ], [ %77, %66 ], !dbg !61
  %81 = phi <4 x i32> [ %60, %58 ], [ %78, %66 ], !dbg !61
  %82 = add <4 x i32> %81, %80, !dbg !57
  %83 = call i32 @llvm.vector.reduce.add.v4i32(<4 x i32> %82), !dbg !57
  %84 = icmp eq i64 %8, %5, !dbg !57
  br i1 %84, label %88, label %85, !dbg !57

85:                                               ; preds = %4, %79
  %86 = phi i64 [ 0, %4 ], [ %8, %79 ]
  %87 = phi i32 [ 0, %4 ], [ %83, %79 ]
  br label %90, !dbg !57

88:                                               ; preds = %90, %79, %2
  %89 = phi i32 [ 0, %2 ], [ %83, %79 ], [ %98, %90 ], !dbg !53
  ret i32 %89, !dbg !66

90:                                               ; preds = %85, %90
  %91 = phi i64 [ %95, %90 ], [ %86, %85 ]
  %92 = phi i32 [ %98, %90 ], [ %87, %85 ]
  call void @llvm.dbg.value(metadata i64 %91, metadata !51, metadata !DIExpression()), !dbg !54
  call void @llvm.dbg.value(metadata i32 %92, metadata !50, metadata !DIExpression()), !dbg !53
  %93 = getelementptr inbounds i32, i32* %0, i64 %91, !dbg !59
  %94 = load i32, i32* %93, align 4, !dbg !59, !tbaa !35
  %95 = add nuw nsw i64 %91, 1, !dbg !58
  %96 = trunc i64 %95 to i32, !dbg !60
  %97 = mul nsw i32 %94, %96, !dbg !60
  %98 = add nsw i32 %97, %92, !dbg !61
  call void @llvm.dbg.value(metadata i64 %95, metadata !51, metadata !DIExpression()), !dbg !54
  call void @llvm.dbg.value(metadata i32 %98, metadata !50, metadata !DIExpression()), !dbg !53
  %99 = icmp eq i64 %95, %5, !dbg !55
  br i1 %99, label %88, label %90, !dbg !57, !llvm.loop !67
}

; Function Attrs: mustprogress nofree noinline nosync nounwind readnone uwtable willreturn
define dso_local i32 @norm1(i64 %0) local_unnamed_addr #4 !dbg !69 {
  %2 = trunc i64 %0 to i32
  call void @llvm.dbg.value(metadata i32 %2, metadata !80, metadata !DIExpression(DW_OP_LLVM_fragment, 0, 32)), !dbg !82
  call void @llvm.dbg.value(metadata i64 %0, metadata !80, metadata !DIExpression(DW_OP_constu, 32, DW_OP_shr, DW_OP_LLVM_convert, 64, DW_ATE_unsigned, DW_OP_LLVM_convert, 16, DW_ATE_unsigned, DW_OP_stack_value, DW_OP_LLVM_fragment, 32, 16)), !dbg !82
  call void @llvm.dbg.value(metadata i64 %0, metadata !80, metadata !DIExpression(DW_OP_constu, 48, DW_OP_shr, DW_OP_LLVM_convert, 64, DW_ATE_unsigned, DW_OP_LLVM_convert, 8, DW_ATE_unsigned, DW_OP_stack_value, DW_OP_LLVM_fragment, 48, 8)), !dbg !82
  call void @llvm.dbg.value(metadata i64 %0, metadata !80, metadata !DIExpression(DW_OP_constu, 56, DW_OP_shr, DW_OP_LLVM_convert, 64, DW_ATE_unsigned, DW_OP_LLVM_convert, 8, DW_ATE_unsigned, DW_OP_stack_value, DW_OP_LLVM_fragment, 56, 8)), !dbg !82
  call void @llvm.dbg.value(metadata i32 %2, metadata !81, metadata !DIExpression(DW_OP_LLVM_fragment, 0, 32)), !dbg !82
  call void @llvm.dbg.value(metadata i64 %0, metadata !81, metadata !DIExpression(DW_OP_constu, 32, DW_OP_shr, DW_OP_LLVM_convert, 64, DW_ATE_unsigned, DW_OP_LLVM_convert, 16, DW_ATE_unsigned, DW_OP_stack_value, DW_OP_LLVM_fragment, 32, 16)), !dbg !82
  call void @llvm.dbg.value(metadata i64 %0, metadata !81, metadata !DIExpression(DW_OP_constu, 48, DW_OP_shr, DW_OP_LLVM_convert, 64, DW_ATE_unsigned, DW_OP_LLVM_convert, 8, DW_ATE_unsigned, DW_OP_stack_value, DW_OP_LLVM_fragment, 48, 8)), !dbg !82
  call void @llvm.dbg.value(metadata i64 %0, metadata !81, metadata !DIExpression(DW_OP_constu, 56, DW_OP_shr, DW_OP_LLVM_convert, 64, DW_ATE_unsigned, DW_OP_LLVM_convert, 8, DW_ATE_unsigned, DW_OP_stack_value, DW_OP_LLVM_fragment, 56, 8)), !dbg !82
  %3 = tail call i32 @llvm.abs.i32(i32 %2, i1 true), !dbg !83
  call void @llvm.dbg.value(metadata i32 %3, metadata !81, metadata !DIExpression(DW_OP_LLVM_fragment, 0, 32)), !dbg !82
  %4 = lshr i64 %0, 16, !dbg !84
  %5 = trunc i64 %4 to i32, !dbg !84
  %6 = ashr i32 %5, 16, !dbg !84
  %7 = add nsw i32 %6, %3, !dbg !85
  %8 = lshr i64 %0, 24, !dbg !86
  %9 = trunc i64 %8 to i32, !dbg !86
  %10 = ashr i32 %9, 24, !dbg !86
  %11 = add nsw i32 %7, %10, !dbg !87
  ret i32 %11, !dbg !88
}

; Function Attrs: nofree nosync nounwind uwtable
define dso_local i32 @main() local_unnamed_addr #5 !dbg !89 {
  call void @llvm.dbg.declare(metadata [4 x i32]* @__const.main.data, metadata !92, metadata !DIExpression()), !dbg !97
  call void @llvm.dbg.value(metadata i64 1407396358389757, metadata !96, metadata !DIExpression()), !dbg !98
  %1 = tail call i32 @add(i32 noundef 1, i32 noundef 2), !dbg !99
  %2 = tail call i64 @scale(i64 noundef 10, i32 noundef 3), !dbg !100
  %3 = trunc i64 %2 to i32, !dbg !101
  %4 = add nsw i32 %1, %3, !dbg !102
  %5 = tail call i32 @sum(i32* noundef nonnull getelementptr inbounds ([4 x i32], [4 x i32]* @__const.main.data, i64 0, i64 0), i32 noundef 4), !dbg !103
  %6 = add nsw i32 %4, %5, !dbg !104
  %7 = tail call i32 @norm1(i64 1407396358389757), !dbg !105
  %8 = add nsw i32 %6, %7, !dbg !106
  ret i32 %8, !dbg !107
}

; Function Attrs: nofree nosync nounwind readnone speculatable willreturn
declare void @llvm.dbg.value(metadata, metadata, metadata) #6

; Function Attrs: nofree nosync nounwind readnone speculatable willreturn
declare i32 @llvm.abs.i32(i32, i1 immarg) #6

; Function Attrs: nofree nosync nounwind readnone willreturn
declare i32 @llvm.vector.reduce.add.v4i32(<4 x i32>) #7

attributes #0 = { mustprogress nofree noinline norecurse nosync nounwind readnone uwtable willreturn "frame-pointer"="none" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { mustprogress nofree nosync nounwind readnone speculatable willreturn }
attributes #2 = { mustprogress nofree noinline norecurse nosync nounwind uwtable willreturn "frame-pointer"="none" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #3 = { nofree noinline norecurse nosync nounwind readonly uwtable "frame-pointer"="none" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #4 = { mustprogress nofree noinline nosync nounwind readnone uwtable willreturn "frame-pointer"="none" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #5 = { nofree nosync nounwind uwtable "frame-pointer"="none" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #6 = { nofree nosync nounwind readnone speculatable willreturn }
attributes #7 = { nofree nosync nounwind readnone willreturn }

!llvm.dbg.cu = !{!2}
!llvm.module.flags = !{!7, !8, !9, !10, !11, !12}
!llvm.ident = !{!13}

!0 = !DIGlobalVariableExpression(var: !1, expr: !DIExpression())
!1 = distinct !DIGlobalVariable(name: "counter", scope: !2, file: !3, line: 9, type: !5, isLocal: false, isDefinition: true)
!2 = distinct !DICompileUnit(language: DW_LANG_C99, file: !3, producer: "Debian clang version 14.0.6", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug, retainedTypes: !4, globals: !6, splitDebugInlining: false, nameTableKind: None)
!3 = !DIFile(filename: "c/vars.c", directory: ".", checksumkind: CSK_MD5, checksum: "3180f30c0505f8c16f817e24137213a2")
!4 = !{!5}
!5 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!6 = !{!0}
!7 = !{i32 7, !"Dwarf Version", i32 5}
!8 = !{i32 2, !"Debug Info Version", i32 3}
!9 = !{i32 1, !"wchar_size", i32 4}
!10 = !{i32 7, !"PIC Level", i32 2}
!11 = !{i32 7, !"PIE Level", i32 2}
!12 = !{i32 7, !"uwtable", i32 1}
!13 = !{!"Debian clang version 14.0.6"}
!14 = distinct !DISubprogram(name: "add", scope: !3, file: !3, line: 11, type: !15, scopeLine: 11, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !2, retainedNodes: !17)
!15 = !DISubroutineType(types: !16)
!16 = !{!5, !5, !5}
!17 = !{!18, !19}
!18 = !DILocalVariable(name: "a", arg: 1, scope: !14, file: !3, line: 11, type: !5)
!19 = !DILocalVariable(name: "b", arg: 2, scope: !14, file: !3, line: 11, type: !5)
!20 = !DILocation(line: 0, scope: !14)
!21 = !DILocation(line: 11, column: 60, scope: !14)
!22 = !DILocation(line: 11, column: 51, scope: !14)
!23 = distinct !DISubprogram(name: "scale", scope: !3, file: !3, line: 13, type: !24, scopeLine: 13, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !2, retainedNodes: !27)
!24 = !DISubroutineType(types: !25)
!25 = !{!26, !26, !5}
!26 = !DIBasicType(name: "long", size: 64, encoding: DW_ATE_signed)
!27 = !{!28, !29, !30}
!28 = !DILocalVariable(name: "v", arg: 1, scope: !23, file: !3, line: 13, type: !26)
!29 = !DILocalVariable(name: "k", arg: 2, scope: !23, file: !3, line: 13, type: !5)
!30 = !DILocalVariable(name: "r", scope: !23, file: !3, line: 14, type: !26)
!31 = !DILocation(line: 0, scope: !23)
!32 = !DILocation(line: 14, column: 16, scope: !23)
!33 = !DILocation(line: 14, column: 14, scope: !23)
!34 = !DILocation(line: 15, column: 11, scope: !23)
!35 = !{!36, !36, i64 0}
!36 = !{!"int", !37, i64 0}
!37 = !{!"omnipotent char", !38, i64 0}
!38 = !{!"Simple C/C++ TBAA"}
!39 = !DILocation(line: 16, column: 14, scope: !23)
!40 = !DILocation(line: 16, column: 12, scope: !23)
!41 = !DILocation(line: 16, column: 3, scope: !23)
!42 = distinct !DISubprogram(name: "sum", scope: !3, file: !3, line: 19, type: !43, scopeLine: 19, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !2, retainedNodes: !47)
!43 = !DISubroutineType(types: !44)
!44 = !{!5, !45, !5}
!45 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !46, size: 64)
!46 = !DIDerivedType(tag: DW_TAG_const_type, baseType: !5)
!47 = !{!48, !49, !50, !51}
!48 = !DILocalVariable(name: "p", arg: 1, scope: !42, file: !3, line: 19, type: !45)
!49 = !DILocalVariable(name: "n", arg: 2, scope: !42, file: !3, line: 19, type: !5)
!50 = !DILocalVariable(name: "total", scope: !42, file: !3, line: 20, type: !5)
!51 = !DILocalVariable(name: "i", scope: !52, file: !3, line: 21, type: !5)
!52 = distinct !DILexicalBlock(scope: !42, file: !3, line: 21, column: 3)
!53 = !DILocation(line: 0, scope: !42)
!54 = !DILocation(line: 0, scope: !52)
!55 = !DILocation(line: 21, column: 21, scope: !56)
!56 = distinct !DILexicalBlock(scope: !52, file: !3, line: 21, column: 3)
!57 = !DILocation(line: 21, column: 3, scope: !52)
!58 = !DILocation(line: 22, column: 24, scope: !56)
!59 = !DILocation(line: 22, column: 14, scope: !56)
!60 = !DILocation(line: 22, column: 19, scope: !56)
!61 = !DILocation(line: 22, column: 11, scope: !56)
!62 = distinct !{!62, !57, !63, !64, !65}
!63 = !DILocation(line: 22, column: 27, scope: !52)
!64 = !{!"llvm.loop.mustprogress"}
!65 = !{!"llvm.loop.isvectorized", i32 1}
!66 = !DILocation(line: 23, column: 3, scope: !42)
!67 = distinct !{!67, !57, !63, !64, !68, !65}
!68 = !{!"llvm.loop.unroll.runtime.disable"}
!69 = distinct !DISubprogram(name: "norm1", scope: !3, file: !3, line: 26, type: !70, scopeLine: 26, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !2, retainedNodes: !79)
!70 = !DISubroutineType(types: !71)
!71 = !{!5, !72}
!72 = distinct !DICompositeType(tag: DW_TAG_structure_type, name: "point", file: !3, line: 3, size: 64, elements: !73)
!73 = !{!74, !75, !77}
!74 = !DIDerivedType(tag: DW_TAG_member, name: "x", scope: !72, file: !3, line: 4, baseType: !5, size: 32)
!75 = !DIDerivedType(tag: DW_TAG_member, name: "y", scope: !72, file: !3, line: 5, baseType: !76, size: 16, offset: 32)
!76 = !DIBasicType(name: "short", size: 16, encoding: DW_ATE_signed)
!77 = !DIDerivedType(tag: DW_TAG_member, name: "tag", scope: !72, file: !3, line: 6, baseType: !78, size: 8, offset: 48)
!78 = !DIBasicType(name: "char", size: 8, encoding: DW_ATE_signed_char)
!79 = !{!80, !81}
!80 = !DILocalVariable(name: "pt", arg: 1, scope: !69, file: !3, line: 26, type: !72)
!81 = !DILocalVariable(name: "q", scope: !69, file: !3, line: 27, type: !72)
!82 = !DILocation(line: 0, scope: !69)
!83 = !DILocation(line: 28, column: 9, scope: !69)
!84 = !DILocation(line: 29, column: 16, scope: !69)
!85 = !DILocation(line: 29, column: 14, scope: !69)
!86 = !DILocation(line: 29, column: 22, scope: !69)
!87 = !DILocation(line: 29, column: 20, scope: !69)
!88 = !DILocation(line: 29, column: 3, scope: !69)
!89 = distinct !DISubprogram(name: "main", scope: !3, file: !3, line: 32, type: !90, scopeLine: 32, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !2, retainedNodes: !91)
!90 = !DISubroutineType(types: !4)
!91 = !{!92, !96}
!92 = !DILocalVariable(name: "data", scope: !89, file: !3, line: 33, type: !93)
!93 = !DICompositeType(tag: DW_TAG_array_type, baseType: !5, size: 128, elements: !94)
!94 = !{!95}
!95 = !DISubrange(count: 4)
!96 = !DILocalVariable(name: "pt", scope: !89, file: !3, line: 34, type: !72)
!97 = !DILocation(line: 33, column: 7, scope: !89)
!98 = !DILocation(line: 0, scope: !89)
!99 = !DILocation(line: 35, column: 10, scope: !89)
!100 = !DILocation(line: 35, column: 27, scope: !89)
!101 = !DILocation(line: 35, column: 22, scope: !89)
!102 = !DILocation(line: 35, column: 20, scope: !89)
!103 = !DILocation(line: 35, column: 42, scope: !89)
!104 = !DILocation(line: 35, column: 40, scope: !89)
!105 = !DILocation(line: 35, column: 57, scope: !89)
!106 = !DILocation(line: 35, column: 55, scope: !89)
!107 = !DILocation(line: 35, column: 3, scope: !89)

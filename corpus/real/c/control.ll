; ModuleID = 'c/control.c'
source_filename = "c/control.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.bits = type { i8, i32 }
%struct.__va_list_tag = type { i32, i32, i8*, i8* }

@gb = dso_local local_unnamed_addr global %struct.bits { i8 17, i32 3 }, align 4, !dbg !0
@jump.t = internal unnamed_addr constant [2 x i8*] [i8* blockaddress(@jump, %7), i8* blockaddress(@jump, %6)], align 16, !dbg !5
@reltable.vla = internal unnamed_addr constant [3 x i32] [i32 trunc (i64 sub (i64 ptrtoint ([2 x i8]* @.str to i64), i64 ptrtoint ([3 x i32]* @reltable.vla to i64)) to i32), i32 trunc (i64 sub (i64 ptrtoint ([2 x i8]* @.str.1 to i64), i64 ptrtoint ([3 x i32]* @reltable.vla to i64)) to i32), i32 trunc (i64 sub (i64 ptrtoint ([2 x i8]* @.str.2 to i64), i64 ptrtoint ([3 x i32]* @reltable.vla to i64)) to i32)], align 4
@.str = private unnamed_addr constant [2 x i8] c"a\00", align 1
@.str.1 = private unnamed_addr constant [2 x i8] c"b\00", align 1
@.str.2 = private unnamed_addr constant [2 x i8] c"c\00", align 1

; Function Attrs: nofree nosync nounwind uwtable
define dso_local i32 @sumv(i32 noundef %0, ...) local_unnamed_addr #0 !dbg !42 {
  %2 = alloca [1 x %struct.__va_list_tag], align 16
  call void @llvm.dbg.value(metadata i32 %0, metadata !46, metadata !DIExpression()), !dbg !64
  %3 = bitcast [1 x %struct.__va_list_tag]* %2 to i8*, !dbg !65
  call void @llvm.lifetime.start.p0i8(i64 24, i8* nonnull %3) #9, !dbg !65
  call void @llvm.dbg.declare(metadata [1 x %struct.__va_list_tag]* %2, metadata !47, metadata !DIExpression()), !dbg !66
  call void @llvm.va_start(i8* nonnull %3), !dbg !67
  call void @llvm.dbg.value(metadata i32 0, metadata !61, metadata !DIExpression()), !dbg !64
  call void @llvm.dbg.value(metadata i32 0, metadata !62, metadata !DIExpression()), !dbg !68
  %4 = icmp sgt i32 %0, 0, !dbg !69
  br i1 %4, label %5, label %34, !dbg !71

5:                                                ; preds = %1
  %6 = getelementptr inbounds [1 x %struct.__va_list_tag], [1 x %struct.__va_list_tag]* %2, i64 0, i64 0, i32 0
  %7 = getelementptr inbounds [1 x %struct.__va_list_tag], [1 x %struct.__va_list_tag]* %2, i64 0, i64 0, i32 2
  %8 = getelementptr inbounds [1 x %struct.__va_list_tag], [1 x %struct.__va_list_tag]* %2, i64 0, i64 0, i32 3
  %9 = load i8*, i8** %8, align 16
  %10 = load i32, i32* %6, align 16, !dbg !72
  %11 = and i32 %0, 1, !dbg !71
  %12 = icmp eq i32 %0, 1, !dbg !71
  br i1 %12, label %15, label %13, !dbg !71

13:                                               ; preds = %5
  %14 = and i32 %0, -2, !dbg !71
  br label %36, !dbg !71

15:                                               ; preds = %62, %5
  %16 = phi i32 [ undef, %5 ], [ %67, %62 ]
  %17 = phi i32 [ %10, %5 ], [ %63, %62 ]
  %18 = phi i32 [ 0, %5 ], [ %67, %62 ]
  %19 = icmp eq i32 %11, 0, !dbg !72
  br i1 %19, label %34, label %20, !dbg !72

20:                                               ; preds = %15
  call void @llvm.dbg.value(metadata i32 undef, metadata !62, metadata !DIExpression()), !dbg !68
  call void @llvm.dbg.value(metadata i32 %18, metadata !61, metadata !DIExpression()), !dbg !64
  %21 = icmp ult i32 %17, 41, !dbg !72
  br i1 %21, label %25, label %22, !dbg !72

22:                                               ; preds = %20
  %23 = load i8*, i8** %7, align 8, !dbg !72
  %24 = getelementptr i8, i8* %23, i64 8, !dbg !72
  store i8* %24, i8** %7, align 8, !dbg !72
  br label %29, !dbg !72

25:                                               ; preds = %20
  %26 = zext i32 %17 to i64, !dbg !72
  %27 = getelementptr i8, i8* %9, i64 %26, !dbg !72
  %28 = add nuw nsw i32 %17, 8, !dbg !72
  store i32 %28, i32* %6, align 16, !dbg !72
  br label %29, !dbg !72

29:                                               ; preds = %25, %22
  %30 = phi i8* [ %27, %25 ], [ %23, %22 ]
  %31 = bitcast i8* %30 to i32*, !dbg !72
  %32 = load i32, i32* %31, align 4, !dbg !72
  %33 = add nsw i32 %32, %18, !dbg !73
  call void @llvm.dbg.value(metadata i32 %33, metadata !61, metadata !DIExpression()), !dbg !64
  call void @llvm.dbg.value(metadata i32 undef, metadata !62, metadata !DIExpression(DW_OP_plus_uconst, 1, DW_OP_stack_value)), !dbg !68
  br label %34, !dbg !74

34:                                               ; preds = %29, %15, %1
  %35 = phi i32 [ 0, %1 ], [ %16, %15 ], [ %33, %29 ], !dbg !64
  call void @llvm.va_end(i8* nonnull %3), !dbg !74
  call void @llvm.lifetime.end.p0i8(i64 24, i8* nonnull %3) #9, !dbg !75
  ret i32 %35, !dbg !76

36:                                               ; preds = %62, %13
  %37 = phi i32 [ %10, %13 ], [ %63, %62 ], !dbg !72
  %38 = phi i32 [ 0, %13 ], [ %67, %62 ]
  %39 = phi i32 [ 0, %13 ], [ %68, %62 ]
  call void @llvm.dbg.value(metadata i32 poison, metadata !62, metadata !DIExpression()), !dbg !68
  call void @llvm.dbg.value(metadata i32 %38, metadata !61, metadata !DIExpression()), !dbg !64
  %40 = icmp ult i32 %37, 41, !dbg !72
  br i1 %40, label %41, label %45, !dbg !72

41:                                               ; preds = %36
  %42 = zext i32 %37 to i64, !dbg !72
  %43 = getelementptr i8, i8* %9, i64 %42, !dbg !72
  %44 = add nuw nsw i32 %37, 8, !dbg !72
  store i32 %44, i32* %6, align 16, !dbg !72
  br label %48, !dbg !72

45:                                               ; preds = %36
  %46 = load i8*, i8** %7, align 8, !dbg !72
  %47 = getelementptr i8, i8* %46, i64 8, !dbg !72
  store i8* %47, i8** %7, align 8, !dbg !72
  br label %48, !dbg !72

48:                                               ; preds = %45, %41
  %49 = phi i32 [ %44, %41 ], [ %37, %45 ]
  %50 = phi i8* [ %43, %41 ], [ %46, %45 ]
  %51 = bitcast i8* %50 to i32*, !dbg !72
  %52 = load i32, i32* %51, align 4, !dbg !72
  %53 = add nsw i32 %52, %38, !dbg !73
  call void @llvm.dbg.value(metadata i32 %53, metadata !61, metadata !DIExpression()), !dbg !64
  call void @llvm.dbg.value(metadata i32 poison, metadata !62, metadata !DIExpression(DW_OP_plus_uconst, 1, DW_OP_stack_value)), !dbg !68
  call void @llvm.dbg.value(metadata i32 poison, metadata !62, metadata !DIExpression(DW_OP_plus_uconst, 1, DW_OP_stack_value)), !dbg !68
  call void @llvm.dbg.value(metadata i32 %53, metadata !61, metadata !DIExpression()), !dbg !64
  %54 = icmp ult i32 %49, 41, !dbg !72
  br i1 %54, label %58, label %55, !dbg !72

55:                                               ; preds = %48
  %56 = load i8*, i8** %7, align 8, !dbg !72
  %57 = getelementptr i8, i8* %56, i64 8, !dbg !72
  store i8* %57, i8** %7, align 8, !dbg !72
  br label %62, !dbg !72

58:                                               ; preds = %48
  %59 = zext i32 %49 to i64, !dbg !72
  %60 = getelementptr i8, i8* %9, i64 %59, !dbg !72
  %61 = add nuw nsw i32 %49, 8, !dbg !72
  store i32 %61, i32* %6, align 16, !dbg !72
  br label %62, !dbg !72

62:                                               ; preds = %58, %55
  %63 = phi i32 [ %61, %58 ], [ %49, %55 ]
  %64 = phi i8* [ %60, %58 ], [ %56, %55 ]
  %65 = bitcast i8* %64 to i32*, !dbg !72
  %66 = load i32, i32* %65, align 4, !dbg !72
  %67 = add nsw i32 %66, %53, !dbg !73
  call void @llvm.dbg.value(metadata i32 %67, metadata !61, metadata !DIExpression()), !dbg !64
  call void @llvm.dbg.value(metadata i32 poison, metadata !62, metadata !DIExpression(DW_OP_plus_uconst, 2, DW_OP_stack_value)), !dbg !68
  %68 = add i32 %39, 2, !dbg !71
  %69 = icmp eq i32 %68, %14, !dbg !71
  br i1 %69, label %15, label %36, !dbg !71, !llvm.loop !77
}

; Function Attrs: mustprogress nofree nosync nounwind readnone speculatable willreturn
declare void @llvm.dbg.declare(metadata, metadata, metadata) #1

; Function Attrs: argmemonly mustprogress nofree nosync nounwind willreturn
declare void @llvm.lifetime.start.p0i8(i64 immarg, i8* nocapture) #2

; Function Attrs: mustprogress nofree nosync nounwind willreturn
declare void @llvm.va_start(i8*) #3

; Function Attrs: argmemonly mustprogress nofree nosync nounwind willreturn
declare void @llvm.lifetime.end.p0i8(i64 immarg, i8* nocapture) #2

; Function Attrs: mustprogress nofree nosync nounwind willreturn
declare void @llvm.va_end(i8*) #3

; Function Attrs: mustprogress nofree norecurse nosync nounwind readonly uwtable willreturn
define dso_local i32 @jump(i32 noundef %0) #4 !dbg !7 {
  call void @llvm.dbg.value(metadata i32 %0, metadata !12, metadata !DIExpression()), !dbg !80
  call void @llvm.dbg.value(metadata i32 0, metadata !13, metadata !DIExpression()), !dbg !80
  %2 = and i32 %0, 1, !dbg !81
  %3 = zext i32 %2 to i64
  %4 = getelementptr inbounds [2 x i8*], [2 x i8*]* @jump.t, i64 0, i64 %3, !dbg !82
  %5 = load i8*, i8** %4, align 8, !dbg !82, !tbaa !83
  indirectbr i8* %5, [label %7, label %6]

6:                                                ; preds = %1
  call void @llvm.dbg.label(metadata !15), !dbg !87
  call void @llvm.dbg.value(metadata i32 2, metadata !13, metadata !DIExpression()), !dbg !80
  br label %7, !dbg !88

7:                                                ; preds = %1, %6
  %8 = phi i32 [ 2, %6 ], [ 1, %1 ], !dbg !80
  call void @llvm.dbg.value(metadata i32 %8, metadata !13, metadata !DIExpression()), !dbg !80
  call void @llvm.dbg.label(metadata !16), !dbg !89
  %9 = load i8, i8* getelementptr inbounds (%struct.bits, %struct.bits* @gb, i64 0, i32 0), align 4, !dbg !90
  %10 = lshr i8 %9, 3, !dbg !90
  %11 = zext i8 %10 to i32, !dbg !90
  %12 = add nuw nsw i32 %8, %11, !dbg !91
  ret i32 %12, !dbg !92
}

; Function Attrs: mustprogress nofree nosync nounwind readnone speculatable willreturn
declare void @llvm.dbg.label(metadata) #1

; Function Attrs: nofree norecurse nosync nounwind readonly uwtable
define dso_local i32 @vla(i32 noundef %0) local_unnamed_addr #5 !dbg !93 {
  call void @llvm.dbg.value(metadata i32 %0, metadata !95, metadata !DIExpression()), !dbg !104
  %2 = zext i32 %0 to i64, !dbg !105
  %3 = alloca i32, i64 %2, align 16, !dbg !105
  call void @llvm.dbg.value(metadata i64 %2, metadata !96, metadata !DIExpression()), !dbg !104
  call void @llvm.dbg.declare(metadata i32* %3, metadata !98, metadata !DIExpression()), !dbg !106
  call void @llvm.dbg.value(metadata i32 0, metadata !102, metadata !DIExpression()), !dbg !107
  %4 = icmp sgt i32 %0, 0, !dbg !108
  br i1 %4, label %5, label %56, !dbg !110

5:                                                ; preds = %1
  %6 = icmp ult i32 %0, 8, !dbg !110
  br i1 %6, label %54, label %7, !dbg !110

7:                                                ; preds = %5
  %8 = and i64 %2, 4294967288, !dbg !110
  %9 = add nsw i64 %8, -8, !dbg !110
  %10 = lshr exact i64 %9, 3, !dbg !110
  %11 = add nuw nsw i64 %10, 1, !dbg !110
  %12 = and i64 %11, 1, !dbg !110
  %13 = icmp eq i64 %9, 0, !dbg !110
  br i1 %13, label %40, label %14, !dbg !110

14:                                               ; preds = %7
  %15 = and i64 %11, 4611686018427387902, !dbg !110
  br label %16, !dbg !110

16:                                               ; preds = %16, %14
  %17 = phi i64 [ 0, %14 ], [ %36, %16 ], !dbg !111
  %18 = phi <4 x i32> [ <i32 0, i32 1, i32 2, i32 3>, %14 ], [ %37, %16 ], !dbg !112
  %19 = phi i64 [ 0, %14 ], [ %38, %16 ]
  %20 = add <4 x i32> %18, <i32 4, i32 4, i32 4, i32 4>, !dbg !112
  %21 = mul nsw <4 x i32> %18, %18, !dbg !112
  %22 = mul nsw <4 x i32> %20, %20, !dbg !112
  %23 = getelementptr inbounds i32, i32* %3, i64 %17, !dbg !111
  %24 = bitcast i32* %23 to <4 x i32>*, !dbg !113
  store <4 x i32> %21, <4 x i32>* %24, align 16, !dbg !113, !tbaa !114
  %25 = getelementptr inbounds i32, i32* %23, i64 4, !dbg !113
  %26 = bitcast i32* %25 to <4 x i32>*, !dbg !113
  store <4 x i32> %22, <4 x i32>* %26, align 16, !dbg !113, !tbaa !114
  %27 = or i64 %17, 8, !dbg !111
  %28 = add <4 x i32> %18, <i32 8, i32 8, i32 8, i32 8>, !dbg !112
  %29 = add <4 x i32> %18, <i32 12, i32 12, i32 12, i32 12>, !dbg !112
  %30 = mul nsw <4 x i32> %28, %28, !dbg !112
  %31 = mul nsw <4 x i32> %29, %29, !dbg !112
  %32 = getelementptr inbounds i32, i32* %3, i64 %27, !dbg !111
  %33 = bitcast i32* %32 to <4 x i32>*, !dbg !113
  store <4 x i32> %30, <4 x i32>* %33, align 16, !dbg !113, !tbaa !114
  %34 = getelementptr inbounds i32, i32* %32, i64 4, !dbg !113
  %35 = bitcast i32* %34 to <4 x i32>*, !dbg !113
  store <4 x i32> %31, <4 x i32>* %35, align 16, !dbg !113, !tbaa !114
  %36 = add nuw i64 %17, 16, !dbg !111
  %37 = add <4 x i32> %18, <i32 16, i32 16, i32 16, i32 16>, !dbg !112
  %38 = add i64 %19, 2, !dbg !111
  %39 = icmp eq i64 %38, %15, !dbg !111
  br i1 %39, label %40, label %16, !dbg !111, !llvm.loop !116

40:                                               ; preds = %16, %7
  %41 = phi i64 [ 0, %7 ], [ %36, %16 ]
  %42 = phi <4 x i32> [ <i32 0, i32 1, i32 2, i32 3>, %7 ], [ %37, %16 ]
  %43 = icmp eq i64 %12, 0, !dbg !111
  br i1 %43, label %52, label %44, !dbg !111

44:                                               ; preds = %40
  %45 = add <4 x i32> %42, <i32 4, i32 4, i32 4, i32 4>, !dbg !112
  %46 = mul nsw <4 x i32> %42, %42, !dbg !112
  %47 = mul nsw <4 x i32> %45, %45, !dbg !112
  %48 = getelementptr inbounds i32, i32* %3, i64 %41, !dbg !111
  %49 = bitcast i32* %48 to <4 x i32>*, !dbg !113
  store <4 x i32> %46, <4 x i32>* %49, align 16, !dbg !113, !tbaa !114
  %50 = getelementptr inbounds i32, i32* %48, i64 4, !dbg !113
  %51 = bitcast i32* %50 to <4 x i32>*, !dbg !113
  store <4 x i32> %47, <4 x i32>* %51, align 16, !dbg !113, !tbaa !114
  br label %52, !dbg !110

52:                                               ; preds = %40, %44
  %53 = icmp eq i64 %8, %2, !dbg !110
  br i1 %53, label %56, label %54, !dbg !110

54:                                               ; preds = %5, %52
  %55 = phi i64 [ 0, %5 ], [ %8, %52 ]
  br label %68, !dbg !110

56:                                               ; preds = %68, %52, %1
  %57 = sdiv i32 %0, 2, !dbg !119
  %58 = sext i32 %57 to i64, !dbg !120
  %59 = getelementptr inbounds i32, i32* %3, i64 %58, !dbg !120
  %60 = load i32, i32* %59, align 4, !dbg !120, !tbaa !114
  %61 = srem i32 %0, 3, !dbg !121
  %62 = sext i32 %61 to i64, !dbg !122
  %63 = shl i64 %62, 2, !dbg !122
  %64 = call i8* @llvm.load.relative.i64(i8* bitcast ([3 x i32]* @reltable.vla to i8*), i64 %63), !dbg !122
  %65 = load i8, i8* %64, align 1, !dbg !122, !tbaa !123
  %66 = sext i8 %65 to i32, !dbg !122
  %67 = add nsw i32 %60, %66, !dbg !124
  ret i32 %67, !dbg !125

68:                                               ; preds = %54, %68
  %69 = phi i64 [ %73, %68 ], [ %55, %54 ]
  call void @llvm.dbg.value(metadata i64 %69, metadata !102, metadata !DIExpression()), !dbg !107
  %70 = trunc i64 %69 to i32, !dbg !112
  %71 = mul nsw i32 %70, %70, !dbg !112
  %72 = getelementptr inbounds i32, i32* %3, i64 %69, !dbg !126
  store i32 %71, i32* %72, align 4, !dbg !113, !tbaa !114
  %73 = add nuw nsw i64 %69, 1, !dbg !111
  call void @llvm.dbg.value(metadata i64 %73, metadata !102, metadata !DIExpression()), !dbg !107
  %74 = icmp eq i64 %73, %2, !dbg !108
  br i1 %74, label %56, label %68, !dbg !110, !llvm.loop !127
}

; Function Attrs: nounwind uwtable
define dso_local i32 @asmgoto(i32 noundef %0) #6 !dbg !129 {
  call void @llvm.dbg.value(metadata i32 %0, metadata !131, metadata !DIExpression()), !dbg !133
  callbr void asm sideeffect "testl $0, $0; jz ${1:l}", "r,i,~{dirflag},~{fpsr},~{flags}"(i32 %0, i8* blockaddress(@asmgoto, %2)) #9
          to label %3 [label %2], !dbg !134, !srcloc !135

2:                                                ; preds = %1
  call void @llvm.dbg.label(metadata !132), !dbg !136
  br label %3, !dbg !137

3:                                                ; preds = %1, %2
  %4 = phi i32 [ 0, %2 ], [ 1, %1 ], !dbg !133
  ret i32 %4, !dbg !138
}

; Function Attrs: nofree nosync nounwind readnone speculatable willreturn
declare void @llvm.dbg.value(metadata, metadata, metadata) #7

; Function Attrs: argmemonly nofree nosync nounwind readonly willreturn
declare i8* @llvm.load.relative.i64(i8*, i64) #8

attributes #0 = { nofree nosync nounwind uwtable "frame-pointer"="none" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { mustprogress nofree nosync nounwind readnone speculatable willreturn }
attributes #2 = { argmemonly mustprogress nofree nosync nounwind willreturn }
attributes #3 = { mustprogress nofree nosync nounwind willreturn }
attributes #4 = { mustprogress nofree norecurse nosync nounwind readonly uwtable willreturn "frame-pointer"="none" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #5 = { nofree norecurse nosync nounwind readonly uwtable "frame-pointer"="none" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #6 = { nounwind uwtable "frame-pointer"="none" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #7 = { nofree nosync nounwind readnone speculatable willreturn }
attributes #8 = { argmemonly nofree nosync nounwind readonly willreturn }
attributes #9 = { nounwind }

!llvm.dbg.cu = !{!2}
!llvm.module.flags = !{!35, !36, !37, !38, !39, !40}
!llvm.ident = !{!41}

!0 = !DIGlobalVariableExpression(var: !1, expr: !DIExpression())
!1 = distinct !DIGlobalVariable(name: "gb", scope: !2, file: !3, line: 5, type: !29, isLocal: false, isDefinition: true)
!2 = distinct !DICompileUnit(language: DW_LANG_C99, file: !3, producer: "Debian clang version 14.0.6", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug, globals: !4, splitDebugInlining: false, nameTableKind: None)
!3 = !DIFile(filename: "c/control.c", directory: ".", checksumkind: CSK_MD5, checksum: "15f1ffe563ca1b903efb5ab2b35e9626")
!4 = !{!0, !5, !21}
!5 = !DIGlobalVariableExpression(var: !6, expr: !DIExpression())
!6 = distinct !DIGlobalVariable(name: "t", scope: !7, file: !3, line: 8, type: !17, isLocal: true, isDefinition: true)
!7 = distinct !DISubprogram(name: "jump", scope: !3, file: !3, line: 8, type: !8, scopeLine: 8, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !2, retainedNodes: !11)
!8 = !DISubroutineType(types: !9)
!9 = !{!10, !10}
!10 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!11 = !{!12, !13, !14, !15, !16}
!12 = !DILocalVariable(name: "k", arg: 1, scope: !7, file: !3, line: 8, type: !10)
!13 = !DILocalVariable(name: "r", scope: !7, file: !3, line: 8, type: !10)
!14 = !DILabel(scope: !7, name: "l0", file: !3, line: 8)
!15 = !DILabel(scope: !7, name: "l1", file: !3, line: 8)
!16 = !DILabel(scope: !7, name: "out", file: !3, line: 8)
!17 = !DICompositeType(tag: DW_TAG_array_type, baseType: !18, size: 128, elements: !19)
!18 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: null, size: 64)
!19 = !{!20}
!20 = !DISubrange(count: 2)
!21 = !DIGlobalVariableExpression(var: !22, expr: !DIExpression())
!22 = distinct !DIGlobalVariable(name: "names", scope: !2, file: !3, line: 6, type: !23, isLocal: true, isDefinition: true)
!23 = !DICompositeType(tag: DW_TAG_array_type, baseType: !24, size: 192, elements: !27)
!24 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !25, size: 64)
!25 = !DIDerivedType(tag: DW_TAG_const_type, baseType: !26)
!26 = !DIBasicType(name: "char", size: 8, encoding: DW_ATE_signed_char)
!27 = !{!28}
!28 = !DISubrange(count: 3)
!29 = distinct !DICompositeType(tag: DW_TAG_structure_type, name: "bits", file: !3, line: 5, size: 64, elements: !30)
!30 = !{!31, !33, !34}
!31 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !29, file: !3, line: 5, baseType: !32, size: 3, flags: DIFlagBitField, extraData: i64 0)
!32 = !DIBasicType(name: "unsigned int", size: 32, encoding: DW_ATE_unsigned)
!33 = !DIDerivedType(tag: DW_TAG_member, name: "b", scope: !29, file: !3, line: 5, baseType: !32, size: 5, offset: 3, flags: DIFlagBitField, extraData: i64 0)
!34 = !DIDerivedType(tag: DW_TAG_member, name: "c", scope: !29, file: !3, line: 5, baseType: !10, size: 32, offset: 32)
!35 = !{i32 7, !"Dwarf Version", i32 5}
!36 = !{i32 2, !"Debug Info Version", i32 3}
!37 = !{i32 1, !"wchar_size", i32 4}
!38 = !{i32 7, !"PIC Level", i32 2}
!39 = !{i32 7, !"PIE Level", i32 2}
!40 = !{i32 7, !"uwtable", i32 1}
!41 = !{!"Debian clang version 14.0.6"}
!42 = distinct !DISubprogram(name: "sumv", scope: !3, file: !3, line: 7, type: !43, scopeLine: 7, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !2, retainedNodes: !45)
!43 = !DISubroutineType(types: !44)
!44 = !{!10, !10, null}
!45 = !{!46, !47, !61, !62}
!46 = !DILocalVariable(name: "n", arg: 1, scope: !42, file: !3, line: 7, type: !10)
!47 = !DILocalVariable(name: "ap", scope: !42, file: !3, line: 7, type: !48)
!48 = !DIDerivedType(tag: DW_TAG_typedef, name: "va_list", file: !49, line: 14, baseType: !50)
!49 = !DIFile(filename: "/usr/lib/llvm-14/lib/clang/14.0.6/include/stdarg.h", directory: "", checksumkind: CSK_MD5, checksum: "4de3cbd931b589d291e5c39387aecf82")
!50 = !DIDerivedType(tag: DW_TAG_typedef, name: "__builtin_va_list", file: !51, baseType: !52)
!51 = !DIFile(filename: "c/control.c", directory: ".")
!52 = !DICompositeType(tag: DW_TAG_array_type, baseType: !53, size: 192, elements: !59)
!53 = distinct !DICompositeType(tag: DW_TAG_structure_type, name: "__va_list_tag", size: 192, elements: !54)
!54 = !{!55, !56, !57, !58}
!55 = !DIDerivedType(tag: DW_TAG_member, name: "gp_offset", scope: !53, file: !51, line: 7, baseType: !32, size: 32)
!56 = !DIDerivedType(tag: DW_TAG_member, name: "fp_offset", scope: !53, file: !51, line: 7, baseType: !32, size: 32, offset: 32)
!57 = !DIDerivedType(tag: DW_TAG_member, name: "overflow_arg_area", scope: !53, file: !51, line: 7, baseType: !18, size: 64, offset: 64)
!58 = !DIDerivedType(tag: DW_TAG_member, name: "reg_save_area", scope: !53, file: !51, line: 7, baseType: !18, size: 64, offset: 128)
!59 = !{!60}
!60 = !DISubrange(count: 1)
!61 = !DILocalVariable(name: "s", scope: !42, file: !3, line: 7, type: !10)
!62 = !DILocalVariable(name: "i", scope: !63, file: !3, line: 7, type: !10)
!63 = distinct !DILexicalBlock(scope: !42, file: !3, line: 7, column: 64)
!64 = !DILocation(line: 0, scope: !42)
!65 = !DILocation(line: 7, column: 24, scope: !42)
!66 = !DILocation(line: 7, column: 32, scope: !42)
!67 = !DILocation(line: 7, column: 36, scope: !42)
!68 = !DILocation(line: 0, scope: !63)
!69 = !DILocation(line: 7, column: 82, scope: !70)
!70 = distinct !DILexicalBlock(scope: !63, file: !3, line: 7, column: 64)
!71 = !DILocation(line: 7, column: 64, scope: !63)
!72 = !DILocation(line: 7, column: 97, scope: !70)
!73 = !DILocation(line: 7, column: 94, scope: !70)
!74 = !DILocation(line: 7, column: 114, scope: !42)
!75 = !DILocation(line: 7, column: 136, scope: !42)
!76 = !DILocation(line: 7, column: 126, scope: !42)
!77 = distinct !{!77, !71, !78, !79}
!78 = !DILocation(line: 7, column: 97, scope: !63)
!79 = !{!"llvm.loop.mustprogress"}
!80 = !DILocation(line: 0, scope: !7)
!81 = !DILocation(line: 8, column: 73, scope: !7)
!82 = !DILocation(line: 8, column: 69, scope: !7)
!83 = !{!84, !84, i64 0}
!84 = !{!"any pointer", !85, i64 0}
!85 = !{!"omnipotent char", !86, i64 0}
!86 = !{!"Simple C/C++ TBAA"}
!87 = !DILocation(line: 8, column: 100, scope: !7)
!88 = !DILocation(line: 8, column: 104, scope: !7)
!89 = !DILocation(line: 8, column: 111, scope: !7)
!90 = !DILocation(line: 8, column: 130, scope: !7)
!91 = !DILocation(line: 8, column: 125, scope: !7)
!92 = !DILocation(line: 8, column: 116, scope: !7)
!93 = distinct !DISubprogram(name: "vla", scope: !3, file: !3, line: 9, type: !8, scopeLine: 9, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !2, retainedNodes: !94)
!94 = !{!95, !96, !98, !102}
!95 = !DILocalVariable(name: "n", arg: 1, scope: !93, file: !3, line: 9, type: !10)
!96 = !DILocalVariable(name: "__vla_expr0", scope: !93, type: !97, flags: DIFlagArtificial)
!97 = !DIBasicType(name: "unsigned long", size: 64, encoding: DW_ATE_unsigned)
!98 = !DILocalVariable(name: "a", scope: !93, file: !3, line: 9, type: !99)
!99 = !DICompositeType(tag: DW_TAG_array_type, baseType: !10, elements: !100)
!100 = !{!101}
!101 = !DISubrange(count: !96)
!102 = !DILocalVariable(name: "i", scope: !103, file: !3, line: 9, type: !10)
!103 = distinct !DILexicalBlock(scope: !93, file: !3, line: 9, column: 28)
!104 = !DILocation(line: 0, scope: !93)
!105 = !DILocation(line: 9, column: 18, scope: !93)
!106 = !DILocation(line: 9, column: 22, scope: !93)
!107 = !DILocation(line: 0, scope: !103)
!108 = !DILocation(line: 9, column: 46, scope: !109)
!109 = distinct !DILexicalBlock(scope: !103, file: !3, line: 9, column: 28)
!110 = !DILocation(line: 9, column: 28, scope: !103)
!111 = !DILocation(line: 9, column: 52, scope: !109)
!112 = !DILocation(line: 9, column: 65, scope: !109)
!113 = !DILocation(line: 9, column: 61, scope: !109)
!114 = !{!115, !115, i64 0}
!115 = !{!"int", !85, i64 0}
!116 = distinct !{!116, !110, !117, !79, !118}
!117 = !DILocation(line: 9, column: 67, scope: !103)
!118 = !{!"llvm.loop.isvectorized", i32 1}
!119 = !DILocation(line: 9, column: 81, scope: !93)
!120 = !DILocation(line: 9, column: 77, scope: !93)
!121 = !DILocation(line: 9, column: 96, scope: !93)
!122 = !DILocation(line: 9, column: 88, scope: !93)
!123 = !{!85, !85, i64 0}
!124 = !DILocation(line: 9, column: 86, scope: !93)
!125 = !DILocation(line: 9, column: 105, scope: !93)
!126 = !DILocation(line: 9, column: 56, scope: !109)
!127 = distinct !{!127, !110, !117, !79, !128, !118}
!128 = !{!"llvm.loop.unroll.runtime.disable"}
!129 = distinct !DISubprogram(name: "asmgoto", scope: !3, file: !3, line: 10, type: !8, scopeLine: 10, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !2, retainedNodes: !130)
!130 = !{!131, !132}
!131 = !DILocalVariable(name: "x", arg: 1, scope: !129, file: !3, line: 10, type: !10)
!132 = !DILabel(scope: !129, name: "zero", file: !3, line: 10)
!133 = !DILocation(line: 0, scope: !129)
!134 = !DILocation(line: 10, column: 22, scope: !129)
!135 = !{i64 736}
!136 = !DILocation(line: 10, column: 84, scope: !129)
!137 = !DILocation(line: 10, column: 90, scope: !129)
!138 = !DILocation(line: 10, column: 100, scope: !129)

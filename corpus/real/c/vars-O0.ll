; ModuleID = 'c/vars.c'
source_filename = "c/vars.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.point = type { i32, i16, i8 }

@counter = dso_local global i32 7, align 4, !dbg !0
@__const.main.data = private unnamed_addr constant [4 x i32] [i32 1, i32 2, i32 3, i32 4], align 16
@__const.main.pt = private unnamed_addr constant %struct.point { i32 -3, i16 4, i8 5 }, align 4

; Function Attrs: noinline nounwind optnone uwtable
define dso_local i32 @add(i32 noundef %0, i32 noundef %1) #0 !dbg !15 {
  %3 = alloca i32, align 4
  %4 = alloca i32, align 4
  store i32 %0, i32* %3, align 4
  call void @llvm.dbg.declare(metadata i32* %3, metadata !19, metadata !DIExpression()), !dbg !20
  store i32 %1, i32* %4, align 4
  call void @llvm.dbg.declare(metadata i32* %4, metadata !21, metadata !DIExpression()), !dbg !22
  %5 = load i32, i32* %3, align 4, !dbg !23
  %6 = load i32, i32* %4, align 4, !dbg !24
  %7 = add nsw i32 %5, %6, !dbg !25
  ret i32 %7, !dbg !26
}

; Function Attrs: nofree nosync nounwind readnone speculatable willreturn
declare void @llvm.dbg.declare(metadata, metadata, metadata) #1

; Function Attrs: noinline nounwind optnone uwtable
define dso_local i64 @scale(i64 noundef %0, i32 noundef %1) #0 !dbg !27 {
  %3 = alloca i64, align 8
  %4 = alloca i32, align 4
  %5 = alloca i64, align 8
  store i64 %0, i64* %3, align 8
  call void @llvm.dbg.declare(metadata i64* %3, metadata !31, metadata !DIExpression()), !dbg !32
  store i32 %1, i32* %4, align 4
  call void @llvm.dbg.declare(metadata i32* %4, metadata !33, metadata !DIExpression()), !dbg !34
  call void @llvm.dbg.declare(metadata i64* %5, metadata !35, metadata !DIExpression()), !dbg !36
  %6 = load i64, i64* %3, align 8, !dbg !37
  %7 = load i32, i32* %4, align 4, !dbg !38
  %8 = sext i32 %7 to i64, !dbg !38
  %9 = mul nsw i64 %6, %8, !dbg !39
  store i64 %9, i64* %5, align 8, !dbg !36
  %10 = load i32, i32* %4, align 4, !dbg !40
  %11 = load i32, i32* @counter, align 4, !dbg !41
  %12 = add nsw i32 %11, %10, !dbg !41
  store i32 %12, i32* @counter, align 4, !dbg !41
  %13 = load i64, i64* %5, align 8, !dbg !42
  %14 = load i32, i32* @counter, align 4, !dbg !43
  %15 = sext i32 %14 to i64, !dbg !43
  %16 = add nsw i64 %13, %15, !dbg !44
  ret i64 %16, !dbg !45
}

; Function Attrs: noinline nounwind optnone uwtable
define dso_local i32 @sum(i32* noundef %0, i32 noundef %1) #0 !dbg !46 {
  %3 = alloca i32*, align 8
  %4 = alloca i32, align 4
  %5 = alloca i32, align 4
  %6 = alloca i32, align 4
  store i32* %0, i32** %3, align 8
  call void @llvm.dbg.declare(metadata i32** %3, metadata !51, metadata !DIExpression()), !dbg !52
  store i32 %1, i32* %4, align 4
  call void @llvm.dbg.declare(metadata i32* %4, metadata !53, metadata !DIExpression()), !dbg !54
  call void @llvm.dbg.declare(metadata i32* %5, metadata !55, metadata !DIExpression()), !dbg !56
  store i32 0, i32* %5, align 4, !dbg !56
  call void @llvm.dbg.declare(metadata i32* %6, metadata !57, metadata !DIExpression()), !dbg !59
  store i32 0, i32* %6, align 4, !dbg !59
  br label %7, !dbg !60

7:                                                ; preds = %22, %2
  %8 = load i32, i32* %6, align 4, !dbg !61
  %9 = load i32, i32* %4, align 4, !dbg !63
  %10 = icmp slt i32 %8, %9, !dbg !64
  br i1 %10, label %11, label %25, !dbg !65

11:                                               ; preds = %7
  %12 = load i32*, i32** %3, align 8, !dbg !66
  %13 = load i32, i32* %6, align 4, !dbg !67
  %14 = sext i32 %13 to i64, !dbg !66
  %15 = getelementptr inbounds i32, i32* %12, i64 %14, !dbg !66
  %16 = load i32, i32* %15, align 4, !dbg !66
  %17 = load i32, i32* %6, align 4, !dbg !68
  %18 = add nsw i32 %17, 1, !dbg !69
  %19 = mul nsw i32 %16, %18, !dbg !70
  %20 = load i32, i32* %5, align 4, !dbg !71
  %21 = add nsw i32 %20, %19, !dbg !71
  store i32 %21, i32* %5, align 4, !dbg !71
  br label %22, !dbg !72

22:                                               ; preds = %11
  %23 = load i32, i32* %6, align 4, !dbg !73
  %24 = add nsw i32 %23, 1, !dbg !73
  store i32 %24, i32* %6, align 4, !dbg !73
  br label %7, !dbg !74, !llvm.loop !75

25:                                               ; preds = %7
  %26 = load i32, i32* %5, align 4, !dbg !78
  ret i32 %26, !dbg !79
}

; Function Attrs: noinline nounwind optnone uwtable
define dso_local i32 @norm1(i64 %0) #0 !dbg !80 {
  %2 = alloca %struct.point, align 4
  %3 = alloca %struct.point, align 4
  %4 = bitcast %struct.point* %2 to i64*
  store i64 %0, i64* %4, align 4
  call void @llvm.dbg.declare(metadata %struct.point* %2, metadata !90, metadata !DIExpression()), !dbg !91
  call void @llvm.dbg.declare(metadata %struct.point* %3, metadata !92, metadata !DIExpression()), !dbg !93
  %5 = bitcast %struct.point* %3 to i8*, !dbg !94
  %6 = bitcast %struct.point* %2 to i8*, !dbg !94
  call void @llvm.memcpy.p0i8.p0i8.i64(i8* align 4 %5, i8* align 4 %6, i64 8, i1 false), !dbg !94
  %7 = getelementptr inbounds %struct.point, %struct.point* %3, i32 0, i32 0, !dbg !95
  %8 = load i32, i32* %7, align 4, !dbg !95
  %9 = icmp slt i32 %8, 0, !dbg !96
  br i1 %9, label %10, label %14, !dbg !97

10:                                               ; preds = %1
  %11 = getelementptr inbounds %struct.point, %struct.point* %3, i32 0, i32 0, !dbg !98
  %12 = load i32, i32* %11, align 4, !dbg !98
  %13 = sub nsw i32 0, %12, !dbg !99
  br label %17, !dbg !97

14:                                               ; preds = %1
  %15 = getelementptr inbounds %struct.point, %struct.point* %3, i32 0, i32 0, !dbg !100
  %16 = load i32, i32* %15, align 4, !dbg !100
  br label %17, !dbg !97

17:                                               ; preds = %14, %10
  %18 = phi i32 [ %13, %10 ], [ %16, %14 ], !dbg !97
  %19 = getelementptr inbounds %struct.point, %struct.point* %3, i32 0, i32 0, !dbg !101
  store i32 %18, i32* %19, align 4, !dbg !102
  %20 = getelementptr inbounds %struct.point, %struct.point* %3, i32 0, i32 0, !dbg !103
  %21 = load i32, i32* %20, align 4, !dbg !103
  %22 = getelementptr inbounds %struct.point, %struct.point* %3, i32 0, i32 1, !dbg !104
  %23 = load i16, i16* %22, align 4, !dbg !104
  %24 = sext i16 %23 to i32, !dbg !105
  %25 = add nsw i32 %21, %24, !dbg !106
  %26 = getelementptr inbounds %struct.point, %struct.point* %3, i32 0, i32 2, !dbg !107
  %27 = load i8, i8* %26, align 2, !dbg !107
  %28 = sext i8 %27 to i32, !dbg !108
  %29 = add nsw i32 %25, %28, !dbg !109
  ret i32 %29, !dbg !110
}

; Function Attrs: argmemonly nofree nounwind willreturn
declare void @llvm.memcpy.p0i8.p0i8.i64(i8* noalias nocapture writeonly, i8* noalias nocapture readonly, i64, i1 immarg) #2

; Function Attrs: noinline nounwind optnone uwtable
define dso_local i32 @main() #0 !dbg !111 {
  %1 = alloca i32, align 4
  %2 = alloca [4 x i32], align 16
  %3 = alloca %struct.point, align 4
  store i32 0, i32* %1, align 4
  call void @llvm.dbg.declare(metadata [4 x i32]* %2, metadata !113, metadata !DIExpression()), !dbg !117
  %4 = bitcast [4 x i32]* %2 to i8*, !dbg !117
  call void @llvm.memcpy.p0i8.p0i8.i64(i8* align 16 %4, i8* align 16 bitcast ([4 x i32]* @__const.main.data to i8*), i64 16, i1 false), !dbg !117
  call void @llvm.dbg.declare(metadata %struct.point* %3, metadata !118, metadata !DIExpression()), !dbg !119
  %5 = bitcast %struct.point* %3 to i8*, !dbg !119
  call void @llvm.memcpy.p0i8.p0i8.i64(i8* align 4 %5, i8* align 4 bitcast (%struct.point* @__const.main.pt to i8*), i64 8, i1 false), !dbg !119
  %6 = call i32 @add(i32 noundef 1, i32 noundef 2), !dbg !120
  %7 = call i64 @scale(i64 noundef 10, i32 noundef 3), !dbg !121
  %8 = trunc i64 %7 to i32, !dbg !122
  %9 = add nsw i32 %6, %8, !dbg !123
  %10 = getelementptr inbounds [4 x i32], [4 x i32]* %2, i64 0, i64 0, !dbg !124
  %11 = call i32 @sum(i32* noundef %10, i32 noundef 4), !dbg !125
  %12 = add nsw i32 %9, %11, !dbg !126
  %13 = bitcast %struct.point* %3 to i64*, !dbg !127
  %14 = load i64, i64* %13, align 4, !dbg !127
  %15 = call i32 @norm1(i64 %14), !dbg !127
  %16 = add nsw i32 %12, %15, !dbg !128
  ret i32 %16, !dbg !129
}

attributes #0 = { noinline nounwind optnone uwtable "frame-pointer"="all" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { nofree nosync nounwind readnone speculatable willreturn }
attributes #2 = { argmemonly nofree nounwind willreturn }

!llvm.dbg.cu = !{!2}
!llvm.module.flags = !{!7, !8, !9, !10, !11, !12, !13}
!llvm.ident = !{!14}

!0 = !DIGlobalVariableExpression(var: !1, expr: !DIExpression())
!1 = distinct !DIGlobalVariable(name: "counter", scope: !2, file: !3, line: 9, type: !5, isLocal: false, isDefinition: true)
!2 = distinct !DICompileUnit(language: DW_LANG_C99, file: !3, producer: "Debian clang version 14.0.6", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug, retainedTypes: !4, globals: !6, splitDebugInlining: false, nameTableKind: None)
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
!13 = !{i32 7, !"frame-pointer", i32 2}
!14 = !{!"Debian clang version 14.0.6"}
!15 = distinct !DISubprogram(name: "add", scope: !3, file: !3, line: 11, type: !16, scopeLine: 11, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !18)
!16 = !DISubroutineType(types: !17)
!17 = !{!5, !5, !5}
!18 = !{}
!19 = !DILocalVariable(name: "a", arg: 1, scope: !15, file: !3, line: 11, type: !5)
!20 = !DILocation(line: 11, column: 39, scope: !15)
!21 = !DILocalVariable(name: "b", arg: 2, scope: !15, file: !3, line: 11, type: !5)
!22 = !DILocation(line: 11, column: 46, scope: !15)
!23 = !DILocation(line: 11, column: 58, scope: !15)
!24 = !DILocation(line: 11, column: 62, scope: !15)
!25 = !DILocation(line: 11, column: 60, scope: !15)
!26 = !DILocation(line: 11, column: 51, scope: !15)
!27 = distinct !DISubprogram(name: "scale", scope: !3, file: !3, line: 13, type: !28, scopeLine: 13, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !18)
!28 = !DISubroutineType(types: !29)
!29 = !{!30, !30, !5}
!30 = !DIBasicType(name: "long", size: 64, encoding: DW_ATE_signed)
!31 = !DILocalVariable(name: "v", arg: 1, scope: !27, file: !3, line: 13, type: !30)
!32 = !DILocation(line: 13, column: 43, scope: !27)
!33 = !DILocalVariable(name: "k", arg: 2, scope: !27, file: !3, line: 13, type: !5)
!34 = !DILocation(line: 13, column: 50, scope: !27)
!35 = !DILocalVariable(name: "r", scope: !27, file: !3, line: 14, type: !30)
!36 = !DILocation(line: 14, column: 8, scope: !27)
!37 = !DILocation(line: 14, column: 12, scope: !27)
!38 = !DILocation(line: 14, column: 16, scope: !27)
!39 = !DILocation(line: 14, column: 14, scope: !27)
!40 = !DILocation(line: 15, column: 14, scope: !27)
!41 = !DILocation(line: 15, column: 11, scope: !27)
!42 = !DILocation(line: 16, column: 10, scope: !27)
!43 = !DILocation(line: 16, column: 14, scope: !27)
!44 = !DILocation(line: 16, column: 12, scope: !27)
!45 = !DILocation(line: 16, column: 3, scope: !27)
!46 = distinct !DISubprogram(name: "sum", scope: !3, file: !3, line: 19, type: !47, scopeLine: 19, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !18)
!47 = !DISubroutineType(types: !48)
!48 = !{!5, !49, !5}
!49 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !50, size: 64)
!50 = !DIDerivedType(tag: DW_TAG_const_type, baseType: !5)
!51 = !DILocalVariable(name: "p", arg: 1, scope: !46, file: !3, line: 19, type: !49)
!52 = !DILocation(line: 19, column: 46, scope: !46)
!53 = !DILocalVariable(name: "n", arg: 2, scope: !46, file: !3, line: 19, type: !5)
!54 = !DILocation(line: 19, column: 53, scope: !46)
!55 = !DILocalVariable(name: "total", scope: !46, file: !3, line: 20, type: !5)
!56 = !DILocation(line: 20, column: 7, scope: !46)
!57 = !DILocalVariable(name: "i", scope: !58, file: !3, line: 21, type: !5)
!58 = distinct !DILexicalBlock(scope: !46, file: !3, line: 21, column: 3)
!59 = !DILocation(line: 21, column: 12, scope: !58)
!60 = !DILocation(line: 21, column: 8, scope: !58)
!61 = !DILocation(line: 21, column: 19, scope: !62)
!62 = distinct !DILexicalBlock(scope: !58, file: !3, line: 21, column: 3)
!63 = !DILocation(line: 21, column: 23, scope: !62)
!64 = !DILocation(line: 21, column: 21, scope: !62)
!65 = !DILocation(line: 21, column: 3, scope: !58)
!66 = !DILocation(line: 22, column: 14, scope: !62)
!67 = !DILocation(line: 22, column: 16, scope: !62)
!68 = !DILocation(line: 22, column: 22, scope: !62)
!69 = !DILocation(line: 22, column: 24, scope: !62)
!70 = !DILocation(line: 22, column: 19, scope: !62)
!71 = !DILocation(line: 22, column: 11, scope: !62)
!72 = !DILocation(line: 22, column: 5, scope: !62)
!73 = !DILocation(line: 21, column: 27, scope: !62)
!74 = !DILocation(line: 21, column: 3, scope: !62)
!75 = distinct !{!75, !65, !76, !77}
!76 = !DILocation(line: 22, column: 27, scope: !58)
!77 = !{!"llvm.loop.mustprogress"}
!78 = !DILocation(line: 23, column: 10, scope: !46)
!79 = !DILocation(line: 23, column: 3, scope: !46)
!80 = distinct !DISubprogram(name: "norm1", scope: !3, file: !3, line: 26, type: !81, scopeLine: 26, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !18)
!81 = !DISubroutineType(types: !82)
!82 = !{!5, !83}
!83 = distinct !DICompositeType(tag: DW_TAG_structure_type, name: "point", file: !3, line: 3, size: 64, elements: !84)
!84 = !{!85, !86, !88}
!85 = !DIDerivedType(tag: DW_TAG_member, name: "x", scope: !83, file: !3, line: 4, baseType: !5, size: 32)
!86 = !DIDerivedType(tag: DW_TAG_member, name: "y", scope: !83, file: !3, line: 5, baseType: !87, size: 16, offset: 32)
!87 = !DIBasicType(name: "short", size: 16, encoding: DW_ATE_signed)
!88 = !DIDerivedType(tag: DW_TAG_member, name: "tag", scope: !83, file: !3, line: 6, baseType: !89, size: 8, offset: 48)
!89 = !DIBasicType(name: "char", size: 8, encoding: DW_ATE_signed_char)
!90 = !DILocalVariable(name: "pt", arg: 1, scope: !80, file: !3, line: 26, type: !83)
!91 = !DILocation(line: 26, column: 50, scope: !80)
!92 = !DILocalVariable(name: "q", scope: !80, file: !3, line: 27, type: !83)
!93 = !DILocation(line: 27, column: 16, scope: !80)
!94 = !DILocation(line: 27, column: 20, scope: !80)
!95 = !DILocation(line: 28, column: 11, scope: !80)
!96 = !DILocation(line: 28, column: 13, scope: !80)
!97 = !DILocation(line: 28, column: 9, scope: !80)
!98 = !DILocation(line: 28, column: 22, scope: !80)
!99 = !DILocation(line: 28, column: 19, scope: !80)
!100 = !DILocation(line: 28, column: 28, scope: !80)
!101 = !DILocation(line: 28, column: 5, scope: !80)
!102 = !DILocation(line: 28, column: 7, scope: !80)
!103 = !DILocation(line: 29, column: 12, scope: !80)
!104 = !DILocation(line: 29, column: 18, scope: !80)
!105 = !DILocation(line: 29, column: 16, scope: !80)
!106 = !DILocation(line: 29, column: 14, scope: !80)
!107 = !DILocation(line: 29, column: 24, scope: !80)
!108 = !DILocation(line: 29, column: 22, scope: !80)
!109 = !DILocation(line: 29, column: 20, scope: !80)
!110 = !DILocation(line: 29, column: 3, scope: !80)
!111 = distinct !DISubprogram(name: "main", scope: !3, file: !3, line: 32, type: !112, scopeLine: 32, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !18)
!112 = !DISubroutineType(types: !4)
!113 = !DILocalVariable(name: "data", scope: !111, file: !3, line: 33, type: !114)
!114 = !DICompositeType(tag: DW_TAG_array_type, baseType: !5, size: 128, elements: !115)
!115 = !{!116}
!116 = !DISubrange(count: 4)
!117 = !DILocation(line: 33, column: 7, scope: !111)
!118 = !DILocalVariable(name: "pt", scope: !111, file: !3, line: 34, type: !83)
!119 = !DILocation(line: 34, column: 16, scope: !111)
!120 = !DILocation(line: 35, column: 10, scope: !111)
!121 = !DILocation(line: 35, column: 27, scope: !111)
!122 = !DILocation(line: 35, column: 22, scope: !111)
!123 = !DILocation(line: 35, column: 20, scope: !111)
!124 = !DILocation(line: 35, column: 46, scope: !111)
!125 = !DILocation(line: 35, column: 42, scope: !111)
!126 = !DILocation(line: 35, column: 40, scope: !111)
!127 = !DILocation(line: 35, column: 57, scope: !111)
!128 = !DILocation(line: 35, column: 55, scope: !111)
!129 = !DILocation(line: 35, column: 3, scope: !111)

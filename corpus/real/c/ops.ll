; ModuleID = 'c/ops.c'
source_filename = "c/ops.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.ops = type { void (i8*, i8*)*, i8*, i64 }

; Function Attrs: nounwind uwtable
define dso_local i64 @release(%struct.ops* nocapture noundef readonly %0, i8* noundef %1) local_unnamed_addr #0 !dbg !9 {
  call void @llvm.dbg.value(metadata %struct.ops* %0, metadata !24, metadata !DIExpression()), !dbg !26
  call void @llvm.dbg.value(metadata i8* %1, metadata !25, metadata !DIExpression()), !dbg !26
  %3 = getelementptr inbounds %struct.ops, %struct.ops* %0, i64 0, i32 0, !dbg !27
  %4 = load void (i8*, i8*)*, void (i8*, i8*)** %3, align 8, !dbg !27, !tbaa !28
  %5 = getelementptr inbounds %struct.ops, %struct.ops* %0, i64 0, i32 1, !dbg !34
  %6 = load i8*, i8** %5, align 8, !dbg !34, !tbaa !35
  tail call void %4(i8* noundef %6, i8* noundef %1) #2, !dbg !36
  %7 = getelementptr inbounds %struct.ops, %struct.ops* %0, i64 0, i32 2, !dbg !37
  %8 = load i64, i64* %7, align 8, !dbg !37, !tbaa !38
  ret i64 %8, !dbg !39
}

; Function Attrs: nofree nosync nounwind readnone speculatable willreturn
declare void @llvm.dbg.value(metadata, metadata, metadata) #1

attributes #0 = { nounwind uwtable "frame-pointer"="none" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { nofree nosync nounwind readnone speculatable willreturn }
attributes #2 = { nounwind }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3, !4, !5, !6, !7}
!llvm.ident = !{!8}

!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "Debian clang version 14.0.6", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug, splitDebugInlining: false, nameTableKind: None)
!1 = !DIFile(filename: "c/ops.c", directory: ".", checksumkind: CSK_MD5, checksum: "bb12874316b4ba83870b7a273c4b9b47")
!2 = !{i32 7, !"Dwarf Version", i32 5}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 1, !"wchar_size", i32 4}
!5 = !{i32 7, !"PIC Level", i32 2}
!6 = !{i32 7, !"PIE Level", i32 2}
!7 = !{i32 7, !"uwtable", i32 1}
!8 = !{!"Debian clang version 14.0.6"}
!9 = distinct !DISubprogram(name: "release", scope: !1, file: !1, line: 9, type: !10, scopeLine: 9, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !23)
!10 = !DISubroutineType(types: !11)
!11 = !{!12, !13, !20}
!12 = !DIBasicType(name: "long", size: 64, encoding: DW_ATE_signed)
!13 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !14, size: 64)
!14 = distinct !DICompositeType(tag: DW_TAG_structure_type, name: "ops", file: !1, line: 3, size: 192, elements: !15)
!15 = !{!16, !21, !22}
!16 = !DIDerivedType(tag: DW_TAG_member, name: "free_fn", scope: !14, file: !1, line: 4, baseType: !17, size: 64)
!17 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !18, size: 64)
!18 = !DISubroutineType(types: !19)
!19 = !{null, !20, !20}
!20 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: null, size: 64)
!21 = !DIDerivedType(tag: DW_TAG_member, name: "arg", scope: !14, file: !1, line: 5, baseType: !20, size: 64, offset: 64)
!22 = !DIDerivedType(tag: DW_TAG_member, name: "n", scope: !14, file: !1, line: 6, baseType: !12, size: 64, offset: 128)
!23 = !{!24, !25}
!24 = !DILocalVariable(name: "o", arg: 1, scope: !9, file: !1, line: 9, type: !13)
!25 = !DILocalVariable(name: "block", arg: 2, scope: !9, file: !1, line: 9, type: !20)
!26 = !DILocation(line: 0, scope: !9)
!27 = !DILocation(line: 10, column: 6, scope: !9)
!28 = !{!29, !30, i64 0}
!29 = !{!"ops", !30, i64 0, !30, i64 8, !33, i64 16}
!30 = !{!"any pointer", !31, i64 0}
!31 = !{!"omnipotent char", !32, i64 0}
!32 = !{!"Simple C/C++ TBAA"}
!33 = !{!"long", !31, i64 0}
!34 = !DILocation(line: 10, column: 17, scope: !9)
!35 = !{!29, !30, i64 8}
!36 = !DILocation(line: 10, column: 3, scope: !9)
!37 = !DILocation(line: 11, column: 13, scope: !9)
!38 = !{!29, !33, i64 16}
!39 = !DILocation(line: 11, column: 3, scope: !9)

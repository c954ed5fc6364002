; ModuleID = 'c/ops.c'
source_filename = "c/ops.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.ops = type { void (i8*, i8*)*, i8*, i64 }
%struct.methods = type { %struct.object* (%struct.object*, %struct.object*)*, i64 }
%struct.object = type opaque

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

; Function Attrs: nounwind uwtable
define dso_local %struct.object* @twice(%struct.methods* nocapture noundef readonly %0, %struct.object* noundef %1) local_unnamed_addr #0 !dbg !40 {
  call void @llvm.dbg.value(metadata %struct.methods* %0, metadata !54, metadata !DIExpression()), !dbg !57
  call void @llvm.dbg.value(metadata %struct.object* %1, metadata !55, metadata !DIExpression()), !dbg !57
  %3 = getelementptr inbounds %struct.methods, %struct.methods* %0, i64 0, i32 0, !dbg !58
  %4 = load %struct.object* (%struct.object*, %struct.object*)*, %struct.object* (%struct.object*, %struct.object*)** %3, align 8, !dbg !58, !tbaa !59
  %5 = tail call %struct.object* %4(%struct.object* noundef %1, %struct.object* noundef %1) #2, !dbg !61
  call void @llvm.dbg.value(metadata %struct.object* %5, metadata !56, metadata !DIExpression()), !dbg !57
  %6 = load %struct.object* (%struct.object*, %struct.object*)*, %struct.object* (%struct.object*, %struct.object*)** %3, align 8, !dbg !62, !tbaa !59
  %7 = tail call %struct.object* %6(%struct.object* noundef %5, %struct.object* noundef %5) #2, !dbg !63
  ret %struct.object* %7, !dbg !64
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
!1 = !DIFile(filename: "c/ops.c", directory: ".", checksumkind: CSK_MD5, checksum: "e950fb3207876399603d33af92df09b7")
!2 = !{i32 7, !"Dwarf Version", i32 5}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 1, !"wchar_size", i32 4}
!5 = !{i32 7, !"PIC Level", i32 2}
!6 = !{i32 7, !"PIE Level", i32 2}
!7 = !{i32 7, !"uwtable", i32 1}
!8 = !{!"Debian clang version 14.0.6"}
!9 = distinct !DISubprogram(name: "release", scope: !1, file: !1, line: 11, type: !10, scopeLine: 11, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !23)
!10 = !DISubroutineType(types: !11)
!11 = !{!12, !13, !20}
!12 = !DIBasicType(name: "long", size: 64, encoding: DW_ATE_signed)
!13 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !14, size: 64)
!14 = distinct !DICompositeType(tag: DW_TAG_structure_type, name: "ops", file: !1, line: 5, size: 192, elements: !15)
!15 = !{!16, !21, !22}
!16 = !DIDerivedType(tag: DW_TAG_member, name: "free_fn", scope: !14, file: !1, line: 6, baseType: !17, size: 64)
!17 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !18, size: 64)
!18 = !DISubroutineType(types: !19)
!19 = !{null, !20, !20}
!20 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: null, size: 64)
!21 = !DIDerivedType(tag: DW_TAG_member, name: "arg", scope: !14, file: !1, line: 7, baseType: !20, size: 64, offset: 64)
!22 = !DIDerivedType(tag: DW_TAG_member, name: "n", scope: !14, file: !1, line: 8, baseType: !12, size: 64, offset: 128)
!23 = !{!24, !25}
!24 = !DILocalVariable(name: "o", arg: 1, scope: !9, file: !1, line: 11, type: !13)
!25 = !DILocalVariable(name: "block", arg: 2, scope: !9, file: !1, line: 11, type: !20)
!26 = !DILocation(line: 0, scope: !9)
!27 = !DILocation(line: 12, column: 6, scope: !9)
!28 = !{!29, !30, i64 0}
!29 = !{!"ops", !30, i64 0, !30, i64 8, !33, i64 16}
!30 = !{!"any pointer", !31, i64 0}
!31 = !{!"omnipotent char", !32, i64 0}
!32 = !{!"Simple C/C++ TBAA"}
!33 = !{!"long", !31, i64 0}
!34 = !DILocation(line: 12, column: 17, scope: !9)
!35 = !{!29, !30, i64 8}
!36 = !DILocation(line: 12, column: 3, scope: !9)
!37 = !DILocation(line: 13, column: 13, scope: !9)
!38 = !{!29, !33, i64 16}
!39 = !DILocation(line: 13, column: 3, scope: !9)
!40 = distinct !DISubprogram(name: "twice", scope: !1, file: !1, line: 22, type: !41, scopeLine: 22, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !53)
!41 = !DISubroutineType(types: !42)
!42 = !{!43, !45, !43}
!43 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !44, size: 64)
!44 = !DICompositeType(tag: DW_TAG_structure_type, name: "object", file: !1, line: 16, flags: DIFlagFwdDecl)
!45 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !46, size: 64)
!46 = distinct !DICompositeType(tag: DW_TAG_structure_type, name: "methods", file: !1, line: 17, size: 128, elements: !47)
!47 = !{!48, !52}
!48 = !DIDerivedType(tag: DW_TAG_member, name: "add", scope: !46, file: !1, line: 18, baseType: !49, size: 64)
!49 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !50, size: 64)
!50 = !DISubroutineType(types: !51)
!51 = !{!43, !43, !43}
!52 = !DIDerivedType(tag: DW_TAG_member, name: "flags", scope: !46, file: !1, line: 19, baseType: !12, size: 64, offset: 64)
!53 = !{!54, !55, !56}
!54 = !DILocalVariable(name: "m", arg: 1, scope: !40, file: !1, line: 22, type: !45)
!55 = !DILocalVariable(name: "x", arg: 2, scope: !40, file: !1, line: 22, type: !43)
!56 = !DILocalVariable(name: "y", scope: !40, file: !1, line: 23, type: !43)
!57 = !DILocation(line: 0, scope: !40)
!58 = !DILocation(line: 23, column: 25, scope: !40)
!59 = !{!60, !30, i64 0}
!60 = !{!"methods", !30, i64 0, !33, i64 8}
!61 = !DILocation(line: 23, column: 22, scope: !40)
!62 = !DILocation(line: 24, column: 13, scope: !40)
!63 = !DILocation(line: 24, column: 10, scope: !40)
!64 = !DILocation(line: 24, column: 3, scope: !40)

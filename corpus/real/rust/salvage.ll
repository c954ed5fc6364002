; ModuleID = 'salvage.2258d8f07f9e067b-cgu.0'
source_filename = "salvage.2258d8f07f9e067b-cgu.0"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; salvage::split
; Function Attrs: mustprogress nofree noinline norecurse nosync nounwind nonlazybind willreturn memory(none) uwtable
define noundef range(i32 0, 4685) i32 @_ZN7salvage5split17hba45e06c64a417fcE(i16 noundef %n) unnamed_addr #0 !dbg !7 {
start:
    #dbg_value(i16 %n, !15, !DIExpression(), !21)
  %_3 = zext i16 %n to i32, !dbg !22
  %last1 = udiv i16 %n, 100, !dbg !22
  %last.zext = zext nneg i16 %last1 to i32, !dbg !22
    #dbg_value(i32 %last.zext, !16, !DIExpression(), !23)
    #dbg_value(i32 poison, !18, !DIExpression(), !24)
  %0 = mul nsw i32 %last.zext, -93, !dbg !25
  %_0 = add nsw i32 %0, %_3, !dbg !25
  ret i32 %_0, !dbg !26
}

; salvage::total
; Function Attrs: nofree noinline norecurse nosync nounwind nonlazybind memory(argmem: read) uwtable
define noundef i64 @_ZN7salvage5total17h4b6a5b8730252b7bE(ptr noalias noundef nonnull readonly align 2 captures(address) %xs.0, i64 noundef range(i64 0, 4611686018427387904) %xs.1) unnamed_addr #1 personality ptr @rust_eh_personality !dbg !27 {
start:
    #dbg_value(ptr poison, !79, !DIExpression(), !105)
    #dbg_value(ptr poison, !131, !DIExpression(), !157)
    #dbg_value(ptr %xs.0, !39, !DIExpression(DW_OP_LLVM_fragment, 0, 64), !158)
    #dbg_value(ptr %xs.0, !159, !DIExpression(DW_OP_LLVM_fragment, 0, 64), !166)
    #dbg_value(ptr %xs.0, !168, !DIExpression(DW_OP_LLVM_fragment, 0, 64), !179)
    #dbg_value(i64 %xs.1, !39, !DIExpression(DW_OP_LLVM_fragment, 64, 64), !158)
    #dbg_value(i64 %xs.1, !159, !DIExpression(DW_OP_LLVM_fragment, 64, 64), !166)
    #dbg_value(i64 %xs.1, !168, !DIExpression(DW_OP_LLVM_fragment, 64, 64), !179)
    #dbg_value(i64 0, !40, !DIExpression(), !181)
    #dbg_value(i64 0, !182, !DIExpression(), !191)
    #dbg_value(i64 %xs.1, !173, !DIExpression(), !193)
    #dbg_value(i64 %xs.1, !194, !DIExpression(), !231)
    #dbg_value(ptr %xs.0, !175, !DIExpression(), !233)
    #dbg_value(ptr %xs.0, !230, !DIExpression(), !231)
  %_19.idx = shl nuw nsw i64 %xs.1, 1, !dbg !234
  %_19 = getelementptr inbounds nuw i8, ptr %xs.0, i64 %_19.idx, !dbg !234
    #dbg_value(ptr %xs.0, !42, !DIExpression(DW_OP_LLVM_fragment, 0, 64), !235)
    #dbg_value(ptr %_19, !42, !DIExpression(DW_OP_LLVM_fragment, 64, 64), !235)
    #dbg_value(i64 0, !42, !DIExpression(DW_OP_LLVM_fragment, 128, 64), !235)
    #dbg_value(ptr undef, !131, !DIExpression(), !157)
    #dbg_value(ptr undef, !79, !DIExpression(), !105)
    #dbg_value(i64 1, !236, !DIExpression(), !244)
    #dbg_value(ptr %xs.0, !99, !DIExpression(), !246)
    #dbg_value(ptr %xs.0, !243, !DIExpression(), !244)
    #dbg_value(ptr %_19, !101, !DIExpression(), !247)
    #dbg_value(ptr poison, !248, !DIExpression(), !257)
    #dbg_value(ptr poison, !256, !DIExpression(), !259)
  %_6.i.i10 = icmp eq i64 %xs.1, 0, !dbg !260
  br i1 %_6.i.i10, label %bb5, label %bb4.preheader, !dbg !261

bb4.preheader:                                    ; preds = %start
  %0 = add nsw i64 %_19.idx, -2, !dbg !261
  %1 = lshr exact i64 %0, 1, !dbg !261
  %2 = add nuw i64 %1, 1, !dbg !261
  %min.iters.check = icmp ult i64 %0, 6, !dbg !261
  br i1 %min.iters.check, label %bb4.preheader17, label %vector.ph, !dbg !261

vector.ph:                                        ; preds = %bb4.preheader
  %n.vec = and i64 %2, -4
  %3 = shl i64 %n.vec, 1
  %4 = getelementptr i8, ptr %xs.0, i64 %3
  br label %vector.body, !dbg !261

vector.body:                                      ; preds = %vector.body, %vector.ph
  %index = phi i64 [ 0, %vector.ph ], [ %index.next, %vector.body ], !dbg !262
  %vec.phi = phi <2 x i64> [ zeroinitializer, %vector.ph ], [ %13, %vector.body ]
  %vec.phi14 = phi <2 x i64> [ zeroinitializer, %vector.ph ], [ %14, %vector.body ]
  %vec.ind = phi <2 x i64> [ <i64 0, i64 1>, %vector.ph ], [ %vec.ind.next, %vector.body ]
  %offset.idx = shl i64 %index, 1
  %next.gep = getelementptr i8, ptr %xs.0, i64 %offset.idx
  %5 = getelementptr i8, ptr %next.gep, i64 4, !dbg !263
  %wide.load = load <2 x i16>, ptr %next.gep, align 2, !dbg !263
  %wide.load15 = load <2 x i16>, ptr %5, align 2, !dbg !263
  %6 = zext <2 x i16> %wide.load to <2 x i64>, !dbg !264
  %7 = zext <2 x i16> %wide.load15 to <2 x i64>, !dbg !264
  %8 = and <2 x i64> %vec.ind, splat (i64 3), !dbg !265
  %9 = and <2 x i64> %vec.ind, splat (i64 3), !dbg !265
  %10 = xor <2 x i64> %9, splat (i64 2), !dbg !265
  %11 = shl nuw nsw <2 x i64> %6, %8, !dbg !264
  %12 = shl nuw nsw <2 x i64> %7, %10, !dbg !264
  %13 = add <2 x i64> %11, %vec.phi, !dbg !266
  %14 = add <2 x i64> %12, %vec.phi14, !dbg !266
  %index.next = add nuw i64 %index, 4, !dbg !262
  %vec.ind.next = add <2 x i64> %vec.ind, splat (i64 4)
  %15 = icmp eq i64 %index.next, %n.vec, !dbg !261
  br i1 %15, label %middle.block, label %vector.body, !dbg !261, !llvm.loop !267

middle.block:                                     ; preds = %vector.body
  %bin.rdx = add <2 x i64> %14, %13, !dbg !261
  %16 = tail call i64 @llvm.vector.reduce.add.v2i64(<2 x i64> %bin.rdx), !dbg !261
  %cmp.n = icmp eq i64 %2, %n.vec, !dbg !261
  br i1 %cmp.n, label %bb5, label %bb4.preheader17, !dbg !261

bb4.preheader17:                                  ; preds = %bb4.preheader, %middle.block
  %t.sroa.0.013.ph = phi i64 [ 0, %bb4.preheader ], [ %16, %middle.block ]
  %iter.sroa.0.012.ph = phi ptr [ %xs.0, %bb4.preheader ], [ %4, %middle.block ]
  %iter.sroa.7.011.ph = phi i64 [ 0, %bb4.preheader ], [ %n.vec, %middle.block ]
  br label %bb4, !dbg !261

bb4:                                              ; preds = %bb4.preheader17, %bb4
  %t.sroa.0.013 = phi i64 [ %_13, %bb4 ], [ %t.sroa.0.013.ph, %bb4.preheader17 ]
  %iter.sroa.0.012 = phi ptr [ %_16.i.i, %bb4 ], [ %iter.sroa.0.012.ph, %bb4.preheader17 ]
  %iter.sroa.7.011 = phi i64 [ %_9.0.i, %bb4 ], [ %iter.sroa.7.011.ph, %bb4.preheader17 ]
    #dbg_value(i64 %t.sroa.0.013, !182, !DIExpression(), !191)
    #dbg_value(ptr %iter.sroa.0.012, !42, !DIExpression(DW_OP_LLVM_fragment, 0, 64), !235)
    #dbg_value(i64 %iter.sroa.7.011, !42, !DIExpression(DW_OP_LLVM_fragment, 128, 64), !235)
  %_16.i.i = getelementptr inbounds nuw i8, ptr %iter.sroa.0.012, i64 2, !dbg !270
    #dbg_value(ptr %_16.i.i, !42, !DIExpression(DW_OP_LLVM_fragment, 0, 64), !235)
    #dbg_value(ptr %iter.sroa.0.012, !132, !DIExpression(), !271)
    #dbg_value(i64 %iter.sroa.7.011, !154, !DIExpression(), !272)
  %_9.0.i = add nuw nsw i64 %iter.sroa.7.011, 1, !dbg !262
    #dbg_value(i64 %_9.0.i, !42, !DIExpression(DW_OP_LLVM_fragment, 128, 64), !235)
    #dbg_value(i64 %iter.sroa.7.011, !74, !DIExpression(), !273)
  %x = load i16, ptr %iter.sroa.0.012, align 2, !dbg !263, !noundef !20
    #dbg_value(i16 %x, !76, !DIExpression(), !273)
  %_11 = zext i16 %x to i64, !dbg !264
  %_12 = and i64 %iter.sroa.7.011, 3, !dbg !265
  %bits = shl nuw nsw i64 %_11, %_12, !dbg !264
    #dbg_value(i64 %bits, !77, !DIExpression(), !274)
    #dbg_value(i64 %bits, !190, !DIExpression(), !191)
  %_13 = add i64 %bits, %t.sroa.0.013, !dbg !266
    #dbg_value(ptr %_16.i.i, !42, !DIExpression(DW_OP_LLVM_fragment, 0, 64), !235)
    #dbg_value(i64 %_9.0.i, !42, !DIExpression(DW_OP_LLVM_fragment, 128, 64), !235)
    #dbg_value(i64 %_13, !182, !DIExpression(), !191)
    #dbg_value(i64 %_13, !40, !DIExpression(), !181)
    #dbg_value(ptr undef, !131, !DIExpression(), !157)
    #dbg_value(ptr undef, !79, !DIExpression(), !105)
    #dbg_value(i64 1, !236, !DIExpression(), !244)
    #dbg_value(ptr %_16.i.i, !99, !DIExpression(), !246)
    #dbg_value(ptr %_16.i.i, !243, !DIExpression(), !244)
    #dbg_value(ptr %_19, !101, !DIExpression(), !247)
    #dbg_value(ptr poison, !248, !DIExpression(), !257)
    #dbg_value(ptr poison, !256, !DIExpression(), !259)
  %_6.i.i = icmp eq ptr %_16.i.i, %_19, !dbg !260
  br i1 %_6.i.i, label %bb5, label %bb4, !dbg !261, !llvm.loop !275

bb5:                                              ; preds = %bb4, %middle.block, %start
  %t.sroa.0.0.lcssa = phi i64 [ 0, %start ], [ %16, %middle.block ], [ %_13, %bb4 ], !dbg !158
    #dbg_value(ptr poison, !42, !DIExpression(DW_OP_LLVM_fragment, 0, 64), !235)
    #dbg_value(i64 poison, !42, !DIExpression(DW_OP_LLVM_fragment, 128, 64), !235)
  ret i64 %t.sroa.0.0.lcssa, !dbg !276
}

; salvage::weight
; Function Attrs: mustprogress nofree noinline norecurse nosync nounwind nonlazybind willreturn memory(none) uwtable
define noundef range(i32 1, 0) i32 @_ZN7salvage6weight17hb7e7b350132ffc10E(i8 noundef %code, i32 noundef %0) unnamed_addr #0 !dbg !277 {
start:
    #dbg_value(i32 %0, !283, !DIExpression(), !288)
    #dbg_value(i32 %0, !284, !DIExpression(), !289)
    #dbg_value(i32 %0, !290, !DIExpression(), !298)
    #dbg_value(i8 %code, !282, !DIExpression(), !288)
    #dbg_value(i32 2, !297, !DIExpression(), !298)
  switch i8 %code, label %bb1 [
    i8 0, label %bb4
    i8 1, label %bb3
    i8 5, label %bb5
  ], !dbg !300

bb1:                                              ; preds = %start
    #dbg_value(i32 -1, !283, !DIExpression(), !288)
    #dbg_value(i32 -1, !284, !DIExpression(), !289)
    #dbg_value(i32 -1, !290, !DIExpression(), !298)
  br label %bb5, !dbg !301

bb4:                                              ; preds = %start
    #dbg_value(i32 1, !283, !DIExpression(), !288)
    #dbg_value(i32 1, !284, !DIExpression(), !289)
    #dbg_value(i32 1, !290, !DIExpression(), !298)
  br label %bb5, !dbg !302

bb3:                                              ; preds = %start
    #dbg_value(i32 7, !283, !DIExpression(), !288)
    #dbg_value(i32 7, !284, !DIExpression(), !289)
    #dbg_value(i32 7, !290, !DIExpression(), !298)
  br label %bb5, !dbg !303

bb5:                                              ; preds = %start, %bb1, %bb3, %bb4
  %v.sroa.0.0 = phi i32 [ -1, %bb1 ], [ 1, %bb4 ], [ 7, %bb3 ], [ %0, %start ]
    #dbg_value(i32 %v.sroa.0.0, !290, !DIExpression(), !298)
    #dbg_value(i32 %v.sroa.0.0, !284, !DIExpression(), !289)
    #dbg_value(i32 %v.sroa.0.0, !283, !DIExpression(), !288)
  %doubled = shl i32 %v.sroa.0.0, 1, !dbg !304
    #dbg_value(i32 %doubled, !286, !DIExpression(), !305)
  %_0 = or disjoint i32 %doubled, 1, !dbg !306
  ret i32 %_0, !dbg !307
}

; salvage::hundreds
; Function Attrs: mustprogress nofree noinline norecurse nosync nounwind nonlazybind willreturn memory(none) uwtable
define noundef range(i32 0, 655036) i32 @_ZN7salvage8hundreds17h2bf441ccdffc9355E(i16 noundef %n) unnamed_addr #0 !dbg !308 {
start:
    #dbg_value(i16 %n, !310, !DIExpression(), !317)
  %wide = zext i16 %n to i32, !dbg !318
    #dbg_value(i32 %wide, !311, !DIExpression(), !319)
  %_4 = mul nuw nsw i32 %wide, 5243, !dbg !320
  %q = lshr i32 %_4, 19, !dbg !320
    #dbg_value(i32 %q, !313, !DIExpression(), !321)
    #dbg_value(!DIArgList(i32 %wide, i32 %q), !315, !DIExpression(DW_OP_LLVM_arg, 0, DW_OP_LLVM_arg, 1, DW_OP_constu, 18446744073709551516, DW_OP_mul, DW_OP_plus, DW_OP_stack_value), !322)
  %reass.mul = mul nuw nsw i32 %q, 900, !dbg !323
  %_0 = add nuw nsw i32 %reass.mul, %wide, !dbg !323
  ret i32 %_0, !dbg !324
}

; Function Attrs: nounwind nonlazybind uwtable
declare noundef range(i32 0, 10) i32 @rust_eh_personality(i32 noundef, i32 noundef, i64 noundef, ptr noundef, ptr noundef) unnamed_addr #2

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare i64 @llvm.vector.reduce.add.v2i64(<2 x i64>) #3

attributes #0 = { mustprogress nofree noinline norecurse nosync nounwind nonlazybind willreturn memory(none) uwtable "probe-stack"="inline-asm" "target-cpu"="x86-64" }
attributes #1 = { nofree noinline norecurse nosync nounwind nonlazybind memory(argmem: read) uwtable "probe-stack"="inline-asm" "target-cpu"="x86-64" }
attributes #2 = { nounwind nonlazybind uwtable "probe-stack"="inline-asm" "target-cpu"="x86-64" }
attributes #3 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }

!llvm.module.flags = !{!0, !1, !2, !3}
!llvm.ident = !{!4}
!llvm.dbg.cu = !{!5}

!0 = !{i32 8, !"PIC Level", i32 2}
!1 = !{i32 2, !"RtLibUseGOT", i32 1}
!2 = !{i32 7, !"Dwarf Version", i32 4}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{!"rustc version 1.95.0 (59807616e 2026-04-14)"}
!5 = distinct !DICompileUnit(language: DW_LANG_Rust, file: !6, producer: "clang LLVM (rustc version 1.95.0 (59807616e 2026-04-14))", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug, splitDebugInlining: false, nameTableKind: None)
!6 = !DIFile(filename: "rust/salvage.rs/@/salvage.2258d8f07f9e067b-cgu.0", directory: ".")
!7 = distinct !DISubprogram(name: "split", linkageName: "_ZN7salvage5split17hba45e06c64a417fcE", scope: !9, file: !8, line: 40, type: !10, scopeLine: 40, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !5, templateParams: !20, retainedNodes: !14)
!8 = !DIFile(filename: "rust/salvage.rs", directory: ".", checksumkind: CSK_MD5, checksum: "2359caad525bc4e0246cd598474295b9")
!9 = !DINamespace(name: "salvage", scope: null)
!10 = !DISubroutineType(types: !11)
!11 = !{!12, !13}
!12 = !DIBasicType(name: "u32", size: 32, encoding: DW_ATE_unsigned)
!13 = !DIBasicType(name: "u16", size: 16, encoding: DW_ATE_unsigned)
!14 = !{!15, !16, !18}
!15 = !DILocalVariable(name: "n", arg: 1, scope: !7, file: !8, line: 40, type: !13)
!16 = !DILocalVariable(name: "last", scope: !17, file: !8, line: 41, type: !12, align: 32)
!17 = distinct !DILexicalBlock(scope: !7, file: !8, line: 41, column: 5)
!18 = !DILocalVariable(name: "rest", scope: !19, file: !8, line: 42, type: !12, align: 32)
!19 = distinct !DILexicalBlock(scope: !17, file: !8, line: 42, column: 5)
!20 = !{}
!21 = !DILocation(line: 0, scope: !7)
!22 = !DILocation(line: 41, column: 16, scope: !7)
!23 = !DILocation(line: 0, scope: !17)
!24 = !DILocation(line: 0, scope: !19)
!25 = !DILocation(line: 43, column: 5, scope: !19)
!26 = !DILocation(line: 44, column: 2, scope: !7)
!27 = distinct !DISubprogram(name: "total", linkageName: "_ZN7salvage5total17h4b6a5b8730252b7bE", scope: !9, file: !8, line: 28, type: !28, scopeLine: 28, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !5, templateParams: !20, retainedNodes: !38)
!28 = !DISubroutineType(types: !29)
!29 = !{!30, !31}
!30 = !DIBasicType(name: "u64", size: 64, encoding: DW_ATE_unsigned)
!31 = !DICompositeType(tag: DW_TAG_structure_type, name: "&[u16]", file: !32, size: 128, align: 64, elements: !33, templateParams: !20, identifier: "7754e79038034cabe41502e81189cbe9")
!32 = !DIFile(filename: "<unknown>", directory: "")
!33 = !{!34, !36}
!34 = !DIDerivedType(tag: DW_TAG_member, name: "data_ptr", scope: !31, file: !32, baseType: !35, size: 64, align: 64)
!35 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !13, size: 64, align: 64, dwarfAddressSpace: 0)
!36 = !DIDerivedType(tag: DW_TAG_member, name: "length", scope: !31, file: !32, baseType: !37, size: 64, align: 64, offset: 64)
!37 = !DIBasicType(name: "usize", size: 64, encoding: DW_ATE_unsigned)
!38 = !{!39, !40, !42, !74, !76, !77}
!39 = !DILocalVariable(name: "xs", arg: 1, scope: !27, file: !8, line: 28, type: !31)
!40 = !DILocalVariable(name: "t", scope: !41, file: !8, line: 29, type: !30, align: 64)
!41 = distinct !DILexicalBlock(scope: !27, file: !8, line: 29, column: 5)
!42 = !DILocalVariable(name: "iter", scope: !43, file: !8, line: 30, type: !44, align: 64)
!43 = distinct !DILexicalBlock(scope: !41, file: !8, line: 30, column: 5)
!44 = !DICompositeType(tag: DW_TAG_structure_type, name: "Enumerate<core::slice::iter::Iter<u16>>", scope: !45, file: !32, size: 192, align: 64, flags: DIFlagPublic, elements: !49, templateParams: !72, identifier: "85aa411a45b309b1a29b026d7f4f4ab5")
!45 = !DINamespace(name: "enumerate", scope: !46)
!46 = !DINamespace(name: "adapters", scope: !47)
!47 = !DINamespace(name: "iter", scope: !48)
!48 = !DINamespace(name: "core", scope: null)
!49 = !{!50, !71}
!50 = !DIDerivedType(tag: DW_TAG_member, name: "iter", scope: !44, file: !32, baseType: !51, size: 128, align: 64, flags: DIFlagPrivate)
!51 = !DICompositeType(tag: DW_TAG_structure_type, name: "Iter<u16>", scope: !52, file: !32, size: 128, align: 64, flags: DIFlagPublic, elements: !54, templateParams: !62, identifier: "991ac65cb190f7c920c8f028f1b8a191")
!52 = !DINamespace(name: "iter", scope: !53)
!53 = !DINamespace(name: "slice", scope: !48)
!54 = !{!55, !64, !65}
!55 = !DIDerivedType(tag: DW_TAG_member, name: "ptr", scope: !51, file: !32, baseType: !56, size: 64, align: 64, flags: DIFlagPrivate)
!56 = !DICompositeType(tag: DW_TAG_structure_type, name: "NonNull<u16>", scope: !57, file: !32, size: 64, align: 64, flags: DIFlagPublic, elements: !59, templateParams: !62, identifier: "c0209a164463dd67e06172fa102c7519")
!57 = !DINamespace(name: "non_null", scope: !58)
!58 = !DINamespace(name: "ptr", scope: !48)
!59 = !{!60}
!60 = !DIDerivedType(tag: DW_TAG_member, name: "pointer", scope: !56, file: !32, baseType: !61, size: 64, align: 64, flags: DIFlagPrivate)
!61 = !DIDerivedType(tag: DW_TAG_pointer_type, name: "*const u16", baseType: !13, size: 64, align: 64, dwarfAddressSpace: 0)
!62 = !{!63}
!63 = !DITemplateTypeParameter(name: "T", type: !13)
!64 = !DIDerivedType(tag: DW_TAG_member, name: "end_or_len", scope: !51, file: !32, baseType: !61, size: 64, align: 64, offset: 64, flags: DIFlagPrivate)
!65 = !DIDerivedType(tag: DW_TAG_member, name: "_marker", scope: !51, file: !32, baseType: !66, align: 8, offset: 128, flags: DIFlagPrivate)
!66 = !DICompositeType(tag: DW_TAG_structure_type, name: "PhantomData<&u16>", scope: !67, file: !32, align: 8, flags: DIFlagPublic, elements: !20, templateParams: !68, identifier: "884f8d82f25d8c2632f9397a784fdd69")
!67 = !DINamespace(name: "marker", scope: !48)
!68 = !{!69}
!69 = !DITemplateTypeParameter(name: "T", type: !70)
!70 = !DIDerivedType(tag: DW_TAG_pointer_type, name: "&u16", baseType: !13, size: 64, align: 64, dwarfAddressSpace: 0)
!71 = !DIDerivedType(tag: DW_TAG_member, name: "count", scope: !44, file: !32, baseType: !37, size: 64, align: 64, offset: 128, flags: DIFlagPrivate)
!72 = !{!73}
!73 = !DITemplateTypeParameter(name: "I", type: !51)
!74 = !DILocalVariable(name: "i", scope: !75, file: !8, line: 30, type: !37, align: 64)
!75 = distinct !DILexicalBlock(scope: !43, file: !8, line: 30, column: 5)
!76 = !DILocalVariable(name: "x", scope: !75, file: !8, line: 30, type: !13, align: 16)
!77 = !DILocalVariable(name: "bits", scope: !78, file: !8, line: 31, type: !30, align: 64)
!78 = distinct !DILexicalBlock(scope: !75, file: !8, line: 31, column: 9)
!79 = !DILocalVariable(name: "self", arg: 1, scope: !80, file: !81, line: 157, type: !97)
!80 = distinct !DISubprogram(name: "next<u16>", linkageName: "_ZN91_$LT$core..slice..iter..Iter$LT$T$GT$$u20$as$u20$core..iter..traits..iterator..Iterator$GT$4next17h5b3b57f7e3505b67E", scope: !82, file: !81, line: 157, type: !83, scopeLine: 157, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !5, templateParams: !62, retainedNodes: !98)
!81 = !DIFile(filename: "library/core/src/slice/iter/macros.rs", directory: "/rustc/59807616e1fa2540724bfbac14d7976d7e4a3860", checksumkind: CSK_MD5, checksum: "87d1f0c2746f51593d75ddf4c9271f14")
!82 = !DINamespace(name: "{impl#171}", scope: !52)
!83 = !DISubroutineType(types: !84)
!84 = !{!85, !97}
!85 = !DICompositeType(tag: DW_TAG_structure_type, name: "Option<&u16>", scope: !86, file: !32, size: 64, align: 64, flags: DIFlagPublic, elements: !87, templateParams: !20, identifier: "7fa84b16dad53fc3fc65de8e6d85c71c")
!86 = !DINamespace(name: "option", scope: !48)
!87 = !{!88}
!88 = !DICompositeType(tag: DW_TAG_variant_part, scope: !85, file: !32, size: 64, align: 64, elements: !89, templateParams: !20, identifier: "2b034b94552e2b8d2e0773e6c7977ba6", discriminator: !96)
!89 = !{!90, !92}
!90 = !DIDerivedType(tag: DW_TAG_member, name: "None", scope: !88, file: !32, baseType: !91, size: 64, align: 64, extraData: i64 0)
!91 = !DICompositeType(tag: DW_TAG_structure_type, name: "None", scope: !85, file: !32, size: 64, align: 64, flags: DIFlagPublic, elements: !20, templateParams: !68, identifier: "3af13f1f98d4c00238d973a781aa616")
!92 = !DIDerivedType(tag: DW_TAG_member, name: "Some", scope: !88, file: !32, baseType: !93, size: 64, align: 64)
!93 = !DICompositeType(tag: DW_TAG_structure_type, name: "Some", scope: !85, file: !32, size: 64, align: 64, flags: DIFlagPublic, elements: !94, templateParams: !68, identifier: "776c21ccdab7f8f53a49267b9e00f571")
!94 = !{!95}
!95 = !DIDerivedType(tag: DW_TAG_member, name: "__0", scope: !93, file: !32, baseType: !70, size: 64, align: 64, flags: DIFlagPublic)
!96 = !DIDerivedType(tag: DW_TAG_member, scope: !85, file: !32, baseType: !30, size: 64, align: 64, flags: DIFlagArtificial)
!97 = !DIDerivedType(tag: DW_TAG_pointer_type, name: "&mut core::slice::iter::Iter<u16>", baseType: !51, size: 64, align: 64, dwarfAddressSpace: 0)
!98 = !{!79, !99, !101, !103}
!99 = !DILocalVariable(name: "ptr", scope: !100, file: !81, line: 161, type: !56, align: 64)
!100 = distinct !DILexicalBlock(scope: !80, file: !81, line: 161, column: 17)
!101 = !DILocalVariable(name: "end_or_len", scope: !102, file: !81, line: 162, type: !61, align: 64)
!102 = distinct !DILexicalBlock(scope: !100, file: !81, line: 162, column: 17)
!103 = !DILocalVariable(name: "len", scope: !104, file: !81, line: 167, type: !37, align: 64)
!104 = distinct !DILexicalBlock(scope: !102, file: !81, line: 167, column: 25)
!105 = !DILocation(line: 0, scope: !80, inlinedAt: !106)
!106 = distinct !DILocation(line: 80, column: 27, scope: !107, inlinedAt: !156)
!107 = distinct !DISubprogram(name: "next<core::slice::iter::Iter<u16>>", linkageName: "_ZN110_$LT$core..iter..adapters..enumerate..Enumerate$LT$I$GT$$u20$as$u20$core..iter..traits..iterator..Iterator$GT$4next17h873ba5273ea19a1dE", scope: !109, file: !108, line: 79, type: !110, scopeLine: 79, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !5, templateParams: !72, retainedNodes: !130)
!108 = !DIFile(filename: "library/core/src/iter/adapters/enumerate.rs", directory: "/rustc/59807616e1fa2540724bfbac14d7976d7e4a3860", checksumkind: CSK_MD5, checksum: "be8a5e8de3bc6e50de6cd50459716008")
!109 = !DINamespace(name: "{impl#1}", scope: !45)
!110 = !DISubroutineType(types: !111)
!111 = !{!112, !129}
!112 = !DICompositeType(tag: DW_TAG_structure_type, name: "Option<(usize, &u16)>", scope: !86, file: !32, size: 128, align: 64, flags: DIFlagPublic, elements: !113, templateParams: !20, identifier: "a821fb39c9a68ffe8713c572806076cb")
!113 = !{!114}
!114 = !DICompositeType(tag: DW_TAG_variant_part, scope: !112, file: !32, size: 128, align: 64, elements: !115, templateParams: !20, identifier: "31b3fe329a6da9e4ac3d602b93ac48d3", discriminator: !128)
!115 = !{!116, !124}
!116 = !DIDerivedType(tag: DW_TAG_member, name: "None", scope: !114, file: !32, baseType: !117, size: 128, align: 64, extraData: i64 0)
!117 = !DICompositeType(tag: DW_TAG_structure_type, name: "None", scope: !112, file: !32, size: 128, align: 64, flags: DIFlagPublic, elements: !20, templateParams: !118, identifier: "3d857b5b6b2e979980768f088863b60a")
!118 = !{!119}
!119 = !DITemplateTypeParameter(name: "T", type: !120)
!120 = !DICompositeType(tag: DW_TAG_structure_type, name: "(usize, &u16)", file: !32, size: 128, align: 64, elements: !121, templateParams: !20, identifier: "ab602b1e46d093cbe1d234dcf9ca83d8")
!121 = !{!122, !123}
!122 = !DIDerivedType(tag: DW_TAG_member, name: "__0", scope: !120, file: !32, baseType: !37, size: 64, align: 64)
!123 = !DIDerivedType(tag: DW_TAG_member, name: "__1", scope: !120, file: !32, baseType: !70, size: 64, align: 64, offset: 64)
!124 = !DIDerivedType(tag: DW_TAG_member, name: "Some", scope: !114, file: !32, baseType: !125, size: 128, align: 64)
!125 = !DICompositeType(tag: DW_TAG_structure_type, name: "Some", scope: !112, file: !32, size: 128, align: 64, flags: DIFlagPublic, elements: !126, templateParams: !118, identifier: "b7dcbc583632b5fdd6f02a22d6f31a0c")
!126 = !{!127}
!127 = !DIDerivedType(tag: DW_TAG_member, name: "__0", scope: !125, file: !32, baseType: !120, size: 128, align: 64, flags: DIFlagPublic)
!128 = !DIDerivedType(tag: DW_TAG_member, scope: !112, file: !32, baseType: !30, size: 64, align: 64, offset: 64, flags: DIFlagArtificial)
!129 = !DIDerivedType(tag: DW_TAG_pointer_type, name: "&mut core::iter::adapters::enumerate::Enumerate<core::slice::iter::Iter<u16>>", baseType: !44, size: 64, align: 64, dwarfAddressSpace: 0)
!130 = !{!131, !132, !134, !152, !154}
!131 = !DILocalVariable(name: "self", arg: 1, scope: !107, file: !108, line: 79, type: !129)
!132 = !DILocalVariable(name: "a", scope: !133, file: !108, line: 80, type: !70, align: 64)
!133 = distinct !DILexicalBlock(scope: !107, file: !108, line: 80, column: 9)
!134 = !DILocalVariable(name: "residual", scope: !135, file: !108, line: 80, type: !136, align: 8)
!135 = distinct !DILexicalBlock(scope: !107, file: !108, line: 80, column: 33)
!136 = !DICompositeType(tag: DW_TAG_structure_type, name: "Option<core::convert::Infallible>", scope: !86, file: !32, align: 8, flags: DIFlagPublic, elements: !137, templateParams: !20, identifier: "c570e30372491ce8c937ce79f8b0a8")
!137 = !{!138}
!138 = !DICompositeType(tag: DW_TAG_variant_part, scope: !136, file: !32, align: 8, elements: !139, templateParams: !20, identifier: "7f581569b30ffcadfc066f9502cffc3d")
!139 = !{!140, !148}
!140 = !DIDerivedType(tag: DW_TAG_member, name: "None", scope: !138, file: !32, baseType: !141, align: 8)
!141 = !DICompositeType(tag: DW_TAG_structure_type, name: "None", scope: !136, file: !32, align: 8, flags: DIFlagPublic, elements: !20, templateParams: !142, identifier: "8822bb1e77f834d316aa69cec5bd6884")
!142 = !{!143}
!143 = !DITemplateTypeParameter(name: "T", type: !144)
!144 = !DICompositeType(tag: DW_TAG_structure_type, name: "Infallible", scope: !145, file: !32, align: 8, flags: DIFlagPublic, elements: !146, templateParams: !20, identifier: "78cfd968ca0619bc6721ef3bf8e03805")
!145 = !DINamespace(name: "convert", scope: !48)
!146 = !{!147}
!147 = !DICompositeType(tag: DW_TAG_variant_part, scope: !144, file: !32, align: 8, elements: !20, identifier: "820520e070d3f01e1d1c030b6bcc9c0e")
!148 = !DIDerivedType(tag: DW_TAG_member, name: "Some", scope: !138, file: !32, baseType: !149, align: 8)
!149 = !DICompositeType(tag: DW_TAG_structure_type, name: "Some", scope: !136, file: !32, align: 8, flags: DIFlagPublic, elements: !150, templateParams: !142, identifier: "eac45ae69c5c1b4274720cd40277b232")
!150 = !{!151}
!151 = !DIDerivedType(tag: DW_TAG_member, name: "__0", scope: !149, file: !32, baseType: !144, align: 8, flags: DIFlagPublic)
!152 = !DILocalVariable(name: "val", scope: !153, file: !108, line: 80, type: !70, align: 64)
!153 = distinct !DILexicalBlock(scope: !107, file: !108, line: 80, column: 33)
!154 = !DILocalVariable(name: "i", scope: !155, file: !108, line: 81, type: !37, align: 64)
!155 = distinct !DILexicalBlock(scope: !133, file: !108, line: 81, column: 9)
!156 = distinct !DILocation(line: 30, column: 20, scope: !43)
!157 = !DILocation(line: 0, scope: !107, inlinedAt: !156)
!158 = !DILocation(line: 0, scope: !27)
!159 = !DILocalVariable(name: "self", arg: 1, scope: !160, file: !161, line: 1040, type: !31)
!160 = distinct !DISubprogram(name: "iter<u16>", linkageName: "_ZN4core5slice29_$LT$impl$u20$$u5b$T$u5d$$GT$4iter17h3be45e6653d98598E", scope: !162, file: !161, line: 1040, type: !163, scopeLine: 1040, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !5, templateParams: !62, retainedNodes: !165)
!161 = !DIFile(filename: "library/core/src/slice/mod.rs", directory: "/rustc/59807616e1fa2540724bfbac14d7976d7e4a3860", checksumkind: CSK_MD5, checksum: "b606e5d97bff599edd0dcbc6067a14f1")
!162 = !DINamespace(name: "{impl#0}", scope: !53)
!163 = !DISubroutineType(types: !164)
!164 = !{!51, !31}
!165 = !{!159}
!166 = !DILocation(line: 0, scope: !160, inlinedAt: !167)
!167 = !DILocation(line: 30, column: 23, scope: !41)
!168 = !DILocalVariable(name: "slice", arg: 1, scope: !169, file: !170, line: 96, type: !31)
!169 = distinct !DISubprogram(name: "new<u16>", linkageName: "_ZN4core5slice4iter13Iter$LT$T$GT$3new17h1834643b90cb6adaE", scope: !51, file: !170, line: 96, type: !163, scopeLine: 96, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !5, templateParams: !62, declaration: !171, retainedNodes: !172)
!170 = !DIFile(filename: "library/core/src/slice/iter.rs", directory: "/rustc/59807616e1fa2540724bfbac14d7976d7e4a3860", checksumkind: CSK_MD5, checksum: "f33ab2e22fe09095bf73c41c52bd166c")
!171 = !DISubprogram(name: "new<u16>", linkageName: "_ZN4core5slice4iter13Iter$LT$T$GT$3new17h1834643b90cb6adaE", scope: !51, file: !170, line: 96, type: !163, scopeLine: 96, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagOptimized, templateParams: !62)
!172 = !{!168, !173, !175, !177}
!173 = !DILocalVariable(name: "len", scope: !174, file: !170, line: 97, type: !37, align: 64)
!174 = distinct !DILexicalBlock(scope: !169, file: !170, line: 97, column: 9)
!175 = !DILocalVariable(name: "ptr", scope: !176, file: !170, line: 98, type: !56, align: 64)
!176 = distinct !DILexicalBlock(scope: !174, file: !170, line: 98, column: 9)
!177 = !DILocalVariable(name: "end_or_len", scope: !178, file: !170, line: 101, type: !61, align: 64)
!178 = distinct !DILexicalBlock(scope: !176, file: !170, line: 101, column: 13)
!179 = !DILocation(line: 0, scope: !169, inlinedAt: !180)
!180 = !DILocation(line: 1041, column: 9, scope: !160, inlinedAt: !167)
!181 = !DILocation(line: 0, scope: !41)
!182 = !DILocalVariable(name: "self", arg: 1, scope: !183, file: !184, line: 2456, type: !30)
!183 = distinct !DISubprogram(name: "wrapping_add", linkageName: "_RNvMs7_NtCsgEmfK2I1SDS_4core3numy12wrapping_add", scope: !185, file: !184, line: 2456, type: !187, scopeLine: 2456, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !5, templateParams: !20, retainedNodes: !189)
!184 = !DIFile(filename: "library/core/src/num/uint_macros.rs", directory: "/rustc/59807616e1fa2540724bfbac14d7976d7e4a3860", checksumkind: CSK_MD5, checksum: "de2f29a3485fc28d710ba6c3062e6efa")
!185 = !DINamespace(name: "{impl#9}", scope: !186)
!186 = !DINamespace(name: "num", scope: !48)
!187 = !DISubroutineType(types: !188)
!188 = !{!30, !30, !30}
!189 = !{!182, !190}
!190 = !DILocalVariable(name: "rhs", arg: 2, scope: !183, file: !184, line: 2456, type: !30)
!191 = !DILocation(line: 0, scope: !183, inlinedAt: !192)
!192 = !DILocation(line: 32, column: 15, scope: !78)
!193 = !DILocation(line: 0, scope: !174, inlinedAt: !180)
!194 = !DILocalVariable(name: "count", arg: 2, scope: !195, file: !196, line: 927, type: !37)
!195 = distinct !DISubprogram(name: "add<u16>", linkageName: "_ZN4core3ptr7mut_ptr31_$LT$impl$u20$$BP$mut$u20$T$GT$3add17h305336199b923ba9E", scope: !197, file: !196, line: 927, type: !199, scopeLine: 927, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !5, templateParams: !62, retainedNodes: !229)
!196 = !DIFile(filename: "library/core/src/ptr/mut_ptr.rs", directory: "/rustc/59807616e1fa2540724bfbac14d7976d7e4a3860", checksumkind: CSK_MD5, checksum: "7c03c8e0ae695174f7f10881dc49d2cb")
!197 = !DINamespace(name: "{impl#0}", scope: !198)
!198 = !DINamespace(name: "mut_ptr", scope: !58)
!199 = !DISubroutineType(types: !200)
!200 = !{!201, !201, !37, !202}
!201 = !DIDerivedType(tag: DW_TAG_pointer_type, name: "*mut u16", baseType: !13, size: 64, align: 64, dwarfAddressSpace: 0)
!202 = !DIDerivedType(tag: DW_TAG_pointer_type, name: "&core::panic::location::Location", baseType: !203, size: 64, align: 64, dwarfAddressSpace: 0)
!203 = !DICompositeType(tag: DW_TAG_structure_type, name: "Location", scope: !204, file: !32, size: 192, align: 64, flags: DIFlagPublic, elements: !206, templateParams: !20, identifier: "c23b7de1297af8f4a89df3da49f37ee6")
!204 = !DINamespace(name: "location", scope: !205)
!205 = !DINamespace(name: "panic", scope: !48)
!206 = !{!207, !219, !220, !221}
!207 = !DIDerivedType(tag: DW_TAG_member, name: "filename", scope: !203, file: !32, baseType: !208, size: 128, align: 64, flags: DIFlagPrivate)
!208 = !DICompositeType(tag: DW_TAG_structure_type, name: "NonNull<str>", scope: !57, file: !32, size: 128, align: 64, flags: DIFlagPublic, elements: !209, templateParams: !217, identifier: "cc7383b2ce73f6838bfb6ae828fb6ae6")
!209 = !{!210}
!210 = !DIDerivedType(tag: DW_TAG_member, name: "pointer", scope: !208, file: !32, baseType: !211, size: 128, align: 64, flags: DIFlagPrivate)
!211 = !DICompositeType(tag: DW_TAG_structure_type, name: "*const str", file: !32, size: 128, align: 64, elements: !212, templateParams: !20, identifier: "238a44609877474087c05adf26cd41fa")
!212 = !{!213, !216}
!213 = !DIDerivedType(tag: DW_TAG_member, name: "data_ptr", scope: !211, file: !32, baseType: !214, size: 64, align: 64)
!214 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !215, size: 64, align: 64, dwarfAddressSpace: 0)
!215 = !DIBasicType(name: "u8", size: 8, encoding: DW_ATE_unsigned)
!216 = !DIDerivedType(tag: DW_TAG_member, name: "length", scope: !211, file: !32, baseType: !37, size: 64, align: 64, offset: 64)
!217 = !{!218}
!218 = !DITemplateTypeParameter(name: "T", type: !215)
!219 = !DIDerivedType(tag: DW_TAG_member, name: "line", scope: !203, file: !32, baseType: !12, size: 32, align: 32, offset: 128, flags: DIFlagPrivate)
!220 = !DIDerivedType(tag: DW_TAG_member, name: "col", scope: !203, file: !32, baseType: !12, size: 32, align: 32, offset: 160, flags: DIFlagPrivate)
!221 = !DIDerivedType(tag: DW_TAG_member, name: "_filename", scope: !203, file: !32, baseType: !222, align: 8, offset: 192, flags: DIFlagPrivate)
!222 = !DICompositeType(tag: DW_TAG_structure_type, name: "PhantomData<&str>", scope: !67, file: !32, align: 8, flags: DIFlagPublic, elements: !20, templateParams: !223, identifier: "e16ac355808b6aef9fb50b5f125fee05")
!223 = !{!224}
!224 = !DITemplateTypeParameter(name: "T", type: !225)
!225 = !DICompositeType(tag: DW_TAG_structure_type, name: "&str", file: !32, size: 128, align: 64, elements: !226, templateParams: !20, identifier: "9277eecd40495f85161460476aacc992")
!226 = !{!227, !228}
!227 = !DIDerivedType(tag: DW_TAG_member, name: "data_ptr", scope: !225, file: !32, baseType: !214, size: 64, align: 64)
!228 = !DIDerivedType(tag: DW_TAG_member, name: "length", scope: !225, file: !32, baseType: !37, size: 64, align: 64, offset: 64)
!229 = !{!230, !194}
!230 = !DILocalVariable(name: "self", arg: 1, scope: !195, file: !196, line: 927, type: !201)
!231 = !DILocation(line: 0, scope: !195, inlinedAt: !232)
!232 = !DILocation(line: 102, column: 78, scope: !176, inlinedAt: !180)
!233 = !DILocation(line: 0, scope: !176, inlinedAt: !180)
!234 = !DILocation(line: 961, column: 18, scope: !195, inlinedAt: !232)
!235 = !DILocation(line: 0, scope: !43)
!236 = !DILocalVariable(name: "count", scope: !237, file: !238, line: 651, type: !37, align: 64)
!237 = distinct !DISubprogram(name: "add<u16>", linkageName: "_ZN4core3ptr8non_null16NonNull$LT$T$GT$3add17h7c5fa5694e501736E", scope: !56, file: !238, line: 651, type: !239, scopeLine: 651, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !5, templateParams: !62, declaration: !241, retainedNodes: !242)
!238 = !DIFile(filename: "library/core/src/ptr/non_null.rs", directory: "/rustc/59807616e1fa2540724bfbac14d7976d7e4a3860", checksumkind: CSK_MD5, checksum: "e5222a5160165ba1cd09076ad7a11733")
!239 = !DISubroutineType(types: !240)
!240 = !{!56, !56, !37}
!241 = !DISubprogram(name: "add<u16>", linkageName: "_ZN4core3ptr8non_null16NonNull$LT$T$GT$3add17h7c5fa5694e501736E", scope: !56, file: !238, line: 651, type: !239, scopeLine: 651, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagOptimized, templateParams: !62)
!242 = !{!243, !236}
!243 = !DILocalVariable(name: "self", arg: 1, scope: !237, file: !238, line: 651, type: !56)
!244 = !DILocation(line: 0, scope: !237, inlinedAt: !245)
!245 = distinct !DILocation(line: 185, column: 40, scope: !102, inlinedAt: !106)
!246 = !DILocation(line: 0, scope: !100, inlinedAt: !106)
!247 = !DILocation(line: 0, scope: !102, inlinedAt: !106)
!248 = !DILocalVariable(name: "self", arg: 1, scope: !249, file: !238, line: 1719, type: !254)
!249 = distinct !DISubprogram(name: "eq<u16>", linkageName: "_ZN78_$LT$core..ptr..non_null..NonNull$LT$T$GT$$u20$as$u20$core..cmp..PartialEq$GT$2eq17h622fd4927ab94ee9E", scope: !250, file: !238, line: 1719, type: !251, scopeLine: 1719, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !5, templateParams: !62, retainedNodes: !255)
!250 = !DINamespace(name: "{impl#16}", scope: !57)
!251 = !DISubroutineType(types: !252)
!252 = !{!253, !254, !254}
!253 = !DIBasicType(name: "bool", size: 8, encoding: DW_ATE_boolean)
!254 = !DIDerivedType(tag: DW_TAG_pointer_type, name: "&core::ptr::non_null::NonNull<u16>", baseType: !56, size: 64, align: 64, dwarfAddressSpace: 0)
!255 = !{!248, !256}
!256 = !DILocalVariable(name: "other", arg: 2, scope: !249, file: !238, line: 1719, type: !254)
!257 = !DILocation(line: 1719, column: 11, scope: !249, inlinedAt: !258)
!258 = distinct !DILocation(line: 180, column: 28, scope: !102, inlinedAt: !106)
!259 = !DILocation(line: 1719, column: 18, scope: !249, inlinedAt: !258)
!260 = !DILocation(line: 1720, column: 9, scope: !249, inlinedAt: !258)
!261 = !DILocation(line: 180, column: 28, scope: !102, inlinedAt: !106)
!262 = !DILocation(line: 82, column: 9, scope: !155, inlinedAt: !156)
!263 = !DILocation(line: 30, column: 14, scope: !43)
!264 = !DILocation(line: 31, column: 20, scope: !75)
!265 = !DILocation(line: 31, column: 34, scope: !75)
!266 = !DILocation(line: 2457, column: 13, scope: !183, inlinedAt: !192)
!267 = distinct !{!267, !268, !269}
!268 = !{!"llvm.loop.isvectorized", i32 1}
!269 = !{!"llvm.loop.unroll.runtime.disable"}
!270 = !DILocation(line: 659, column: 28, scope: !237, inlinedAt: !245)
!271 = !DILocation(line: 0, scope: !133, inlinedAt: !156)
!272 = !DILocation(line: 0, scope: !155, inlinedAt: !156)
!273 = !DILocation(line: 0, scope: !75)
!274 = !DILocation(line: 0, scope: !78)
!275 = distinct !{!275, !269, !268}
!276 = !DILocation(line: 35, column: 2, scope: !27)
!277 = distinct !DISubprogram(name: "weight", linkageName: "_ZN7salvage6weight17hb7e7b350132ffc10E", scope: !9, file: !8, line: 15, type: !278, scopeLine: 15, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !5, templateParams: !20, retainedNodes: !281)
!278 = !DISubroutineType(types: !279)
!279 = !{!280, !215, !280}
!280 = !DIBasicType(name: "i32", size: 32, encoding: DW_ATE_signed)
!281 = !{!282, !283, !284, !286}
!282 = !DILocalVariable(name: "code", arg: 1, scope: !277, file: !8, line: 15, type: !215)
!283 = !DILocalVariable(name: "v", arg: 2, scope: !277, file: !8, line: 15, type: !280)
!284 = !DILocalVariable(name: "w", scope: !285, file: !8, line: 16, type: !280, align: 32)
!285 = distinct !DILexicalBlock(scope: !277, file: !8, line: 16, column: 5)
!286 = !DILocalVariable(name: "doubled", scope: !287, file: !8, line: 22, type: !280, align: 32)
!287 = distinct !DILexicalBlock(scope: !285, file: !8, line: 22, column: 5)
!288 = !DILocation(line: 0, scope: !277)
!289 = !DILocation(line: 0, scope: !285)
!290 = !DILocalVariable(name: "self", arg: 1, scope: !291, file: !292, line: 2172, type: !280)
!291 = distinct !DISubprogram(name: "wrapping_mul", linkageName: "_RNvMs0_NtCsgEmfK2I1SDS_4core3numl12wrapping_mul", scope: !293, file: !292, line: 2172, type: !294, scopeLine: 2172, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !5, templateParams: !20, retainedNodes: !296)
!292 = !DIFile(filename: "library/core/src/num/int_macros.rs", directory: "/rustc/59807616e1fa2540724bfbac14d7976d7e4a3860", checksumkind: CSK_MD5, checksum: "25372f0d2fb76edc2f95599cb5b8df1b")
!293 = !DINamespace(name: "{impl#2}", scope: !186)
!294 = !DISubroutineType(types: !295)
!295 = !{!280, !280, !280}
!296 = !{!290, !297}
!297 = !DILocalVariable(name: "rhs", scope: !291, file: !292, line: 2172, type: !280, align: 32)
!298 = !DILocation(line: 0, scope: !291, inlinedAt: !299)
!299 = !DILocation(line: 22, column: 21, scope: !285)
!300 = !DILocation(line: 16, column: 13, scope: !277)
!301 = !DILocation(line: 20, column: 14, scope: !277)
!302 = !DILocation(line: 17, column: 14, scope: !277)
!303 = !DILocation(line: 18, column: 14, scope: !277)
!304 = !DILocation(line: 2173, column: 13, scope: !291, inlinedAt: !299)
!305 = !DILocation(line: 0, scope: !287)
!306 = !DILocation(line: 23, column: 5, scope: !287)
!307 = !DILocation(line: 24, column: 2, scope: !277)
!308 = distinct !DISubprogram(name: "hundreds", linkageName: "_ZN7salvage8hundreds17h2bf441ccdffc9355E", scope: !9, file: !8, line: 6, type: !10, scopeLine: 6, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !5, templateParams: !20, retainedNodes: !309)
!309 = !{!310, !311, !313, !315}
!310 = !DILocalVariable(name: "n", arg: 1, scope: !308, file: !8, line: 6, type: !13)
!311 = !DILocalVariable(name: "wide", scope: !312, file: !8, line: 7, type: !12, align: 32)
!312 = distinct !DILexicalBlock(scope: !308, file: !8, line: 7, column: 5)
!313 = !DILocalVariable(name: "q", scope: !314, file: !8, line: 8, type: !12, align: 32)
!314 = distinct !DILexicalBlock(scope: !312, file: !8, line: 8, column: 5)
!315 = !DILocalVariable(name: "rest", scope: !316, file: !8, line: 9, type: !12, align: 32)
!316 = distinct !DILexicalBlock(scope: !314, file: !8, line: 9, column: 5)
!317 = !DILocation(line: 0, scope: !308)
!318 = !DILocation(line: 7, column: 16, scope: !308)
!319 = !DILocation(line: 0, scope: !312)
!320 = !DILocation(line: 8, column: 13, scope: !312)
!321 = !DILocation(line: 0, scope: !314)
!322 = !DILocation(line: 0, scope: !316)
!323 = !DILocation(line: 10, column: 5, scope: !316)
!324 = !DILocation(line: 11, column: 2, scope: !308)

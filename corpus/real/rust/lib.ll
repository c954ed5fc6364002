; ModuleID = 'lib.c6f551dc431569fb-cgu.0'
source_filename = "lib.c6f551dc431569fb-cgu.0"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; lib::add
; Function Attrs: mustprogress nofree noinline norecurse nosync nounwind nonlazybind willreturn memory(none) uwtable
define noundef i32 @_ZN3lib3add17hd3879b2eb1400e03E(i32 noundef %a, i32 noundef %b) unnamed_addr #0 !dbg !7 {
start:
    #dbg_value(i32 %a, !14, !DIExpression(), !17)
    #dbg_value(i32 %a, !18, !DIExpression(), !26)
    #dbg_value(i32 %b, !15, !DIExpression(), !17)
    #dbg_value(i32 %b, !25, !DIExpression(), !26)
  %_0 = add i32 %b, %a, !dbg !28
  ret i32 %_0, !dbg !29
}

; lib::spread
; Function Attrs: mustprogress nofree noinline norecurse nosync nounwind nonlazybind willreturn memory(none) uwtable
define noundef range(i64 0, -9223372036854775807) i64 @_ZN3lib6spread17h749be860526e011bE(i64 noundef %p.0, i16 noundef %p.1) unnamed_addr #0 !dbg !30 {
start:
    #dbg_value(i64 %p.0, !41, !DIExpression(DW_OP_LLVM_fragment, 0, 64), !44)
    #dbg_value(i16 %p.1, !41, !DIExpression(DW_OP_LLVM_fragment, 64, 16), !44)
  %_4 = sext i16 %p.1 to i64, !dbg !45
  %wide = sub i64 %p.0, %_4, !dbg !46
    #dbg_value(i64 %wide, !42, !DIExpression(), !47)
    #dbg_value(i64 %wide, !48, !DIExpression(), !55)
  %_0.sroa.0.0 = tail call i64 @llvm.abs.i64(i64 %wide, i1 false), !dbg !57
  ret i64 %_0.sroa.0.0, !dbg !58
}

; lib::checksum
; Function Attrs: nofree noinline norecurse nosync nounwind nonlazybind memory(argmem: read) uwtable
define noundef i64 @_ZN3lib8checksum17hb4836a55a4a2b2c4E(ptr noalias noundef nonnull readonly align 1 captures(address) %bytes.0, i64 noundef range(i64 0, -9223372036854775808) %bytes.1) unnamed_addr #1 personality ptr @rust_eh_personality !dbg !59 {
start:
    #dbg_value(ptr poison, !108, !DIExpression(), !134)
    #dbg_value(ptr poison, !160, !DIExpression(), !186)
    #dbg_value(ptr %bytes.0, !71, !DIExpression(DW_OP_LLVM_fragment, 0, 64), !187)
    #dbg_value(ptr %bytes.0, !188, !DIExpression(DW_OP_LLVM_fragment, 0, 64), !195)
    #dbg_value(ptr %bytes.0, !197, !DIExpression(DW_OP_LLVM_fragment, 0, 64), !208)
    #dbg_value(i64 %bytes.1, !71, !DIExpression(DW_OP_LLVM_fragment, 64, 64), !187)
    #dbg_value(i64 %bytes.1, !188, !DIExpression(DW_OP_LLVM_fragment, 64, 64), !195)
    #dbg_value(i64 %bytes.1, !197, !DIExpression(DW_OP_LLVM_fragment, 64, 64), !208)
    #dbg_value(i32 5, !210, !DIExpression(), !217)
    #dbg_value(i64 0, !72, !DIExpression(), !219)
    #dbg_value(i64 0, !216, !DIExpression(), !217)
    #dbg_value(i64 %bytes.1, !202, !DIExpression(), !220)
    #dbg_value(i64 %bytes.1, !221, !DIExpression(), !254)
    #dbg_value(ptr %bytes.0, !204, !DIExpression(), !256)
    #dbg_value(ptr %bytes.0, !253, !DIExpression(), !254)
    #dbg_value(ptr %bytes.0, !74, !DIExpression(DW_OP_LLVM_fragment, 0, 64), !257)
    #dbg_value(!DIArgList(ptr %bytes.0, i64 %bytes.1), !74, !DIExpression(DW_OP_LLVM_arg, 0, DW_OP_LLVM_arg, 1, DW_OP_plus, DW_OP_stack_value, DW_OP_LLVM_fragment, 64, 64), !257)
    #dbg_value(i64 0, !74, !DIExpression(DW_OP_LLVM_fragment, 128, 64), !257)
    #dbg_value(ptr undef, !160, !DIExpression(), !186)
    #dbg_value(ptr undef, !108, !DIExpression(), !134)
    #dbg_value(i64 1, !258, !DIExpression(), !266)
    #dbg_value(ptr %bytes.0, !128, !DIExpression(), !268)
    #dbg_value(ptr %bytes.0, !265, !DIExpression(), !266)
    #dbg_value(!DIArgList(ptr %bytes.0, i64 %bytes.1), !130, !DIExpression(DW_OP_LLVM_arg, 0, DW_OP_LLVM_arg, 1, DW_OP_plus, DW_OP_stack_value), !269)
    #dbg_value(ptr poison, !270, !DIExpression(), !279)
    #dbg_value(ptr poison, !278, !DIExpression(), !281)
  %_6.i.i13 = icmp samesign eq i64 %bytes.1, 0, !dbg !282
  br i1 %_6.i.i13, label %bb5, label %bb4.preheader, !dbg !283

bb4.preheader:                                    ; preds = %start
  %xtraiter = and i64 %bytes.1, 3, !dbg !283
  %0 = icmp samesign ult i64 %bytes.1, 4, !dbg !283
  br i1 %0, label %bb4.epil.preheader, label %bb4.preheader.new, !dbg !283

bb4.preheader.new:                                ; preds = %bb4.preheader
  %unroll_iter = and i64 %bytes.1, 9223372036854775804, !dbg !283
  br label %bb4, !dbg !283

bb4:                                              ; preds = %bb4, %bb4.preheader.new
  %acc.sroa.0.016 = phi i64 [ 0, %bb4.preheader.new ], [ %8, %bb4 ]
  %iter.sroa.0.015 = phi ptr [ %bytes.0, %bb4.preheader.new ], [ %_16.i.i.3, %bb4 ]
  %iter.sroa.7.014 = phi i64 [ 0, %bb4.preheader.new ], [ %_9.0.i.3, %bb4 ]
  %niter = phi i64 [ 0, %bb4.preheader.new ], [ %niter.next.3, %bb4 ]
    #dbg_value(i64 %acc.sroa.0.016, !216, !DIExpression(), !217)
    #dbg_value(ptr %iter.sroa.0.015, !74, !DIExpression(DW_OP_LLVM_fragment, 0, 64), !257)
    #dbg_value(i64 %iter.sroa.7.014, !74, !DIExpression(DW_OP_LLVM_fragment, 128, 64), !257)
  %_16.i.i = getelementptr inbounds nuw i8, ptr %iter.sroa.0.015, i64 1, !dbg !284
    #dbg_value(ptr %_16.i.i, !74, !DIExpression(DW_OP_LLVM_fragment, 0, 64), !257)
    #dbg_value(ptr %iter.sroa.0.015, !161, !DIExpression(), !285)
    #dbg_value(i64 %iter.sroa.7.014, !183, !DIExpression(), !286)
  %_9.0.i = or disjoint i64 %iter.sroa.7.014, 1, !dbg !287
    #dbg_value(i64 %_9.0.i, !74, !DIExpression(DW_OP_LLVM_fragment, 128, 64), !257)
    #dbg_value(i64 %iter.sroa.7.014, !105, !DIExpression(), !288)
    #dbg_value(ptr %iter.sroa.0.015, !107, !DIExpression(), !288)
    #dbg_value(i64 %acc.sroa.0.016, !289, !DIExpression(), !297)
    #dbg_value(i32 5, !294, !DIExpression(), !297)
  %1 = tail call noundef i64 @llvm.fshl.i64(i64 %acc.sroa.0.016, i64 %acc.sroa.0.016, i64 5), !dbg !299
  %_13 = load i8, ptr %iter.sroa.0.015, align 1, !dbg !300, !noundef !16
  %self3 = zext i8 %_13 to i64, !dbg !301
    #dbg_value(i64 %self3, !302, !DIExpression(), !308)
    #dbg_value(i64 %_9.0.i, !307, !DIExpression(), !308)
  %_11 = mul i64 %_9.0.i, %self3, !dbg !310
  %2 = xor i64 %_11, %1, !dbg !311
    #dbg_value(ptr %_16.i.i, !74, !DIExpression(DW_OP_LLVM_fragment, 0, 64), !257)
    #dbg_value(i64 %_9.0.i, !74, !DIExpression(DW_OP_LLVM_fragment, 128, 64), !257)
    #dbg_value(i64 %2, !216, !DIExpression(), !217)
    #dbg_value(i64 %2, !72, !DIExpression(), !219)
    #dbg_value(ptr undef, !160, !DIExpression(), !186)
    #dbg_value(ptr undef, !108, !DIExpression(), !134)
    #dbg_value(i64 1, !258, !DIExpression(), !266)
    #dbg_value(ptr %_16.i.i, !128, !DIExpression(), !268)
    #dbg_value(ptr %_16.i.i, !265, !DIExpression(), !266)
    #dbg_value(!DIArgList(ptr %bytes.0, i64 %bytes.1), !130, !DIExpression(DW_OP_LLVM_arg, 0, DW_OP_LLVM_arg, 1, DW_OP_plus, DW_OP_stack_value), !269)
    #dbg_value(ptr poison, !270, !DIExpression(), !279)
    #dbg_value(ptr poison, !278, !DIExpression(), !281)
    #dbg_value(ptr %_16.i.i, !74, !DIExpression(DW_OP_LLVM_fragment, 0, 64), !257)
    #dbg_value(i64 %_9.0.i, !74, !DIExpression(DW_OP_LLVM_fragment, 128, 64), !257)
  %_16.i.i.1 = getelementptr inbounds nuw i8, ptr %iter.sroa.0.015, i64 2, !dbg !284
    #dbg_value(ptr %_16.i.i.1, !74, !DIExpression(DW_OP_LLVM_fragment, 0, 64), !257)
    #dbg_value(ptr %_16.i.i, !161, !DIExpression(), !285)
    #dbg_value(i64 %_9.0.i, !183, !DIExpression(), !286)
  %_9.0.i.1 = or disjoint i64 %iter.sroa.7.014, 2, !dbg !287
    #dbg_value(i64 %_9.0.i.1, !74, !DIExpression(DW_OP_LLVM_fragment, 128, 64), !257)
    #dbg_value(i64 %_9.0.i, !105, !DIExpression(), !288)
    #dbg_value(ptr %_16.i.i, !107, !DIExpression(), !288)
    #dbg_value(i64 %2, !289, !DIExpression(), !297)
  %3 = tail call noundef i64 @llvm.fshl.i64(i64 %2, i64 %2, i64 5), !dbg !299
  %_13.1 = load i8, ptr %_16.i.i, align 1, !dbg !300, !noundef !16
  %self3.1 = zext i8 %_13.1 to i64, !dbg !301
    #dbg_value(i64 %self3.1, !302, !DIExpression(), !308)
    #dbg_value(i64 %_9.0.i.1, !307, !DIExpression(), !308)
  %_11.1 = mul i64 %_9.0.i.1, %self3.1, !dbg !310
  %4 = xor i64 %_11.1, %3, !dbg !311
    #dbg_value(ptr %_16.i.i.1, !74, !DIExpression(DW_OP_LLVM_fragment, 0, 64), !257)
    #dbg_value(i64 %_9.0.i.1, !74, !DIExpression(DW_OP_LLVM_fragment, 128, 64), !257)
    #dbg_value(i64 %4, !216, !DIExpression(), !217)
    #dbg_value(i64 %4, !72, !DIExpression(), !219)
    #dbg_value(ptr %_16.i.i.1, !128, !DIExpression(), !268)
    #dbg_value(ptr %_16.i.i.1, !265, !DIExpression(), !266)
    #dbg_value(ptr %_16.i.i.1, !74, !DIExpression(DW_OP_LLVM_fragment, 0, 64), !257)
    #dbg_value(i64 %_9.0.i.1, !74, !DIExpression(DW_OP_LLVM_fragment, 128, 64), !257)
  %_16.i.i.2 = getelementptr inbounds nuw i8, ptr %iter.sroa.0.015, i64 3, !dbg !284
    #dbg_value(ptr %_16.i.i.2, !74, !DIExpression(DW_OP_LLVM_fragment, 0, 64), !257)
    #dbg_value(ptr %_16.i.i.1, !161, !DIExpression(), !285)
    #dbg_value(i64 %_9.0.i.1, !183, !DIExpression(), !286)
  %_9.0.i.2 = or disjoint i64 %iter.sroa.7.014, 3, !dbg !287
    #dbg_value(i64 %_9.0.i.2, !74, !DIExpression(DW_OP_LLVM_fragment, 128, 64), !257)
    #dbg_value(i64 %_9.0.i.1, !105, !DIExpression(), !288)
    #dbg_value(ptr %_16.i.i.1, !107, !DIExpression(), !288)
    #dbg_value(i64 %4, !289, !DIExpression(), !297)
  %5 = tail call noundef i64 @llvm.fshl.i64(i64 %4, i64 %4, i64 5), !dbg !299
  %_13.2 = load i8, ptr %_16.i.i.1, align 1, !dbg !300, !noundef !16
  %self3.2 = zext i8 %_13.2 to i64, !dbg !301
    #dbg_value(i64 %self3.2, !302, !DIExpression(), !308)
    #dbg_value(i64 %_9.0.i.2, !307, !DIExpression(), !308)
  %_11.2 = mul i64 %_9.0.i.2, %self3.2, !dbg !310
  %6 = xor i64 %_11.2, %5, !dbg !311
    #dbg_value(ptr %_16.i.i.2, !74, !DIExpression(DW_OP_LLVM_fragment, 0, 64), !257)
    #dbg_value(i64 %_9.0.i.2, !74, !DIExpression(DW_OP_LLVM_fragment, 128, 64), !257)
    #dbg_value(i64 %6, !216, !DIExpression(), !217)
    #dbg_value(i64 %6, !72, !DIExpression(), !219)
    #dbg_value(ptr %_16.i.i.2, !128, !DIExpression(), !268)
    #dbg_value(ptr %_16.i.i.2, !265, !DIExpression(), !266)
    #dbg_value(ptr %_16.i.i.2, !74, !DIExpression(DW_OP_LLVM_fragment, 0, 64), !257)
    #dbg_value(i64 %_9.0.i.2, !74, !DIExpression(DW_OP_LLVM_fragment, 128, 64), !257)
  %_16.i.i.3 = getelementptr inbounds nuw i8, ptr %iter.sroa.0.015, i64 4, !dbg !284
    #dbg_value(ptr %_16.i.i.3, !74, !DIExpression(DW_OP_LLVM_fragment, 0, 64), !257)
    #dbg_value(ptr %_16.i.i.2, !161, !DIExpression(), !285)
    #dbg_value(i64 %_9.0.i.2, !183, !DIExpression(), !286)
  %_9.0.i.3 = add nuw nsw i64 %iter.sroa.7.014, 4, !dbg !287
    #dbg_value(i64 %_9.0.i.3, !74, !DIExpression(DW_OP_LLVM_fragment, 128, 64), !257)
    #dbg_value(i64 %_9.0.i.2, !105, !DIExpression(), !288)
    #dbg_value(ptr %_16.i.i.2, !107, !DIExpression(), !288)
    #dbg_value(i64 %6, !289, !DIExpression(), !297)
  %7 = tail call noundef i64 @llvm.fshl.i64(i64 %6, i64 %6, i64 5), !dbg !299
  %_13.3 = load i8, ptr %_16.i.i.2, align 1, !dbg !300, !noundef !16
  %self3.3 = zext i8 %_13.3 to i64, !dbg !301
    #dbg_value(i64 %self3.3, !302, !DIExpression(), !308)
    #dbg_value(i64 %_9.0.i.3, !307, !DIExpression(), !308)
  %_11.3 = mul i64 %_9.0.i.3, %self3.3, !dbg !310
  %8 = xor i64 %_11.3, %7, !dbg !311
    #dbg_value(ptr %_16.i.i.3, !74, !DIExpression(DW_OP_LLVM_fragment, 0, 64), !257)
    #dbg_value(i64 %_9.0.i.3, !74, !DIExpression(DW_OP_LLVM_fragment, 128, 64), !257)
    #dbg_value(i64 %8, !216, !DIExpression(), !217)
    #dbg_value(i64 %8, !72, !DIExpression(), !219)
    #dbg_value(ptr %_16.i.i.3, !128, !DIExpression(), !268)
    #dbg_value(ptr %_16.i.i.3, !265, !DIExpression(), !266)
  %niter.next.3 = add i64 %niter, 4, !dbg !283
  %niter.ncmp.3 = icmp eq i64 %niter.next.3, %unroll_iter, !dbg !283
  br i1 %niter.ncmp.3, label %bb5.loopexit.unr-lcssa, label %bb4, !dbg !283

bb5.loopexit.unr-lcssa:                           ; preds = %bb4
  %lcmp.mod.not = icmp eq i64 %xtraiter, 0, !dbg !283
  br i1 %lcmp.mod.not, label %bb5, label %bb4.epil.preheader, !dbg !283

bb4.epil.preheader:                               ; preds = %bb5.loopexit.unr-lcssa, %bb4.preheader
  %acc.sroa.0.016.epil.init = phi i64 [ 0, %bb4.preheader ], [ %8, %bb5.loopexit.unr-lcssa ]
  %iter.sroa.0.015.epil.init = phi ptr [ %bytes.0, %bb4.preheader ], [ %_16.i.i.3, %bb5.loopexit.unr-lcssa ]
  %iter.sroa.7.014.epil.init = phi i64 [ 0, %bb4.preheader ], [ %_9.0.i.3, %bb5.loopexit.unr-lcssa ]
  %lcmp.mod18 = icmp ne i64 %xtraiter, 0, !dbg !283
  tail call void @llvm.assume(i1 %lcmp.mod18), !dbg !283
  br label %bb4.epil, !dbg !283

bb4.epil:                                         ; preds = %bb4.epil, %bb4.epil.preheader
  %acc.sroa.0.016.epil = phi i64 [ %10, %bb4.epil ], [ %acc.sroa.0.016.epil.init, %bb4.epil.preheader ]
  %iter.sroa.0.015.epil = phi ptr [ %_16.i.i.epil, %bb4.epil ], [ %iter.sroa.0.015.epil.init, %bb4.epil.preheader ]
  %iter.sroa.7.014.epil = phi i64 [ %_9.0.i.epil, %bb4.epil ], [ %iter.sroa.7.014.epil.init, %bb4.epil.preheader ]
  %epil.iter = phi i64 [ %epil.iter.next, %bb4.epil ], [ 0, %bb4.epil.preheader ]
    #dbg_value(i64 %acc.sroa.0.016.epil, !216, !DIExpression(), !217)
    #dbg_value(ptr %iter.sroa.0.015.epil, !74, !DIExpression(DW_OP_LLVM_fragment, 0, 64), !257)
    #dbg_value(i64 %iter.sroa.7.014.epil, !74, !DIExpression(DW_OP_LLVM_fragment, 128, 64), !257)
  %_16.i.i.epil = getelementptr inbounds nuw i8, ptr %iter.sroa.0.015.epil, i64 1, !dbg !284
    #dbg_value(ptr %_16.i.i.epil, !74, !DIExpression(DW_OP_LLVM_fragment, 0, 64), !257)
    #dbg_value(ptr %iter.sroa.0.015.epil, !161, !DIExpression(), !285)
    #dbg_value(i64 %iter.sroa.7.014.epil, !183, !DIExpression(), !286)
  %_9.0.i.epil = add nuw nsw i64 %iter.sroa.7.014.epil, 1, !dbg !287
    #dbg_value(i64 %_9.0.i.epil, !74, !DIExpression(DW_OP_LLVM_fragment, 128, 64), !257)
    #dbg_value(i64 %iter.sroa.7.014.epil, !105, !DIExpression(), !288)
    #dbg_value(ptr %iter.sroa.0.015.epil, !107, !DIExpression(), !288)
    #dbg_value(i64 %acc.sroa.0.016.epil, !289, !DIExpression(), !297)
    #dbg_value(i32 5, !294, !DIExpression(), !297)
  %9 = tail call noundef i64 @llvm.fshl.i64(i64 %acc.sroa.0.016.epil, i64 %acc.sroa.0.016.epil, i64 5), !dbg !299
  %_13.epil = load i8, ptr %iter.sroa.0.015.epil, align 1, !dbg !300, !noundef !16
  %self3.epil = zext i8 %_13.epil to i64, !dbg !301
    #dbg_value(i64 %self3.epil, !302, !DIExpression(), !308)
    #dbg_value(i64 %_9.0.i.epil, !307, !DIExpression(), !308)
  %_11.epil = mul i64 %_9.0.i.epil, %self3.epil, !dbg !310
  %10 = xor i64 %_11.epil, %9, !dbg !311
    #dbg_value(ptr %_16.i.i.epil, !74, !DIExpression(DW_OP_LLVM_fragment, 0, 64), !257)
    #dbg_value(i64 %_9.0.i.epil, !74, !DIExpression(DW_OP_LLVM_fragment, 128, 64), !257)
    #dbg_value(i64 %10, !216, !DIExpression(), !217)
    #dbg_value(i64 %10, !72, !DIExpression(), !219)
    #dbg_value(ptr undef, !160, !DIExpression(), !186)
    #dbg_value(ptr undef, !108, !DIExpression(), !134)
    #dbg_value(i64 1, !258, !DIExpression(), !266)
    #dbg_value(ptr %_16.i.i.epil, !128, !DIExpression(), !268)
    #dbg_value(ptr %_16.i.i.epil, !265, !DIExpression(), !266)
    #dbg_value(!DIArgList(ptr %bytes.0, i64 %bytes.1), !130, !DIExpression(DW_OP_LLVM_arg, 0, DW_OP_LLVM_arg, 1, DW_OP_plus, DW_OP_stack_value), !269)
    #dbg_value(ptr poison, !270, !DIExpression(), !279)
    #dbg_value(ptr poison, !278, !DIExpression(), !281)
  %epil.iter.next = add i64 %epil.iter, 1, !dbg !283
  %epil.iter.cmp.not = icmp eq i64 %epil.iter.next, %xtraiter, !dbg !283
  br i1 %epil.iter.cmp.not, label %bb5, label %bb4.epil, !dbg !283, !llvm.loop !312

bb5:                                              ; preds = %bb5.loopexit.unr-lcssa, %bb4.epil, %start
  %acc.sroa.0.0.lcssa = phi i64 [ 0, %start ], [ %8, %bb5.loopexit.unr-lcssa ], [ %10, %bb4.epil ], !dbg !187
    #dbg_value(ptr poison, !74, !DIExpression(DW_OP_LLVM_fragment, 0, 64), !257)
    #dbg_value(i64 poison, !74, !DIExpression(DW_OP_LLVM_fragment, 128, 64), !257)
  ret i64 %acc.sroa.0.0.lcssa, !dbg !314
}

; Function Attrs: nounwind nonlazybind uwtable
declare noundef range(i32 0, 10) i32 @rust_eh_personality(i32 noundef, i32 noundef, i64 noundef, ptr noundef, ptr noundef) unnamed_addr #2

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare i64 @llvm.fshl.i64(i64, i64, i64) #3

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare i64 @llvm.abs.i64(i64, i1 immarg) #4

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(inaccessiblemem: write)
declare void @llvm.assume(i1 noundef) #5

attributes #0 = { mustprogress nofree noinline norecurse nosync nounwind nonlazybind willreturn memory(none) uwtable "probe-stack"="inline-asm" "target-cpu"="x86-64" }
attributes #1 = { nofree noinline norecurse nosync nounwind nonlazybind memory(argmem: read) uwtable "probe-stack"="inline-asm" "target-cpu"="x86-64" }
attributes #2 = { nounwind nonlazybind uwtable "probe-stack"="inline-asm" "target-cpu"="x86-64" }
attributes #3 = { mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
attributes #4 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #5 = { nocallback nofree nosync nounwind willreturn memory(inaccessiblemem: write) }

!llvm.module.flags = !{!0, !1, !2, !3}
!llvm.ident = !{!4}
!llvm.dbg.cu = !{!5}

!0 = !{i32 8, !"PIC Level", i32 2}
!1 = !{i32 2, !"RtLibUseGOT", i32 1}
!2 = !{i32 7, !"Dwarf Version", i32 4}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{!"rustc version 1.95.0 (59807616e 2026-04-14)"}
!5 = distinct !DICompileUnit(language: DW_LANG_Rust, file: !6, producer: "clang LLVM (rustc version 1.95.0 (59807616e 2026-04-14))", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug, splitDebugInlining: false, nameTableKind: None)
!6 = !DIFile(filename: "rust/lib.rs/@/lib.c6f551dc431569fb-cgu.0", directory: ".")
!7 = distinct !DISubprogram(name: "add", linkageName: "_ZN3lib3add17hd3879b2eb1400e03E", scope: !9, file: !8, line: 5, type: !10, scopeLine: 5, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !5, templateParams: !16, retainedNodes: !13)
!8 = !DIFile(filename: "rust/lib.rs", directory: ".", checksumkind: CSK_MD5, checksum: "0a17dbac6e54a9662ef6e354861daabc")
!9 = !DINamespace(name: "lib", scope: null)
!10 = !DISubroutineType(types: !11)
!11 = !{!12, !12, !12}
!12 = !DIBasicType(name: "u32", size: 32, encoding: DW_ATE_unsigned)
!13 = !{!14, !15}
!14 = !DILocalVariable(name: "a", arg: 1, scope: !7, file: !8, line: 5, type: !12)
!15 = !DILocalVariable(name: "b", arg: 2, scope: !7, file: !8, line: 5, type: !12)
!16 = !{}
!17 = !DILocation(line: 0, scope: !7)
!18 = !DILocalVariable(name: "self", arg: 1, scope: !19, file: !20, line: 2456, type: !12)
!19 = distinct !DISubprogram(name: "wrapping_add", linkageName: "_RNvMs6_NtCsgEmfK2I1SDS_4core3numm12wrapping_add", scope: !21, file: !20, line: 2456, type: !10, scopeLine: 2456, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !5, templateParams: !16, retainedNodes: !24)
!20 = !DIFile(filename: "library/core/src/num/uint_macros.rs", directory: "/rustc/59807616e1fa2540724bfbac14d7976d7e4a3860", checksumkind: CSK_MD5, checksum: "de2f29a3485fc28d710ba6c3062e6efa")
!21 = !DINamespace(name: "{impl#8}", scope: !22)
!22 = !DINamespace(name: "num", scope: !23)
!23 = !DINamespace(name: "core", scope: null)
!24 = !{!18, !25}
!25 = !DILocalVariable(name: "rhs", arg: 2, scope: !19, file: !20, line: 2456, type: !12)
!26 = !DILocation(line: 0, scope: !19, inlinedAt: !27)
!27 = !DILocation(line: 6, column: 7, scope: !7)
!28 = !DILocation(line: 2457, column: 13, scope: !19, inlinedAt: !27)
!29 = !DILocation(line: 7, column: 2, scope: !7)
!30 = distinct !DISubprogram(name: "spread", linkageName: "_ZN3lib6spread17h749be860526e011bE", scope: !9, file: !8, line: 24, type: !31, scopeLine: 24, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !5, templateParams: !16, retainedNodes: !40)
!31 = !DISubroutineType(types: !32)
!32 = !{!33, !34}
!33 = !DIBasicType(name: "i64", size: 64, encoding: DW_ATE_signed)
!34 = !DICompositeType(tag: DW_TAG_structure_type, name: "Pair", scope: !9, file: !35, size: 128, align: 64, flags: DIFlagPublic, elements: !36, templateParams: !16, identifier: "ab8c7633f8575254136d115edbd4a374")
!35 = !DIFile(filename: "<unknown>", directory: "")
!36 = !{!37, !39}
!37 = !DIDerivedType(tag: DW_TAG_member, name: "lo", scope: !34, file: !35, baseType: !38, size: 16, align: 16, offset: 64, flags: DIFlagPublic)
!38 = !DIBasicType(name: "i16", size: 16, encoding: DW_ATE_signed)
!39 = !DIDerivedType(tag: DW_TAG_member, name: "hi", scope: !34, file: !35, baseType: !33, size: 64, align: 64, flags: DIFlagPublic)
!40 = !{!41, !42}
!41 = !DILocalVariable(name: "p", arg: 1, scope: !30, file: !8, line: 24, type: !34)
!42 = !DILocalVariable(name: "wide", scope: !43, file: !8, line: 25, type: !33, align: 64)
!43 = distinct !DILexicalBlock(scope: !30, file: !8, line: 25, column: 5)
!44 = !DILocation(line: 0, scope: !30)
!45 = !DILocation(line: 25, column: 23, scope: !30)
!46 = !DILocation(line: 25, column: 16, scope: !30)
!47 = !DILocation(line: 0, scope: !43)
!48 = !DILocalVariable(name: "self", arg: 1, scope: !49, file: !50, line: 3604, type: !33)
!49 = distinct !DISubprogram(name: "abs", linkageName: "_RNvMs1_NtCsgEmfK2I1SDS_4core3numx3abs", scope: !51, file: !50, line: 3604, type: !52, scopeLine: 3604, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !5, templateParams: !16, retainedNodes: !54)
!50 = !DIFile(filename: "library/core/src/num/int_macros.rs", directory: "/rustc/59807616e1fa2540724bfbac14d7976d7e4a3860", checksumkind: CSK_MD5, checksum: "25372f0d2fb76edc2f95599cb5b8df1b")
!51 = !DINamespace(name: "{impl#3}", scope: !22)
!52 = !DISubroutineType(types: !53)
!53 = !{!33, !33}
!54 = !{!48}
!55 = !DILocation(line: 0, scope: !49, inlinedAt: !56)
!56 = !DILocation(line: 26, column: 10, scope: !43)
!57 = !DILocation(line: 3608, column: 16, scope: !49, inlinedAt: !56)
!58 = !DILocation(line: 27, column: 2, scope: !30)
!59 = distinct !DISubprogram(name: "checksum", linkageName: "_ZN3lib8checksum17hb4836a55a4a2b2c4E", scope: !9, file: !8, line: 10, type: !60, scopeLine: 10, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !5, templateParams: !16, retainedNodes: !70)
!60 = !DISubroutineType(types: !61)
!61 = !{!62, !63}
!62 = !DIBasicType(name: "u64", size: 64, encoding: DW_ATE_unsigned)
!63 = !DICompositeType(tag: DW_TAG_structure_type, name: "&[u8]", file: !35, size: 128, align: 64, elements: !64, templateParams: !16, identifier: "31681e0c10b314f1f33e38b2779acbb4")
!64 = !{!65, !68}
!65 = !DIDerivedType(tag: DW_TAG_member, name: "data_ptr", scope: !63, file: !35, baseType: !66, size: 64, align: 64)
!66 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !67, size: 64, align: 64, dwarfAddressSpace: 0)
!67 = !DIBasicType(name: "u8", size: 8, encoding: DW_ATE_unsigned)
!68 = !DIDerivedType(tag: DW_TAG_member, name: "length", scope: !63, file: !35, baseType: !69, size: 64, align: 64, offset: 64)
!69 = !DIBasicType(name: "usize", size: 64, encoding: DW_ATE_unsigned)
!70 = !{!71, !72, !74, !105, !107}
!71 = !DILocalVariable(name: "bytes", arg: 1, scope: !59, file: !8, line: 10, type: !63)
!72 = !DILocalVariable(name: "acc", scope: !73, file: !8, line: 11, type: !62, align: 64)
!73 = distinct !DILexicalBlock(scope: !59, file: !8, line: 11, column: 5)
!74 = !DILocalVariable(name: "iter", scope: !75, file: !8, line: 12, type: !76, align: 64)
!75 = distinct !DILexicalBlock(scope: !73, file: !8, line: 12, column: 5)
!76 = !DICompositeType(tag: DW_TAG_structure_type, name: "Enumerate<core::slice::iter::Iter<u8>>", scope: !77, file: !35, size: 192, align: 64, flags: DIFlagPublic, elements: !80, templateParams: !103, identifier: "24e7e602bd6bf2d6198eebe5bd3301d2")
!77 = !DINamespace(name: "enumerate", scope: !78)
!78 = !DINamespace(name: "adapters", scope: !79)
!79 = !DINamespace(name: "iter", scope: !23)
!80 = !{!81, !102}
!81 = !DIDerivedType(tag: DW_TAG_member, name: "iter", scope: !76, file: !35, baseType: !82, size: 128, align: 64, flags: DIFlagPrivate)
!82 = !DICompositeType(tag: DW_TAG_structure_type, name: "Iter<u8>", scope: !83, file: !35, size: 128, align: 64, flags: DIFlagPublic, elements: !85, templateParams: !93, identifier: "1ad9747a31fe4f115b5b4d9fee402438")
!83 = !DINamespace(name: "iter", scope: !84)
!84 = !DINamespace(name: "slice", scope: !23)
!85 = !{!86, !95, !96}
!86 = !DIDerivedType(tag: DW_TAG_member, name: "ptr", scope: !82, file: !35, baseType: !87, size: 64, align: 64, flags: DIFlagPrivate)
!87 = !DICompositeType(tag: DW_TAG_structure_type, name: "NonNull<u8>", scope: !88, file: !35, size: 64, align: 64, flags: DIFlagPublic, elements: !90, templateParams: !93, identifier: "ff3cb4cecc4ed13dfb833309b96ea529")
!88 = !DINamespace(name: "non_null", scope: !89)
!89 = !DINamespace(name: "ptr", scope: !23)
!90 = !{!91}
!91 = !DIDerivedType(tag: DW_TAG_member, name: "pointer", scope: !87, file: !35, baseType: !92, size: 64, align: 64, flags: DIFlagPrivate)
!92 = !DIDerivedType(tag: DW_TAG_pointer_type, name: "*const u8", baseType: !67, size: 64, align: 64, dwarfAddressSpace: 0)
!93 = !{!94}
!94 = !DITemplateTypeParameter(name: "T", type: !67)
!95 = !DIDerivedType(tag: DW_TAG_member, name: "end_or_len", scope: !82, file: !35, baseType: !92, size: 64, align: 64, offset: 64, flags: DIFlagPrivate)
!96 = !DIDerivedType(tag: DW_TAG_member, name: "_marker", scope: !82, file: !35, baseType: !97, align: 8, offset: 128, flags: DIFlagPrivate)
!97 = !DICompositeType(tag: DW_TAG_structure_type, name: "PhantomData<&u8>", scope: !98, file: !35, align: 8, flags: DIFlagPublic, elements: !16, templateParams: !99, identifier: "2879c6d5ede448f8c1a04689e9ce5b0a")
!98 = !DINamespace(name: "marker", scope: !23)
!99 = !{!100}
!100 = !DITemplateTypeParameter(name: "T", type: !101)
!101 = !DIDerivedType(tag: DW_TAG_pointer_type, name: "&u8", baseType: !67, size: 64, align: 64, dwarfAddressSpace: 0)
!102 = !DIDerivedType(tag: DW_TAG_member, name: "count", scope: !76, file: !35, baseType: !69, size: 64, align: 64, offset: 128, flags: DIFlagPrivate)
!103 = !{!104}
!104 = !DITemplateTypeParameter(name: "I", type: !82)
!105 = !DILocalVariable(name: "i", scope: !106, file: !8, line: 12, type: !69, align: 64)
!106 = distinct !DILexicalBlock(scope: !75, file: !8, line: 12, column: 5)
!107 = !DILocalVariable(name: "b", scope: !106, file: !8, line: 12, type: !101, align: 64)
!108 = !DILocalVariable(name: "self", arg: 1, scope: !109, file: !110, line: 157, type: !126)
!109 = distinct !DISubprogram(name: "next<u8>", linkageName: "_ZN91_$LT$core..slice..iter..Iter$LT$T$GT$$u20$as$u20$core..iter..traits..iterator..Iterator$GT$4next17h62bed3d0de9d55e0E", scope: !111, file: !110, line: 157, type: !112, scopeLine: 157, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !5, templateParams: !93, retainedNodes: !127)
!110 = !DIFile(filename: "library/core/src/slice/iter/macros.rs", directory: "/rustc/59807616e1fa2540724bfbac14d7976d7e4a3860", checksumkind: CSK_MD5, checksum: "87d1f0c2746f51593d75ddf4c9271f14")
!111 = !DINamespace(name: "{impl#171}", scope: !83)
!112 = !DISubroutineType(types: !113)
!113 = !{!114, !126}
!114 = !DICompositeType(tag: DW_TAG_structure_type, name: "Option<&u8>", scope: !115, file: !35, size: 64, align: 64, flags: DIFlagPublic, elements: !116, templateParams: !16, identifier: "3b67d0b985d7948cbcd165e8f506b6b")
!115 = !DINamespace(name: "option", scope: !23)
!116 = !{!117}
!117 = !DICompositeType(tag: DW_TAG_variant_part, scope: !114, file: !35, size: 64, align: 64, elements: !118, templateParams: !16, identifier: "71ac802c7c0ad94fb78370f38c746073", discriminator: !125)
!118 = !{!119, !121}
!119 = !DIDerivedType(tag: DW_TAG_member, name: "None", scope: !117, file: !35, baseType: !120, size: 64, align: 64, extraData: i64 0)
!120 = !DICompositeType(tag: DW_TAG_structure_type, name: "None", scope: !114, file: !35, size: 64, align: 64, flags: DIFlagPublic, elements: !16, templateParams: !99, identifier: "96753c70fadc75c257dd53d37c46d25d")
!121 = !DIDerivedType(tag: DW_TAG_member, name: "Some", scope: !117, file: !35, baseType: !122, size: 64, align: 64)
!122 = !DICompositeType(tag: DW_TAG_structure_type, name: "Some", scope: !114, file: !35, size: 64, align: 64, flags: DIFlagPublic, elements: !123, templateParams: !99, identifier: "8bb1dfc82a8e90ce425eae44ff5f9ea4")
!123 = !{!124}
!124 = !DIDerivedType(tag: DW_TAG_member, name: "__0", scope: !122, file: !35, baseType: !101, size: 64, align: 64, flags: DIFlagPublic)
!125 = !DIDerivedType(tag: DW_TAG_member, scope: !114, file: !35, baseType: !62, size: 64, align: 64, flags: DIFlagArtificial)
!126 = !DIDerivedType(tag: DW_TAG_pointer_type, name: "&mut core::slice::iter::Iter<u8>", baseType: !82, size: 64, align: 64, dwarfAddressSpace: 0)
!127 = !{!108, !128, !130, !132}
!128 = !DILocalVariable(name: "ptr", scope: !129, file: !110, line: 161, type: !87, align: 64)
!129 = distinct !DILexicalBlock(scope: !109, file: !110, line: 161, column: 17)
!130 = !DILocalVariable(name: "end_or_len", scope: !131, file: !110, line: 162, type: !92, align: 64)
!131 = distinct !DILexicalBlock(scope: !129, file: !110, line: 162, column: 17)
!132 = !DILocalVariable(name: "len", scope: !133, file: !110, line: 167, type: !69, align: 64)
!133 = distinct !DILexicalBlock(scope: !131, file: !110, line: 167, column: 25)
!134 = !DILocation(line: 0, scope: !109, inlinedAt: !135)
!135 = distinct !DILocation(line: 80, column: 27, scope: !136, inlinedAt: !185)
!136 = distinct !DISubprogram(name: "next<core::slice::iter::Iter<u8>>", linkageName: "_ZN110_$LT$core..iter..adapters..enumerate..Enumerate$LT$I$GT$$u20$as$u20$core..iter..traits..iterator..Iterator$GT$4next17hf5c6e1cc5a99ff57E", scope: !138, file: !137, line: 79, type: !139, scopeLine: 79, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !5, templateParams: !103, retainedNodes: !159)
!137 = !DIFile(filename: "library/core/src/iter/adapters/enumerate.rs", directory: "/rustc/59807616e1fa2540724bfbac14d7976d7e4a3860", checksumkind: CSK_MD5, checksum: "be8a5e8de3bc6e50de6cd50459716008")
!138 = !DINamespace(name: "{impl#1}", scope: !77)
!139 = !DISubroutineType(types: !140)
!140 = !{!141, !158}
!141 = !DICompositeType(tag: DW_TAG_structure_type, name: "Option<(usize, &u8)>", scope: !115, file: !35, size: 128, align: 64, flags: DIFlagPublic, elements: !142, templateParams: !16, identifier: "faf3a5b39d5b7a4cc262f766cc48ff95")
!142 = !{!143}
!143 = !DICompositeType(tag: DW_TAG_variant_part, scope: !141, file: !35, size: 128, align: 64, elements: !144, templateParams: !16, identifier: "348d00c5a14adb46fe776ec2b05144c2", discriminator: !157)
!144 = !{!145, !153}
!145 = !DIDerivedType(tag: DW_TAG_member, name: "None", scope: !143, file: !35, baseType: !146, size: 128, align: 64, extraData: i64 0)
!146 = !DICompositeType(tag: DW_TAG_structure_type, name: "None", scope: !141, file: !35, size: 128, align: 64, flags: DIFlagPublic, elements: !16, templateParams: !147, identifier: "3fb429d7d3b102d382a8164411743a3f")
!147 = !{!148}
!148 = !DITemplateTypeParameter(name: "T", type: !149)
!149 = !DICompositeType(tag: DW_TAG_structure_type, name: "(usize, &u8)", file: !35, size: 128, align: 64, elements: !150, templateParams: !16, identifier: "cdbc350b628d711ea6f0c591de27eff3")
!150 = !{!151, !152}
!151 = !DIDerivedType(tag: DW_TAG_member, name: "__0", scope: !149, file: !35, baseType: !69, size: 64, align: 64)
!152 = !DIDerivedType(tag: DW_TAG_member, name: "__1", scope: !149, file: !35, baseType: !101, size: 64, align: 64, offset: 64)
!153 = !DIDerivedType(tag: DW_TAG_member, name: "Some", scope: !143, file: !35, baseType: !154, size: 128, align: 64)
!154 = !DICompositeType(tag: DW_TAG_structure_type, name: "Some", scope: !141, file: !35, size: 128, align: 64, flags: DIFlagPublic, elements: !155, templateParams: !147, identifier: "509b16a97c23640b26145c85c3ff36e4")
!155 = !{!156}
!156 = !DIDerivedType(tag: DW_TAG_member, name: "__0", scope: !154, file: !35, baseType: !149, size: 128, align: 64, flags: DIFlagPublic)
!157 = !DIDerivedType(tag: DW_TAG_member, scope: !141, file: !35, baseType: !62, size: 64, align: 64, offset: 64, flags: DIFlagArtificial)
!158 = !DIDerivedType(tag: DW_TAG_pointer_type, name: "&mut core::iter::adapters::enumerate::Enumerate<core::slice::iter::Iter<u8>>", baseType: !76, size: 64, align: 64, dwarfAddressSpace: 0)
!159 = !{!160, !161, !163, !181, !183}
!160 = !DILocalVariable(name: "self", arg: 1, scope: !136, file: !137, line: 79, type: !158)
!161 = !DILocalVariable(name: "a", scope: !162, file: !137, line: 80, type: !101, align: 64)
!162 = distinct !DILexicalBlock(scope: !136, file: !137, line: 80, column: 9)
!163 = !DILocalVariable(name: "residual", scope: !164, file: !137, line: 80, type: !165, align: 8)
!164 = distinct !DILexicalBlock(scope: !136, file: !137, line: 80, column: 33)
!165 = !DICompositeType(tag: DW_TAG_structure_type, name: "Option<core::convert::Infallible>", scope: !115, file: !35, align: 8, flags: DIFlagPublic, elements: !166, templateParams: !16, identifier: "c570e30372491ce8c937ce79f8b0a8")
!166 = !{!167}
!167 = !DICompositeType(tag: DW_TAG_variant_part, scope: !165, file: !35, align: 8, elements: !168, templateParams: !16, identifier: "7f581569b30ffcadfc066f9502cffc3d")
!168 = !{!169, !177}
!169 = !DIDerivedType(tag: DW_TAG_member, name: "None", scope: !167, file: !35, baseType: !170, align: 8)
!170 = !DICompositeType(tag: DW_TAG_structure_type, name: "None", scope: !165, file: !35, align: 8, flags: DIFlagPublic, elements: !16, templateParams: !171, identifier: "8822bb1e77f834d316aa69cec5bd6884")
!171 = !{!172}
!172 = !DITemplateTypeParameter(name: "T", type: !173)
!173 = !DICompositeType(tag: DW_TAG_structure_type, name: "Infallible", scope: !174, file: !35, align: 8, flags: DIFlagPublic, elements: !175, templateParams: !16, identifier: "78cfd968ca0619bc6721ef3bf8e03805")
!174 = !DINamespace(name: "convert", scope: !23)
!175 = !{!176}
!176 = !DICompositeType(tag: DW_TAG_variant_part, scope: !173, file: !35, align: 8, elements: !16, identifier: "820520e070d3f01e1d1c030b6bcc9c0e")
!177 = !DIDerivedType(tag: DW_TAG_member, name: "Some", scope: !167, file: !35, baseType: !178, align: 8)
!178 = !DICompositeType(tag: DW_TAG_structure_type, name: "Some", scope: !165, file: !35, align: 8, flags: DIFlagPublic, elements: !179, templateParams: !171, identifier: "eac45ae69c5c1b4274720cd40277b232")
!179 = !{!180}
!180 = !DIDerivedType(tag: DW_TAG_member, name: "__0", scope: !178, file: !35, baseType: !173, align: 8, flags: DIFlagPublic)
!181 = !DILocalVariable(name: "val", scope: !182, file: !137, line: 80, type: !101, align: 64)
!182 = distinct !DILexicalBlock(scope: !136, file: !137, line: 80, column: 33)
!183 = !DILocalVariable(name: "i", scope: !184, file: !137, line: 81, type: !69, align: 64)
!184 = distinct !DILexicalBlock(scope: !162, file: !137, line: 81, column: 9)
!185 = distinct !DILocation(line: 12, column: 19, scope: !75)
!186 = !DILocation(line: 0, scope: !136, inlinedAt: !185)
!187 = !DILocation(line: 0, scope: !59)
!188 = !DILocalVariable(name: "self", arg: 1, scope: !189, file: !190, line: 1040, type: !63)
!189 = distinct !DISubprogram(name: "iter<u8>", linkageName: "_ZN4core5slice29_$LT$impl$u20$$u5b$T$u5d$$GT$4iter17hc474f8d6bcc0cd1fE", scope: !191, file: !190, line: 1040, type: !192, scopeLine: 1040, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !5, templateParams: !93, retainedNodes: !194)
!190 = !DIFile(filename: "library/core/src/slice/mod.rs", directory: "/rustc/59807616e1fa2540724bfbac14d7976d7e4a3860", checksumkind: CSK_MD5, checksum: "b606e5d97bff599edd0dcbc6067a14f1")
!191 = !DINamespace(name: "{impl#0}", scope: !84)
!192 = !DISubroutineType(types: !193)
!193 = !{!82, !63}
!194 = !{!188}
!195 = !DILocation(line: 0, scope: !189, inlinedAt: !196)
!196 = !DILocation(line: 12, column: 25, scope: !73)
!197 = !DILocalVariable(name: "slice", arg: 1, scope: !198, file: !199, line: 96, type: !63)
!198 = distinct !DISubprogram(name: "new<u8>", linkageName: "_ZN4core5slice4iter13Iter$LT$T$GT$3new17h1b247b8ea67f204dE", scope: !82, file: !199, line: 96, type: !192, scopeLine: 96, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !5, templateParams: !93, declaration: !200, retainedNodes: !201)
!199 = !DIFile(filename: "library/core/src/slice/iter.rs", directory: "/rustc/59807616e1fa2540724bfbac14d7976d7e4a3860", checksumkind: CSK_MD5, checksum: "f33ab2e22fe09095bf73c41c52bd166c")
!200 = !DISubprogram(name: "new<u8>", linkageName: "_ZN4core5slice4iter13Iter$LT$T$GT$3new17h1b247b8ea67f204dE", scope: !82, file: !199, line: 96, type: !192, scopeLine: 96, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagOptimized, templateParams: !93)
!201 = !{!197, !202, !204, !206}
!202 = !DILocalVariable(name: "len", scope: !203, file: !199, line: 97, type: !69, align: 64)
!203 = distinct !DILexicalBlock(scope: !198, file: !199, line: 97, column: 9)
!204 = !DILocalVariable(name: "ptr", scope: !205, file: !199, line: 98, type: !87, align: 64)
!205 = distinct !DILexicalBlock(scope: !203, file: !199, line: 98, column: 9)
!206 = !DILocalVariable(name: "end_or_len", scope: !207, file: !199, line: 101, type: !92, align: 64)
!207 = distinct !DILexicalBlock(scope: !205, file: !199, line: 101, column: 13)
!208 = !DILocation(line: 0, scope: !198, inlinedAt: !209)
!209 = !DILocation(line: 1041, column: 9, scope: !189, inlinedAt: !196)
!210 = !DILocalVariable(name: "n", scope: !211, file: !20, line: 385, type: !12, align: 32)
!211 = distinct !DISubprogram(name: "rotate_left", linkageName: "_RNvMs7_NtCsgEmfK2I1SDS_4core3numy11rotate_left", scope: !212, file: !20, line: 385, type: !213, scopeLine: 385, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !5, templateParams: !16, retainedNodes: !215)
!212 = !DINamespace(name: "{impl#9}", scope: !22)
!213 = !DISubroutineType(types: !214)
!214 = !{!62, !62, !12}
!215 = !{!216, !210}
!216 = !DILocalVariable(name: "self", arg: 1, scope: !211, file: !20, line: 385, type: !62)
!217 = !DILocation(line: 0, scope: !211, inlinedAt: !218)
!218 = !DILocation(line: 13, column: 19, scope: !106)
!219 = !DILocation(line: 0, scope: !73)
!220 = !DILocation(line: 0, scope: !203, inlinedAt: !209)
!221 = !DILocalVariable(name: "count", arg: 2, scope: !222, file: !223, line: 927, type: !69)
!222 = distinct !DISubprogram(name: "add<u8>", linkageName: "_ZN4core3ptr7mut_ptr31_$LT$impl$u20$$BP$mut$u20$T$GT$3add17h9aaa7964c6e0f396E", scope: !224, file: !223, line: 927, type: !226, scopeLine: 927, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !5, templateParams: !93, retainedNodes: !252)
!223 = !DIFile(filename: "library/core/src/ptr/mut_ptr.rs", directory: "/rustc/59807616e1fa2540724bfbac14d7976d7e4a3860", checksumkind: CSK_MD5, checksum: "7c03c8e0ae695174f7f10881dc49d2cb")
!224 = !DINamespace(name: "{impl#0}", scope: !225)
!225 = !DINamespace(name: "mut_ptr", scope: !89)
!226 = !DISubroutineType(types: !227)
!227 = !{!228, !228, !69, !229}
!228 = !DIDerivedType(tag: DW_TAG_pointer_type, name: "*mut u8", baseType: !67, size: 64, align: 64, dwarfAddressSpace: 0)
!229 = !DIDerivedType(tag: DW_TAG_pointer_type, name: "&core::panic::location::Location", baseType: !230, size: 64, align: 64, dwarfAddressSpace: 0)
!230 = !DICompositeType(tag: DW_TAG_structure_type, name: "Location", scope: !231, file: !35, size: 192, align: 64, flags: DIFlagPublic, elements: !233, templateParams: !16, identifier: "c23b7de1297af8f4a89df3da49f37ee6")
!231 = !DINamespace(name: "location", scope: !232)
!232 = !DINamespace(name: "panic", scope: !23)
!233 = !{!234, !242, !243, !244}
!234 = !DIDerivedType(tag: DW_TAG_member, name: "filename", scope: !230, file: !35, baseType: !235, size: 128, align: 64, flags: DIFlagPrivate)
!235 = !DICompositeType(tag: DW_TAG_structure_type, name: "NonNull<str>", scope: !88, file: !35, size: 128, align: 64, flags: DIFlagPublic, elements: !236, templateParams: !93, identifier: "cc7383b2ce73f6838bfb6ae828fb6ae6")
!236 = !{!237}
!237 = !DIDerivedType(tag: DW_TAG_member, name: "pointer", scope: !235, file: !35, baseType: !238, size: 128, align: 64, flags: DIFlagPrivate)
!238 = !DICompositeType(tag: DW_TAG_structure_type, name: "*const str", file: !35, size: 128, align: 64, elements: !239, templateParams: !16, identifier: "238a44609877474087c05adf26cd41fa")
!239 = !{!240, !241}
!240 = !DIDerivedType(tag: DW_TAG_member, name: "data_ptr", scope: !238, file: !35, baseType: !66, size: 64, align: 64)
!241 = !DIDerivedType(tag: DW_TAG_member, name: "length", scope: !238, file: !35, baseType: !69, size: 64, align: 64, offset: 64)
!242 = !DIDerivedType(tag: DW_TAG_member, name: "line", scope: !230, file: !35, baseType: !12, size: 32, align: 32, offset: 128, flags: DIFlagPrivate)
!243 = !DIDerivedType(tag: DW_TAG_member, name: "col", scope: !230, file: !35, baseType: !12, size: 32, align: 32, offset: 160, flags: DIFlagPrivate)
!244 = !DIDerivedType(tag: DW_TAG_member, name: "_filename", scope: !230, file: !35, baseType: !245, align: 8, offset: 192, flags: DIFlagPrivate)
!245 = !DICompositeType(tag: DW_TAG_structure_type, name: "PhantomData<&str>", scope: !98, file: !35, align: 8, flags: DIFlagPublic, elements: !16, templateParams: !246, identifier: "e16ac355808b6aef9fb50b5f125fee05")
!246 = !{!247}
!247 = !DITemplateTypeParameter(name: "T", type: !248)
!248 = !DICompositeType(tag: DW_TAG_structure_type, name: "&str", file: !35, size: 128, align: 64, elements: !249, templateParams: !16, identifier: "9277eecd40495f85161460476aacc992")
!249 = !{!250, !251}
!250 = !DIDerivedType(tag: DW_TAG_member, name: "data_ptr", scope: !248, file: !35, baseType: !66, size: 64, align: 64)
!251 = !DIDerivedType(tag: DW_TAG_member, name: "length", scope: !248, file: !35, baseType: !69, size: 64, align: 64, offset: 64)
!252 = !{!253, !221}
!253 = !DILocalVariable(name: "self", arg: 1, scope: !222, file: !223, line: 927, type: !228)
!254 = !DILocation(line: 0, scope: !222, inlinedAt: !255)
!255 = !DILocation(line: 102, column: 78, scope: !205, inlinedAt: !209)
!256 = !DILocation(line: 0, scope: !205, inlinedAt: !209)
!257 = !DILocation(line: 0, scope: !75)
!258 = !DILocalVariable(name: "count", scope: !259, file: !260, line: 651, type: !69, align: 64)
!259 = distinct !DISubprogram(name: "add<u8>", linkageName: "_ZN4core3ptr8non_null16NonNull$LT$T$GT$3add17he730798552dea6aeE", scope: !87, file: !260, line: 651, type: !261, scopeLine: 651, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !5, templateParams: !93, declaration: !263, retainedNodes: !264)
!260 = !DIFile(filename: "library/core/src/ptr/non_null.rs", directory: "/rustc/59807616e1fa2540724bfbac14d7976d7e4a3860", checksumkind: CSK_MD5, checksum: "e5222a5160165ba1cd09076ad7a11733")
!261 = !DISubroutineType(types: !262)
!262 = !{!87, !87, !69}
!263 = !DISubprogram(name: "add<u8>", linkageName: "_ZN4core3ptr8non_null16NonNull$LT$T$GT$3add17he730798552dea6aeE", scope: !87, file: !260, line: 651, type: !261, scopeLine: 651, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagOptimized, templateParams: !93)
!264 = !{!265, !258}
!265 = !DILocalVariable(name: "self", arg: 1, scope: !259, file: !260, line: 651, type: !87)
!266 = !DILocation(line: 0, scope: !259, inlinedAt: !267)
!267 = distinct !DILocation(line: 185, column: 40, scope: !131, inlinedAt: !135)
!268 = !DILocation(line: 0, scope: !129, inlinedAt: !135)
!269 = !DILocation(line: 0, scope: !131, inlinedAt: !135)
!270 = !DILocalVariable(name: "self", arg: 1, scope: !271, file: !260, line: 1719, type: !276)
!271 = distinct !DISubprogram(name: "eq<u8>", linkageName: "_ZN78_$LT$core..ptr..non_null..NonNull$LT$T$GT$$u20$as$u20$core..cmp..PartialEq$GT$2eq17hf91be4eab4d05ce3E", scope: !272, file: !260, line: 1719, type: !273, scopeLine: 1719, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !5, templateParams: !93, retainedNodes: !277)
!272 = !DINamespace(name: "{impl#16}", scope: !88)
!273 = !DISubroutineType(types: !274)
!274 = !{!275, !276, !276}
!275 = !DIBasicType(name: "bool", size: 8, encoding: DW_ATE_boolean)
!276 = !DIDerivedType(tag: DW_TAG_pointer_type, name: "&core::ptr::non_null::NonNull<u8>", baseType: !87, size: 64, align: 64, dwarfAddressSpace: 0)
!277 = !{!270, !278}
!278 = !DILocalVariable(name: "other", arg: 2, scope: !271, file: !260, line: 1719, type: !276)
!279 = !DILocation(line: 1719, column: 11, scope: !271, inlinedAt: !280)
!280 = distinct !DILocation(line: 180, column: 28, scope: !131, inlinedAt: !135)
!281 = !DILocation(line: 1719, column: 18, scope: !271, inlinedAt: !280)
!282 = !DILocation(line: 1720, column: 9, scope: !271, inlinedAt: !280)
!283 = !DILocation(line: 180, column: 28, scope: !131, inlinedAt: !135)
!284 = !DILocation(line: 659, column: 28, scope: !259, inlinedAt: !267)
!285 = !DILocation(line: 0, scope: !162, inlinedAt: !185)
!286 = !DILocation(line: 0, scope: !184, inlinedAt: !185)
!287 = !DILocation(line: 82, column: 9, scope: !184, inlinedAt: !185)
!288 = !DILocation(line: 0, scope: !106)
!289 = !DILocalVariable(name: "x", arg: 1, scope: !290, file: !291, line: 2025, type: !62)
!290 = distinct !DISubprogram(name: "rotate_left<u64>", linkageName: "_ZN4core10intrinsics11rotate_left17he1c88cdcb5dbadcdE", scope: !292, file: !291, line: 2025, type: !213, scopeLine: 2025, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !5, templateParams: !295, retainedNodes: !293)
!291 = !DIFile(filename: "library/core/src/intrinsics/mod.rs", directory: "/rustc/59807616e1fa2540724bfbac14d7976d7e4a3860", checksumkind: CSK_MD5, checksum: "b1b7915c1b8b57766c20270acae549ce")
!292 = !DINamespace(name: "intrinsics", scope: !23)
!293 = !{!289, !294}
!294 = !DILocalVariable(name: "shift", arg: 2, scope: !290, file: !291, line: 2025, type: !12)
!295 = !{!296}
!296 = !DITemplateTypeParameter(name: "T", type: !62)
!297 = !DILocation(line: 0, scope: !290, inlinedAt: !298)
!298 = distinct !DILocation(line: 386, column: 20, scope: !211, inlinedAt: !218)
!299 = !DILocation(line: 2029, column: 14, scope: !290, inlinedAt: !298)
!300 = !DILocation(line: 13, column: 37, scope: !106)
!301 = !DILocation(line: 13, column: 36, scope: !106)
!302 = !DILocalVariable(name: "self", arg: 1, scope: !303, file: !20, line: 2532, type: !62)
!303 = distinct !DISubprogram(name: "wrapping_mul", linkageName: "_RNvMs7_NtCsgEmfK2I1SDS_4core3numy12wrapping_mul", scope: !212, file: !20, line: 2532, type: !304, scopeLine: 2532, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !5, templateParams: !16, retainedNodes: !306)
!304 = !DISubroutineType(types: !305)
!305 = !{!62, !62, !62}
!306 = !{!302, !307}
!307 = !DILocalVariable(name: "rhs", arg: 2, scope: !303, file: !20, line: 2532, type: !62)
!308 = !DILocation(line: 0, scope: !303, inlinedAt: !309)
!309 = !DILocation(line: 13, column: 48, scope: !106)
!310 = !DILocation(line: 2533, column: 13, scope: !303, inlinedAt: !309)
!311 = !DILocation(line: 13, column: 9, scope: !106)
!312 = distinct !{!312, !313}
!313 = !{!"llvm.loop.unroll.disable"}
!314 = !DILocation(line: 16, column: 2, scope: !59)

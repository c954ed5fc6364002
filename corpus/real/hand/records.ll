; Hand-written (not compiler output): debug records in the forms compilers
; write, for the decisions of `dioptra ir` and of reading records as
; lifetimes (corpus/real/ir.dioptra). Lines are referred to by number.
source_filename = "records.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"

define i32 @f(i32 %a, ptr %p, i64 %w) !dbg !10 {
entry:
    #dbg_value(i32 %a, !20, !DIExpression(DIOpArg(0, i32)), !30)
    #dbg_value(i32 %a, !20, !DIExpression(DIOpReferrer(i32)), !30)
    #dbg_value(i32 poison, !21, !DIExpression(), !30)
    #dbg_assign(i32 %a, !22, !DIExpression(), !40, ptr %p, !DIExpression(), !30)
    #dbg_assign(i32 undef, !23, !DIExpression(), !41, ptr %p, !DIExpression(DW_OP_plus_uconst, 4), !30)
    #dbg_value(!DIArgList(i32 %a, i64 %w), !24, !DIExpression(DW_OP_LLVM_arg, 0, DW_OP_LLVM_arg, 1, DW_OP_plus, DW_OP_stack_value), !30)
    #dbg_value(i64 ptrtoint (ptr @g to i64), !25, !DIExpression(), !30)
    #dbg_value(i32 %a, !26, !DIExpression(DW_OP_LLVM_fragment, 16, 32), !30)
    #dbg_value(i32 %a, !26, !DIExpression(DW_OP_LLVM_fragment, 0, 32), !30)
    #dbg_declare(ptr %p, !27, !DIExpression(), !30)
  %r = add i32 %a, 1, !dbg !30
  ret i32 %r, !dbg !30
}

@g = global i32 0

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!1, !2}
!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !3, emissionKind: FullDebug, globals: !52)
!1 = !{i32 7, !"Dwarf Version", i32 5}
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = !DIFile(filename: "records.c", directory: ".")
!4 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!5 = !DIBasicType(name: "long", size: 64, encoding: DW_ATE_signed)
!6 = !DIDerivedType(tag: DW_TAG_typedef, name: "myint", baseType: !7)
!7 = !DIDerivedType(tag: DW_TAG_const_type, baseType: !4)
!8 = !{!20, !21, !22, !23, !24, !25, !26, !27}
!10 = distinct !DISubprogram(name: "f", scope: !3, file: !3, line: 1, unit: !0, retainedNodes: !8)
!11 = distinct !DILexicalBlock(scope: !10, file: !3, line: 2)
!20 = !DILocalVariable(name: "x", scope: !10, file: !3, line: 2, type: !6)
!21 = !DILocalVariable(name: "gone", scope: !10, file: !3, line: 3, type: !4)
!22 = !DILocalVariable(name: "assigned", scope: !10, file: !3, line: 4, type: !4)
!23 = !DILocalVariable(name: "stored", scope: !10, file: !3, line: 5, type: !4)
!24 = !DILocalVariable(name: "sum", scope: !10, file: !3, line: 6, type: !5)
!25 = !DILocalVariable(name: "addr", scope: !10, file: !3, line: 7, type: !5)
!26 = !DILocalVariable(name: "halves", scope: !11, file: !3, line: 8, type: !5)
!27 = !DILocalVariable(name: "declared", scope: !10, file: !3, line: 9, type: !4)
!30 = !DILocation(line: 2, column: 3, scope: !10)
!40 = distinct !DIAssignID()
!41 = distinct !DIAssignID()
!50 = !DIGlobalVariableExpression(var: !51, expr: !DIExpression(DW_OP_constu, 7, DW_OP_stack_value))
!51 = distinct !DIGlobalVariable(name: "seven", scope: !0, file: !3, line: 10, type: !4)
!52 = !{!50, !53}
!53 = !DIGlobalVariableExpression(var: !54, expr: !DIExpression(DW_OP_LLVM_fragment, 0, 64))
!54 = distinct !DIGlobalVariable(name: "narrow", scope: !0, file: !3, line: 11, type: !4)

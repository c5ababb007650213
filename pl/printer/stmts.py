"""LibCST statements for IR statements (dsl.md section 4, with our section-0 overrides).

Guarantees: every assignment is annotated with its Var's type (UnknownType only prints bare);
a YieldStmt ending a loop / if body with return vars prints as `rv: T = pl.yield_(e)` or
`r1, r2 = pl.yield_(a, b)`, and at function level as `return`; a statement's comments print as
`# text` lines above it; long simple statements are wrapped (printer_wrap). A SeqStmts of any
length is printed by a loop, never by recursion per statement.

Speed: almost every statement is `v: T = pl.op(args)`. Such a line is not built flat, rendered and
then wrapped: its text is composed from its parts' texts (the Var's name, the annotation's text per
type, the callee's and each shared argument's text, remembered by node), which decides the wrapping
(printer_wrap.wrapped_call); the nodes are then built once, in their final form, and the line's
text is remembered for the module's rendering (printer_codegen).
"""

from __future__ import annotations

from collections.abc import Sequence

import libcst as cst

from pl.ir.enums import DType, ForKind, ScopeKind
from pl.ir.expr import Call, ConstInt, Expr, Op, Var
from pl.ir.stmt import (
    AssignStmt,
    BreakStmt,
    ContinueStmt,
    EvalStmt,
    ForStmt,
    IfStmt,
    ReturnStmt,
    ScopeStmt,
    SeqStmts,
    Stmt,
    WhileStmt,
    YieldStmt,
)
from pl.ir.types import Type, UnknownType
from pl.printer.codegen import annotation_code, arg_code, code
from pl.printer.exprs import (
    FULL_OPS,
    Ctx,
    call,
    dict_node,
    expr_node,
    op_call_parts,
    op_callee,
    positional_arg,
    tuple_node,
    type_node,
    value_node,
)
from pl.printer.nodes import ann_assign, annotation, call_node_of, expr_statement, name_node
from pl.printer.wrap import annotated_call_line, wrap_small

_SCOPE_CALLS = {
    ScopeKind.Runtime: "pl.scope", ScopeKind.InCore: "pl.at", ScopeKind.Hierarchy: "pl.at",
    ScopeKind.Cluster: "pl.cluster", ScopeKind.Spmd: "pl.spmd",
}
_RANGE_CALLS = {
    ForKind.Sequential: "pl.range", ForKind.Parallel: "pl.parallel",
    ForKind.Unroll: "pl.unroll", ForKind.Pipeline: "pl.pipeline",
}


def comment_lines(comments: Sequence[str]) -> list[cst.EmptyLine]:
    out: list[cst.EmptyLine] = []
    for text in comments:
        for line in text.splitlines() or [""]:
            body = line.strip()
            body = body if body.startswith("#") else ("# " + body if body else "#")
            out.append(cst.EmptyLine(comment=cst.Comment(body)))
    return out


def _no_paren_tuple(items: Sequence[cst.BaseExpression]) -> cst.Tuple:
    return cst.Tuple([cst.Element(i) for i in items], lpar=[], rpar=[])


def _one_line(text: str) -> str | None:
    return None if "\n" in text else text


# Per op name, the callee node `op_call_parts` gives its calls and that node's text.
_PLAIN_FUNCS: dict[str, tuple[cst.BaseExpression, str]] = {}


def _is_index(e: Expr, value: int) -> bool:
    return isinstance(e, ConstInt) and e.value == value and e.dtype is DType.INDEX


class StmtPrinter:
    """Prints the statements of one function (its names and options are in `ctx`)."""

    def __init__(self, ctx: Ctx) -> None:
        self.ctx = ctx
        self._annotations: dict[Type, cst.Annotation] = {}
        self._annotation_of_object: dict[int, tuple[Type, cst.Annotation, str | None]] = {}
        self._texts: dict[int, tuple[cst.CSTNode, str | None]] = {}
        self._plain_args: dict[Var, tuple[cst.Arg, str]] = {}  # a Var's shared Arg node and its text

    def _name(self, v: Var) -> cst.Name:
        """The Var's one shared Name node (as `expr_node(v)` builds and remembers it)."""
        memo = self.ctx.memo
        node = memo.get(v)
        if node is None:
            node = memo[v] = name_node(self.ctx.name_of(v))
        assert type(node) is cst.Name
        return node

    def _expr(self, e: Expr) -> cst.BaseExpression:
        return expr_node(e, self.ctx)

    def _simple(self, small: cst.BaseSmallStatement, depth: int, s: Stmt) -> cst.SimpleStatementLine:
        line = wrap_small(small, 4 * depth)
        if not s.comments:
            return line  # the very node the wrapper rendered, so the module reuses its text
        return line.with_changes(leading_lines=comment_lines(s.comments))

    def _annotated(self, v: Var, value: cst.BaseExpression) -> cst.BaseSmallStatement:
        if isinstance(v.type, UnknownType):
            return cst.Assign(targets=[cst.AssignTarget(self._name(v))], value=value)
        return ann_assign(self._name(v), self._annotation(v.type), value)

    def _annotation(self, t: Type) -> cst.Annotation:
        """`: T`, one node per distinct type (types compare by value)."""
        return self._annotation_and_text(t)[1]

    def _annotation_and_text(self, t: Type) -> tuple[Type, cst.Annotation, str | None]:
        """`t`, its shared annotation node and that node's text (`: T`; see `_text` for None)."""
        # Keyed first by the type object (most Vars share theirs with others), then by value.
        hit = self._annotation_of_object.get(id(t))
        if hit is not None and hit[0] is t:
            return hit
        node = self._annotations.get(t)
        if node is None:
            node = self._annotations[t] = annotation(type_node(t, self.ctx))
        entry = self._annotation_of_object[id(t)] = (t, node, _one_line(annotation_code(node, "")))  # keeps `t` alive
        return entry

    def _call_texts(self, func: cst.BaseExpression, args: Sequence[cst.Arg]) -> tuple[str, list[str]] | None:
        """The texts of a callee and of its arguments (each without its comma), None if one holds
        a line break; remembered by node, as most are shared. A text without a line break does
        not depend on the indentation (only line breaks are followed by it): rendered at none."""
        memo = self._texts
        texts: list[str] = []
        for node in (func, *args):
            hit = memo.get(id(node))
            if hit is None or hit[0] is not node:
                text = _one_line(arg_code(node, "") if type(node) is cst.Arg else code(node))
                hit = memo[id(node)] = (node, text)  # the entry keeps `node` alive: ids stay unique
            if hit[1] is None:
                return None
            texts.append(hit[1])
        return texts[0], texts[1:]

    def _plain_call(self, value: Call) -> tuple[cst.BaseExpression, list[cst.Arg], tuple[str, list[str]]] | None:
        """`op_call_parts` and `_call_texts` of an op call whose arguments are all Vars, without
        keywords or attrs (most statements), from one look-up per argument; None otherwise."""
        op = value.op
        if value.kwargs or value.attrs or type(op) is not Op or op.name in FULL_OPS:
            return None
        func = _PLAIN_FUNCS.get(op.name)
        if func is None:
            node = op_callee(op.name)
            func = _PLAIN_FUNCS[op.name] = (node, code(node))
        memo = self._plain_args
        args: list[cst.Arg] = []
        texts: list[str] = []
        for a in value.args:
            if type(a) is not Var:
                return None
            hit = memo.get(a)
            if hit is None:
                arg_node = positional_arg(a, self.ctx)
                hit = memo[a] = (arg_node, arg_code(arg_node, ""))
            args.append(hit[0])
            texts.append(hit[1])
        return func[0], args, (func[1], texts)

    def _assign_call(self, s: AssignStmt, value: Call, depth: int) -> cst.SimpleStatementLine | None:
        """`v: T = pl.op(args)` built once in its final (wrapped or not) form, its text composed
        from its parts' texts and remembered for the module's rendering; None if the statement
        is not of this shape (the general path then prints it)."""
        var = s.var
        t = var.type
        if s.comments or type(t) is UnknownType:
            return None
        texts: tuple[str, list[str]] | None
        plain = self._plain_call(value)
        if plain is not None:
            func, args, texts = plain
        else:
            parts = op_call_parts(value, self.ctx)
            if parts is None:
                return None
            func, args = parts
            texts = self._call_texts(func, args)
        target = self._name(var)
        ann, ann_text = self._annotation_and_text(t)[1:]
        if ann_text is None or texts is None:
            # Never printed by this printer; the general path renders such a line as a whole.
            return self._simple(self._annotated(var, call_node_of(func, args)), depth, s)
        return annotated_call_line(target, ann, ann_text, func, texts[0], args, texts[1], " " * (4 * depth))

    def block(self, body: Stmt | None, depth: int, rvs: tuple[Var, ...] = (),
              function_level: bool = False) -> list[cst.BaseStatement]:
        """The statements of a body printed at `depth` (4 columns each); `pass` if empty."""
        out: list[cst.BaseStatement] = []
        stack: list[Stmt] = [] if body is None else [body]
        while stack:
            s = stack.pop()
            if isinstance(s, SeqStmts):
                stack.extend(reversed(s.stmts))
                continue
            if type(s) is AssignStmt and type(s.value) is Call:  # most statements: the fast path
                line = self._assign_call(s, s.value, depth)
                if line is not None:
                    out.append(line)
                    continue
            out.append(self.stmt(s, depth, rvs, function_level))
        if not out:
            out.append(cst.SimpleStatementLine([cst.Pass()]))
        return out

    def _indented(self, body: Stmt | None, depth: int, rvs: tuple[Var, ...] = (),
                  first: Sequence[cst.BaseStatement] = ()) -> cst.IndentedBlock:
        stmts = self.block(body, depth + 1, rvs)
        if first and len(stmts) == 1 and isinstance(body, SeqStmts) and not body.stmts:
            stmts = []
        return cst.IndentedBlock([*first, *stmts])

    def stmt(self, s: Stmt, depth: int, rvs: tuple[Var, ...] = (),
             function_level: bool = False) -> cst.BaseStatement:
        match s:
            case AssignStmt(var=var, value=value):  # not of `_assign_call`'s shape (see `block`)
                return self._simple(self._annotated(var, self._expr(value)), depth, s)
            case EvalStmt(expr=expr):
                return self._simple(expr_statement(self._expr(expr)), depth, s)
            case ReturnStmt(values=values):
                return self._simple(self._return(values), depth, s)
            case YieldStmt(values=values):
                return self._simple(self._yield(values, rvs, function_level), depth, s)
            case BreakStmt():
                return self._simple(cst.Break(), depth, s)
            case ContinueStmt():
                return self._simple(cst.Continue(), depth, s)
            case ForStmt():
                return self._for(s, depth)
            case WhileStmt():
                return self._while(s, depth)
            case IfStmt():
                return self._if(s, depth)
            case ScopeStmt():
                return self._scope(s, depth, rvs)
            case _:
                raise TypeError(f"cannot print statement {type(s).__name__}")

    def _return(self, values: tuple[Expr, ...]) -> cst.Return:
        if not values:
            return cst.Return(value=None)
        if len(values) == 1:
            return cst.Return(value=self._expr(values[0]))
        return cst.Return(value=_no_paren_tuple([self._expr(v) for v in values]))

    def _yield(self, values: tuple[Expr, ...], rvs: tuple[Var, ...],
               function_level: bool) -> cst.BaseSmallStatement:
        if function_level:
            return self._return(values)
        value = call("pl.yield_", [self._expr(v) for v in values])
        if len(rvs) == 1:
            return self._annotated(rvs[0], value)
        if rvs:
            target = _no_paren_tuple([self._name(v) for v in rvs])
            return cst.Assign(targets=[cst.AssignTarget(target)], value=value)
        return cst.Expr(value)

    def _for(self, s: ForStmt, depth: int) -> cst.For:
        target: cst.BaseAssignTargetExpression = self._name(s.loop_var)
        if s.iter_args:
            inner = tuple_node([self._name(ia) for ia in s.iter_args])
            target = _no_paren_tuple([target, inner])
        bounds: list[Expr] = [s.stop]
        if not _is_index(s.step, 1):
            bounds = [s.start, s.stop, s.step]
        elif not _is_index(s.start, 0):
            bounds = [s.start, s.stop]
        kwargs: list[tuple[str, cst.BaseExpression]] = []
        if s.iter_args:
            kwargs.append(("init_values", tuple_node([self._expr(ia.init) for ia in s.iter_args])))
        attrs = list(s.attrs)
        if s.kind is ForKind.Pipeline:
            stages = [v for k, v in attrs if k == "pipeline_stages"]
            attrs = [(k, v) for k, v in attrs if k != "pipeline_stages"]
            if stages:
                kwargs.append(("stage", value_node(stages[0], self.ctx)))
        if attrs:
            kwargs.append(("attrs", dict_node(attrs, self.ctx)))
        it = call(_RANGE_CALLS[s.kind], [self._expr(b) for b in bounds], kwargs)
        return cst.For(target=target, iter=it, body=self._indented(s.body, depth, s.return_vars),
                       leading_lines=comment_lines(s.comments))

    def _while(self, s: WhileStmt, depth: int) -> cst.For | cst.While:
        if not s.iter_args:
            return cst.While(test=self._expr(s.condition), body=self._indented(s.body, depth, s.return_vars),
                             leading_lines=comment_lines(s.comments))
        target = tuple_node([self._name(ia) for ia in s.iter_args])
        it = call("pl.while_", [], [("init_values", tuple_node([self._expr(ia.init) for ia in s.iter_args]))])
        cond = cst.SimpleStatementLine([cst.Expr(call("pl.cond", [self._expr(s.condition)]))])
        return cst.For(target=target, iter=it, body=self._indented(s.body, depth, s.return_vars, [cond]),
                       leading_lines=comment_lines(s.comments))

    def _if(self, s: IfStmt, depth: int) -> cst.If:
        orelse = None
        if s.else_body is not None:
            orelse = cst.Else(body=self._indented(s.else_body, depth, s.return_vars))
        return cst.If(test=self._expr(s.condition), body=self._indented(s.then_body, depth, s.return_vars),
                      orelse=orelse, leading_lines=comment_lines(s.comments))

    def _scope(self, s: ScopeStmt, depth: int, rvs: tuple[Var, ...]) -> cst.With:
        positional = [value_node(v, self.ctx) for k, v in s.args if not k]
        kwargs = [(k, value_node(v, self.ctx, k)) for k, v in s.args if k]
        item = cst.WithItem(call(_SCOPE_CALLS[s.kind], positional, kwargs))
        # Scopes are transparent: a yield directly inside still binds the enclosing return vars.
        return cst.With(items=[item], body=self._indented(s.body, depth, rvs),
                        leading_lines=comment_lines(s.comments))

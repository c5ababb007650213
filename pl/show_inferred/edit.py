"""LibCST edits of single user statements for `pl.show_inferred` (no IR walking here).

Guarantees: every helper returns a new node that differs from its input only where the docstring
says (an annotation's memory-space element, one keyword argument, one argument name); all other
tokens, whitespace and comments of the statement are kept. Memory spaces are written
`pl.MemorySpace.X`, except that an existing `pl.Mem.X` element keeps its `pl.Mem` spelling. Every
text they add reaches the DSL through `root`, the name the user's file imports `pl` as (`import pl
as p` gives `p.MemorySpace.X`). Whole types and inserted statements are the printer's own text
(`Spelling`, through `pl.printer.print_type` / `print_stmt`), read into LibCST nodes only where
a node of the user's tree is rebuilt.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Mapping

import libcst as cst

from pl.ir.enums import MemorySpace
from pl.ir.expr import Call, Var
from pl.ir.names import user_name
from pl.ir.stmt import AssignStmt, Stmt
from pl.ir.types import TileType, Type, UnknownType
from pl.printer import print_call_parts, print_stmt, print_type

_SPACE_PREFIXES = ("MemorySpace", "Mem")


class Unsupported(Exception):
    """The statement cannot be edited in place; the caller prints the function canonically."""


def _dotted(path: str) -> cst.BaseExpression:
    """`a.b` as LibCST Name / Attribute nodes."""
    first, *rest = path.split(".")
    node: cst.BaseExpression = cst.Name(first)
    for part in rest:
        node = cst.Attribute(node, cst.Name(part))
    return node


def space_expr(space: MemorySpace, prefix: str = "MemorySpace", root: str = "pl") -> cst.BaseExpression:
    return cst.Attribute(cst.Attribute(_dotted(root), cst.Name(prefix)), cst.Name(space.name))


class Spelling:
    """The printer's text of the types and statements one regeneration inserts into a file whose
    `pl` is imported as `root`; a Var is spelled as the user names it at that point, never by its
    SSA name (the line must read back in the user's file). The texts (and LibCST nodes) of types
    are remembered for the regeneration: kernels repeat a few types."""

    def __init__(self, root: str = "pl", dims: Mapping[str, str] | None = None,
                 dim_names: Mapping[int, str] | None = None) -> None:
        self.root = root
        # A `pl.dynamic("N")` dimension is spelled by the name the file binds it to (`n`).
        self.dims: Mapping[str, str] = dims or {}
        # A constant dim of a type's shape by the module constant the function spells it with.
        self.dim_names: Mapping[int, str] = dim_names or {}
        self._types: dict[Type, str] = {}
        self._nodes: dict[Type, cst.BaseExpression] = {}
        self._exprs: dict[str, cst.BaseExpression] = {}

    def _name(self, v: Var) -> str:
        return self.dims.get(v.name) or user_name(v.name)

    def type_text(self, t: Type) -> str:
        text = self._types.get(t)
        if text is None:
            text = self._types[t] = print_type(t, root=self.root, name_of=self._name,
                                                   dim_names=self.dim_names)
        return text

    def type_node(self, t: Type) -> cst.BaseExpression:
        """The type as a LibCST expression (one node per type: nodes are immutable)."""
        node = self._nodes.get(t)
        if node is None:
            node = self._nodes[t] = cst.parse_expression(self.type_text(t))
        return node

    def annotation(self, t: Type) -> cst.Annotation:
        """`: T` as an annotation node (no space before the colon, one after)."""
        return cst.Annotation(self.type_node(t), whitespace_before_indicator=cst.SimpleWhitespace(""),
                              whitespace_after_indicator=cst.SimpleWhitespace(" "))

    def statement(self, s: Stmt, indent: str) -> str:
        """The printer's lines of `s` at `indent`."""
        return print_stmt(s, indent=indent, root=self.root, name_of=self._name,
                          dim_names=self.dim_names)

    def _expr(self, text: str) -> cst.BaseExpression:
        """An argument's or callee's text as a LibCST expression (one node per text)."""
        node = self._exprs.get(text)
        if node is None:
            node = self._exprs[text] = cst.Name(text) if text.isidentifier() \
                else cst.parse_expression(text)
        return node

    def statement_node(self, s: AssignStmt, text: str) -> cst.SimpleStatementLine:
        """The LibCST statement `text` parses to, where `text` is `statement(s, indent)` at any
        indentation and `s` binds a typed Var to a call (an inserted move: `name: T =
        pl.move(...)`), built from its parts rather than parsed: the type and each argument
        are read once per regeneration (they repeat), and the whitespace is the form the
        printer's one wrapping rule chose (pl/printer/doc.py: flat, the arguments on one line
        of their own, or one argument a line), which `text` shows. The printed output is its
        tree rendered, so this node must be the one LibCST parses from `text`:
        tests/test_move_statement.py and tests/test_show_readback.py check that it is."""
        call = s.value
        assert isinstance(call, Call) and not isinstance(s.var.type, UnknownType)
        func, items = print_call_parts(call, root=self.root, name_of=self._name,
                                       dim_names=self.dim_names)
        lines = text.splitlines()
        if len(lines) > 1 and not lines[0].endswith("("):
            # Its annotation is broken over lines (pl/printer/stmts.py `_typed`): parsed.
            parsed = cst.parse_statement(textwrap.dedent(text))
            assert isinstance(parsed, cst.SimpleStatementLine)
            return parsed
        flat, exploded = len(lines) == 1, len(lines) > 1 and lines[1].endswith(",")
        args: list[cst.Arg] = []
        for i, item in enumerate(items):
            kw = _KEYWORD.match(item)
            value = self._expr(item[kw.end():] if kw else item)
            last = i == len(items) - 1
            if exploded:
                comma: cst.Comma | cst.MaybeSentinel = cst.Comma(
                    whitespace_after=_broken("" if last else _INDENT))
            else:
                comma = cst.MaybeSentinel.DEFAULT if last else cst.Comma(
                    whitespace_after=cst.SimpleWhitespace(" "))
            after: cst.BaseParenthesizableWhitespace = _broken("") \
                if last and not flat and not exploded else cst.SimpleWhitespace("")
            args.append(cst.Arg(value, keyword=cst.Name(kw.group(1)) if kw else None,
                                equal=cst.AssignEqual(whitespace_before=cst.SimpleWhitespace(""),
                                                      whitespace_after=cst.SimpleWhitespace(""))
                                if kw else cst.MaybeSentinel.DEFAULT,
                                comma=comma, whitespace_after_arg=after))
        value = cst.Call(self._expr(func), args, whitespace_before_args=cst.SimpleWhitespace("")
                         if flat or not items else _broken(_INDENT))
        return cst.SimpleStatementLine([cst.AnnAssign(
            cst.Name(self._name(s.var)), self.annotation(s.var.type), value,
            equal=cst.AssignEqual(whitespace_before=cst.SimpleWhitespace(" "),
                                  whitespace_after=cst.SimpleWhitespace(" ")))])


_KEYWORD = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)=(?!=)")
_INDENT = "    "  # the printer's indentation of a wrapped call's arguments (pl/printer/doc.py)


def _broken(indent: str) -> cst.ParenthesizedWhitespace:
    """A line break inside brackets, the next line indented by the block's indentation and
    `indent` (what LibCST parses the printer's wrapped call into)."""
    return cst.ParenthesizedWhitespace(indent=True, last_line=cst.SimpleWhitespace(indent))


def space_of_expr(node: cst.BaseExpression) -> tuple[str, str] | None:
    """(`MemorySpace` | `Mem`, member name) for `pl.MemorySpace.X` / `pl.Mem.X` / `MemorySpace.X`."""
    match node:
        case cst.Attribute(value=cst.Attribute(attr=cst.Name(prefix)), attr=cst.Name(member)) \
                if prefix in _SPACE_PREFIXES:
            return prefix, member
        case cst.Attribute(value=cst.Name(prefix), attr=cst.Name(member)) if prefix in _SPACE_PREFIXES:
            return prefix, member
        case _:
            return None


def _is_tile_subscript(node: cst.BaseExpression) -> bool:
    match node:
        case cst.Subscript(value=cst.Attribute(attr=cst.Name("Tile"))) | \
                cst.Subscript(value=cst.Name("Tile")):
            return True
        case _:
            return False


def _has_comment(node: cst.CSTNode) -> bool:
    """Whether a comment is written inside `node` (it must not be dropped with the node)."""
    found = False

    class _Find(cst.CSTVisitor):
        def visit_Comment(self, _: cst.Comment) -> None:
            nonlocal found
            found = True

    node.visit(_Find())
    return found


def _is_view(node: cst.BaseExpression) -> bool:
    match node:
        case cst.Call(func=cst.Attribute(attr=cst.Name("TileView"))) | \
                cst.Call(func=cst.Name("TileView")):
            return True
        case _:
            return False


def annotate_type(annotation: cst.BaseExpression, t: Type, spell: Spelling | None = None
                  ) -> cst.BaseExpression:
    """The user's `pl.Tile[...]` annotation with its memory space set to `t`'s (added or fixed).

    An annotation that is not a `pl.Tile[...]` subscript is replaced by the full printed type.
    """
    if not isinstance(t, TileType) or t.memory_space is None:
        return annotation
    spell = spell or Spelling()
    space, root = t.memory_space, spell.root
    if not _is_tile_subscript(annotation):
        return spell.type_node(t)
    assert isinstance(annotation, cst.Subscript)
    elements = list(annotation.slice)
    spaces = [found[1] for el in elements if isinstance(el.slice, cst.Index)
              and (found := space_of_expr(el.slice.value)) is not None]
    if space.name in spaces:
        return annotation
    if spaces and not _has_comment(annotation) and \
            any(isinstance(el.slice, cst.Index) and _is_view(el.slice.value) for el in elements):
        # The user's view was written for another space: a new space brings its own layout
        # (infer/mutate.retype), so the whole placed type is shown, or it would read back wrong.
        return spell.type_node(t)
    for i, el in enumerate(elements):
        if not isinstance(el.slice, cst.Index):
            continue
        found = space_of_expr(el.slice.value)
        if found is None:
            continue
        prefix, member = found
        elements[i] = el.with_changes(slice=el.slice.with_changes(value=space_expr(space, prefix, root)))
        return annotation.with_changes(slice=elements)
    at = next((i for i, el in enumerate(elements)
               if isinstance(el.slice, cst.Index) and _is_view(el.slice.value)), len(elements))
    new = cst.SubscriptElement(cst.Index(space_expr(space, root=root)))
    if at < len(elements):
        # Take the place (and comma) of the view, which moves one slot right.
        new = new.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
    elif elements and elements[-1].comma is not cst.MaybeSentinel.DEFAULT:
        new = new.with_changes(comma=elements[-1].comma)
        elements[-1] = elements[-1].with_changes(
            comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
    elif elements:
        elements[-1] = elements[-1].with_changes(
            comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
    elements.insert(at, new)
    return annotation.with_changes(slice=elements)


def annotate_small(small: cst.BaseSmallStatement, t: Type, spell: Spelling) -> cst.BaseSmallStatement:
    """Give `name = v` a full annotation, or fix the memory space of `name: T = v`."""
    match small:
        case cst.AnnAssign(annotation=ann):
            new = annotate_type(ann.annotation, t, spell)
            if new is ann.annotation:
                return small
            return small.with_changes(annotation=ann.with_changes(annotation=new))
        case cst.Assign(targets=[cst.AssignTarget(target=cst.Name() as name) as target], value=value):
            return cst.AnnAssign(
                target=name,
                annotation=spell.annotation(t),
                value=value,
                equal=cst.AssignEqual(whitespace_before=target.whitespace_before_equal,
                                      whitespace_after=target.whitespace_after_equal),
                semicolon=small.semicolon)
        case _:
            return small  # tuple targets cannot carry an annotation


def value_call(small: cst.BaseSmallStatement) -> cst.Call | None:
    match small:
        case cst.Assign(value=cst.Call() as c) | cst.AnnAssign(value=cst.Call() as c) | \
                cst.Expr(value=cst.Call() as c) | cst.Return(value=cst.Call() as c):
            return c
        case _:
            return None


def with_value_call(small: cst.BaseSmallStatement, call: cst.Call) -> cst.BaseSmallStatement:
    if isinstance(small, (cst.Assign, cst.AnnAssign, cst.Expr, cst.Return)):
        return small.with_changes(value=call)
    raise Unsupported("statement has no call to edit")


def set_target_memory(call: cst.Call, space: MemorySpace, root: str = "pl") -> cst.Call:
    """`call` with its `target_memory` argument (keyword, or a positional memory space) set to
    `space`; appended as a keyword when absent."""
    args = list(call.args)
    for i, a in enumerate(args):
        is_kw = a.keyword is not None and a.keyword.value == "target_memory"
        if is_kw or (a.keyword is None and space_of_expr(a.value) is not None):
            found = space_of_expr(a.value)
            if found is not None and found[1] == space.name:
                return call
            prefix = found[0] if found is not None else "MemorySpace"
            args[i] = a.with_changes(value=space_expr(space, prefix, root))
            return call.with_changes(args=args)
    new = cst.Arg(space_expr(space, root=root), keyword=cst.Name("target_memory"),
                  equal=cst.AssignEqual(whitespace_before=cst.SimpleWhitespace(""),
                                        whitespace_after=cst.SimpleWhitespace("")))
    if not args:
        return call.with_changes(args=[new])
    last = args[-1]
    if last.comma is not cst.MaybeSentinel.DEFAULT:
        # Exploded call with a trailing comma: the new argument copies the previous separator.
        sep = args[-2].comma if len(args) > 1 and isinstance(args[-2].comma, cst.Comma) else \
            cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
        args[-1] = last.with_changes(comma=sep)
        new = new.with_changes(comma=last.comma)
    else:
        args[-1] = last.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
    return call.with_changes(args=[*args, new])


def rename_arg(call: cst.Call, index: int, old: str, new: str) -> cst.Call:
    """Replace the argument `old` that feeds IR argument `index` by the name `new`."""
    args = list(call.args)
    positional = [i for i, a in enumerate(args) if a.keyword is None and not a.star]
    if index < len(positional):
        a = args[positional[index]]
        if isinstance(a.value, cst.Name) and a.value.value == old:
            args[positional[index]] = a.with_changes(value=a.value.with_changes(value=new))
            return call.with_changes(args=args)
    hits = [i for i, a in enumerate(args) if isinstance(a.value, cst.Name) and a.value.value == old]
    if len(hits) != 1:
        raise Unsupported(f"cannot tell which argument '{old}' of the call is moved")
    a = args[hits[0]]
    assert isinstance(a.value, cst.Name)
    args[hits[0]] = a.with_changes(value=a.value.with_changes(value=new))
    return call.with_changes(args=args)


def names_in(node: cst.CSTNode) -> set[str]:
    """Every identifier spelled in `node` (to keep new names from shadowing the user's)."""
    found: set[str] = set()

    class _Names(cst.CSTVisitor):
        def visit_Name(self, n: cst.Name) -> None:
            found.add(n.value)

    node.visit(_Names())
    return found


def fresh_name(base: str, taken: set[str]) -> str:
    name, n = base, 0
    while name in taken:
        n += 1
        name = f"{base}_{n}"
    taken.add(name)
    return name


class BoundNames(cst.CSTVisitor):
    """The module-level names a compound statement binds: a def's or class's own name (not what
    its body binds), and every assignment, loop, with, import or walrus target inside an if, for,
    while, try or with."""

    def __init__(self) -> None:
        super().__init__()
        self.names: list[str] = []

    def _target(self, t: cst.BaseExpression | cst.BaseAssignTargetExpression) -> None:
        if isinstance(t, cst.Name):
            self.names.append(t.value)
        elif isinstance(t, cst.Tuple | cst.List):
            for el in t.elements:
                self._target(el.value)
        elif isinstance(t, cst.StarredElement):
            self._target(t.value)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        self.names.append(node.name.value)
        return False

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        self.names.append(node.name.value)
        return False

    def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
        self._target(node.target)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self._target(node.target)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._target(node.target)

    def visit_For(self, node: cst.For) -> None:
        self._target(node.target)

    def visit_AsName(self, node: cst.AsName) -> None:
        self._target(node.name)

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        self._target(node.target)

    def visit_ImportAlias(self, node: cst.ImportAlias) -> None:
        if node.asname is None:
            root: cst.BaseExpression = node.name
            while isinstance(root, cst.Attribute):
                root = root.value
            self._target(root)

"""The shapes a `@pl.jit` entry is shown for, found without running anything.

Guarantees: for each parameter of an entry, in this order: the `--shape` option given for it
(`NAME=16x128:FP16`, or `ENTRY.NAME=...` for one entry); else the argument of the file's first
call of the entry whose arrays are all readable: a name bound, earlier in the file (its
`__main__` block included), to an array built with literal extents and dtype by the usual torch /
NumPy constructors (`torch.randn(M, N, dtype=torch.float16)`, `torch.zeros((M, N))`,
`np.zeros((M, N), np.float32)`, `np.random.randn(M, N).astype(np.float32)`, `.to(...)`,
`torch.zeros_like(x)`, `torch.tensor([..], dtype=...)`, `x.clone()`, ...), a call of
`ENTRY.lower(...)` or `ENTRY.compile(...)` counting as a call,
extents being integer literals, names bound to integers or module constants; a number for a
scalar parameter. The file's statements are followed in order, as far as they can be read
without running anything: a call reaches the entry by its name or through a value (a name
bound to it, a tuple or list literal, a dict literal read by a key only the run knows: any of
its values), a `for` over a literal sequence runs its body once per element (unpacking
`for fn, k in ((f, 128), (g, 32))`), `*args` spreads a literal list (or a comprehension with
one `for` over a readable sequence: `*[arrays[n] for n in order]`, `{k: v.clone() for k, v in
t.items()}`), a call of a module-level function of the file is what its `return`s give when they
all agree (its body followed with its parameters bound to the call's readable arguments:
`a, c, x = _make_inputs()`), and the parameters of a
function that calls the entry (a `@pl.jit.host` entry) are bound to that function's own
samples; a class's methods (a test class) are followed as functions are; an array scaled or
shifted by a number, or combined with an array of its own shape and dtype, keeps both
(`(torch.randn(M, K) * 0.05).bfloat16()`). An entry defined inside a function (a test
function's) is looked for in that function's body only, where its name means that def. Else,
for a parameter the entry passes as it is to a function of the file whose parameter there has
a written shape (`relu(a, out)`, `relu` an `.extern` stub declaring `a: pl.Tensor[[64, 64],
pl.FP16]`), that shape. Else nothing: its written annotation, or the located error saying how
to give it (lowering/frontend/jit.py). Nothing is imported and no code is run.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

import libcst as cst

from pl.errors import PlError
from pl.ir.enums import DType
from pl.lowering.frontend.jit import Sample, TensorSpec

_DTYPES: Mapping[str, DType] = MappingProxyType({
    "bool": DType.BOOL, "int8": DType.INT8, "int16": DType.INT16, "int32": DType.INT32,
    "int64": DType.INT64, "uint8": DType.UINT8, "float16": DType.FP16, "half": DType.FP16,
    "float32": DType.FP32, "float": DType.FP32, "bfloat16": DType.BF16, "int": DType.INT32,
    "float64": DType.INDEX, "double": DType.INDEX,  # no pl dtype: INDEX marks "unreadable"
})
_ROOTS = ("torch", "np", "numpy")
_SHAPE_FIRST = ("zeros", "ones", "empty", "full", "randn", "rand")
_DEFAULT_DTYPE: Mapping[str, DType] = MappingProxyType(
    {"torch": DType.FP32, "np": DType.INDEX, "numpy": DType.INDEX})


def parse_shape(text: str) -> tuple[str, TensorSpec]:
    """`NAME=16x128:FP16` (the `--shape` option) -> (NAME, its TensorSpec)."""
    hint = "write --shape NAME=16x128:FP16 (or ENTRY.NAME=...), extents joined by x, a pl dtype"
    name, eq, rest = text.partition("=")
    extents, colon, dtype = rest.partition(":")
    found = DType.__members__.get(dtype.strip().upper())
    dims = extents.strip().split("x")
    if not eq or not colon or not name.strip() or found is None or \
            not all(d.isdigit() and int(d) > 0 for d in dims):
        raise PlError(f"--shape {text!r} is not NAME=EXTENTSxEXTENTS:DTYPE", hint=hint)
    return name.strip(), TensorSpec(tuple(int(d) for d in dims), found)


def entry_samples(name: str, params: list[str], module: cst.Module,
                  constants: Mapping[str, Any], shapes: Mapping[str, TensorSpec],
                  node: cst.FunctionDef | None = None) -> list[Sample]:
    """One sample per parameter of entry `name` (see the module), defined by `node` when it is
    given (the calls of it followed are then those of the scope that defines it, and its
    callees' declared shapes are read); None where none is found."""
    within = None if node is None else _enclosing(module, node)
    found = _from_calls(name, params, module, constants, within=within)
    declared = {} if node is None else _declared_by_callees(node, within, module, constants)
    out: list[Sample] = []
    for i, p in enumerate(params):
        given = shapes.get(f"{name}.{p}", shapes.get(p))
        out.append(given if given is not None else found[i] if found is not None else
                   declared.get(p))
    return out


def _enclosing(module: cst.Module, node: cst.FunctionDef) -> cst.FunctionDef | None:
    """The innermost function whose body defines `node` (None: a module-level def)."""
    found: list[cst.FunctionDef | None] = [None]
    stack: list[cst.FunctionDef] = []

    class _Find(cst.CSTVisitor):
        def visit_FunctionDef(self, fd: cst.FunctionDef) -> bool:
            if fd is node:
                found[0] = stack[-1] if stack else None
                return False
            stack.append(fd)
            return True

        def leave_FunctionDef(self, fd: cst.FunctionDef) -> None:
            if stack and stack[-1] is fd:
                stack.pop()

    module.visit(_Find())
    return found[0]


def _from_calls(name: str, params: list[str], module: cst.Module,
                constants: Mapping[str, Any], seen: frozenset[str] = frozenset(),
                within: cst.FunctionDef | None = None) -> list[Sample] | None:
    """The samples of the first call of `name` whose arguments are all readable, the file's
    statements followed in order (a `for` over a literal sequence once per element; a
    function's parameters bound to its own samples where it calls `name`: an entry a host
    entry calls; `seen`: the functions whose samples are being found, on the way here).
    `within`: the function that defines the entry (a test function's): only its body is
    followed, where its name means this def."""
    env: dict[str, Any] = {k: v for k, v in constants.items() if type(v) in (int, float)}
    body: Sequence[cst.BaseStatement] = module.body if within is None else \
        within.body.body if isinstance(within.body, cst.IndentedBlock) else ()
    # The entry and the file's other functions, by name: a call may reach them through a value.
    defs = [s.name.value for s in (*module.body, *body) if isinstance(s, cst.FunctionDef)]
    for fn in (name, *defs):
        env[fn] = _Callee(frozenset({fn}))
    walk = _Walk(name, params, module, constants, seen | {name})
    walk.block(body, env)
    return walk.found


def _declared_by_callees(node: cst.FunctionDef, within: cst.FunctionDef | None,
                         module: cst.Module, constants: Mapping[str, Any]
                         ) -> dict[str, TensorSpec]:
    """The shapes the entry's callees declare for its parameters: a parameter passed as it
    is (by its bare name) to a function of the file (beside the entry, else at module level)
    whose parameter there has a written shape (`pl.Tensor[[64, 64], pl.FP32]`, possibly in
    `pl.Out[...]` / `pl.InOut[...]`, extents literal or module constants): the first such
    call's."""
    params = {p.name.value for p in node.params.params}
    scope = within.body.body if within is not None and isinstance(within.body, cst.IndentedBlock) \
        else ()
    defs: dict[str, cst.FunctionDef] = {}
    for s in (*module.body, *scope):  # the entry's own scope wins
        if isinstance(s, cst.FunctionDef) and s is not node:
            defs[s.name.value] = s
    found: dict[str, TensorSpec] = {}

    class _Calls(cst.CSTVisitor):
        def visit_Call(self, call: cst.Call) -> None:
            callee = defs.get(call.func.value) if isinstance(call.func, cst.Name) else None
            if callee is None:
                return
            declared = list(callee.params.params)
            for i, a in enumerate(call.args):
                if a.star or not isinstance(a.value, cst.Name) or a.value.value not in params \
                        or a.value.value in found:
                    continue
                target = next((p for p in declared if a.keyword is not None
                               and p.name.value == a.keyword.value), None) \
                    if a.keyword is not None else declared[i] if i < len(declared) else None
                spec = None if target is None or target.annotation is None else \
                    _written_spec(target.annotation.annotation, constants)
                if spec is not None:
                    found[a.value.value] = spec

    node.body.visit(_Calls())
    return found


def _written_spec(node: cst.BaseExpression, constants: Mapping[str, Any]) -> TensorSpec | None:
    """`pl.Tensor[[64, 64], pl.FP32]` (in `pl.Out[...]` / `pl.InOut[...]`) as a TensorSpec;
    None for any other annotation (a dynamic or computed extent included)."""
    if isinstance(node, cst.Subscript) and _dotted(node.value)[-1:] in (["Out"], ["InOut"]) \
            and len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index):
        node = node.slice[0].slice.value
    if not isinstance(node, cst.Subscript) or _dotted(node.value)[-1:] != ["Tensor"] \
            or len(node.slice) != 2:
        return None
    first, second = (el.slice for el in node.slice)
    if not isinstance(first, cst.Index) or not isinstance(second, cst.Index):
        return None
    dims_node = first.value
    dtype_name = _dotted(second.value)[-1:]
    dtype = DType.__members__.get(dtype_name[0]) if dtype_name else None
    if not isinstance(dims_node, cst.List | cst.Tuple) or dtype is None:
        return None
    dims = [_value(e.value, {k: v for k, v in constants.items() if type(v) is int})
            for e in dims_node.elements]
    if not dims or not all(type(d) is int and d > 0 for d in dims):
        return None
    return TensorSpec(tuple(dims), dtype)


@dataclass(frozen=True)
class _Callee:
    """A value that is one of these functions of the file (a dict of kernels read by a key
    only the run knows is any of its values)."""

    names: frozenset[str]


class _Walk:
    """Follows statements in order with what is known of each name (`env`), and records the
    first call of the entry with every argument readable."""

    def __init__(self, name: str, params: list[str], module: cst.Module,
                 constants: Mapping[str, Any], seen: frozenset[str]) -> None:
        self.name, self.params = name, params
        self.module, self.constants, self.seen = module, constants, seen
        self.found: list[Sample] | None = None
        self.steps = 0  # bounds the work on loops nested over long literal sequences
        self.returned: list[Any] = []  # what each `return` followed gives

    def value(self, node: cst.BaseExpression, env: Mapping[str, Any]) -> Any:
        """`_value`, and for a call of one of the file's module-level functions (a helper
        building the arrays: `a, c, x = _make_inputs()`), what its `return`s give when they
        all agree, its body followed with its parameters bound to the call's arguments."""
        if not isinstance(node, cst.Call):
            return _value(node, env)
        callee = _value(node.func, env)
        if not isinstance(callee, _Callee) or len(callee.names) != 1:
            return _value(node, env)
        (fn,) = callee.names
        node_def = next((s for s in self.module.body if isinstance(s, cst.FunctionDef)
                         and s.name.value == fn), None)
        if fn in self.seen or node_def is None or self.steps > _MAX_STEPS:
            return None
        local = {k: v for k, v in env.items() if isinstance(v, _Callee)
                 or k in self.constants}  # the module's names, not the caller's locals
        params = [p.name.value for p in (*node_def.params.posonly_params,
                                         *node_def.params.params, *node_def.params.kwonly_params)]
        for p in params:
            local.pop(p, None)
        for p, a in zip(params, node.args, strict=False):
            if a.keyword is not None or a.star:
                break
            _bind(cst.Name(p), _value(a.value, env), local)
        helper = _Walk("", [], self.module, self.constants, self.seen | {fn})
        helper.steps = self.steps
        helper.block(node_def.body.body, local)
        self.steps = helper.steps
        results = helper.returned
        return results[0] if results and all(r == results[0] for r in results) else None

    def block(self, body: Sequence[cst.BaseStatement | cst.BaseSmallStatement],
              env: dict[str, Any]) -> None:
        for stmt in body:
            if self.found is not None or self.steps > _MAX_STEPS:
                return
            self.steps += 1
            self.statement(stmt, env)

    def statement(self, stmt: cst.CSTNode, env: dict[str, Any]) -> None:
        if isinstance(stmt, cst.SimpleStatementLine):
            self.block(stmt.body, env)
        elif isinstance(stmt, cst.FunctionDef):
            local = dict(env)  # what it binds stays inside it
            names = [p.name.value for p in (*stmt.params.posonly_params, *stmt.params.params)]
            for param in (*stmt.params.posonly_params, *stmt.params.params,
                          *stmt.params.kwonly_params):
                local.pop(param.name.value, None)
            if stmt.name.value not in self.seen and _calls_name(stmt, self.name):
                # Its parameters are what the file's own calls of it give (a host entry's).
                own = _from_calls(stmt.name.value, names, self.module, self.constants, self.seen)
                for p, sample in zip(names, own or (), strict=False):
                    if sample is not None:
                        local[p] = sample
            self.block(stmt.body.body, local)
        elif isinstance(stmt, cst.ClassDef):  # a test class: its methods call the entry
            self.block(stmt.body.body, dict(env))
        elif isinstance(stmt, cst.For):
            self.calls(stmt.iter, env)
            items = _value(stmt.iter, env)
            if isinstance(items, dict):
                items = tuple(items)
            if isinstance(items, tuple) and items:
                for item in items:
                    _bind(stmt.target, item, env)
                    self.block(stmt.body.body, env)
            else:
                _bind(stmt.target, None, env)
                self.block(stmt.body.body, env)
            if stmt.orelse is not None:
                self.block(stmt.orelse.body.body, env)
        elif isinstance(stmt, cst.If | cst.While):
            self.calls(stmt.test, env)
            self.block(stmt.body.body, env)
            orelse = stmt.orelse
            while orelse is not None:
                if isinstance(orelse, cst.If):
                    self.statement(orelse, env)
                    break
                self.block(orelse.body.body, env)
                break
        elif isinstance(stmt, cst.With):
            for item in stmt.items:
                self.calls(item.item, env)
            self.block(stmt.body.body, env)
        elif isinstance(stmt, cst.Try):
            self.block(stmt.body.body, env)
            for handler in stmt.handlers:
                self.block(handler.body.body, env)
            for part in (stmt.orelse, stmt.finalbody):
                if part is not None:
                    self.block(part.body.body, env)
        elif isinstance(stmt, cst.Assign):
            self.calls(stmt.value, env)
            value = self.value(stmt.value, env)
            for target in stmt.targets:
                _bind(target.target, value, env)
        elif isinstance(stmt, cst.AnnAssign):
            if stmt.value is not None:
                self.calls(stmt.value, env)
            _bind(stmt.target, None if stmt.value is None else self.value(stmt.value, env), env)
        elif isinstance(stmt, cst.Return):
            if stmt.value is not None:
                self.calls(stmt.value, env)
            self.returned.append(None if stmt.value is None else _value(stmt.value, env))
        elif isinstance(stmt, cst.BaseSmallStatement | cst.BaseCompoundStatement):
            self.calls(stmt, env)  # an expression, a return, ...: its calls; a class: skipped

    def calls(self, node: cst.CSTNode, env: dict[str, Any]) -> None:
        """Records the first readable call of the entry among the calls inside `node`."""
        walk = self

        class _Calls(cst.CSTVisitor):
            def visit_ClassDef(self, node: cst.ClassDef) -> bool:
                return False

            def visit_Lambda(self, node: cst.Lambda) -> bool:
                return False

            def visit_Call(self, node: cst.Call) -> None:
                if walk.found is None:
                    walk.call(node, env)

        node.visit(_Calls())

    def call(self, node: cst.Call, env: Mapping[str, Any]) -> None:
        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value in ("lower", "compile"):
            func = func.value  # `entry.lower(x, out)`: samples too
        callee = _value(func, env)
        if not isinstance(callee, _Callee) or self.name not in callee.names:
            return
        positional: list[Any] = []
        named: dict[str, Any] = {}
        for a in node.args:
            value = _value(a.value, env)
            if a.star == "*":
                if not isinstance(value, tuple):
                    return  # how many arguments it spreads is not known
                positional.extend(value)
            elif a.star == "**" or a.keyword is None and named:
                return
            elif a.keyword is not None:
                named[a.keyword.value] = value
            else:
                positional.append(value)
        args: list[Sample] = [None] * len(self.params)
        for i, value in enumerate(positional[:len(self.params)]):
            args[i] = value if isinstance(value, TensorSpec | int | float) else None
        for key, value in named.items():
            if key in self.params:
                args[self.params.index(key)] = \
                    value if isinstance(value, TensorSpec | int | float) else None
        if all(a is not None for a in args):
            self.found = args


_MAX_STEPS = 20_000


def _calls_name(node: cst.CSTNode, name: str) -> bool:
    """Whether `node` holds a call of the bare name `name`."""
    found = False

    class _Find(cst.CSTVisitor):
        def visit_Call(self, call: cst.Call) -> None:
            nonlocal found
            found = found or isinstance(call.func, cst.Name) and call.func.value == name

    node.visit(_Find())
    return found


def _bind(target: cst.BaseExpression, value: Any, env: dict[str, Any]) -> None:
    """Binds `target` (a name, or a tuple / list of targets unpacking `value`) in `env`."""
    if isinstance(target, cst.Name):
        if value is None:
            env.pop(target.value, None)
        else:
            env[target.value] = value
    elif isinstance(target, cst.Tuple | cst.List):
        elements = [e.value for e in target.elements]
        fits = isinstance(value, tuple) and len(value) == len(elements) and \
            not any(isinstance(e, cst.StarredElement) for e in target.elements)
        for i, element in enumerate(elements):
            _bind(element, value[i] if fits else None, env)


def _value(node: cst.BaseExpression, env: Mapping[str, Any]) -> Any:
    """What `node` is known to be: an array's TensorSpec, an int, float or str, a tuple (of a
    tuple or list literal), a dict (of a dict literal), a `_Callee`; None: unreadable."""
    if isinstance(node, cst.Integer):
        return int(node.value, 0)
    if isinstance(node, cst.Float):
        return float(node.value)
    if isinstance(node, cst.SimpleString):
        return node.evaluated_value if isinstance(node.evaluated_value, str) else None
    if isinstance(node, cst.Name):
        return env.get(node.value)
    if isinstance(node, cst.Tuple | cst.List):
        if any(isinstance(e, cst.StarredElement) for e in node.elements):
            return None
        return tuple(_value(e.value, env) for e in node.elements)
    if isinstance(node, cst.Dict):
        pairs = [(_value(e.key, env), _value(e.value, env)) for e in node.elements
                 if isinstance(e, cst.DictElement)]
        if len(pairs) != len(node.elements) or not all(isinstance(k, str | int) for k, _ in pairs):
            return None
        return dict(pairs)
    if isinstance(node, cst.Subscript):
        return _item(node, env)
    if isinstance(node, cst.ListComp | cst.GeneratorExp | cst.DictComp):
        return _comprehension(node, env)
    if isinstance(node, cst.BinaryOperation):
        a, b = _value(node.left, env), _value(node.right, env)
        if isinstance(a, TensorSpec) or isinstance(b, TensorSpec):
            return _elementwise(node.operator, a, b)
        if type(a) is int and type(b) is int:
            op = type(node.operator)
            if op is cst.Add:
                return a + b
            if op is cst.Subtract:
                return a - b
            if op is cst.Multiply:
                return a * b
            if op is cst.FloorDivide and b:
                return a // b
        return None
    if isinstance(node, cst.Call):
        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value in ("items", "values", "keys") \
                and not node.args:
            table = _value(func.value, env)
            if isinstance(table, dict):
                return tuple(table.items()) if func.attr.value == "items" else \
                    tuple(table.values()) if func.attr.value == "values" else tuple(table)
            return None
        made = _array(node, env)
        return None if made is None or made.dtype is DType.INDEX else made
    return None


def _comprehension(node: cst.ListComp | cst.GeneratorExp | cst.DictComp,
                   env: Mapping[str, Any]) -> tuple[Any, ...] | dict[Any, Any] | None:
    """`[table[n] for n in names]`, `{k: v.clone() for k, v in table.items()}`: one `for` over
    a readable sequence (a dict: its keys), no `if`; a tuple, or a dict of readable keys."""
    loop = node.for_in
    if loop.inner_for_in is not None or loop.ifs or loop.asynchronous is not None:
        return None
    items = _value(loop.iter, env)
    if isinstance(items, dict):
        items = tuple(items)
    if not isinstance(items, tuple):
        return None
    made: list[Any] = []
    for item in items:
        local = dict(env)
        _bind(loop.target, item, local)
        if isinstance(node, cst.DictComp):
            made.append((_value(node.key, local), _value(node.value, local)))
        else:
            made.append(_value(node.elt, local))
    if isinstance(node, cst.DictComp):
        if not all(isinstance(k, str | int) for k, _ in made):
            return None
        return dict(made)
    return tuple(made)


def _elementwise(op: cst.BaseBinaryOp, a: Any, b: Any) -> TensorSpec | None:
    """`x * 0.5`, `x + y`: an array and a number, or two arrays of one shape and dtype, keep
    the array's shape and dtype (an integer array with a float number: not read)."""
    if not isinstance(op, cst.Add | cst.Subtract | cst.Multiply | cst.Divide):
        return None
    array = a if isinstance(a, TensorSpec) else b
    other = b if array is a else a
    assert isinstance(array, TensorSpec)
    if isinstance(other, TensorSpec):
        return array if other == array else None
    if type(other) not in (int, float):
        return None
    promoted = array.dtype.is_int() and (type(other) is float or isinstance(op, cst.Divide))
    return None if promoted else array


def _item(node: cst.Subscript, env: Mapping[str, Any]) -> Any:
    """`table[key]`, `seq[i]`; a dict of the file's functions read by a key not known
    statically is any of them (a `_Callee` of all)."""
    base = _value(node.value, env)
    if len(node.slice) != 1 or not isinstance(node.slice[0].slice, cst.Index):
        return None
    key = _value(node.slice[0].slice.value, env)
    if isinstance(base, dict):
        if key in base:
            return base[key]
        if key is None and base and all(isinstance(v, _Callee) for v in base.values()):
            return _Callee(frozenset(n for v in base.values() for n in v.names))
        return None
    if isinstance(base, tuple) and type(key) is int and -len(base) <= key < len(base):
        return base[key]
    return None


def _dotted(node: cst.BaseExpression) -> list[str]:
    if isinstance(node, cst.Name):
        return [node.value]
    if isinstance(node, cst.Attribute):
        head = _dotted(node.value)
        return [*head, node.attr.value] if head else []
    return []


def _dtype(node: cst.BaseExpression | None) -> DType | None:
    if node is None:
        return None
    parts = _dotted(node)
    if isinstance(node, cst.SimpleString):
        parts = [str(node.evaluated_value)]
    return _DTYPES.get(parts[-1]) if parts else None


def _shape(args: list[cst.Arg], env: Mapping[str, Any]) -> tuple[int, ...] | None:
    if not args:
        return None
    first = _value(args[0].value, env)
    dims = list(first) if isinstance(first, tuple) else [_value(a.value, env) for a in args]
    if not dims or not all(type(d) is int and d > 0 for d in dims):
        return None
    return tuple(dims)


def _array(call: cst.Call, env: Mapping[str, Any]) -> TensorSpec | None:
    func = call.func
    if isinstance(func, cst.Attribute) and _dotted(func.value)[:1] not in (["torch"], ["np"],
                                                                            ["numpy"]):
        # `.astype(np.float32)`, `.to(torch.float16)`, `.float()`, `x.clone()` of an array
        value = func.value
        base = _array(value, env) if isinstance(value, cst.Call) else _value(value, env)
        if not isinstance(base, TensorSpec):
            return None
        method = func.attr.value
        conv = {"float": DType.FP32, "half": DType.FP16, "bfloat16": DType.BF16,
                "int": DType.INT32, "contiguous": base.dtype, "clone": base.dtype,
                "copy": base.dtype,
                "share_memory_": base.dtype, "cpu": base.dtype, "detach": base.dtype}
        if method in conv:
            dtype: DType | None = conv[method]
        elif method in ("astype", "to", "type"):
            named = next((a.value for a in call.args
                          if a.keyword and a.keyword.value == "dtype"), None)
            dtype = _dtype(named if named is not None else
                           call.args[0].value if call.args else None)
        else:
            return None
        return _spec(base.shape, dtype)  # INDEX: NumPy's default float64, which no pl dtype is
    parts = _dotted(func)
    if len(parts) < 2 or parts[0] not in _ROOTS:
        return None
    kind = parts[-1]
    pos = [a for a in call.args if a.keyword is None]
    kw = {a.keyword.value: a.value for a in call.args if a.keyword is not None}
    dtype = _dtype(kw.get("dtype"))
    if kind.endswith("_like") and pos:  # torch.zeros_like(x), np.empty_like(x, dtype=...)
        base = _value(pos[0].value, env) if not isinstance(pos[0].value, cst.Call) else \
            _array(pos[0].value, env)
        if not isinstance(base, TensorSpec):
            return None
        return _spec(base.shape, dtype or base.dtype)
    if kind in _SHAPE_FIRST:
        shape_args = pos[:1] if kind == "full" or (pos and isinstance(
            pos[0].value, cst.Tuple | cst.List)) else pos
        if "size" in kw:
            shape_args = [cst.Arg(kw["size"])]
        shape = _shape(shape_args, env)
        if dtype is None and parts[0] != "torch" and kind != "full" and len(pos) == 2:
            dtype = _dtype(pos[1].value)  # np.zeros((M, N), np.float32)
    elif kind == "randint":  # torch.randint(low, high, (M, N), dtype=...)
        size = kw.get("size") or (pos[-1].value if pos else None)
        shape = _shape([cst.Arg(size)], env) if size is not None else None
        if dtype is None and parts[0] == "torch":
            dtype = DType.INT64
    elif kind == "tensor" and pos:  # torch.tensor([1, 48, 64], dtype=torch.int64)
        shape = _literal_shape(pos[0].value)
        if dtype is None:
            dtype = DType.INDEX  # inferred from the values: not read here
    elif kind == "arange" and len(pos) == 1:
        n = _value(pos[0].value, env)
        shape = (n,) if type(n) is int and n > 0 else None
    else:
        return None
    if dtype is None:
        dtype = _DEFAULT_DTYPE[parts[0]]
    return None if shape is None else _spec(shape, dtype)


def _literal_shape(node: cst.BaseExpression) -> tuple[int, ...] | None:
    """The shape of a nested list / tuple literal of numbers (None: ragged or not literal)."""
    if not isinstance(node, cst.List | cst.Tuple):
        return ()
    inner = [_literal_shape(e.value) for e in node.elements]
    if not inner or any(s is None or s != inner[0] for s in inner):
        return None
    first = inner[0]
    return None if first is None else (len(inner), *first)


def _spec(shape: tuple[int, ...], dtype: DType | None) -> TensorSpec | None:
    """The array's spec; its dtype INDEX while unreadable (NumPy's float64 default, which a
    later `.astype(...)` may replace), None when not given at all."""
    return None if dtype is None else TensorSpec(shape, dtype)

"""The tile IR core: dtypes, memory spaces, types, expressions, statements, functions.

Guarantees: every node is a frozen, slotted dataclass. Values (`Var`, `IterArg`) compare by
identity; types and constants compare by value; spans, name hints and leading comments never take
part in `==`. This package imports nothing from `lowering`, `infer` or `libcst`.

Every name loads on its first use (`__getattr__`): `pl.errors` needs only `pl.ir.span`, and a
package runs before its modules, so importing them all here would load the whole IR under the
error type (and under `python -m pl.show_inferred --help`).
"""

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pl.ir.enums import (
        CompactMode,
        DType,
        ForKind,
        FunctionType,
        Level,
        MemorySpace,
        PadValue,
        ParamDirection,
        Role,
        ScopeKind,
        TensorLayout,
        TileLayout,
    )
    from pl.ir.expr import (
        BinaryExpr,
        Call,
        ConstBool,
        ConstFloat,
        ConstInt,
        Expr,
        GlobalVar,
        IterArg,
        MakeTuple,
        Op,
        TupleGetItem,
        UnaryExpr,
        Var,
        const_index,
    )
    from pl.ir.function import Function, Program
    from pl.ir.span import Span
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
        flatten_body,
        make_body,
    )
    from pl.ir.types import (
        MemRef,
        PtrType,
        ScalarType,
        TensorType,
        TensorView,
        TileType,
        TileView,
        TupleType,
        Type,
        UnknownType,
        effective_tile_view,
        implicit_tile_view,
        static_shape,
    )

__all__ = [
    "AssignStmt", "BinaryExpr", "BreakStmt", "Call", "CompactMode", "ConstBool", "ConstFloat",
    "ConstInt", "ContinueStmt", "DType", "EvalStmt", "Expr", "ForKind", "ForStmt", "Function",
    "FunctionType", "GlobalVar", "IfStmt", "IterArg", "Level", "MakeTuple", "MemRef", "MemorySpace", "Op",
    "PadValue", "ParamDirection", "Program", "PtrType", "ReturnStmt", "Role", "ScalarType", "ScopeKind",
    "ScopeStmt", "SeqStmts", "Span", "Stmt", "TensorLayout", "TensorType", "TensorView",
    "TileLayout", "TileType", "TileView", "TupleGetItem", "TupleType", "Type", "UnaryExpr",
    "UnknownType", "Var", "WhileStmt", "YieldStmt", "const_index", "effective_tile_view",
    "flatten_body", "implicit_tile_view", "make_body", "static_shape",
]

# The modules that define the names of `__all__`.
_MODULES = ("pl.ir.enums", "pl.ir.expr", "pl.ir.function", "pl.ir.span", "pl.ir.stmt", "pl.ir.types")


def __getattr__(name: str) -> object:
    if name in __all__:
        for module in _MODULES:
            found = importlib.import_module(module).__dict__.get(name)
            if found is not None:
                return found
    raise AttributeError(f"module 'pl.ir' has no attribute {name!r}")

"""IR after memory allocation (docs/memory_allocation.md): `pl.Ptr`, `pl.tile.alloc` /
`pl.tensor.alloc`, and tiles / tensors bound to memory by `pl.MemRef(base, byte_offset, size)`.

Printed as the reference prints it (the base bare where the body binds it, a string in a
signature), read back to the same text, kept through compiling with the base naming the alloc's
current version, and interpreted (an alloc holds no value). The kernels of
tests/language_forms/allocated_memory.py, tests/infer_cases (allocated_loop_init_is_never_re_placed)
and the error fixtures named `memref_*` / `alloc_*` cover the rest.
"""

from __future__ import annotations

import re
import textwrap

import numpy as np
from hypothesis import HealthCheck, Phase, given, settings
from kernel_strategies import GeneratedProgram, tile_programs
from wrap_check import unbroken

import pl
from pl.ir import AssignStmt, Call, Program, PtrType, TensorType, TileType, Var, flatten_body

SOURCE = textwrap.dedent('''\
    import pl


    @pl.program
    class Alloc:
        @pl.function(type=pl.FunctionType.InCore)
        def main(
            self,
            x: pl.Tensor[[16, 16], pl.FP32, pl.MemRef("gm_x", 0, 1024)],
            out: pl.Out[pl.Tensor[[16, 16], pl.FP32, pl.MemRef(gm_out, 0, 1024)]],
        ) -> pl.Tensor[[16, 16], pl.FP32]:
            ring: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 2048, pinned=True)
            gm: pl.Ptr = pl.tensor.alloc(pl.Mem.DDR, 1024)
            a: pl.Tile[[16, 16], pl.FP32, pl.MemRef(ring, 0, 1024, slots=2)[0], pl.Mem.Vec] = pl.tile.load(
                x, [0, 0], [16, 16], [16, 16], target_memory=pl.Mem.Vec
            )
            b: pl.Tile[[16, 16], pl.FP32, pl.MemRef("ring", 1024, 1024), pl.Mem.Vec] = pl.tile.add(a, a)
            r: pl.Tensor[[16, 16], pl.FP32, pl.MemRef(gm_out, 0, 1024)] = pl.tile.store(b, [0, 0], out)
            return r
    ''')

# What the printer writes for SOURCE (pl.Mem spelling): the forms of the reference's printer.
PRINTED = [
    'x: pl.Tensor[[16, 16], pl.FP32, pl.MemRef("gm_x", 0, 1024)],',
    'out: pl.Out[pl.Tensor[[16, 16], pl.FP32, pl.MemRef("gm_out", 0, 1024)]],',
    "ring: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 2048, pinned=True)",
    "gm: pl.Ptr = pl.tensor.alloc(pl.Mem.DDR, 1024)",
    "a: pl.Tile[[16, 16], pl.FP32, pl.MemRef(ring, 0, 1024, slots=2)[0], pl.Mem.Vec] = pl.tile.load(",
    "b: pl.Tile[[16, 16], pl.FP32, pl.MemRef(ring, 1024, 1024), pl.Mem.Vec] = pl.tile.add(a, a)",
    'r: pl.Tensor[[16, 16], pl.FP32, pl.MemRef("gm_out", 0, 1024)] = pl.tile.store(',
]


def _program() -> Program:
    program = pl.parse(SOURCE)
    assert isinstance(program, Program)
    return program


def _assigns(program: Program) -> dict[str, AssignStmt]:
    return {s.var.name: s for s in flatten_body(program.functions[0].body) if isinstance(s, AssignStmt)}


def test_printed_in_the_reference_spelling_and_read_back_unchanged() -> None:
    text = pl.python_print(_program(), mem_alias=True)
    for line in PRINTED:
        assert line in text or line in unbroken(text), (line, text)
    again = pl.parse(text)
    pl.assert_structural_equal(again, _program())
    assert pl.python_print(again, mem_alias=True) == text


def test_a_base_names_the_alloc_in_scope_and_forward_references_share_one_ptr() -> None:
    program = _program()
    stmts = _assigns(program)
    ring = stmts["ring"].var
    assert isinstance(ring.type, PtrType)
    a_type, b_type = stmts["a"].var.type, stmts["b"].var.type
    assert isinstance(a_type, TileType) and isinstance(b_type, TileType)
    assert a_type.memref is not None and b_type.memref is not None
    # `pl.MemRef(ring, ...)` and `pl.MemRef("ring", ...)` name the alloc's own Var.
    assert a_type.memref.base is ring and b_type.memref.base is ring
    assert (a_type.memref.slots, a_type.memref.size) == (2, 1024)
    # `gm_out` is named (bare) by a parameter and by `r` before anything binds it: one Ptr.
    out_type = program.functions[0].params[1].type
    r_type = stmts["r"].var.type
    assert isinstance(out_type, TensorType) and isinstance(r_type, TensorType)
    assert out_type.memref is not None and r_type.memref is not None
    assert out_type.memref.base is r_type.memref.base
    assert isinstance(out_type.memref.base, Var) and out_type.memref.base.name == "gm_out"


def test_alloc_stores_the_space_code_and_is_typed_ptr() -> None:
    alloc = _assigns(_program())["ring"].value
    assert isinstance(alloc, Call) and alloc.op_name == "tile.alloc"
    assert isinstance(alloc.result_type, PtrType)
    assert [getattr(a, "value", None) for a in alloc.args] == [pl.MemorySpace.Vec.value, 2048]
    assert dict(alloc.kwargs) == {"pinned": True}


def test_compiling_keeps_the_memrefs_naming_the_allocs_current_version() -> None:
    compiled = pl.compile(_program(), backend="910B", verify=True).program
    stmts = _assigns(compiled)
    ring = next(s.var for s in stmts.values() if s.var.name.startswith("ring"))
    b = next(s.var for s in stmts.values() if s.var.name.startswith("b"))
    assert isinstance(b.type, TileType) and b.type.memref is not None
    assert b.type.memref.base is ring  # SSA renamed the alloc; the MemRef follows it
    text = pl.python_print(compiled)
    assert f"pl.MemRef({ring.name}, 1024, 1024)" in text
    assert pl.python_print(pl.parse(text)) == text


def test_interpreted_the_same_before_and_after_compiling() -> None:
    x = np.random.default_rng(3).standard_normal((16, 16)).astype(np.float32)
    outs = []
    for program in (_program(), pl.compile(_program(), backend="910B").program):
        out = np.zeros((16, 16), np.float32)
        pl.interpret(program, x.copy(), out)
        outs.append(out)
    np.testing.assert_array_equal(outs[0], x + x)
    np.testing.assert_array_equal(outs[1], x + x)


# ---- generated programs ----------------------------------------------------------------------------

# A placed Tile annotation of an assignment target, up to its memory space.
_PLACED = re.compile(r"^(\s+\w+: pl\.Tile\[\[[^\]]*\], pl\.\w+, )(pl\.MemorySpace\.\w+)", re.M)


def _allocate_every_tile(text: str) -> tuple[str, int]:
    """`text` with each placed tile bound to memory of its own (`pl.MemRef("buf_N", 0, 64)`, a
    forward-referenced base), and how many were bound."""
    count = 0

    def bind(m: re.Match[str]) -> str:
        nonlocal count
        count += 1
        return f'{m.group(1)}pl.MemRef("buf_{count}", 0, 64), {m.group(2)}'

    return _PLACED.sub(bind, text), count


@settings(max_examples=8, derandomize=True, database=None, deadline=None,
          phases=[Phase.explicit, Phase.generate],
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(g=tile_programs())
def test_binding_every_placed_tile_to_allocated_memory_changes_nothing(g: GeneratedProgram) -> None:
    """Allocating every tile of a compiled program in the space inference gave it: the text reads
    back, compiling it again keeps every space and inserts nothing (the same program, MemRefs
    aside), and every MemRef is still printed."""
    program = pl.parse(g.source)
    assert isinstance(program, Program)
    compiled = pl.compile(program, backend="910B", verify=True).program
    allocated, count = _allocate_every_tile(pl.python_print(compiled))
    assert count > 0, allocated
    again = pl.compile(pl.parse(allocated), backend="910B", verify=True).program
    pl.assert_structural_equal(again, compiled)
    assert pl.python_print(again).count("pl.MemRef(") == count

"""The op registry against the counts and lists of ops.md sections 1 and 3 (checked on the reference).

The expected numbers and name lists are copied from the spec, not from the registry's output.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import pytest

from pl.ir.enums import MemorySpace
from pl.ops.registry import OpDef, all_ops, get_op

M = MemorySpace


def tile_ops() -> dict[str, OpDef]:
    return {n: o for n, o in all_ops().items() if o.level == "tile"}


def names(ops: dict[str, OpDef], pred: Callable[[OpDef], bool]) -> set[str]:
    return {n.split(".", 1)[1] for n, o in ops.items() if pred(o)}


def test_level_counts() -> None:
    levels = Counter(o.level for o in all_ops().values())
    assert levels["tile"] == 138
    assert levels["tensor"] == 105
    assert all(n.startswith(f"{o.level}.") for n, o in all_ops().items())


def test_input_constraints() -> None:
    ops = tile_ops()
    assert sum(any(o.input_constraints) for o in ops.values()) == 110
    multi = names(ops, lambda o: any(len(c) > 1 for c in o.input_constraints))
    assert multi == {"store"}
    store = get_op("tile.store")
    assert store is not None and store.input_constraints[0] == (M.Vec, M.Acc)


@pytest.mark.parametrize("kind,space,count", [
    ("fixed", M.Vec, 101), ("fixed", M.Acc, 11), ("fixed", M.Mat, 1), ("inherit", None, 8),
    ("kwarg", None, 2), ("kwarg", M.Vec, 3), ("no_resolver", None, 4), ("no_spec", None, 8),
])
def test_output_memory_kind_counts(kind: str, space: MemorySpace | None, count: int) -> None:
    got = [o for o in tile_ops().values()
           if o.output_memory.kind == kind and o.output_memory.space is space]
    assert len(got) == count


@pytest.mark.parametrize("kind,space,expected", [
    ("fixed", M.Acc, {"matmul", "matmul_acc", "matmul_bias", "gemv", "gemv_acc", "gemv_bias",
                      "batch_matmul", "batch_matmul_acc", "matmul_mx", "matmul_mx_acc",
                      "matmul_mx_bias"}),
    ("fixed", M.Mat, {"aic_gather"}),
    ("inherit", None, {"slice", "reshape", "reinterpret_view", "transpose", "transpose_view",
                       "assemble", "set_validshape", "tget_scale_addr"}),
    ("kwarg", None, {"load", "create"}),
    ("kwarg", M.Vec, {"move", "extract", "mgather"}),
    ("no_resolver", None, {"read", "store", "mscatter", "gather_row"}),
    ("no_spec", None, {"tpush_to_aiv", "tpush_to_aic", "tpop_from_aic", "tpop_from_aiv",
                       "get_block_idx", "get_subblock_idx", "get_block_num", "alloc"}),
])
def test_output_memory_kind_members(kind: str, space: MemorySpace | None,
                                    expected: set[str]) -> None:
    got = names(tile_ops(), lambda o: o.output_memory.kind == kind
                and o.output_memory.space is space)
    assert got == expected


def test_retargetable_is_exactly_load_and_create() -> None:
    assert names(tile_ops(), lambda o: o.retargetable) == {"load", "create"}


def test_resolver_semantics() -> None:
    move, load, exp, sl = (get_op(f"tile.{n}") for n in ("move", "load", "exp", "slice"))
    assert move and load and exp and sl
    assert move.output_memory.resolve({}) is M.Vec
    assert move.output_memory.resolve({"target_memory": M.Left}) is M.Left
    assert load.output_memory.resolve({}) is None
    assert exp.output_memory.resolve({"target_memory": M.Mat}) is M.Vec
    assert sl.output_memory.has_resolver and sl.output_memory.resolve({}) is None


def test_buffer_views_and_transpose() -> None:
    assert names(tile_ops(), lambda o: o.is_buffer_view) == {
        "slice", "reshape", "reinterpret_view", "transpose_view", "set_validshape", "assemble",
        "tget_scale_addr"}
    t = get_op("tile.transpose")
    assert t is not None and t.inherits_input and not t.is_buffer_view


def test_output_reuses_input() -> None:
    reuse = {n.split(".", 1)[1]: o.output_reuses_input for n, o in tile_ops().items()
             if o.output_reuses_input is not None}
    assert set(reuse) == {"matmul_acc", "gemv_acc", "batch_matmul_acc", "matmul_mx_acc",
                          "fillpad_inplace", "scatter", "scatter_mask", "scatter_update",
                          "gather_row", "tget_scale_addr", "store", "mscatter"}
    assert reuse["gather_row"] == 0 and reuse["tget_scale_addr"] == 0
    assert reuse["store"] == 2 and reuse["mscatter"] == 2


SYNC = {"sync_src", "sync_dst", "bar_v", "bar_m", "bar_all", "fence", "cacheinvalid", "syncall"}
CROSS = {"set_ffts", "sync_set", "sync_wait", "tfree_to_aic", "tfree_to_aiv",
         "aic_initialize_pipe", "aiv_initialize_pipe", "reserve_buffer", "import_peer_buffer"}


@pytest.mark.parametrize("category,expected", [("SyncOp", SYNC), ("CrossCoreOp", CROSS)])
def test_system_op_categories(category: str, expected: set[str]) -> None:
    system = {n: o for n, o in all_ops().items() if o.level == "system"}
    assert names(system, lambda o: o.category == category) == expected


def test_system_ops_have_no_memory_spec_and_task_ops_exist() -> None:
    task = get_op("system.task_invalid")
    assert task is not None and task.category == "TaskOp" and not task.args
    for n, o in all_ops().items():
        if o.level == "system":
            assert not o.has_memory_spec and not o.output_memory.has_resolver, n


def test_tensor_optional_args() -> None:
    sl, mm = get_op("tensor.slice"), get_op("tensor.matmul_acc")
    assert sl is not None and (sl.min_args, len(sl.args)) == (3, 5)
    assert mm is not None and (mm.min_args, len(mm.args)) == (3, 4)


def test_unknown_op_is_none() -> None:
    assert get_op("tile.nope") is None
    assert get_op("pld.tile.load") is None


def test_typed_columns_name_real_slots() -> None:
    """The effects / buffer / layout columns name argument slots the op has; a reused buffer is a
    written or inherited argument. (A row-major slot may be a scalar: PTO's table counts the
    scalar operand of tile.adds & co; the need is applied to tile inputs only.)"""
    for n, o in all_ops().items():
        slots = set(range(len(o.args)))
        assert set(o.written_args) <= slots and set(o.inplace_args) <= set(o.written_args), n
        assert set(o.row_major_inputs) <= slots, n
        if o.output_reuses_input is not None:
            assert o.output_reuses_input in slots, n
            assert o.output_reuses_input in o.written_args or o.inherits_input \
                or o.name == "tensor.set_validshape", n


def test_layout_needs_are_op_facts() -> None:
    from pl.ir.enums import TileLayout
    from pl.ops.backend import input_layouts
    assert input_layouts("910B", "tile.mscatter") == {0: TileLayout.row_major, 1: TileLayout.row_major}
    assert input_layouts("950", "tile.abs") == {0: TileLayout.row_major}
    assert input_layouts(None, "tile.abs") == {}
    assert input_layouts("910B", "tile.matmul") == {}


def test_dsl_derived_and_optional_arguments_are_marked_in_the_data() -> None:
    load, sl = get_op("tile.load"), get_op("tensor.slice")
    assert load is not None and (load.min_args, load.dsl_min_args) == (4, 3)
    assert sl is not None and [a.name for a in sl.args if a.optional] == ["valid_shape", "drop_dims"]


@pytest.mark.parametrize("column,text", [("effects", "writes arg0 (ReadWrite)"),
                                         ("buffer", "reuses arg0"), ("layout", "row_major 0"),
                                         ("conversion", "tile.abs (1:1 rename)"),
                                         ("result", "result=Scalar[INT64]"),
                                         ("call", "always:target_memory=Vec"),
                                         ("call", "dim first"),
                                         ("kwargs", "pipe:PipeKind=0"),
                                         ("positional_args", "src:tiles")])
def test_a_column_outside_its_vocabulary_stops_the_build(column: str, text: str) -> None:
    from pl.ops import registry
    parse = {"effects": registry._effects, "buffer": registry._buffer,
             "layout": registry._layout, "conversion": registry._conversion,
             "result": registry._result, "call": registry._call,
             "kwargs": registry._parse_kwargs, "positional_args": registry._parse_args}[column]
    with pytest.raises(ValueError, match=f"{column} column"):
        parse(text)


def test_kwarg_types_and_argument_kinds_are_one_vocabulary() -> None:
    """Every kwarg type and argument kind the tables write is in the registry's vocabulary,
    which the frontend's messages and checks and the stub generator read (issue 34 item 8)."""
    from pl.errors import PlError
    from pl.ir.enums import DType, PadValue, TensorLayout
    from pl.ir.expr import Var
    from pl.ir.types import TileType
    from pl.lowering.frontend.op_args import shape_arguments
    from pl.ops.registry import ARG_KINDS, KWARG_ENUMS, KWARG_TYPES
    ops = list(all_ops().values())
    assert {k.type_name for op in ops for k in op.kwargs} <= set(KWARG_TYPES)
    assert {a.kind for op in ops for a in op.args} == set(ARG_KINDS)
    assert KWARG_ENUMS == {"MemorySpace": MemorySpace, "PadValue": PadValue,
                           "TensorLayout": TensorLayout}
    add, cast = get_op("tile.add"), get_op("tile.cast")
    assert add is not None and cast is not None
    with pytest.raises(PlError, match="argument 'lhs' must be a tile, got the string 'x'"):
        shape_arguments("pl.tile.add", add, ["x", "y"], {})
    tile = Var("t", TileType((), DType.FP32))
    with pytest.raises(PlError, match="target_type must be a dtype such as pl.FP32, got the cons"):
        shape_arguments("pl.tile.cast", cast, [tile], {"target_type": 3})


def test_kwarg_codes_are_read_from_their_table() -> None:
    from pl.ops.registry import KWARG_CODES
    assert KWARG_CODES["mode"]["round"] == 2 and KWARG_CODES["atomic"]["add"] == 1
    assert set(KWARG_CODES) == {"mode", "cmp_type", "cmp_mode", "coalesce", "atomic", "gather_oob"}


def test_conversions_are_typed() -> None:
    abs_, dim, add = (get_op(f"tensor.{n}") for n in ("abs", "dim", "add"))
    assert abs_ is not None and abs_.renamed_to == "tile.abs" and not abs_.passthrough
    assert dim is not None and dim.passthrough and not dim.renamed_to
    assert add is not None and not add.passthrough and not add.renamed_to
    assert all(get_op(o.renamed_to) is not None for o in all_ops().values() if o.renamed_to)


def test_call_facts_are_typed_and_name_the_op_s_parameters() -> None:
    """The call column (ops.tsv's header): each kwarg it names is one of the op's kwargs (a
    droppable flag is one its tile op lacks), each default names a positional argument."""
    from pl.ir.enums import MemorySpace
    load, matmul, move = (get_op(n) for n in ("tile.load", "tile.matmul", "tile.move"))
    assert load is not None and load.always_kwargs == (("target_memory", MemorySpace.Vec),)
    assert move is not None and move.required_kwargs == ("target_memory",)
    syncall = get_op("system.syncall")
    assert syncall is not None and dict(syncall.kwarg_choices) == {
        "core_type": ("aiv_only", "aic_only", "mix"), "mode": ("hard", "soft")}
    assert matmul is not None and dict(matmul.droppable_defaults) == {
        "a_trans": False, "b_trans": False, "c_matrix_nz": False, "out_dtype": None}
    for n, o in all_ops().items():
        kwargs = {k.name for k in o.kwargs}
        assert {k for k, _ in o.always_kwargs} | set(o.required_kwargs) <= kwargs, n
        assert set(o.kwarg_choices) <= kwargs, n
        assert not set(o.droppable_defaults) & kwargs, n
        assert set(o.arg_defaults) <= {a.name for a in o.args}, n
        assert not o.self_loading or o.level in ("tensor", "pld"), n
        assert not o.dim_first or [a.name for a in o.args][:1] == ["input"], n


def test_system_results_are_typed() -> None:
    from pl.ir import DType, ScalarType, UnknownType
    from pl.ops.rules.util import Deduction
    idx, sync = get_op("system.task_id_of"), get_op("system.sync_src")
    assert idx is not None and idx.type_rule is not None and idx.result_kind == "Scalar"
    assert idx.type_rule(Deduction(idx.name, (), {})) == ScalarType(DType.TASK_ID)
    assert sync is not None and sync.type_rule is not None and sync.result_kind == "Unknown"
    assert sync.type_rule(Deduction(sync.name, (), {})) == UnknownType()

"""What every op must provide, read off its one record (`pl.ops.registry.op(name)`).

A new op needs: a row in pl/ops/data/ops.tsv (or system_ops.tsv) and, for tile / tensor ops, a
typing row in op_types.tsv; a result-type rule (`@type_rule`); an interpreter function
(`@interprets`) or an entry in `pl.interpreter.handlers.WITHOUT_NUMERICS` saying why it has none;
for a tensor op the reference converts, a converter (`@converts`, or a `rename:tile.X` row) or an
entry in `NOT_YET_CONVERTED`; and a stub for each DSL spelling (`python stubs/generate.py`). Each
test names the ops that lack a part. The marks may only name registered ops.
"""

from __future__ import annotations

import keyword
from pathlib import Path

import pytest

from pl.interpreter.handlers import HANDLERS, WITHOUT_NUMERICS, handler
from pl.language.dsl_ops import op_object
from pl.lowering.tensor_to_tile.convert import CONVERTERS, NOT_YET_CONVERTED, PASSTHROUGH, converter_for
from pl.ops.marks import collect, type_rule
from pl.ops.registry import OpDef, all_ops, op

ROOT = Path(__file__).resolve().parent.parent
STUB_MODULES = {"pl": "_ops", "pl.tile": "tile", "pl.tensor": "tensor", "pl.system": "system",
                "pl.array": "array", "pl.prefetch": "prefetch"}


def missing_parts(record: OpDef) -> list[str]:
    """The parts op `record` lacks (empty when it is complete)."""
    missing: list[str] = []
    if record.level not in ("system", "pld") and not record.result_kind:
        missing.append("a typing row in op_types.tsv")
    if record.type_rule is None:
        missing.append("a result-type rule (@type_rule)")
    has_numerics = handler(record.name) is not None
    if has_numerics == (record.name in WITHOUT_NUMERICS):
        missing.append("exactly one of an interpreter function (@interprets) and a "
                       "WITHOUT_NUMERICS entry")
    reference_converts = record.level == "tensor" and not record.passthrough
    has_converter = converter_for(record.name) is not None
    if reference_converts and has_converter == (record.name in NOT_YET_CONVERTED):
        missing.append("exactly one of a converter (@converts) and a NOT_YET_CONVERTED entry")
    stubs = {m: (ROOT / "stubs" / "pl" / f"{m}.pyi").read_text(encoding="utf-8")
             for m in STUB_MODULES.values()}
    for text in record.spellings:
        spelling = text.split("(", 1)[0].strip()
        prefix, _, name = spelling.rpartition(".")
        module = STUB_MODULES.get(prefix)
        if module is None or keyword.iskeyword(name) or op_object(spelling) is None:
            continue
        if f"def {name}(" not in stubs[module]:
            missing.append(f"a stub for {spelling} (python stubs/generate.py)")
    return missing


@pytest.mark.parametrize("name", sorted(all_ops()))
def test_every_op_has_every_part(name: str) -> None:
    missing = missing_parts(op(name))
    assert not missing, f"{name} lacks: " + "; ".join(missing)


def test_a_record_lacking_parts_is_named() -> None:
    """The check above can fail: a bare tensor record with a spelling nobody published lacks
    its typing row, type rule, numerics and converter."""
    bare = OpDef(name="tensor.no_such_op", level="tensor", spellings=(), args=(), kwargs=(),
                 input_constraints=(), output_memory=all_ops()["tensor.add"].output_memory,
                 retargetable=False, inherits_input=False, family="", category="",
                 notes="", converts_to="tile.no_such_op")
    assert len(missing_parts(bare)) == 4


def test_the_marks_name_only_registered_ops() -> None:
    ops = all_ops()
    assert set(HANDLERS) <= set(ops), sorted(set(HANDLERS) - set(ops))
    assert set(WITHOUT_NUMERICS) <= set(ops), sorted(set(WITHOUT_NUMERICS) - set(ops))
    # The distributed module's tensor-level ops convert too (pld.tensor.remote_store).
    tensor_ops = {n for n, o in ops.items() if o.level == "tensor" or n.startswith("pld.tensor.")}
    assert set(CONVERTERS) <= tensor_ops, sorted(set(CONVERTERS) - tensor_ops)
    assert NOT_YET_CONVERTED <= tensor_ops and PASSTHROUGH <= tensor_ops


def test_each_layer_finds_its_implementation_by_op_name() -> None:
    add = op("tile.add")
    assert handler("tile.add") is HANDLERS["tile.add"]
    assert converter_for("tensor.add") is CONVERTERS["tensor.add"]
    assert add.scalar_variant == "tile.adds" and op("tile.rem").scalar_variant is None
    assert converter_for("tensor.dim") is None  # a passthrough tensor op stays a tensor op


def test_an_op_claimed_twice_is_refused() -> None:
    import types

    module = types.ModuleType("twice")

    @type_rule("tile.add")
    def first() -> None: ...

    @type_rule("tile.add")
    def second() -> None: ...

    for fn in (first, second):
        fn.__module__ = "twice"
        setattr(module, fn.__name__, fn)
    with pytest.raises(ValueError, match="tile.add has two type_rule implementations"):
        collect("type_rule", [module])


def test_a_space_operand_is_stored_and_printed_through_its_record() -> None:
    # A memory space given for a `space` operand (pl.tile.alloc's first) is stored as its code
    # and printed as the member, both through its ArgSpec (stored / space_of): the frontend and
    # the printer kept their own copies (the printer looked at the first operand only).
    from pl.ir.enums import MemorySpace

    spaces = [(name, a) for name, op in all_ops().items() for a in op.args if a.kind == "space"]
    assert {name for name, _ in spaces} >= {"tile.alloc", "tensor.alloc"}
    for _, a in spaces:
        for m in MemorySpace:
            assert a.space_of(a.stored(m)) is m
    other = next(a for op in all_ops().values() for a in op.args if a.kind != "space")
    assert other.stored(MemorySpace.Vec) is MemorySpace.Vec and other.space_of(1) is None

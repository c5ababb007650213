"""Capacity warnings (pl/infer/capacity.py): a tile, or a function's tiles in one space that are
live at the same time, over the backend's capacity, from `pl.compile` (`Compiled.warnings`) and on
show_inferred's stderr and `--json`; never in the regenerated text, never a change of exit status.

The kernels are files in tests/capacity_kernels/ (each docstring says its sizes)."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import pl
import pl.show_inferred as cli
from pl.errors import PlError, render_diagnostic
from pl.infer.capacity import CapacityWarning, capacity_warnings
from pl.infer.footprint import function_footprint, peak_live_bytes
from pl.ir.enums import MemorySpace
from pl.ir.names import user_name
from pl.ir.target import KIB
from pl.ops.backend import capacity

KERNELS = Path(__file__).resolve().parent / "capacity_kernels"
BIG = KERNELS / "one_big_tile.py"
TOGETHER = KERNELS / "together_too_big.py"
WITHIN = KERNELS / "within_capacity.py"
DYNAMIC = KERNELS / "dynamic_rows.py"
DYNAMIC_WITHIN = KERNELS / "dynamic_within.py"
ONE_AFTER = KERNELS / "one_after_another.py"
OUTER_IN_LOOP = KERNELS / "outer_tile_in_loop.py"
VIEW = KERNELS / "view_keeps_source.py"
CARRIED = KERNELS / "carried_accumulators.py"
BRANCHES = KERNELS / "branch_alternatives.py"
ALL = sorted(KERNELS.glob("*.py"))
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def compiled(path: Path, backend: str | None) -> pl.Compiled:
    return pl.compile(pl.parse(path.read_text(encoding="utf-8"), filename=str(path)),
                      backend=backend)


def run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = cli.main(["--no-cache", *argv], stdin=io.StringIO(""), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def line_of(path: Path, text: str) -> int:
    """The 1-based line of `path` that contains `text` (once)."""
    (n,) = [i for i, ln in enumerate(path.read_text().splitlines(), 1) if text in ln]
    return n


# -- the rule, through pl.compile --------------------------------------------------------------
@pytest.mark.parametrize(("backend", "cap"), [("910B", 184 * KIB), ("950", 240 * KIB)])
def test_a_tile_over_capacity_is_warned_at_its_statement(backend: str, cap: int) -> None:
    c = compiled(BIG, backend)
    (w,) = c.warnings
    assert (w.kind, w.space, w.bytes, w.capacity, w.backend) == ("tile", "Vec", 1024 * KIB, cap,
                                                                  backend)
    assert (w.span.filename, w.span.line, w.span.col) == (
        str(BIG), line_of(BIG, "whole = pl.load"), 9)
    assert [o.name for o in w.owners] == ["whole"]
    assert w.message == f"tile `whole` takes 1 MiB, more than the {cap // KIB} KiB of Vec on {backend}"


def test_tiles_together_over_capacity_are_warned_at_the_function() -> None:
    c = compiled(TOGETHER, "910B")
    (w,) = c.warnings
    (func,) = c.program.functions
    # The total is the footprint module's peak of live bytes, not a second computation.
    assert w.bytes == peak_live_bytes(func)[MemorySpace.Vec].bytes == 192 * KIB
    assert (w.kind, w.space, w.capacity, w.lower_bound) == ("space", "Vec", 184 * KIB, False)
    assert (w.span.line, w.function, w.program) == (line_of(TOGETHER, "def blend"), "blend",
                                                    "TogetherTooBig")
    # `c = pl.add(a, b)` reads a and b while writing c: all three are live there.
    assert w.peak_line == line_of(TOGETHER, "c = pl.add")
    # The tiles live there, biggest first (ties in definition order), each with its line.
    assert [(o.name, o.bytes, o.line) for o in w.owners] == [
        ("a", 64 * KIB, line_of(TOGETHER, "a = pl.load")),
        ("b", 64 * KIB, line_of(TOGETHER, "b = pl.exp")),
        ("c", 64 * KIB, line_of(TOGETHER, "c = pl.add"))]
    assert (f"hold 192 KiB at once at line {w.peak_line}, more than the 184 KiB of Vec on 910B"
            in w.message)
    assert w.note.startswith(f"live at line {w.peak_line}: `a` 64 KiB")
    assert compiled(TOGETHER, "950").warnings == ()  # 240 KiB of Vec on 950


@pytest.mark.parametrize("backend", ["910B", "950"])
@pytest.mark.parametrize("kernel", [WITHIN, DYNAMIC_WITHIN, ONE_AFTER, CARRIED, BRANCHES],
                         ids=lambda p: p.stem)
def test_a_kernel_within_capacity_has_no_warning(kernel: Path, backend: str) -> None:
    c = compiled(kernel, backend)
    assert any(function_footprint(f).spaces for f in c.program.functions)  # it has tiles
    assert c.warnings == ()


def test_a_dynamic_shape_makes_the_total_a_lower_bound() -> None:
    (w,) = compiled(DYNAMIC, "910B").warnings
    assert (w.kind, w.bytes, w.lower_bound) == ("space", 192 * KIB, True)
    assert "hold 192 KiB or more (some shapes are dynamic) at once" in w.message
    assert "lower bound" in w.note
    (func,) = compiled(DYNAMIC_WITHIN, "910B").program.functions
    assert function_footprint(func).spaces[MemorySpace.Vec].unknown  # unknown alone: no warning


def peak_of(path: Path, space: MemorySpace = MemorySpace.Vec) -> tuple[int, int, list[str]]:
    """One function's peak in `space`: bytes, line, and the user names of the owners live there."""
    (func,) = compiled(path, "910B").program.functions
    peak = peak_live_bytes(func)[space]
    return peak.bytes, peak.span.line, [user_name(v.name) for v, _ in peak.owners]


def upper_bound(path: Path, space: MemorySpace = MemorySpace.Vec) -> int:
    (func,) = compiled(path, "910B").program.functions
    return function_footprint(func).bytes_in(space)


def test_tiles_used_one_after_another_share_bytes() -> None:
    # Each block is stored before the next is loaded: one is live at a time (no warning above),
    # though the three add up to more than Vec holds.
    assert upper_bound(ONE_AFTER) == 192 * KIB
    assert peak_of(ONE_AFTER) == (64 * KIB, line_of(ONE_AFTER, "a = pl.load"), ["a"])


def test_a_tile_used_in_a_loop_is_live_through_the_loop() -> None:
    # `wt` is last read at the top of the body, but the next iteration reads it again: it is live
    # where the body's two last tiles are, 192 KiB together (without the loop, 128 KiB).
    (w,) = compiled(OUTER_IN_LOOP, "910B").warnings
    second = line_of(OUTER_IN_LOOP, "second = pl.exp")
    assert (w.kind, w.bytes, w.peak_line) == ("space", 192 * KIB, second)
    assert [(o.name, o.line) for o in w.owners] == [
        ("wt", line_of(OUTER_IN_LOOP, "wt = pl.load")), ("blk", line_of(OUTER_IN_LOOP, "blk =")),
        ("second", second)]
    assert peak_of(OUTER_IN_LOOP)[0] < upper_bound(OUTER_IN_LOOP) == 256 * KIB  # `first` is dead


def test_a_view_keeps_its_source_live() -> None:
    # `flat` is a reshape of `a` (no buffer of its own): `a` lives to `flat`'s last use.
    (w,) = compiled(VIEW, "910B").warnings
    add = line_of(VIEW, "c = pl.add")
    assert (w.bytes, w.peak_line, [o.name for o in w.owners]) == (192 * KIB, add, ["a", "b", "c"])
    assert peak_of(VIEW) == (192 * KIB, add, ["a", "b", "c"])


def test_a_loop_carried_accumulator_is_one_buffer() -> None:
    # In each loop the carried value (its initial tile's buffer), the block and the new sum are
    # live together; the two loops' tiles never are.
    assert upper_bound(CARRIED) == 288 * KIB
    assert peak_of(CARRIED) == (144 * KIB, line_of(CARRIED, "grown = pl.add"),
                                ["first0", "block", "grown"])


def test_a_tile_read_by_one_branch_is_dead_in_the_other() -> None:
    # `b` is read only by the else branch: in the then branch only `a` and `pos` are live. The
    # peak, 128 KiB, is first reached where `b` is loaded beside `a`.
    assert upper_bound(BRANCHES) == 256 * KIB
    assert peak_of(BRANCHES) == (128 * KIB, line_of(BRANCHES, "b = pl.load"), ["a", "b"])


@pytest.mark.parametrize("name", ["mn_tiled_full_k.py", "mn_tiled_split_k.py"])
@pytest.mark.parametrize("backend", ["910B", "950"])
def test_auto_tiled_examples_have_no_warning(name: str, backend: str) -> None:
    """Auto-tiling makes blocks that are used one after another: on 910B their whole-function sum
    (residency's upper bound) is over the Acc capacity, the tiles live together are not."""
    c = compiled(EXAMPLES / name, backend)
    assert c.warnings == ()
    (func,) = c.program.functions
    acc = capacity(backend, MemorySpace.Acc)
    if backend == "910B":
        assert function_footprint(func).bytes_in(MemorySpace.Acc) > acc  # the old rule's warning
    assert peak_live_bytes(func)[MemorySpace.Acc].bytes <= acc
    code, _, err = run([str(EXAMPLES / name), "--backend", backend])
    assert code == 0 and "Warning" not in err


@pytest.mark.parametrize("kernel", ALL, ids=lambda p: p.stem)
def test_no_backend_no_warning(kernel: Path) -> None:
    c = compiled(kernel, None)
    assert c.warnings == () and capacity_warnings(c.program, None) == ()


def test_a_warning_is_rendered_as_an_error_is() -> None:
    """One diagnostic format: a warning's rendering is an error's with `Warning` for `Error`."""
    (w,) = compiled(BIG, "910B").warnings
    text = BIG.read_text(encoding="utf-8")
    as_error = PlError(w.message, w.span, hint=w.hint, note=w.note, source=text).render(color=False)
    rendered = w.render(color=False, source=text)
    assert rendered == "Warning" + as_error.removeprefix("Error")
    assert f"--> {BIG}:{w.span.line}:9" in rendered and "whole = pl.load" in rendered
    assert rendered == render_diagnostic("warning", w.message, w.span, text.splitlines(),
                                         hint=w.hint, note=w.note, color=False)
    assert "\x1b[33m" in w.render(color=True, source=text)  # yellow, where errors are red


def test_a_warning_reads_back_from_its_json() -> None:
    for kernel in (BIG, TOGETHER, DYNAMIC):
        for w in compiled(kernel, "910B").warnings:
            assert CapacityWarning.from_json(json.loads(json.dumps(w.as_json()))) == w
    with pytest.raises(ValueError):
        CapacityWarning.from_json({**compiled(BIG, "910B").warnings[0].as_json(), "bytes": "1"})


# -- show_inferred -----------------------------------------------------------------------------
def test_show_inferred_prints_the_warning_on_stderr_only() -> None:
    code, out, err = run([str(BIG)])
    quiet_code, quiet_out, quiet_err = run([str(BIG), "--backend", "none"])
    assert code == quiet_code == 0
    assert out == quiet_out  # the regenerated text is the same with or without the warning
    assert "Warning" not in out and "capacity" not in out.lower()
    assert quiet_err == ""
    assert err.startswith("Warning: tile `whole` takes 1 MiB, more than the 184 KiB of Vec on 910B\n")
    assert f"  --> {BIG}:{line_of(BIG, 'whole = pl.load')}:9\n" in err
    assert "        whole = pl.load(x, [0, 0], [512, 512])\n" in err  # the user's line, shown


def test_the_space_warning_names_the_function_and_its_biggest_tiles() -> None:
    code, _, err = run([str(TOGETHER)])
    assert code == 0
    peak = line_of(TOGETHER, "c = pl.add")
    assert err.startswith(f"Warning: the Vec tiles of TogetherTooBig.blend hold 192 KiB at once "
                          f"at line {peak}, more than the 184 KiB of Vec on 910B\n")
    assert f"--> {TOGETHER}:{line_of(TOGETHER, 'def blend')}:5" in err
    assert f"live at line {peak}: `a` 64 KiB (line {line_of(TOGETHER, 'a = pl.load')})" in err


@pytest.mark.parametrize("kernel", [BIG, TOGETHER], ids=lambda p: p.stem)
def test_check_exit_status_is_unchanged_by_a_warning(kernel: Path, tmp_path: Path) -> None:
    code, out, err = run(["--check", str(kernel)])
    quiet_code, _, quiet_err = run(["--check", str(kernel), "--backend", "none"])
    assert (code, quiet_code, out) == (1, 1, "")  # not yet in its inferred form, either way
    assert f"would regenerate {kernel}" in err and "Warning" in err
    assert quiet_err == f"would regenerate {kernel}\n"
    # Written back, the file is in its inferred form: --check exits 0, still warning.
    copy = tmp_path / kernel.name
    shutil.copy(kernel, copy)
    assert run(["--write", str(copy)])[0] == 0
    assert "Warning" not in copy.read_text() and "capacity" not in copy.read_text().lower()
    code, out, err = run(["--check", str(copy)])
    assert (code, out) == (0, "") and err.startswith("Warning: ")


def test_json_has_the_warnings() -> None:
    code, out, err = run(["--json", str(BIG), str(TOGETHER), str(WITHIN)])
    assert (code, err) == (0, "")
    report = json.loads(out)
    got = [(w["path"], w["kind"], w["line"], w["column"], w["space"], w["bytes"], w["capacity"])
           for w in report["warnings"]]
    assert got == [
        (str(BIG), "tile", line_of(BIG, "whole = pl.load"), 9, "Vec", 1024 * KIB, 184 * KIB),
        (str(TOGETHER), "space", line_of(TOGETHER, "def blend"), 5, "Vec", 192 * KIB, 184 * KIB)]
    assert report["warnings"][0]["message"].startswith("tile `whole` takes 1 MiB")
    assert [o["name"] for o in report["warnings"][1]["owners"]] == ["a", "b", "c"]
    code, out, _ = run(["--json", "--backend", "none", str(BIG)])
    assert code == 0 and json.loads(out)["warnings"] == []


def test_a_cache_hit_gives_the_same_warnings(tmp_path: Path) -> None:
    def cached() -> tuple[int, str, str]:
        out, err = io.StringIO(), io.StringIO()
        code = cli.main(["--cache-dir", str(tmp_path), str(TOGETHER)], stdout=out, stderr=err)
        return code, out.getvalue(), err.getvalue()

    first = cached()
    assert any(tmp_path.rglob("*")), "the first run stored an entry"
    assert cached() == first and "Warning: the Vec tiles" in first[2]


def test_the_command_line_exits_0_with_a_warning() -> None:
    proc = subprocess.run([sys.executable, "-m", "pl.show_inferred", "--no-cache", str(BIG)],
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 0
    assert proc.stderr.startswith("Warning: tile `whole` takes 1 MiB")
    assert proc.stdout == run([str(BIG), "--backend", "none"])[1]


def test_a_warning_points_into_the_users_text_when_python_reads_it_otherwise(tmp_path: Path) -> None:
    """Python reads the identifier `ﬁle` as `file` (NFKC, one character more): the warning's
    span is in the user's columns, so its caret covers the statement as written."""
    kernel = tmp_path / "ligature.py"
    kernel.write_text(BIG.read_text(encoding="utf-8").replace("whole", "\ufb01le"),
                      encoding="utf-8")
    code, out, err = run(["--json", str(kernel)])
    (w,) = json.loads(out)["warnings"]
    statement = "\ufb01le = pl.load(x, [0, 0], [512, 512])"
    assert code == 0 and (w["column"], w["end_column"]) == (9, 9 + len(statement))
    _, _, err = run([str(kernel)])
    assert f"        {statement}\n   |         {'^' * len(statement)}\n" in err

"""The spliced regeneration (pl/show_inferred/splice.py) equals rendering the whole rewritten module.

`regenerate` builds its output by splicing the changed statements into the user's text; with
`splice_text=False` it renders the rewritten LibCST module instead (the reference). Both must give
the same text on every example, golden input and test kernel, and on variants of them that stress
the text positions: comment and blank lines, trailing comments, other indentations, `\\r\\n` line
breaks, no final newline. The variants that the splice declines must still agree (they fall back).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import libcst as cst
import pytest
from residency_cases.programs import LOOP_BODY, kernel, program
from residency_cases.programs import ROOT as ROOT_CALLER

import pl.show_inferred.annotate as annotate
from bench.generate import kernel_source
from pl.errors import PlError
from pl.lowering.frontend.source import SourceFile
from pl.show_inferred.annotate import regenerate
from pl.show_inferred.run import run_text
from pl.show_inferred.splice import Edit, SourceText, splice

ROOT = Path(__file__).resolve().parent.parent
KERNELS = {p.stem: p.read_text(encoding="utf-8") for p in sorted((ROOT / "examples").glob("*.py"))}
KERNELS.update({f"golden_{p.stem}": p.read_text(encoding="utf-8")
                for p in sorted((ROOT / "tests" / "golden").glob("*.py"))
                if not p.name.endswith(".expected.py")})
KERNELS.update({f"reference_{p.stem}".replace(".", "_"): p.read_text(encoding="utf-8")
                for p in sorted((ROOT / "tests" / "reference_output").glob("*.py"))
                if ".after" not in p.name})
KERNELS["bench_40"] = kernel_source(40)
# Loop-invariant loads hoisted out of a loop (moved statements), with and without comments.
KERNELS["residency_loop"] = program(kernel(LOOP_BODY), ROOT_CALLER)
KERNELS["residency_loop_commented"] = program(kernel(["# the lhs chain", *LOOP_BODY[:2], "",
                                                     *LOOP_BODY[2:]]), ROOT_CALLER)

_STATEMENT = re.compile(r"^( {8,})(\w+ = pl\.\w+\(.*\))$", re.M)
_INDENT = re.compile(r"^((?:    )+)", re.M)


def _commented(text: str) -> str:
    """A comment line and a blank line before, and a trailing comment after, each statement."""
    return _STATEMENT.sub(lambda m: f"{m[1]}# before\n\n{m[1]}{m[2]}  # after", text)


def _reindented(unit: str) -> Callable[[str], str]:
    return lambda text: _INDENT.sub(lambda m: unit * (len(m[1]) // 4), text)


VARIANTS: dict[str, Callable[[str], str]] = {
    "as_is": lambda text: text,
    "commented": _commented,
    "two_spaces": _reindented("  "),
    "tabs": _reindented("\t"),
    "crlf": lambda text: text.replace("\n", "\r\n"),
    "no_final_newline": lambda text: text.rstrip("\n"),
}


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("name", KERNELS)
@pytest.mark.parametrize("backend", ["910B", None])
def test_spliced_output_equals_the_rendered_module(name: str, variant: str, backend: str | None,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    text = VARIANTS[variant](KERNELS[name])
    spliced: list[bool] = []
    real = annotate.spliced_text

    def spy(text: str, edits: list[annotate.Edit] | None) -> str | None:
        out = real(text, edits)
        spliced.append(out is not None)
        return out

    monkeypatch.setattr(annotate, "spliced_text", spy)
    filename = f"<perf_show_{name}_{variant}_{backend}>"
    try:
        result = run_text(text, filename, backend=backend)
    except PlError:
        pytest.skip("the variant is not a valid kernel")
    reference = regenerate(text, filename, result.compiled, splice_text=False)
    assert result.output == reference.output
    assert result.functions == reference.functions
    # A function shown as it compiles (pl/show_inferred/lowered.py) is rendered with the module.
    in_place = not any(i.kept_reason for i in result.functions) and \
        not any("is shown as it compiles" in n.message for n in result.notes)
    if variant in ("as_is", "commented", "two_spaces", "tabs") and in_place and result.output != text:
        # The fast path was taken for the user's file, not the fallback (the verification's
        # regeneration of the output comes after it).
        assert spliced[0] is True


def test_unchanged_file_is_returned_as_is() -> None:
    first = run_text(KERNELS["bench_40"], "<perf_show_fixed_point_a>")
    again = run_text(first.output, "<perf_show_fixed_point_b>")
    assert again.output == first.output
    reference = regenerate(first.output, "<perf_show_fixed_point_b>", again.compiled,
                           splice_text=False)
    assert again.output == reference.output


LOOP = '''def f(a):
    x = 1  # one

    # about the loop
    for i in range(3):
        # the invariant
        y = g(a)
        z = h(y,
              i)
    return z
'''


def test_text_edits_of_moved_inserted_and_appended_statements() -> None:
    """The edits `_Record` makes for hoists (a removal inside the loop, an insert before it) and
    appends (after a block's last line, before what follows) splice to the rendered module."""
    src = SourceFile("<perf_show_loop>", LOOP)
    text = SourceText(LOOP, src.stmt_span, src.module)
    fd = src.module.body[0]
    assert isinstance(fd, cst.FunctionDef) and isinstance(fd.body, cst.IndentedBlock)
    x, loop, ret = fd.body.body
    assert isinstance(loop, cst.For) and isinstance(loop.body, cst.IndentedBlock)
    y, z = loop.body.body
    new = cst.parse_statement("w = 2\n")
    loop_body = loop.body.with_changes(body=[z, new])
    body = [x, y, new, loop.with_changes(body=loop_body), new, ret]
    expected = src.module.with_changes(body=[fd.with_changes(body=fd.body.with_changes(body=body))])
    edits = [Edit(*text.range_of(y), 2, ""),
             Edit(text.start_of(loop), text.start_of(loop), 1,
                  text.render(y, text.indent_of(x)) + text.render(new, text.indent_of(x))),
             Edit(text.range_of(z)[1], text.range_of(z)[1], -2, text.render(new, text.indent_of(z))),
             Edit(text.start_of(ret), text.start_of(ret), 1, text.render(new, text.indent_of(ret)))]
    assert splice(LOOP, edits) == expected.code

"""show_inferred on lines of `;`-separated statements: inserted moves go between the statements.

Tests as data: every example with runs of its one-line statements joined by `; ` (whole runs, and
pairs), so that a move is due before a statement at every position of such a line. The joined
file's regeneration, split at its `;` separators, is the plain file's regeneration (up to line
breaks: a line of its own that an annotation makes too long is broken): each move
sits right before its own statement (never before the line, where a name it reads is not bound
yet) and every statement keeps its text.
"""

from __future__ import annotations

import ast
import io
import tokenize
from pathlib import Path

import libcst as cst
import pytest
from libcst.metadata import MetadataWrapper, PositionProvider

from pl.show_inferred.run import run_text, show_inferred

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.py"))


def _runs(text: str) -> list[list[int]]:
    """Runs of consecutive one-line simple statements of a block (1-based line numbers), each
    without comments or blank lines around it."""
    wrapper = MetadataWrapper(cst.parse_module(text))
    pos = wrapper.resolve(PositionProvider)
    runs: list[list[int]] = []

    class Blocks(cst.CSTVisitor):
        def visit_IndentedBlock(self, block: cst.IndentedBlock) -> None:
            run: list[int] = []
            for stmt in block.body:
                ok = isinstance(stmt, cst.SimpleStatementLine) and not stmt.leading_lines \
                    and stmt.trailing_whitespace.comment is None \
                    and pos[stmt].start.line == pos[stmt].end.line \
                    and not any(isinstance(s, cst.Return) for s in stmt.body)
                if ok and (not run or pos[stmt].start.line == run[-1] + 1):
                    run.append(pos[stmt].start.line)
                    continue
                if len(run) > 1:
                    runs.append(run)
                run = [pos[stmt].start.line] if ok else []
            if len(run) > 1:
                runs.append(run)

    wrapper.visit(Blocks())
    return runs


def _joined(text: str, groups: list[list[int]]) -> str:
    lines = text.splitlines(keepends=True)
    for group in sorted(groups, reverse=True):
        first, rest = group[0] - 1, [lines[n - 1].strip() for n in group[1:]]
        lines[first] = lines[first].rstrip("\n") + "".join("; " + r for r in rest) + "\n"
        for n in reversed(group[1:]):
            del lines[n - 1]
    return "".join(lines)


def _split(text: str) -> str:
    """Each `;` separator of `text` a line break at its line's indentation."""
    lines = text.splitlines(keepends=True)
    for t in reversed(list(tokenize.generate_tokens(io.StringIO(text).readline))):
        if t.type == tokenize.OP and t.string == ";":
            row, col = t.start[0] - 1, t.start[1]
            line = lines[row]
            indent = line[:len(line) - len(line.lstrip())]
            lines[row] = line[:col] + "\n" + indent + line[col + 1:].lstrip(" ")
    return "".join(lines)


def _same_code(a: str, b: str) -> bool:
    """Whether `a` and `b` are the same statements with the same comments in the same order,
    however their lines are broken: a line of its own that grows past the width is broken when
    annotated, a statement after a `;` is not (the plain file's line is, the joined one's not)."""
    def comments(text: str) -> list[str]:
        return [t.string for t in tokenize.generate_tokens(io.StringIO(text).readline)
                if t.type == tokenize.COMMENT]
    return ast.dump(ast.parse(a)) == ast.dump(ast.parse(b)) and comments(a) == comments(b)


def _variants() -> list[tuple[str, str, str]]:
    out = []
    for path in EXAMPLES:
        text = path.read_text(encoding="utf-8")
        runs = _runs(text)
        if not runs:
            continue
        out.append((f"{path.stem}-runs", text, _joined(text, runs)))
        pairs = [run[i:i + 2] for run in runs for i in range(1, len(run) - 1, 2)]
        if pairs:
            out.append((f"{path.stem}-pairs", text, _joined(text, pairs)))
    return out


VARIANTS = _variants()


@pytest.mark.parametrize(("plain", "joined"), [v[1:] for v in VARIANTS], ids=[v[0] for v in VARIANTS])
def test_moves_go_between_the_statements_of_a_line(plain: str, joined: str) -> None:
    assert joined != plain
    result = run_text(joined, "<joined>", backend="910B")  # verified: it reads back
    assert _same_code(_split(result.output), show_inferred(plain))


LINE = ("import pl\n\n\n@pl.program\nclass K:\n    @pl.function(type=pl.FunctionType.InCore)\n"
        "    def f(self, a: pl.Tensor[[64, 64], pl.FP16], b: pl.Tensor[[64, 64], pl.FP16],"
        " out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:\n"
        "        # the operands\n"
        "        {line}\n        out = pl.store(z, [0, 0], out)\n        return out\n")
X = "x = pl.load(a, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)"
Y = "y = pl.load(b, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)"
Z = "z = pl.matmul(x, y)"


@pytest.mark.parametrize("line", [
    f"{X}; {Y}; {Z}",
    f"{X}; {Y}; {Z}  # all three",
    f"{X} ;  {Y};{Z};",
    f"{X}; {Y}\n        {Z}",
])
def test_the_issue_line_reads_back_with_the_users_text(line: str) -> None:
    text = LINE.format(line=line)
    out = show_inferred(text)
    assert "        # the operands\n        x: " in out  # the leading comment stays first
    for part in ("= pl.load(a, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)",
                 "= pl.load(b, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)"):
        assert part in out
    if "# all three" in line:
        assert out.count("# all three") == 1 and "= pl.matmul(x_Left, y_Right)  # all three\n" in out
    assert _same_code(_split(out), show_inferred(_split(text)))

"""The reference's `@pl.program` kernels that use the distributed module (`pld`), through pl:
`python bench/pld_corpus.py REF_SRC_DIR [--filter S] [--show ID] [--out FILE.jsonl]`.

The shared corpus tool (../shared/corpus/extract.py, or `--extract PATH`) marks these kernels
"out of scope". This script imports that extractor from its path (nothing of it, nor of the
reference, is copied here), extracts the same kernels again with the file's `pld` alias bound
as the pl alias is (so `pld.X` constants are copied as `pl.X` ones are), puts the import of
`pl.distributed` after the extractor's import of pl, and runs each ready kernel as the corpus
worker does: `pl.parse` -> `pl.compile(backend="910B", verify=True)` -> print -> `pl.parse` of the
printed text -> structural equality. With `--interpret N`, each valid kernel that compiles and has
one HOST orchestrator is also run as N ranks by `pl.interpret` on seeded random inputs (no
reference outputs exist to compare with: this shows the runs end, and how). It prints the outcomes in two columns (valid kernels, and
those the reference's own test defines inside `pytest.raises`), then every kernel that is not
"ok" among the valid ones, with its first message line. Extracted text lives in memory only.

Outcomes: ok | roundtrip (the printed program reads back to another program, or not at all) |
user error (a located PlError) | unlocated (a PlError without a line) | internal (any other
exception) | timeout | needs context (the extractor cannot bind a free name; not run).
"""

from __future__ import annotations

import argparse
import ast
import importlib.util
import json
import signal
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pl  # noqa: E402

# ../shared/corpus/extract.py beside the checkout (a worktree elsewhere passes --extract).
EXTRACTOR = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "extract.py"
DISTRIBUTED = "pypto.language.distributed"
TIMEOUT = 30  # seconds per kernel


class _Timeout(Exception):
    pass


def _alarm(_sig: int, _frame: object) -> None:
    raise _Timeout


def load_extractor(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location("corpus_extract", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load the extractor {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules["corpus_extract"] = module
    spec.loader.exec_module(module)
    return module


def _parametrize_case(fn: ast.AST, name: str) -> ast.expr | None:
    """The expression `name` has in the first case of a `@pytest.mark.parametrize` of `fn` (a
    test's parameter: the kernel as that test's first case builds it), or None."""
    for deco in getattr(fn, "decorator_list", []):
        if not (isinstance(deco, ast.Call) and isinstance(deco.func, ast.Attribute)
                and deco.func.attr == "parametrize" and len(deco.args) >= 2):
            continue
        names_node, cases = deco.args[0], deco.args[1]
        if isinstance(names_node, ast.Constant) and isinstance(names_node.value, str):
            names = [n.strip() for n in names_node.value.split(",")]
        elif isinstance(names_node, (ast.Tuple, ast.List)):
            names = [e.value for e in names_node.elts if isinstance(e, ast.Constant)]
        else:
            continue
        if name not in names or not isinstance(cases, (ast.List, ast.Tuple)) or not cases.elts:
            continue
        case = cases.elts[0]
        if isinstance(case, ast.Call) and getattr(case.func, "attr", None) == "param":
            case = ast.Tuple(elts=list(case.args), ctx=ast.Load()) if len(names) > 1 else case.args[0]
        if len(names) == 1:
            return case
        if isinstance(case, (ast.Tuple, ast.List)) and len(case.elts) == len(names):
            return case.elts[names.index(name)]
    return None


def with_test_cases(ex: ModuleType) -> None:
    """Extends the extractor's binding of a builder's parameters (a literal call site or default
    in the same file) to the values pytest gives them: a parameter of a test function bound by
    its `@pytest.mark.parametrize` takes its first case, and a constant bound to a parameter that
    stands for a `pl` / `pld` expression (`DTYPE = dtype`, `dtype=pl.FP32`) names it. Nothing is
    run: these are the extractor's own literal and `pl`-expression rules, applied to the test's
    first case."""
    base = ex.Resolver

    class CaseResolver(base):  # type: ignore[misc, valid-type]
        def _param_value(self, name: str, sc: Any) -> object:
            found = super()._param_value(name, sc)
            if found is not None or sc.fn is None:
                return found
            case = _parametrize_case(sc.fn, name)
            if case is None:
                return None
            if ex.pl_attr_expr(case, self.aliases):
                self.notes.append(f"{name} from the first parametrize case")
                return ("__src__", ast.unparse(case))
            sub = CaseResolver(self.scopes[1:], self.aliases, self.tree, self.pm, self.depth + 1)
            try:
                sub._from_expr("__v", case)
            except ex.NeedsContext:
                return None
            self.notes.append(f"{name} from the first parametrize case")
            return sub.values.get("__v")

        def _from_expr(self, name: str, e: ast.expr) -> None:
            if isinstance(e, ast.Name) and e.id not in self.aliases:
                self.resolve(e.id)
                if e.id in self.lines and e.id not in self.values:  # bound to a pl expression
                    self._emit(name, f"{name} = {e.id}")
                    return
            super()._from_expr(name, e)

    ex.Resolver = CaseResolver


def pld_aliases(tree: ast.Module) -> set[str]:
    """Names the file binds to the distributed module (`import pypto.language.distributed as
    pld`, `from pypto.language import distributed as pld`)."""
    names = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.Import):
            names.update(a.asname for a in n.names if a.name == DISTRIBUTED and a.asname)
        elif isinstance(n, ast.ImportFrom) and n.module == "pypto.language":
            names.update(a.asname or a.name for a in n.names if a.name == "distributed")
    return names


def extract(ex: ModuleType, ref: Path) -> list[dict[str, Any]]:
    """The kernels the extractor marks out of scope, extracted with `pld` bound."""
    out = []
    for rel in ex.candidate_files(ref):
        text = (ref / rel).read_text(encoding="utf-8", errors="replace")
        if DISTRIBUTED not in text and "distributed" not in text:
            continue
        try:
            tree = ast.parse(text)
        except SyntaxError:
            continue
        dist = pld_aliases(tree)
        if not dist:
            continue
        lines = text.splitlines(keepends=True)
        aliases = ex.pl_aliases(tree)
        pm = ex.parents_map(tree)
        for node in ast.walk(tree):
            if not (isinstance(node, ast.ClassDef)
                    and any(ex.is_program_decorator(d, aliases) for d in node.decorator_list)):
                continue
            if ex.class_kernel(rel, lines, tree, pm, node, aliases)["status"] != "out_of_scope":
                continue
            rec = ex.class_kernel(rel, lines, tree, pm, node, aliases | dist)
            if rec["status"] == "ready":
                head, _, rest = rec["src"].partition("\n")
                imports = "".join(f"import pl.distributed as {a}\n" for a in sorted(dist))
                rec["src"] = head + "\n" + imports + rest
            out.append(rec)
    return out


def run_one(rec: dict[str, Any]) -> tuple[str, str]:
    if rec["status"] != "ready":
        return "needs context", rec.get("reason", "")
    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(TIMEOUT)
    try:
        prog = pl.parse(rec["src"], filename=f"{rec['file']}::{rec['cls']}")
        compiled = pl.compile(prog, backend="910B", verify=True)
        text = compiled.as_python()
        try:
            again = pl.parse(text, filename=f"<printed {rec['id']}>")
            pl.assert_structural_equal(again, compiled.program)
        except (pl.PlError, AssertionError) as e:
            return "roundtrip", str(e).splitlines()[0][:300] if str(e) else type(e).__name__
        return "ok", ""
    except _Timeout:
        return "timeout", f"over {TIMEOUT} s"
    except pl.PlError as e:
        span = getattr(e, "span", None)
        located = span is not None and getattr(span, "line", 0) > 0
        first = str(e).splitlines()[0][:300] if str(e) else ""
        return ("user error" if located else "unlocated"), first
    except Exception as e:  # noqa: BLE001 (anything else escaping pl is an internal error)
        return "internal", f"{type(e).__name__}: {str(e).splitlines()[0][:300] if str(e) else ''}"
    finally:
        signal.alarm(0)


def interpret_one(rec: dict[str, Any], ranks: int) -> tuple[str, str]:
    """Run a kernel's HOST orchestrator as `ranks` ranks on seeded random inputs (every dynamic
    dim `ranks`; scalars 1): ran | no host | located (a PlError with a line: a wait no rank
    satisfies, an undefined meaning, ...) | unlocated | internal | timeout."""
    import numpy as np

    from pl.interpreter.values import np_dtype
    from pl.ir import ConstInt, Level, ParamDirection, Program, ScalarType, TensorType

    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(TIMEOUT)
    try:
        prog = pl.parse(rec["src"], filename=f"{rec['file']}::{rec['cls']}")
        hosts = [f for f in prog.functions if f.level is Level.HOST and f.host_body is None] \
            if isinstance(prog, Program) else []
        if len(hosts) != 1:
            return "no host", f"{len(hosts)} HOST functions"
        host = hosts[0]
        rng = np.random.default_rng(0)
        args: list[Any] = []
        for p, d in zip(host.params, host.directions, strict=True):
            t = p.type
            if isinstance(t, ScalarType):
                args.append(1)
            elif isinstance(t, TensorType):
                shape = tuple(x.value if isinstance(x, ConstInt) else ranks for x in t.shape)
                dt = np.dtype(np_dtype(t.dtype))
                if d is ParamDirection.In and dt.kind == "f":
                    args.append(rng.standard_normal(shape).astype(dt))
                else:
                    args.append(np.zeros(shape, dt))
            else:
                return "no host", f"parameter {p.name} of type {type(t).__name__}"
        pl.interpret(prog, *args, ranks=ranks, entry=host.name)
        return "ran", ""
    except _Timeout:
        return "timeout", f"over {TIMEOUT} s"
    except pl.PlError as e:
        span = getattr(e, "span", None)
        located = span is not None and getattr(span, "line", 0) > 0
        first = str(e).splitlines()[0][:300] if str(e) else ""
        return ("located" if located else "unlocated"), first
    except Exception as e:  # noqa: BLE001 (anything else escaping pl is an internal error)
        return "internal", f"{type(e).__name__}: {str(e).splitlines()[0][:300] if str(e) else ''}"
    finally:
        signal.alarm(0)


ORDER = ("ok", "roundtrip", "user error", "unlocated", "internal", "timeout", "needs context")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("ref", type=Path, help="the reference's source folder")
    ap.add_argument("--extract", type=Path, default=EXTRACTOR, help="the corpus extractor")
    ap.add_argument("--filter", default="", help="only kernels whose id contains this")
    ap.add_argument("--show", default=None, help="print one kernel's text and outcome")
    ap.add_argument("--out", type=Path, default=None, help="write one JSON line per kernel")
    ap.add_argument("--interpret", type=int, default=0, metavar="N",
                    help="also run each valid kernel that compiles and has one HOST orchestrator "
                         "on N ranks (pl.interpret), and tabulate how those runs end")
    args = ap.parse_args(argv)
    ex = load_extractor(args.extract)
    with_test_cases(ex)
    recs = [r for r in extract(ex, args.ref) if args.filter in r["id"]]
    if args.show is not None:
        recs = [r for r in recs if args.show in r["id"]][:1]
        for r in recs:
            print(r.get("src", r.get("reason", "")))
            print(run_one(r))
        return 0
    counts: dict[bool, Counter[str]] = {False: Counter(), True: Counter()}
    failures = []
    lines = []
    for r in recs:
        outcome, msg = run_one(r)
        counts[bool(r["expected_error"])][outcome] += 1
        lines.append({"id": r["id"], "outcome": outcome, "msg": msg,
                      "expected_error": r["expected_error"]})
        if outcome != "ok" and not r["expected_error"]:
            failures.append(f"{outcome:13} {r['id']}: {msg}")
    if args.interpret:
        runs: Counter[str] = Counter()
        for r, line in zip(recs, lines, strict=True):
            if line["outcome"] != "ok" or r["expected_error"]:
                continue
            outcome, msg = interpret_one(r, args.interpret)
            runs[outcome] += 1
            line["interpret"] = outcome
            if outcome not in ("ran", "no host"):
                print(f"interpret {outcome:10} {r['id']}: {msg}")
        print(f"\ninterpreted on {args.interpret} ranks: " + ", ".join(
            f"{o} {runs[o]}" for o in ("ran", "located", "unlocated", "internal", "timeout",
                                       "no host")))
    if args.out is not None:
        args.out.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    for f in failures:
        print(f)
    print(f"\n{'outcome':15}{'valid':>8}{'in pytest.raises':>18}")
    for o in ORDER:
        print(f"{o:15}{counts[False][o]:8}{counts[True][o]:18}")
    total = sum(counts[False].values()) + sum(counts[True].values())
    valid = sum(counts[False].values())
    print(f"{'total':15}{valid:8}{total - valid:18}")
    if valid:
        print(f"compile + round trip: {counts[False]['ok']}/{valid} valid kernels "
              f"({100 * counts[False]['ok'] / valid:.1f}%)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

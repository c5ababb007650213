"""A result never depends on what was compiled before in the same process.

Memos keyed by the values a user wrote must tell `0` from `False` and `1` from `True` (Python
hashes them alike): each kernel below is compiled in a fresh interpreter alone and after its twin,
in both orders, and must print the same program every time.

And across many programs: the examples, the inference cases (every one a class named `Before`),
the twins, generated kernels and copies of them that keep every name but change the dtype, all
parsed under the same file name, are compiled in one process in program order and then again in
reverse order, and in another process in a shuffled order; every program prints the same each
time.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from infer_cases.cases import CASES
from test_compile_memory import distinct_kernel

ROOT = Path(__file__).resolve().parent.parent


def _kernel(call: str) -> str:
    return f'''import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def main(self, x: pl.Tensor[[8, 16], pl.FP32], y: pl.Tensor[[8, 16], pl.FP32],
             out: pl.Out[pl.Tensor[[8, 16], pl.FP32]]) -> pl.Tensor[[8, 16], pl.FP32]:
        s = {call}
        out = pl.assemble(out, pl.add(y, 1.0), [0, 0])
        return out
'''


TWINS = [
    ("pl.tensor.row_sum(x, keep_dim=False)", "pl.tensor.row_sum(x, keep_dim=0)"),
    ("pl.tensor.row_max(x, keep_dim=True)", "pl.tensor.row_max(x, keep_dim=1)"),
    ("pl.tensor.col_sum(x, keep_dim=False)", "pl.tensor.col_sum(x, keep_dim=0)"),
]

_SCRIPT = """
import json, sys
import pl
out = []
for text in json.loads(sys.stdin.read()):
    try:
        out.append(pl.python_print(pl.parse(text)) + "\\n" + pl.compile(pl.parse(text)).as_python())
    except pl.PlError as e:
        out.append("error: " + e.message)
print(json.dumps(out))
"""


def _compile_in_fresh_process(texts: list[str]) -> list[str]:
    # The texts go through stdin: as one argument they would pass the OS's limit on its length.
    done = subprocess.run([sys.executable, "-c", _SCRIPT], input=json.dumps(texts), cwd=ROOT,
                          capture_output=True, text=True, check=True)
    result: list[str] = json.loads(done.stdout)
    return result


@pytest.mark.parametrize(("first", "second"), TWINS, ids=[t[1] for t in TWINS])
def test_compiling_a_twin_first_changes_nothing(first: str, second: str) -> None:
    a, b = _kernel(first), _kernel(second)
    alone = _compile_in_fresh_process([a]) + _compile_in_fresh_process([b])
    a_then_b = _compile_in_fresh_process([a, b])
    b_then_a = _compile_in_fresh_process([b, a])
    assert a_then_b == alone
    assert b_then_a == alone[::-1]


def _programs() -> list[str]:
    texts = [p.read_text() for p in sorted((ROOT / "examples").glob("*.py"))]
    texts += [c.source("Before") for c in CASES]
    texts += [_kernel(call) for pair in TWINS for call in pair]
    generated = [distinct_kernel(i) for i in range(0, 60, 4)]
    texts += generated
    # Same names (file, class, function, values), other dtype: a memo keyed by a name would mix
    # them up.
    texts += [t.replace("pl.FP32", "pl.FP16") if "pl.FP32" in t else t.replace("pl.FP16", "pl.FP32")
              for t in generated]
    return texts


def test_many_programs_print_the_same_in_any_compile_order() -> None:
    texts = _programs()
    n = len(texts)
    forward_then_reverse = _compile_in_fresh_process(texts + texts[::-1])
    forward, reverse = forward_then_reverse[:n], forward_then_reverse[n:][::-1]
    order = list(range(n))
    random.Random(16).shuffle(order)
    shuffled_out = _compile_in_fresh_process([texts[i] for i in order])
    shuffled = [""] * n
    for out, i in zip(shuffled_out, order, strict=True):
        shuffled[i] = out
    assert not [out for out in forward if out.startswith("error: ")], "every program compiles"
    for i in range(n):
        assert reverse[i] == forward[i], f"program {i} prints differently after the others"
        assert shuffled[i] == forward[i], f"program {i} prints differently in a shuffled order"


def test_typed_keys_tell_equal_values_of_other_types_apart() -> None:
    from pl.ir.keys import typed_key

    assert typed_key(0) != typed_key(False)
    assert typed_key(1) != typed_key(1.0)
    assert typed_key((0, 1)) != typed_key((False, True))
    assert typed_key([("keep_dim", 0)]) != typed_key([("keep_dim", False)])
    assert typed_key({"a": 1}) != typed_key({"a": True})
    # Equal values of the same types, built apart, are one memo entry; a list is not a tuple.
    a, b = [("keep_dim", False), ("axis", 1)], [("keep_dim", False), ("axis", int("1"))]
    assert a is not b and typed_key(a) == typed_key(b) and hash(typed_key(a)) == hash(typed_key(b))
    assert {typed_key(a): "memo"}.get(typed_key(b)) == "memo"
    assert typed_key([1]) != typed_key((1,))

"""Generate the benchmark kernel of the performance issue for N tile statements.

`import pl`; one `@pl.program` with an InCore `kern(self, x, w, out_0)` over [64, 64] FP32 tensors
that loads x into t0 and w into wt, then N statements `tI = pl.matmul(t(I-1), wt)` when I is a
multiple of 10, else pl.add / pl.mul / pl.sub of t(I-1) and t0 in turn; stores the last into out_0;
and an Orchestration `main` that creates out_0 with pl.create_tensor and calls self.kern.
"""

from __future__ import annotations

import sys

_VECTOR_OPS = ("add", "mul", "sub")


def kernel_source(n: int) -> str:
    lines = [
        "import pl",
        "",
        "",
        "@pl.program",
        "class Bench:",
        "    @pl.function(type=pl.FunctionType.InCore)",
        "    def kern(",
        "        self,",
        "        x: pl.Tensor[[64, 64], pl.FP32],",
        "        w: pl.Tensor[[64, 64], pl.FP32],",
        "        out_0: pl.Out[pl.Tensor[[64, 64], pl.FP32]],",
        "    ) -> pl.Tensor[[64, 64], pl.FP32]:",
        "        t0 = pl.load(x, [0, 0], [64, 64])",
        "        wt = pl.load(w, [0, 0], [64, 64])",
    ]
    vector_turn = 0
    for i in range(1, n + 1):
        if i % 10 == 0:
            lines.append(f"        t{i} = pl.matmul(t{i - 1}, wt)")
        else:
            op = _VECTOR_OPS[vector_turn % 3]
            vector_turn += 1
            lines.append(f"        t{i} = pl.{op}(t{i - 1}, t0)")
    lines += [
        f"        out_0 = pl.store(t{n}, [0, 0], out_0)",
        "        return out_0",
        "",
        "    @pl.function(type=pl.FunctionType.Orchestration)",
        "    def main(",
        "        self,",
        "        x: pl.Tensor[[64, 64], pl.FP32],",
        "        w: pl.Tensor[[64, 64], pl.FP32],",
        "    ) -> pl.Tensor[[64, 64], pl.FP32]:",
        "        out_0 = pl.create_tensor([64, 64], dtype=pl.FP32)",
        "        out_0 = self.kern(x, w, out_0)",
        "        return out_0",
        "",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.stdout.write(kernel_source(int(sys.argv[1]) if len(sys.argv) > 1 else 1000))

"""DSL sources of the residency scenarios (pass.md 8, TestLoopInvariantMatResidency).

Each kernel is a tile-level InCore function `kernel(lhs, rhs, out, m)`; `orch(...)` builds the
callers that provide (or deny) caller evidence. `LOOP` is the canonical loop: a stationary `lhs`
chain and an `n`-dependent `rhs` chain feeding one matmul.
"""

from __future__ import annotations

MAT = "target_memory=pl.MemorySpace.Mat"
LEFT = "target_memory=pl.MemorySpace.Left"
RIGHT = "target_memory=pl.MemorySpace.Right"

LHS_LOAD = f"lhs_mat = pl.tile.load(lhs, [0, 0], [16, 128], {MAT})"
LHS_MOVE = f"lhs_left = pl.tile.move(lhs_mat, {LEFT})"
RHS_LOAD = f"rhs_mat = pl.tile.load(rhs, [0, n], [128, 128], {MAT})"
RHS_MOVE = f"rhs_right = pl.tile.move(rhs_mat, {RIGHT})"
MATMUL = "c = pl.tile.matmul(lhs_left, rhs_right)"
STORE = "out = pl.tile.store(c, [0, n], out)"
LOOP_BODY = [LHS_LOAD, LHS_MOVE, RHS_LOAD, RHS_MOVE, MATMUL, STORE]

LHS_T = "pl.Tensor[[16, 128], pl.BF16]"
RHS_T = "pl.Tensor[[128, 256], pl.BF16]"
OUT_T = "pl.Tensor[[16, 256], pl.FP32]"


def kernel(body: list[str], *, loop: str = "pl.range(0, 256, 128)", lhs_dir: str = "",
           name: str = "kernel", func_type: str = "InCore") -> str:
    """An InCore kernel whose body is `for n in <loop>:` around `body` (lines; 4-space nesting)."""
    lhs_ann = f"pl.{lhs_dir}[{LHS_T}]" if lhs_dir else LHS_T
    lines = [f"    @pl.function(type=pl.FunctionType.{func_type})",
             f"    def {name}(self, lhs: {lhs_ann}, rhs: {RHS_T}, out: pl.Out[{OUT_T}],",
             f"               m: pl.Scalar[pl.INDEX]) -> {OUT_T}:",
             f"        for n in {loop}:"]
    lines += ["            " + line for line in body]
    lines.append("        return out")
    return "\n".join(lines) + "\n"


def orch(calls: list[str], *, name: str = "main", params: str = "", func_type: str = "Orchestration",
         creates: tuple[str, ...] = ("fresh_lhs",)) -> str:
    """An orchestration function creating fresh tensors (`creates`) and making `calls`."""
    extra = f", {params}" if params else ""
    lines = [f"    @pl.function(type=pl.FunctionType.{func_type})",
             f"    def {name}(self, rhs: {RHS_T}, out: pl.Out[{OUT_T}]{extra}) -> {OUT_T}:"]
    for c in creates:
        shape = "[16, 128]" if "lhs" in c else "[128, 256]"
        lines.append(f"        {c} = pl.create_tensor({shape}, dtype=pl.BF16)")
    lines += ["        " + c for c in calls]
    lines.append("        return out")
    return "\n".join(lines) + "\n"


def program(*functions: str) -> str:
    return "import pl\n\n\n@pl.program\nclass P:\n" + "\n".join(functions)


SAFE_CALL = "out = self.kernel(fresh_lhs, rhs, out, 0)"
ROOT = orch([SAFE_CALL])

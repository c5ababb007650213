"""@pl.jit kernels for tests/test_jit.py: each is specialised on the shapes of the arrays it is
called with (CASES gives the shapes and dtypes each runs on, and NumPy's own result)."""

import pl

ROWS = pl.dynamic("ROWS")


@pl.jit.incore
def scaled_sum(x: pl.Tensor, y: pl.Tensor, out: pl.Out[pl.Tensor]) -> pl.Tensor:
    rows, cols = x.shape
    tx = pl.load(x, [0, 0], [rows, cols])
    ty = pl.load(y, [0, 0], [rows, cols])
    pl.store(pl.add(pl.mul(tx, 2.0), ty), [0, 0], out)
    return out


@pl.jit
def twice_plus(x: pl.Tensor, y: pl.Tensor, out: pl.Out[pl.Tensor]) -> pl.Tensor:
    out = scaled_sum(x, y, out)
    return out


@pl.jit
def row_exp(x: pl.Tensor, out: pl.Out[pl.Tensor]) -> pl.Tensor:
    """One pl.at scope per block of 16 rows: the tail extent follows x.shape[0]."""
    cols = x.shape[1]
    blocks = x.shape[0] // 16
    for b in pl.range(blocks):
        with pl.at(level=pl.Level.CORE_GROUP):
            t = pl.load(x, [b * 16, 0], [16, cols])
            pl.store(pl.exp(t), [b * 16, 0], out)
    return out


@pl.jit
def dyn_rows(x: pl.Tensor[[ROWS, 32], pl.FP32], out: pl.Out[pl.Tensor[[ROWS, 32], pl.FP32]]
             ) -> pl.Tensor[[ROWS, 32], pl.FP32]:
    """A pl.dynamic first dim: one compilation serves every row count."""
    rows = x.shape[0]  # the dynamic dim: its extent is read when the kernel runs
    for r in pl.range(rows):
        with pl.at(level=pl.Level.CORE_GROUP):
            t = pl.load(x, [r, 0], [1, 32])
            pl.store(pl.sub(t, 1.0), [r, 0], out)
    return out


@pl.jit
def square_matmul(a: pl.Tensor, b: pl.Tensor, c: pl.Out[pl.Tensor]) -> pl.Tensor:
    m, k = a.shape
    n = b.shape[1]
    with pl.at(level=pl.Level.CORE_GROUP):
        ta = pl.load(a, [0, 0], [m, k], target_memory=pl.MemorySpace.Mat)
        tb = pl.load(b, [0, 0], [k, n], target_memory=pl.MemorySpace.Mat)
        la = pl.move(ta, target_memory=pl.MemorySpace.Left)
        rb = pl.move(tb, target_memory=pl.MemorySpace.Right)
        pl.store(pl.matmul(la, rb), [0, 0], c)
    return c


@pl.jit
def fixed(x: pl.Tensor[[16, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]]
          ) -> pl.Tensor[[16, 64], pl.FP16]:
    """Every shape written: compiles without samples."""
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(x, [0, 0], [16, 64])
        pl.store(pl.add(t, t), [0, 0], out)
    return out


@pl.jit.inline
def tagged_scaled_sum(x: pl.Tensor, y: pl.Tensor, out: pl.Tensor) -> pl.Tensor:
    """Tags its parameter `x`: the kernel call after it lists the caller's argument to dump."""
    pl.dump_tag(x)
    out = scaled_sum(x, y, out)
    return out


@pl.jit
def twice_plus_tagged(x: pl.Tensor, y: pl.Tensor, out: pl.Out[pl.Tensor]) -> pl.Tensor:
    out = tagged_scaled_sum(x, y, out)
    return out


@pl.jit
def bound_rows(x: pl.Tensor, out: pl.Out[pl.Tensor]) -> pl.Tensor:
    """Unshaped parameters whose first dim the body binds to ROWS (the reference's form)."""
    x.bind_dynamic(0, ROWS)
    out.bind_dynamic(0, ROWS)
    rows = x.shape[0]
    for r in pl.range(rows):
        with pl.at(level=pl.Level.CORE_GROUP):
            t = pl.load(x, [r, 0], [1, 32])
            pl.store(pl.add(t, 3.0), [r, 0], out)
    return out

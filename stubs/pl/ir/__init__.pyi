"""Kernels only see the IR through `pl.Program` / `pl.Function` results; see pl.ir.function."""

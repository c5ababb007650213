"""`pl.optimizations.split` / `pl.optimizations.cross_core_slot`: the qualified spellings of the
entries of `optimizations=[...]` on pl.at / pl.spmd (the same objects as `pl.split` and
`pl.cross_core_slot`, so the frontend knows them by identity)."""

from pl.language.dsl import cross_core_slot, split

__all__ = ["cross_core_slot", "split"]

"""Phase 4 of InferTileMemorySpace, loop-invariant Mat residency: entry point `apply.apply_residency`."""

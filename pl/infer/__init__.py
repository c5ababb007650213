"""Memory-space inference (phases 0-3), Mat residency (phase 4), the verifier, the decision log."""

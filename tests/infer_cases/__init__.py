"""Data for the memory-space inference tests: Before/Expected DSL programs (cases.py)."""

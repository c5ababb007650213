"""Kernel source files read as CPython reads them, and loaded without running them.

`python` decodes, checks and restores text; `static_module` loads a file's module statically;
`static_eval` evaluates the constants it defines.
"""

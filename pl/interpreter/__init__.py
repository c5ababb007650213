"""`pl.interpret(program, *args)`: a NumPy reference interpreter for the IR (entry points in `run`)."""

from pl.interpreter.run import entry_function, interpret, supported_ops

__all__ = ["entry_function", "interpret", "supported_ops"]

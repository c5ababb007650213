"""The tools a kernel file calls: pl.compile and pl.interpret take a `@pl.program` class."""

from pathlib import Path

import pl


@pl.program
class Program:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[16, 16], pl.FP32]) -> pl.Tensor[[16, 16], pl.FP32]:
        return x


@pl.program(strict_ssa=True)
class StrictProgram:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[16, 16], pl.FP32]) -> pl.Tensor[[16, 16], pl.FP32]:
        return x


class Plain:
    pass


def tools() -> None:
    pl.compile(Program)
    pl.compile(StrictProgram, "950", residency=False, dump_passes=Path("passes"), verify=True)
    pl.compile(Program, None, dump_passes="passes")
    pl.interpret(Program, 1.0, entry="kernel")
    pl.interpret(StrictProgram, function="kernel")
    pl.compile(Plain)  # E: "Plain" is not a pl program: decorate the class with @pl.program
    pl.interpret(Plain)  # E: "Plain" is not a pl program: decorate the class with @pl.program
    pl.compile(Program, colour=1)  # E: Unexpected keyword argument "colour" for "compile"
    pl.compile(1)  # E: Argument 1 to "compile" has incompatible type "int"

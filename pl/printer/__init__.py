"""The printer: IR -> canonical typed Python source in the DSL (entry points in `program`)."""

from pl.printer.program import print_call_parts, print_expr, print_node, print_stmt, print_type

__all__ = ["print_call_parts", "print_expr", "print_node", "print_stmt", "print_type"]

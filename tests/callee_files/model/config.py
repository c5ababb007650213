"""Shapes shared by the model's files."""

ROWS = 16
HIDDEN = 64

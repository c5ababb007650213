"""`python -m pl.lsp`: the language server on standard input and output."""

from pl.lsp import main

main()

import pl

NAME = "café"  # error: utf-8

import pl

ROWS = COLS * 2  # error: COLS

import pl

ROWS = 16

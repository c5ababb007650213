import pl

SIZE = 64 // 0  # error: division

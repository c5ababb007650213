import pl


@pl.program  # error: class
def f(a):
    return a

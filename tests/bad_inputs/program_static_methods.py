import pl


@pl.program
class K:  # error: Class 'K' contains no @pl.function decorated methods
    @staticmethod
    def f(a):
        return a

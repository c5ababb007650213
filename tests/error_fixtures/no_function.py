import pl


@pl.program
class Empty:  # error: Class 'Empty' contains no @pl.function decorated methods  # error-col: 7
    def helper(self, a):
        return a

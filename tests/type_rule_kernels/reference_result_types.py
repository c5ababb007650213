import pl


@pl.program
class K:
    @pl.function
    def literals(self, x: pl.Tensor[[16], pl.INT32], h: pl.Tensor[[16], pl.INT16]) -> pl.Tensor[[16], pl.INT32]:
        # a bare int literal takes the tensor's dtype: INT32 stays INT32, INT16 stays INT16
        a: pl.Tensor[[16], pl.INT32] = pl.mul(x, 2)
        b: pl.Tensor[[16], pl.INT16] = pl.add(h, 3)
        c: pl.Tensor[[16], pl.FP32] = pl.mul(x, 2.5)  # a float literal still promotes
        i: pl.Scalar[pl.INT32] = 1  # the literal is an INT32 constant
        return a

    @pl.function(type=pl.FunctionType.InCore)
    def views(self, v: pl.Tensor[[64], pl.FP32], src: pl.Tensor[[8, 4], pl.FP32],
              out: pl.Out[pl.Tensor[[32], pl.FP32]]) -> pl.Tensor[[32], pl.FP32]:
        t: pl.Tile[[64], pl.FP32] = pl.load(v, [0], [64])
        half: pl.Tile[[32], pl.FP32] = pl.tile.slice(t, [32], [0])  # a 1-D slice stays 1-D
        dn: pl.Tensor[[4, 8], pl.FP32, pl.TensorView(stride=[1, 4], layout=pl.TensorLayout.DN)] = (
            pl.tensor.view(src, layout=pl.TensorLayout.DN)  # the trailing pair swaps
        )
        return pl.store(half, [0], out)

    @pl.function
    def writes(self, x: pl.Tensor[[4, 16], pl.FP32], out: pl.Tensor[[2, 8, 32], pl.FP32],
               wide: pl.Tensor[[16, 8], pl.FP32], dst: pl.Tensor[[16, 4], pl.FP32]) -> pl.Tensor[[16, 4], pl.FP32]:
        # a lower-rank source reinterprets the target's axes: no per-axis bounds check
        out2: pl.Tensor[[2, 8, 32], pl.FP32] = pl.assemble(out, x, [1, 3, 7])
        narrowed = pl.set_validshape(wide, 16, 4)
        plus = pl.add(narrowed, 1.0)  # keeps the [16, 4] valid region
        # only the valid region is transferred, so it is what must fit
        dst2: pl.Tensor[[16, 4], pl.FP32] = pl.assemble(dst, plus, [0, 0])
        return dst2

    @pl.function
    def merged(self, a: pl.Tensor[[1, 128], pl.FP32], b: pl.Tensor[[1, 128], pl.FP32],
               c: pl.Tensor[[1, 128], pl.FP32], d: pl.Tensor[[1, 128], pl.FP32],
               inp: pl.Tensor[[4, 8], pl.FP32], dst: pl.Tensor[[4, 16], pl.FP32]) -> pl.Tensor[[1, 512], pl.FP32]:
        m: pl.Tensor[[1, 512], pl.FP32] = pl.tensor.mrgsort(a, b, c, d)  # the lists' lengths add up
        s: pl.Tensor[[4, 16], pl.FP32] = pl.tensor.scatter(inp, mask_pattern=1, dst=dst)  # dst's type
        return m

    @pl.function
    def slices(self, a: pl.Tensor[[16, 60], pl.FP32], b: pl.Tensor[[16, 64], pl.FP32]) -> pl.Tensor[[16, 32], pl.FP32]:
        # a slice reads a window as tile.load does: valid only where the source is
        s: pl.Tensor[[16, 32], pl.FP32, pl.TensorView(valid_shape=[16, 28])] = pl.slice(
            a, [16, 32], [0, 32], clamp=True)  # clamp=True: valid up to the source edge
        # without clamp, what must fit is the extent read: the valid_shape when one is given
        u: pl.Tensor[[16, 32], pl.FP32, pl.TensorView(valid_shape=[16, 28])] = pl.slice(
            a, [16, 32], [0, 32], valid_shape=[16, 28])
        n = pl.set_validshape(b, 16, 40)
        v: pl.Tensor[[16, 16], pl.FP32, pl.TensorView(valid_shape=[16, 8])] = pl.slice(n, [16, 16], [0, 32])
        w: pl.Tensor[[16, 16], pl.FP32, pl.TensorView(valid_shape=[16, 0])] = pl.slice(
            n, [16, 16], [0, 48], clamp=True)
        return s

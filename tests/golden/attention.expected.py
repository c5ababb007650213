"""An attention-style kernel: S = Q K^T, a row softmax built from vector ops, then O = P V.

Per 64-row block of K/V the scores come out of the cube unit in Acc; the softmax runs on the
vector unit (so inference moves S from Acc to Vec, row-major), and the FP16 probabilities move to
Left for the second matmul. Q is created by the root, so residency loads it (and its Left move)
once, before the block loop; K and V blocks stream inside it.
"""

import pl


@pl.program
class Attention:
    @pl.function(type=pl.FunctionType.InCore)
    def attend(
        self,
        q: pl.Tensor[[16, 64], pl.FP16],
        k: pl.Tensor[[256, 64], pl.FP16],
        v: pl.Tensor[[256, 64], pl.FP16],
        out: pl.Out[pl.Tensor[[16, 256], pl.FP32]],
    ) -> pl.Tensor[[16, 256], pl.FP32]:
        for blk, (acc,) in pl.range(0, 256, 64, init_values=(out,)):
            k_blk = pl.slice(k, [64, 64], [blk, 0])
            v_blk = pl.slice(v, [64, 64], [blk, 0])
            # Scores of this block: [16, 64], produced in the accumulator.
            s = pl.matmul(q, k_blk, b_trans=True, out_dtype=pl.FP32)
            # Row softmax on the vector unit.
            m = pl.row_max(s)
            shifted = pl.row_expand_sub(s, m)
            e = pl.exp(shifted)
            total = pl.row_sum(e)
            p = pl.row_expand_div(e, total)
            p16 = pl.cast(p, target_type=pl.FP16)
            o = pl.matmul(p16, v_blk, out_dtype=pl.FP32)
            acc_next = pl.assemble(acc, o, [0, blk])
            result = pl.yield_(acc_next)
        return result

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        k: pl.Tensor[[256, 64], pl.FP16],
        v: pl.Tensor[[256, 64], pl.FP16],
        out: pl.Out[pl.Tensor[[16, 256], pl.FP32]],
    ) -> pl.Tensor[[16, 256], pl.FP32]:
        q = pl.create_tensor([16, 64], dtype=pl.FP16)
        result = self.attend(q, k, v, out)
        return result

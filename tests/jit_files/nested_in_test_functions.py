"""@pl.jit functions defined inside test functions, as the reference's tests write them: each
entry is found by static loading, sees the names of the function it is defined in, and is
specialised for the arrays that function builds, else for the shapes the callee it passes its
parameters to declares (an extern stub's signature); nothing in the tests is run."""

import pytest
import torch

import pl

COLS = 32


def _write_kernel(tmp_path):
    src = tmp_path / "ext.cpp"
    src.write_text('extern "C" void kernel_entry(int64_t* args) { (void)args; }\n')
    return src


def test_entry_with_a_local_callee():
    scale = 0.5

    @pl.jit.incore
    def scaled(x: pl.Tensor, out: pl.Out[pl.Tensor]):
        rows, cols = x.shape
        t = pl.load(x, [0, 0], [rows, cols])
        h = pl.mul(t, scale)
        pl.store(h, [0, 0], out)
        return out

    @pl.jit
    def entry(x: pl.Tensor, out: pl.Out[pl.Tensor]):
        out = scaled(x, out)
        return out

    x = torch.randn(16, COLS)
    out = torch.zeros(16, COLS)
    entry(x, out)


def test_entry_calling_an_extern_stub(tmp_path):
    cpp = _write_kernel(tmp_path)

    @pl.jit.extern(core_type="aiv", source=cpp)
    def relu(
        a: pl.Tensor[[64, 64], pl.FP16],
        out: pl.Out[pl.Tensor[[64, 64], pl.FP16]],
    ) -> pl.Tensor[[64, 64], pl.FP16]: ...

    @pl.jit
    def entry(a: pl.Tensor, out: pl.Out[pl.Tensor]) -> pl.Tensor:
        out = relu(a, out)
        return out

    assert entry._get_source_hash() is not None


def test_a_factory_of_entries(tmp_path):
    cpp = _write_kernel(tmp_path)

    def make_entry(dual):
        @pl.jit.extern(core_type="mixed", aic_source=cpp, aiv_source=cpp, dual_aiv_dispatch=dual)
        def pa(
            a: pl.Tensor[[16, 16], pl.FP32],
            out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
        ) -> pl.Tensor[[16, 16], pl.FP32]: ...

        @pl.jit
        def entry(a: pl.Tensor, out: pl.Out[pl.Tensor]) -> pl.Tensor:
            out = pa(a, out)
            return out

        return entry

    assert make_entry(False) is not make_entry(True)


def test_a_stub_the_reference_refuses(tmp_path):
    cpp = _write_kernel(tmp_path)
    with pytest.raises(ValueError, match="core_type must be"):

        @pl.jit.extern(core_type="cube", source=cpp)
        def k(a: pl.Tensor, out: pl.Out[pl.Tensor]): ...


def test_an_entry_never_called_with_arrays():
    @pl.jit
    def kernel(a: pl.Tensor):
        return a

    assert kernel is not None

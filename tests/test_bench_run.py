"""The benchmark script keeps working: every row it prints is measured, at tiny sizes."""

from __future__ import annotations

import pytest

from bench import run
from pl.compiler import default_passes


@pytest.fixture(autouse=True)
def _one_round(monkeypatch: pytest.MonkeyPatch) -> None:
    """One timing per row is enough to show the rows are measured (each costs full collections)."""
    monkeypatch.setattr(run, "ROUNDS", 1)
    monkeypatch.setattr(run, "REPEATS", 1)
    monkeypatch.setattr(run, "REGENERATION_ROUNDS", 1)


def test_stage_rows_for_every_size_and_stage() -> None:
    times = run.measure_stages([10, 20])
    stages = ["libcst.parse_module", "lower (CST -> IR)", *(p.name for p in default_passes("910B")), "print"]
    for n in (10, 20):
        assert list(times[n]) == stages
        assert all(0 < sec < 60 for sec in times[n].values())


def test_regeneration_rows() -> None:
    times = run.measure_regeneration([10, 20])
    for n in (10, 20):
        assert set(times[n]) == {"show_inferred", "cache cold", "cache warm"}
        assert 0 < times[n]["cache warm"] < times[n]["cache cold"]


def test_main_prints_tables_and_scaling(capsys: pytest.CaptureFixture[str]) -> None:
    run.main(["10", "20", "--stages"])
    out = capsys.readouterr().out
    assert "N = 10" in out and "N = 20" in out
    assert "after parse, total" in out and "scaling 10 -> 20 (x2 statements)" in out

"""The benchmark script keeps working: every row it prints is measured, at tiny sizes."""

from __future__ import annotations

from typing import Any

import pytest

from bench import run
from pl.compiler import default_passes


@pytest.fixture(autouse=True)
def _one_round(monkeypatch: pytest.MonkeyPatch) -> None:
    """One timing per row is enough to show the rows are measured (each costs full collections)."""
    monkeypatch.setattr(run, "ROUNDS", 1)
    monkeypatch.setattr(run, "REPEATS", 1)
    monkeypatch.setattr(run, "REGENERATION_ROUNDS", 1)
    monkeypatch.setattr(run, "SWEEP_SECONDS", 0.005)


def test_stage_rows_for_every_size_and_stage() -> None:
    times = run.measure_stages([10, 20])
    stages = ["libcst.parse_module", "CPython parse (ast)", "lower (CST -> IR)",
              *(p.name for p in default_passes("910B")), "print"]
    for n in (10, 20):
        assert list(times[n]) == stages
        assert all(len(secs) == 1 and 0 < secs[0] < 60 for secs in times[n].values())


def test_regeneration_rows() -> None:
    times = run.measure_regeneration([10, 20])
    for n in (10, 20):
        assert set(times[n]) == {"show_inferred", "cache cold", "cache warm"}
        assert len(times[n]["cache warm"]) == run.WARM_TIMINGS
        assert 0 < min(times[n]["cache warm"]) < min(times[n]["cache cold"])


def test_main_prints_tables_and_scaling(capsys: pytest.CaptureFixture[str]) -> None:
    run.main(["10", "20", "--stages"])
    out = capsys.readouterr().out
    assert "N = 10" in out and "N = 20" in out
    assert "after parse, total" in out and "scaling 10 -> 20 (x2 statements)" in out


def test_a_timing_sweeps_every_input_and_returns_the_last_sweeps_results() -> None:
    calls: list[int] = []

    def stage(x: int) -> list[int]:
        calls.append(x)
        return [x]

    sec, results = run.mean_over(stage, [1, 2, 3], sweeps=4)
    assert calls == [1, 2, 3] * 4
    assert results == [[1], [2], [3]] and sec > 0


def test_a_smaller_size_is_timed_on_distinct_inputs(monkeypatch: pytest.MonkeyPatch) -> None:
    """At N the stages run on (largest / N) distinct programs per timing, never one repeated."""
    seen: dict[str, list[int]] = {}
    real = run.mean_over

    def spy(fn: Any, inputs: list[Any], sweeps: int = 1) -> tuple[float, list[Any]]:
        name = getattr(getattr(fn, "args", (None,))[0], "name", None)
        if name is not None:
            seen.setdefault(name, []).append(len({id(x) for x in inputs}))
        return real(fn, inputs, sweeps)

    monkeypatch.setattr(run, "mean_over", spy)
    run.measure_stages([10, 40])
    for p in default_passes("910B"):
        assert sorted(set(seen[p.name])) == [1, 4]


def test_scaling_pairs_timings_taken_together() -> None:
    """A slow spell that doubles one pair's timings leaves the paired median alone; the ratio of
    best times follows each size's single fastest timing."""
    smaller = [1.0, 2.0, 1.1, 1.0, 2.2]
    larger = [4.0, 8.0, 4.4, 4.2, 8.8]
    paired, of_best = run.scaling(smaller, larger)
    assert paired == pytest.approx(4.0)
    assert of_best == pytest.approx(4.0)
    paired, of_best = run.scaling([1.0, 0.8, 1.0], [4.0, 4.0, 4.0])
    assert paired == pytest.approx(4.0) and of_best == pytest.approx(5.0)
    with pytest.raises(ValueError):
        run.scaling([1.0], [4.0, 4.0])


def test_process_rows_time_every_command_as_a_whole_process(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(run, "PROCESS_ROUNDS", 1)
    runs = run.measure_processes([10])[10]
    assert list(runs) == list(run.PROCESS_ROWS)
    for row, timings in runs.items():
        assert len(timings) == 1
        cpu, wall, peak = timings[0]
        assert 0 < cpu < 60 and 0 < wall < 60 and peak > 1, row


def test_a_failing_process_is_an_error_not_a_timing(tmp_path: Any) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("def f(:\n", encoding="utf-8")
    with pytest.raises(RuntimeError, match="failed"):
        run.process_seconds(run.PROCESS_ROWS["show_inferred --no-cache"], str(bad))


def test_infer_scaling_pairs_timings_of_the_public_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(run, "INFER_TIMINGS", 2)
    paired, of_best = run.infer_scaling(10, 40)
    assert paired > 0 and of_best > 0

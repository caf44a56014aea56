"""bench/bench_api.py's slicing: every request runs once, a game's deals in order, and
the phases take turns. (The benchmark itself is run by hand, never as a test.)"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from django.conf import settings


def bench_api():
    path = Path(settings.BASE_DIR) / "bench" / "bench_api.py"
    spec = importlib.util.spec_from_file_location("bench_api_under_test", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class FakeLoad:
    """Records what each run was given; every request takes 1 ms and answers 200."""

    def __init__(self) -> None:
        self.runs: list[list[list[str]]] = []

    def run(self, work, cap):
        self.runs.append(work)
        n = sum(len(items) for items in work)
        return bench_api().summary([0.001] * n, n / 1000, {200: n} if n else {})


def test_each_request_runs_once_in_order_and_the_phases_take_turns():
    module = bench_api()
    load = FakeLoad()
    deals = [[f"g{t}-{k}" for k in range(7)] for t in range(3)]  # three threads' games
    creates = [[f"c{t}-{k}" for k in range(4)] for t in range(3)]
    results = module.alternate(load, {"create": creates, "deals": deals}, rounds=3, cap=30)

    first = [run[0][0] if run[0] else "" for run in load.runs]
    kinds = [item[0] for item in first]
    assert kinds == ["c", "g", "g", "c", "c", "g"]  # A B, B A, A B
    for thread in range(3):
        ran = [item for run in load.runs for item in run[thread] if item.startswith("g")]
        assert ran == deals[thread]
        ran = [item for run in load.runs for item in run[thread] if item.startswith("c")]
        assert ran == creates[thread]
    assert results["deals"]["requests"] == 21 and results["create"]["requests"] == 12
    assert len(results["deals"]["rounds"]) == 3
    assert results["deals"]["statuses"] == {200: 21}

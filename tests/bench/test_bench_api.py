"""bench/bench_api.py's slicing: every request runs once, a game's deals in order, and
the phases take turns. (The benchmark itself is run by hand, never as a test.)"""

from __future__ import annotations

import argparse
import json

from tests.bench.modules import bench_module


def bench_api():
    return bench_module("bench_api")


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


def test_a_phone_sends_its_table_key_and_a_fresh_idempotency_key_each_time():
    module = bench_api()
    games = [
        {"id": 1, "key": "k1", "deals": [{"dealer": "A"}, {"dealer": "B"}]},
        {"id": 2, "key": "k2", "deals": [{"dealer": "C"}]},
    ]
    work = module.deal_work(games, 2, module.phone_headers)
    items = [item for thread in work for item in thread]
    assert len(items) == 3
    keys = [headers["Idempotency-Key"] for _method, _path, _body, headers in items]
    assert len(set(keys)) == 3
    for _method, path, _body, headers in items:
        game = 1 if "/games/1/" in path else 2
        assert headers["X-Table-Key"] == f"k{game}" and "Authorization" not in headers
    first_thread = [json.loads(body)["number"] for _m, _p, body, _h in work[0]]
    assert first_thread == [1, 2]  # a game's deals in order, numbered


def _figures(rps: float, p99: float = 10.0, statuses: dict | None = None) -> dict:
    return {"rps": rps, "p50": 1.0, "p99": p99, "requests": 10, "statuses": statuses or {200: 10}}


def _render(results: dict) -> str:
    module = bench_api()
    args = argparse.Namespace(games=1, threads=8, requests=10, rounds=2)
    statements = {"phone submission": 14, "event list": 3}
    run = {"tasks": {}, "drained": 0.5, "load": ((1, 1, 1), (2, 2, 2))}
    return module.render(results, args, statements, run)


def test_the_report_gives_each_request_its_figures_and_no_ratio_to_the_floor():
    text = _render(
        {
            "floor: trivial create": _figures(300),
            "phone submission": _figures(60, p99=180),
            "floor: trivial list (50 rows)": _figures(400),
            "event list": _figures(100, p99=150),
        }
    )
    assert "| phone submission | 10 | 60 | 1.0 | 180.0 | 200: 10 | 14 |" in text
    assert "| floor: trivial list (50 rows) | 10 | 400 |" in text
    assert "| event list | 10 | 100 | 1.0 | 150.0 | 200: 10 | 3 |" in text
    assert "×" not in text  # figures, not ratios to a trivial endpoint
    assert "with 8 clients at once, no error" in text and "met." in text
    assert "taken at 60 a second, 36 times what such an evening writes" in text


def test_the_report_says_which_target_is_missed():
    text = _render(
        {
            "floor: trivial create": _figures(300),
            "phone submission": _figures(12, p99=90),
            "event list": _figures(100, p99=650),
            "game detail": _figures(100, statuses={200: 8, 500: 2}),
        }
    )
    assert (
        "NOT met: event list p99 650 ms; game detail 2 errors; phone submission 12.0 deals/s."
        in text
    )

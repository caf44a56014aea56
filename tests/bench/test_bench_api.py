"""bench/bench_api.py's slicing: every request runs once, a game's deals in order, and
the phases take turns. (The benchmark itself is run by hand, never as a test.)"""

from __future__ import annotations

import argparse
import importlib.util
import json
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


def test_a_phase_runs_on_the_server_it_is_given():
    module = bench_api()
    warm, cold = FakeLoad(), FakeLoad()
    phases = {"base": [["b1", "b2"]], "read, warm": [["w1", "w2"]], "read, cold": [["c1", "c2"]]}
    results = module.alternate(warm, phases, rounds=2, cap=10, loads={"read, cold": cold})
    assert [item for run in cold.runs for item in run[0]] == ["c1", "c2"]
    assert all(not item.startswith("c") for run in warm.runs for items in run for item in items)
    assert {name: r["requests"] for name, r in results.items()} == {
        "base": 2,
        "read, warm": 2,
        "read, cold": 2,
    }


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


def test_the_report_says_which_target_is_missed():
    module = bench_api()

    def figures(rps, p99=10.0, group=None):
        out = {"rps": rps, "p50": 1.0, "p99": p99, "requests": 10, "statuses": {200: 10}}
        out["rounds"] = [rps, rps]
        if group:
            out["group"] = group
        return out

    results = {
        "trivial create": figures(100),
        "phone submission": figures(60, p99=20),
        "organiser submission": figures(70),
        "trivial list (50 rows) #1": figures(100, group=1),
        "event list, warm": figures(65, group=1),
        "trivial list (50 rows) #2": figures(100, group=2),
        "game detail, warm": figures(120, group=2),
        "game detail, cold": figures(45, group=2),
    }
    queries = {
        "event list": {"statements": 2, "cache reads": 0, "cold statements": 2},
        "game detail": {"statements": 1, "cache reads": 1, "cold statements": 3},
    }
    args = argparse.Namespace(games=1, threads=1, requests=10, rounds=2)
    run = {"tasks": {}, "drained": 0.5, "load": ((1, 1, 1), (2, 2, 2)), "reads": list(queries)}
    text = module.render(results, args, queries, run)
    assert "NOT met: event list, warm 0.65×." in text
    assert "| game detail, cold | 10 | 45 |" in text and "| 3 |" in text
    assert "0.60× (0.60–0.60), p99 2.00×" in text
    assert "(cold is warm, measured once): event list." in text

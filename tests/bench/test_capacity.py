"""bench/bench_capacity.py runs on main (issue 35: no benchmark may rot): its smallest
search on the real stack reports a knee, or "no knee up to N", and loses no write. Its
figures (the knee, errors, p99) are read as the report states them."""

from __future__ import annotations

import importlib.util
import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(settings.BASE_DIR)


def bench_module(name: str):
    path = ROOT / "bench" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"{name}_under_test", path)
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(ROOT / "bench"))
    spec.loader.exec_module(module)
    return module


def reachable(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(1)
        return s.connect_ex(("127.0.0.1", port)) == 0


def step(tables: int, p99: float, errors: int = 0) -> dict:
    return {
        "tables": tables,
        "viewers": 2 * tables,
        "rps": 3.0 * tables,
        "p99": p99,
        "errors": errors,
    }


def test_the_knee_is_the_last_step_within_the_limits() -> None:
    module = bench_module("bench_capacity")
    steps = [step(10, 80), step(20, 300), step(30, 650)]
    assert [s and s["tables"] for s in module.knee_of(steps)] == [20, 30]
    assert module.knee_of([step(10, 80), step(20, 90, errors=1)])[0]["tables"] == 10
    assert module.knee_of([step(10, 80)]) == (steps[0], None)  # no knee up to 10
    assert module.knee_of([step(10, 900)]) == (None, step(10, 900))


def test_a_step_counts_what_is_not_an_answer_as_an_error_and_sets_the_floor_apart() -> None:
    watch = bench_module("capacity_watch")
    requests = [("live part", 0.01, 304, 0)] * 98 + [("deal (form)", 0.6, 302, 0)] * 2
    requests += [("live part", 10.0, 0, 0), ("floor: DRF list", 2.0, 500, 0)]
    figures = watch.summarise(requests, 10.0)
    assert figures["errors"] == 2 and figures["rps"] == pytest.approx(10.2)
    assert figures["p99"] == pytest.approx(600.0)  # the floor's 2 s is not the site's
    assert figures["kinds"]["live part"]["statuses"] == {304: 98, 0: 1}


@pytest.mark.slow
@pytest.mark.skipif(
    not (reachable(5432) and reachable(6379)),
    reason="needs PostgreSQL at 127.0.0.1:5432 and Redis at 127.0.0.1:6379 (the production stack)",
)
def test_the_smallest_search_reports_a_knee_and_loses_no_write(tmp_path) -> None:
    out = tmp_path / "capacity.json"
    env = {
        **os.environ,
        "BENCH_DATABASE_URL": "postgres://postgres@127.0.0.1:5432/tavolo_bench_capacity_test",
        "BENCH_REDIS_URL": "redis://127.0.0.1:6379/11",
    }
    for key in ("DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE"):
        env.pop(key, None)
    command = [sys.executable, "bench/bench_capacity.py", "--tables-start", "2"]
    command += ["--tables-step", "2", "--tables-max", "4", "--step-seconds", "8"]
    command += ["--speed", "30", "--no-write", "--json", str(out)]
    run = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=240)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]

    figures = json.loads(out.read_text())
    assert "**Knee: " in run.stdout or "**Knee below " in run.stdout
    assert "no knee up to 4" in run.stdout or figures["past_knee"]
    assert figures["accepted"] > 0 and figures["lost"] == 0  # every accepted save is stored
    kinds = figures["steps"][0]["kinds"]
    assert {"deal (form)", "hand (form)", "live part", "referee desk"} <= set(kinds)
    assert "floor: DRF list" in figures["floor_idle"]


def figures_of(steps: list[dict], load: float) -> dict:
    module = bench_module("bench_capacity")
    resources = {"web_cpu": 1.9, "celery_cpu": 0.1, "db_cpu": 0.05, "queue_max": 2}
    for s in steps:
        s.update(p50=20.0, kinds={}, resources={**resources, "lag_p50": 0.3, "lag_p99": 0.8})
    passed, failed = module.knee_of(steps)
    return {
        "args": {"tables_start": 20, "tables_step": 20, "tables_max": 160, "step_seconds": 60,
                 "speed": 1},
        "started": "2026-11-28 19:00 UTC",
        "machine": "x86_64, nproc 2",
        "load": [(load, load, load), (load, load, load)],
        "floor_idle": {},
        "steps": steps,
        "accepted": 12,
        "lost": 0,
        "live_bytes": {"identity": 100_000, "gzip": 10_000},
        "knee": passed and {k: passed[k] for k in ("tables", "viewers", "rps", "p99")},
        "past_knee": failed and failed["tables"],
        "saturated": module.saturated(failed or steps[-1]),
    }  # fmt: skip


def test_the_report_states_the_knee_the_target_and_a_loaded_machine() -> None:
    module = bench_module("bench_capacity")
    text = module.render(figures_of([step(20, 100), step(40, 700)], load=4.0))
    assert "**Knee: 20 tables, 40 viewers, 60 requests/s (p99 100 ms)**; 40 tables" in text
    assert "p99 under 500 ms and no error: not met in this run." in text
    assert "the 150-table target is not yet measured on an idle machine" in text
    assert "First to saturate: the web workers' CPU (95% of what it can use)." in text
    quiet = module.render(figures_of([step(20, 100)], load=0.1))
    assert "no knee up to 20 tables" in quiet and "not measured (the search stopped" in quiet
    assert "not idle" not in quiet

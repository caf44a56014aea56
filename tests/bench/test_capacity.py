"""bench/bench_capacity.py runs on main (issue 35: no benchmark may rot): its smallest
search on the real stack reports a knee, or "no knee up to N", and loses no write. Its
figures (the knee, errors, p99) are read as the report states them."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

from tests.bench.modules import bench_module

ROOT = Path(settings.BASE_DIR)
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")


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


def run_bench(tmp_path: Path, name: str, redis_db: int, *options: str) -> tuple:
    """bench_capacity.py on a database and a Redis database of its own, at speed 30:
    (the finished process, its figures)."""
    out = tmp_path / "capacity.json"
    env = {
        **os.environ,
        "BENCH_DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/tavolo_bench_capacity_{name}",
        "BENCH_REDIS_URL": f"redis://127.0.0.1:6379/{redis_db}",
    }
    for key in ("DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE"):
        env.pop(key, None)
    command = [sys.executable, "bench/bench_capacity.py", *options]
    command += ["--speed", "30", "--no-write", "--json", str(out)]
    run = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=240)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    return run, json.loads(out.read_text())


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
    assert (figures["refused"], figures["no_answer"]) == (0, 1)


def test_a_refusal_past_the_knee_is_told_apart_from_no_answer() -> None:
    watch = bench_module("capacity_watch")
    requests = [("live part", 0.01, 304, 0)] * 7 + [("live part", 2.0, 503, 0)] * 2
    requests += [("deal (form)", 10.0, 0, 0)]
    figures = watch.summarise(requests, 1.0)
    assert (figures["errors"], figures["refused"], figures["no_answer"]) == (3, 2, 1)


def test_the_bench_runs_the_production_proxy_with_its_own_ports(tmp_path) -> None:
    stack = bench_module("capacity_stack")
    config = stack.proxy_config(8123, [8201, 8202], tmp_path).read_text()
    assert "    bind 127.0.0.1:8123\n" in config
    assert "    server web1 127.0.0.1:8201\n    server web2 127.0.0.1:8202" in config
    assert "    server-template" not in config and "resolvers docker" not in config
    assert f"maxconn {stack.NODE_WORKERS} observe layer4" in config
    # What production's proxy does past the knee, kept in the bench's copy.
    assert "timeout queue 2s" in config and "option redispatch 1" in config
    errorfile = (ROOT / "docker" / "haproxy" / "503.http").read_bytes()
    assert f"errorfile 503 {ROOT / 'docker' / 'haproxy' / '503.http'}" in config
    head, body = errorfile.split(b"\r\n\r\n", 1)
    assert head.startswith(b"HTTP/1.1 503 ") and b"\r\nRetry-After: 5" in head
    assert f"Content-Length: {len(body)}".encode() in head


@pytest.mark.slow
@pytest.mark.skipif(
    not (reachable(5432) and reachable(6379) and Path(CHROMIUM).exists()),
    reason="needs PostgreSQL at 127.0.0.1:5432 and Redis at 127.0.0.1:6379 (the production "
    "stack), and Chromium for the phones",
)
def test_the_smallest_search_reports_a_knee_and_loses_no_write(tmp_path) -> None:
    run, figures = run_bench(tmp_path, "test", 11, "--tables-start", "2", "--tables-step", "2",
                             "--tables-max", "4", "--step-seconds", "8",
                             "--phones", "--phones-period", "1")  # fmt: skip
    # The two phones' saves are shown on both, the saving one first; counted as writes.
    phones = figures["steps"][0]["phones"]
    assert phones["saves"] >= 1 and phones["other"]["shown"] == phones["saves"]
    assert phones["own"]["p50"] <= phones["other"]["p50"] < 15
    assert "**Knee: " in run.stdout or "**Knee below " in run.stdout
    assert "no knee up to 4" in run.stdout or figures["past_knee"]
    assert figures["accepted"] > 0 and figures["lost"] == 0  # every accepted save is stored
    kinds = figures["steps"][0]["kinds"]
    assert {"deal (form)", "hand (form)", "live part", "referee desk"} <= set(kinds)
    assert "floor: DRF list" in figures["floor_idle"]


@pytest.mark.slow
@pytest.mark.skipif(
    not (reachable(5432) and reachable(6379) and shutil.which("haproxy")),
    reason="needs PostgreSQL, Redis and HAProxy (apt-get install haproxy)",
)
def test_a_web_node_killed_mid_run_loses_no_accepted_write_and_no_login(tmp_path) -> None:
    """The node is killed 12 s into a 24 s step; the referee's desk polls at 0 and 20 s."""
    run, figures = run_bench(tmp_path, "nodes", 13, "--tables-start", "4", "--tables-max", "4",
                             "--step-seconds", "24", "--nodes", "2", "--stop-node")  # fmt: skip
    assert "Web node 2 of 2 killed" in run.stdout
    assert figures["accepted"] > 0 and figures["lost"] == 0
    (only,) = figures["steps"]
    # The referee stays logged in (sessions live in the database, not in a node).
    desk = only["kinds"]["referee desk"]
    assert desk["n"] >= 2 and set(desk["statuses"]) == {"200"}
    # The surviving node served the rest of the step.
    assert only["kinds"]["live part"]["n"] > 60


def figures_of(steps: list[dict], load: float) -> dict:
    """A run's figures; `load` above 1: other work shared the machine (the stack used 1.2
    cores of its 2, all busy), else the stack had it to itself (1.9 of 2)."""
    module = bench_module("bench_capacity")
    web = 1.2 if load > 1 else 1.9
    resources = {"web_cpu": web, "celery_cpu": 0.1, "db_cpu": 0.05, "queue_max": 2,
                 "load_cpu": 0.05, "machine_busy": 1.0}  # fmt: skip
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
    assert "First to saturate: none of the stack's own processes (nearest: the web" in text
    assert "| 0.60 |" in text  # other work: 2 busy cores less the stack's 1.4
    quiet = module.render(figures_of([step(20, 100)], load=0.1))
    assert "no knee up to 20 tables" in quiet and "not measured (the search stopped" in quiet
    assert "not idle" not in quiet
    assert "First to saturate: the web workers' CPU (95% of what it can use)." in quiet


def test_the_phones_are_reported_from_the_tap_with_a_save_never_shown_said() -> None:
    """--phones: each step's saves, the median and slowest times from the tap on save, and
    a save the other phone never showed said as such, not hidden in a median."""
    phones = bench_module("capacity_phones")
    shown = phones.summary(
        [
            {"number": 1, "own": 0.8, "other": 1.5},
            {"number": 2, "own": 1.2, "other": 1.9},
            {"number": 3, "own": 0.7, "other": 1.1},
        ]
    )
    assert shown == {
        "saves": 3,
        "own": {"shown": 3, "p50": 0.8, "max": 1.2},
        "other": {"shown": 3, "p50": 1.5, "max": 1.9},
    }
    lost = phones.summary([{"number": 1, "own": 1.1, "other": None}])
    assert lost["other"] == {"shown": 0, "p50": None, "max": None}
    first, second = step(150, 300), step(180, 450)
    first["phones"], second["phones"] = shown, lost
    text = bench_module("bench_capacity").render(figures_of([first, second], load=0.1))
    assert "| 150 | 3 | 3 | 0.80 / 1.20 | 3 | 1.50 / 1.90 |" in text
    assert "| 180 | 1 | 1 | 1.10 / 1.10 | 0 | never shown |" in text
    assert phones.render([step(20, 100)]) == []  # without --phones, no table


def test_the_report_states_each_nodes_cpu_cap_and_weighs_the_web_against_it() -> None:
    """--node-cpus: the command, the stack's line and the saturation say each node's budget;
    the web workers' CPU is weighed against the nodes' budgets, not the machine's cores."""
    module = bench_module("bench_capacity")
    figures = figures_of([step(20, 100), step(40, 700)], load=0.1)
    figures["args"].update(nodes=2, node_cpus=0.5)
    for s, throttled in zip(figures["steps"], (0.1, 0.85), strict=True):
        s["resources"]["web_cpu"], s["throttled"] = 0.95, throttled
        s.update(refused=0, no_answer=0)  # behind the proxy: past the knee, told apart
    figures["saturated"] = module.saturated(figures["steps"][-1], figures["args"])
    text = module.render(figures)
    assert " --speed 1 --nodes 2 --node-cpus 0.5`" in text
    assert (
        "Production stack: 2 web nodes (gunicorn, 2 sync workers each, each capped at 0.5 of a "
        "core by a cgroup as a machine of its own would be) behind HAProxy" in text
    )
    assert "PostgreSQL and Redis (these and the Celery workers uncapped)." in text
    assert (
        "First to saturate: the web workers' CPU (95% of what it can use, 1 core: 2 nodes "
        "capped at 0.5 of a core each)." in text
    )
    assert "The web nodes' budget: 2 × 0.5 = 1 core;" in text
    assert "used its whole quota and waited: 20 tables 10%, 40 tables 85%." in text
    one = figures_of([step(20, 100)], load=0.1)
    one["args"].update(node_cpus=1.5)
    assert "gunicorn, 2 sync workers, capped at 1.5 cores by a cgroup" in module.render(one)
    uncapped = module.render(figures_of([step(20, 100)], load=0.1))
    assert "cgroup" not in uncapped and "--node-cpus" not in uncapped

"""Every benchmark in bench/ runs on main with its smallest options, so none can rot
unseen (issue 35): a crash, a traceback or an exit code other than 0 (inside its targets)
or 1 (a target missed, which is a result, not a failure) fails. The figures themselves
are read in bench/RESULTS.md, never asserted here. bench_capacity.py has its own run
(tests/bench/test_capacity.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

BENCH = Path(settings.BASE_DIR) / "bench"

# script: (its smallest options, what it needs beyond Python).
SMALLEST: dict[str, tuple[list[str], str]] = {
    "bench_scoring.py": (["--games", "10", "--repeat", "1"], ""),
    "bench_burraco.py": (["--turns", "20", "--repeat", "1", "--runs", "1", "--pause", "0"], ""),
    "bench_movements.py": (["--pairs", "12", "--repeat", "1"], ""),
    "bench_seating.py": (["--budget", "0.5"], ""),
    "bench_table_page.py": (["--runs", "1", "--saves", "2"], "chromium"),
    "bench_viewer.py": (
        ["--tables", "4", "--baseline", "2", "--deals", "2", "--turns", "1", "--polls", "2"],
        "chromium",
    ),
    "bench_burraco_tournament.py": (
        ["--pairs", "12", "--small", "6", "--repeat", "1", "--database", "{db}"],
        "postgresql",
    ),
    "bench_standings.py": (
        ["--players", "100", "--games", "100", "--repeat", "1", "--database", "{db}"],
        "postgresql",
    ),
    "bench_api.py": (
        ["--games", "2", "--threads", "1", "--requests", "10", "--cap", "5", "--rounds", "1"],
        "postgresql+redis",
    ),
    "bench_live.py": (
        [
            *("--viewers", "2", "--tables", "2", "--deals", "4", "--slices", "1"),
            *("--interval", "0.2", "--workers", "1", "--celery", "1"),
        ],
        "postgresql+redis",
    ),
}


def test_every_benchmark_has_its_smallest_run() -> None:
    scripts = {p.name for p in BENCH.glob("bench_*.py")}
    assert scripts == set(SMALLEST) | {"bench_capacity.py"}


def _postgres_server() -> str | None:
    if connection.vendor != "postgresql":
        return None
    db = connection.settings_dict
    return f"postgres://{db['USER'] or 'postgres'}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}"


@pytest.mark.slow
@pytest.mark.django_db
@pytest.mark.parametrize("script", sorted(SMALLEST))
def test_the_benchmark_runs(script: str, worker_id: str) -> None:
    options, needs = SMALLEST[script]
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    server = _postgres_server()
    db = f"tavolo_bench_smoke_{script[6:-3]}_{worker_id}"
    if "postgresql" in needs:
        if server is None:
            pytest.skip("needs PostgreSQL (DATABASE_URL)")
        env["BENCH_POSTGRES"] = server
        env["BENCH_DATABASE_URL"] = f"{server}/{db}"
    if "redis" in needs:
        if not os.environ.get("REDIS_URL"):
            pytest.skip("needs Redis (REDIS_URL)")
        env["BENCH_REDIS_URL"] = "redis://127.0.0.1:6379/12"  # its own, emptied by the run
    if needs == "chromium" and not Path(os.environ.get("CHROMIUM", "/usr/bin/chromium")).exists():
        pytest.skip("needs Chromium")
    run = subprocess.run(
        [sys.executable, str(BENCH / script), *(o.format(db=db) for o in options), "--no-write"],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    try:
        assert run.returncode in (0, 1), run.stdout[-2000:] + run.stderr[-4000:]
        assert "Traceback" not in run.stderr, run.stderr[-4000:]
        assert run.stdout.strip(), "printed no figures"
    finally:
        if server is not None:
            import psycopg

            with psycopg.connect(f"{server}/postgres", autocommit=True) as admin:
                for name in (db, f"{db}_pristine"):
                    admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

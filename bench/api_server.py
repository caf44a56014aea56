"""bench/bench_api.py's processes: the database, gunicorn, the Celery worker, Redis."""

from __future__ import annotations

import http.client
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent


def server_env(database_url: str, redis_url: str, settings: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE=settings,
        PYTHONPATH=os.pathsep.join([str(ROOT), str(ROOT / "bench")]),
        DATABASE_URL=database_url,
        CONN_MAX_AGE="600",
        REDIS_URL=redis_url,
        DEBUG="0",
        LOG_LEVEL="ERROR",
        THROTTLE_WRITES="100000000/min",
        THROTTLE_AUTH="100000000/min",
    )
    return env


def recreate_database(database_url: str) -> None:
    import psycopg

    url = urlparse(database_url)
    name = url.path.lstrip("/")
    admin = url._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def redis_flush(redis_url: str) -> None:
    import redis

    redis.Redis.from_url(redis_url).flushdb()


def _bin(name: str) -> str:
    """A console script next to this Python (a worktree may use another's virtualenv)."""
    here = Path(sys.executable).parent / name
    return str(here if here.exists() else ROOT / ".venv" / "bin" / name)


def start_server(
    env: dict[str, str], port: int, workers: int = 2, threads: int = 1, own_group: bool = False
) -> subprocess.Popen:
    """gunicorn with `workers` processes, sync (threads 1) or gthread; `own_group`: in a
    process group of its own, so that it can be killed whole as a machine stops."""
    command = [_bin("gunicorn"), "config.wsgi", "--workers", str(workers)]
    if threads > 1:
        command += ["--worker-class", "gthread", "--threads", str(threads)]
    command += ["--bind", f"127.0.0.1:{port}", "--log-level", "warning", "--no-control-socket"]
    command += ["--timeout", "300"]  # a shared, loaded machine: no worker killed mid-request
    return subprocess.Popen(command, cwd=ROOT, env=env, start_new_session=own_group)


def start_worker(env: dict[str, str], log: Path) -> subprocess.Popen:
    """One Celery worker process, as production runs it, logging each task it runs."""
    command = [_bin("celery"), "-A", "config", "worker", "--concurrency", "1"]
    command += ["--loglevel", "INFO", "--logfile", str(log), "--without-gossip"]
    worker_env = {**env, "CELERY_TRACE_LOG_LEVEL": "INFO"}
    return subprocess.Popen(command, cwd=ROOT, env=worker_env, stdout=subprocess.DEVNULL)


def stop(process: subprocess.Popen) -> None:
    """End a process this benchmark started (by its pid), waiting for it."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def worker_tasks(log: Path) -> Counter:
    """How many tasks of each name the worker finished, from its log."""
    done = re.compile(r"Task (\S+)\[[^\]]+\] succeeded")
    text = log.read_text() if log.exists() else ""
    return Counter(m.group(1) for m in done.finditer(text))


def drained(redis_url: str, timeout: float) -> float | None:
    """Seconds until the broker holds no task (waiting or unacknowledged); None if not."""
    import redis

    client = redis.Redis.from_url(redis_url)
    started = time.perf_counter()
    while time.perf_counter() - started < timeout:
        if not client.llen("celery") and not client.hlen("unacked"):
            return time.perf_counter() - started
        time.sleep(0.2)
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(port: int, path: str, timeout: float = 300) -> None:
    until = time.time() + timeout
    while time.time() < until:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", path)
            conn.getresponse().read()
            return
        except OSError:
            time.sleep(0.2)
    raise SystemExit("gunicorn did not start")

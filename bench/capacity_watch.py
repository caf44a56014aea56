"""bench/bench_capacity.py's gauges: the figures of a step's requests, and what the stack
spent meanwhile (CPU from /proc, the standings queue's length and lag)."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path
from urllib.parse import urlparse

OK = {200, 301, 302, 304}  # 301: /favicon.ico's redirect, the trivial Django view
TICK = os.sysconf("SC_CLK_TCK")


def percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * q))] if values else 0.0


def summarise(requests: list[tuple[str, float, int, int]], elapsed: float) -> dict:
    """Requests/s of everything; p50, p99 and errors of the site's requests (the floor's
    apart); and the same per kind of request."""
    kinds: dict[str, dict] = {}
    for kind, seconds, status, _size in requests:
        k = kinds.setdefault(kind, {"times": [], "statuses": {}})
        k["times"].append(seconds * 1000)
        k["statuses"][status] = k["statuses"].get(status, 0) + 1
    site = [s * 1000 for kind, s, _st, _sz in requests if not kind.startswith("floor")]
    return {
        "requests": len(requests),
        "rps": len(requests) / elapsed if elapsed else 0.0,
        "p50": percentile(site, 0.5),
        "p99": percentile(site, 0.99),
        "errors": sum(1 for _k, _s, status, _z in requests if status not in OK),
        # Of the errors: refused by the proxy past the knee (503 with Retry-After), and
        # no answer within 10 s (the wall of timeouts the proxy is there to prevent).
        "refused": sum(1 for _k, _s, status, _z in requests if status == 503),
        "no_answer": sum(1 for _k, _s, status, _z in requests if status == 0),
        "kinds": {
            name: {
                "n": len(k["times"]),
                "p50": percentile(k["times"], 0.5),
                "p99": percentile(k["times"], 0.99),
                "statuses": k["statuses"],
            }
            for name, k in kinds.items()
        },
    }


def _stat(pid: int) -> tuple[int, float] | None:
    """(parent pid, CPU seconds) of a process, None once it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return int(fields[1]), (int(fields[11]) + int(fields[12])) / TICK


def _pids() -> list[int]:
    return [int(p) for p in os.listdir("/proc") if p.isdigit()]


def tree_cpu(root: int) -> float:
    """CPU seconds of a process and its children (gunicorn's workers, Celery's pool)."""
    stats = {pid: s for pid in _pids() if (s := _stat(pid))}
    family, total, grew = {root}, 0.0, True
    while grew:
        grew = False
        for pid, (parent, _cpu) in stats.items():
            if parent in family and pid not in family:
                family.add(pid)
                grew = True
    for pid in family:
        if pid in stats:
            total += stats[pid][1]
    return total


def database_cpu(name: str) -> float | None:
    """CPU seconds of the PostgreSQL backends serving database `name` (their process
    titles name it), None when /proc does not show them."""
    total, seen = 0.0, False
    for pid in _pids():
        try:
            title = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        if title.startswith("postgres:") and f" {name} " in title:
            stat = _stat(pid)
            if stat:
                total, seen = total + stat[1], True
    return total if seen else None


def machine_busy() -> tuple[float, float]:
    """(busy, total) CPU seconds of the whole machine, every process of every user."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]  # idle, iowait
    return (sum(fields) - idle) / TICK, sum(fields) / TICK


class Watch:
    """The stack's spending over a step, sampled every quarter second."""

    def __init__(
        self,
        servers: list[int],
        workers: list[int],
        database_url: str,
        redis_url: str,
        events: list[int],
    ) -> None:
        import redis

        # Every web node's gunicorn and every Celery worker (their process trees).
        self.servers, self.workers = servers, workers
        self.spent: dict[int, float] = {}
        self.database = urlparse(database_url).path.lstrip("/")
        self.redis = redis.Redis.from_url(redis_url)
        self.events = events  # [Barbu evening, Burraco tournament]

    def _spent(self, roots: list[int]) -> float:
        """CPU seconds of these process trees; a tree stopped meanwhile (a web node stopped
        mid-run) keeps what it had spent when last seen."""
        for root in roots:
            self.spent[root] = max(self.spent.get(root, 0.0), tree_cpu(root))
        return sum(self.spent[root] for root in roots)

    def _cpu(self) -> tuple:
        own = _stat(os.getpid())
        return (
            self._spent(self.servers),
            self._spent(self.workers),
            database_cpu(self.database),
            time.perf_counter(),
            own[1] if own else 0.0,  # this process: the load generator's threads
            machine_busy(),
        )

    def start_step(self) -> None:
        self.before = self._cpu()
        self.rebuilt: dict[int, set[float]] = {event: set() for event in self.events}
        self.queue_max = 0
        self.halt = threading.Event()
        self.sampler = threading.Thread(target=self._sample)
        self.sampler.start()

    def _sample(self) -> None:
        from django.db import connection

        from scoring.models import StandingsSource

        scopes = {f"event:{event}": event for event in self.events}
        try:
            while not self.halt.wait(0.25):
                rows = StandingsSource.objects.filter(scope__in=scopes)
                for scope, at in rows.values_list("scope", "rebuilt_at"):
                    self.rebuilt[scopes[scope]].add(at.timestamp())
                waiting = self.redis.llen("celery") + self.redis.hlen("unacked")
                self.queue_max = max(self.queue_max, waiting)
        finally:
            connection.close()

    def end_step(self, accepted: list[tuple[str, int, int, float]]) -> dict:
        self.halt.set()
        self.sampler.join()
        after = self._cpu()
        seconds = after[3] - self.before[3]
        ended = time.time()
        lags = []
        for what, _game, _number, at in accepted:
            if what == "hand":
                continue  # a hand moves the standings once its card is confirmed
            event = self.events[0] if what == "deal" else self.events[1]
            later = [t for t in self.rebuilt[event] if t >= at]
            # Not rebuilt by the step's end: at least that long (a lower bound).
            lags.append((min(later) if later else ended) - at)
        db = None
        if after[2] is not None and self.before[2] is not None:
            db = (after[2] - self.before[2]) / seconds
        (busy, total), (busy0, total0) = after[5], self.before[5]
        return {
            "load_cpu": (after[4] - self.before[4]) / seconds,
            "machine_busy": (busy - busy0) / (total - total0) if total > total0 else 0.0,
            "web_cpu": (after[0] - self.before[0]) / seconds,
            "celery_cpu": (after[1] - self.before[1]) / seconds,
            "db_cpu": db,
            "queue_max": self.queue_max,
            "lag_p50": percentile(lags, 0.5) if lags else None,
            "lag_p99": percentile(lags, 0.99) if lags else None,
        }


def drop_database(database_url: str) -> None:
    import psycopg

    url = urlparse(database_url)
    name = url.path.lstrip("/")
    with psycopg.connect(url._replace(path="/postgres").geturl(), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

"""bench/bench_api.py's load generator: keep-alive connections from threads, phases in
slices taking turns, and the figures of a phase (req/s, p50, p99, statuses)."""

from __future__ import annotations

import http.client
import threading
import time

# One request: method, path, body, and the headers of this request (its authentication,
# a fresh Idempotency-Key...).
Item = tuple[str, str, bytes | None, dict[str, str]]


class Load:
    """A bounded load on one server: one keep-alive connection per list of requests."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port

    def run(self, work: list[list[Item]], cap: float) -> dict:
        latencies: list[float] = []
        statuses: dict[int, int] = {}
        lock = threading.Lock()
        deadline = time.perf_counter() + cap

        def worker(items: list[Item]) -> None:
            conn = http.client.HTTPConnection(self.host, self.port, timeout=60)
            mine, codes = [], {}
            for method, path, body, headers in items:
                if time.perf_counter() > deadline:
                    break
                started = time.perf_counter()
                conn.request(method, path, body=body, headers=headers)
                response = conn.getresponse()
                response.read()
                mine.append(time.perf_counter() - started)
                codes[response.status] = codes.get(response.status, 0) + 1
            conn.close()
            with lock:
                latencies.extend(mine)
                for code, count in codes.items():
                    statuses[code] = statuses.get(code, 0) + count

        threads = [threading.Thread(target=worker, args=(items,)) for items in work]
        started = time.perf_counter()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        return summary(latencies, time.perf_counter() - started, statuses)


def summary(latencies: list[float], elapsed: float, statuses: dict[int, int]) -> dict:
    latencies = sorted(latencies)
    n = len(latencies)
    return {
        "requests": n,
        "rps": n / elapsed if elapsed else 0.0,
        "p50": latencies[n // 2] * 1000 if n else 0.0,
        "p99": latencies[min(n - 1, int(n * 0.99))] * 1000 if n else 0.0,
        "statuses": statuses,
        "latencies": latencies,
        "elapsed": elapsed,
    }


def alternate(load: Load, phases: dict[str, list[list]], rounds: int, cap: float) -> dict:
    """Run the phases in `rounds` slices, taking turns (A B C, then C B A, ...), so that a
    machine that speeds up or slows down during the run weighs on every phase alike.

    Each thread's list is cut into consecutive slices (a game's deals stay in order).
    A phase's figures are over all its slices: requests / summed time, percentiles of
    every latency. "rounds" holds each slice's requests/s.
    """
    sliced = {
        name: [
            [items[len(items) * r // rounds : len(items) * (r + 1) // rounds] for items in work]
            for r in range(rounds)
        ]
        for name, work in phases.items()
    }
    runs: dict[str, list[dict]] = {name: [] for name in phases}
    for r in range(rounds):
        order = list(phases) if r % 2 == 0 else list(reversed(phases))
        for name in order:
            runs[name].append(load.run(sliced[name][r], cap / rounds))
    results = {}
    for name, parts in runs.items():
        statuses: dict[int, int] = {}
        for part in parts:
            for code, count in part["statuses"].items():
                statuses[code] = statuses.get(code, 0) + count
        merged = summary(
            [x for part in parts for x in part["latencies"]],
            sum(part["elapsed"] for part in parts),
            statuses,
        )
        merged["rounds"] = [part["rps"] for part in parts]
        results[name] = merged
    return results


def spread(items: list, threads: int) -> list[list]:
    return [items[i::threads] for i in range(threads)]

"""Benchmark: the API through gunicorn on PostgreSQL, against trivial DRF endpoints.

Run by hand from the repository root: `.venv/bin/python bench/bench_api.py`. It drops and
recreates the PostgreSQL database `tavolo_bench` (BENCH_DATABASE_URL), migrates and seeds
it, starts gunicorn (2 sync workers, persistent connections, settings
bench/api_bench_settings.py which add /bench/create/ and /bench/list/), and loads it from
a pool of threads with keep-alive connections: a fixed number of requests per phase and a
duration cap. Results go to the "## API" section of bench/RESULTS.md.

Phases, in one run: trivial create (one field) and deal submissions (each the next
valid deal of one of many games in progress), taking turns in slices; then trivial list
(50 rows), game detail, event standings and event list, taking turns likewise.
Targets: deals >= 1/2 of the trivial create's requests/s with p99 <= 3x its p99;
reads >= 70 % of the trivial list's requests/s.
"""

from __future__ import annotations

import argparse
import datetime
import http.client
import json
import os
import platform
import random
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "RESULTS.md"
SECTION = "## API"
DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/tavolo_bench"
# A Redis database of its own: the broker queue and the cache, emptied before and after.
DEFAULT_REDIS = "redis://127.0.0.1:6379/9"


def server_env(database_url: str, redis_url: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE="api_bench_settings",
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


def setup_django(env: dict[str, str]) -> None:
    for key in ("DJANGO_SETTINGS_MODULE", "DATABASE_URL", "CONN_MAX_AGE", "REDIS_URL"):
        os.environ[key] = env[key]
    sys.path[:0] = [str(ROOT), str(ROOT / "bench")]
    import django

    django.setup()


def seed(games: int, seed_value: int) -> dict:
    """A club, a published event with `games` tables in progress, an organiser's token, and
    each game's deals generated in advance; 50 more players for the trivial list."""
    from django.contrib.auth import get_user_model
    from django.utils import timezone
    from rest_framework.authtoken.models import Token

    from clubs.models import Club, Membership, Player
    from games.game_creation import game_create
    from games.models import Event, Round, Seat, Table
    from scoring.engine.barbu.randomgame import random_game

    club = Club.objects.create(name="Bench club", slug="bench")
    user = get_user_model().objects.create_user("bench", password="bench-password")
    organiser = Player.objects.create(name="Organiser", user=user)
    Membership.objects.create(club=club, player=organiser, role=Membership.Role.ORGANISER)
    event = Event.objects.create(
        club=club, name="Bench evening", starts_at=timezone.now(), ruleset=club.ruleset
    )
    rnd = Round.objects.create(event=event, number=1)
    Player.objects.bulk_create(Player(name=f"List {i:02d}") for i in range(50))
    rng = random.Random(seed_value)
    plan = []
    for number in range(1, games + 1):
        table = Table.objects.create(round=rnd, number=number)
        players = Player.objects.bulk_create(Player(name=f"T{number:03d}{seat}") for seat in "ABCD")
        for position, player in enumerate(players):
            Membership.objects.create(club=club, player=player)
            Seat.objects.create(table=table, position=position, player=player)
        game = game_create(table=table)
        record = random_game(rng, game.ruleset, players=list(game.player_names))
        plan.append({"id": game.pk, "deals": record["deals"]})
    return {
        "token": Token.objects.create(user=user).key,
        "event": event.pk,
        "games": plan,
    }


def count_queries(game: dict, token: str) -> dict[str, int]:
    """SQL statements of one deal submission and one game detail (in-process)."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    client = Client(HTTP_HOST="localhost", HTTP_AUTHORIZATION=f"Token {token}")
    url = f"/api/v1/games/{game['id']}/"
    counts = {}
    for k in range(2):  # the first deal creates the game's score rows; count the second
        with CaptureQueriesContext(connection) as submitted:
            response = client.post(
                url + "deals/", json.dumps(game["deals"][k]), content_type="application/json"
            )
        assert response.status_code == 201, response.content
    counts["deal submission"] = len(submitted)
    with CaptureQueriesContext(connection) as detail:
        assert client.get(url).status_code == 200
    counts["game detail (cache miss)"] = len(detail)
    return counts


def rebuild_standings(event_id: int) -> None:
    # No Celery worker in the benchmark: build the stored standings once, as a task would.
    from scoring import rebuild

    rebuild.rebuild_event_standings(event_id=event_id)


class Load:
    """A bounded load: `threads` keep-alive connections, each with its own request list."""

    def __init__(self, host: str, port: int, token: str) -> None:
        self.host, self.port, self.token = host, port, token

    def run(self, work: list[list[tuple[str, str, bytes | None]]], cap: float) -> dict:
        latencies: list[float] = []
        statuses: dict[int, int] = {}
        lock = threading.Lock()
        deadline = time.perf_counter() + cap
        headers = {"Authorization": f"Token {self.token}", "Content-Type": "application/json"}

        def worker(items: list[tuple[str, str, bytes | None]]) -> None:
            conn = http.client.HTTPConnection(self.host, self.port, timeout=30)
            mine, codes = [], {}
            for method, path, body in items:
                if time.perf_counter() > deadline:
                    break
                started = time.perf_counter()
                conn.request(method, path, body=body, headers=headers)
                response = response_read = conn.getresponse()
                response_read.read()
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
        elapsed = time.perf_counter() - started
        return summary(latencies, elapsed, statuses)


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
    """Run the phases in `rounds` slices, taking turns (A B, then B A, ...), so that a
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


def deal_work(plan: list[dict], threads: int) -> list[list[tuple[str, str, bytes]]]:
    """Each thread owns whole games and posts their deals in order, games interleaved."""
    work = []
    for games in spread(plan, threads):
        items = []
        for k in range(max(len(g["deals"]) for g in plan)):
            for game in games:
                if k < len(game["deals"]):
                    body = json.dumps({**game["deals"][k], "number": k + 1}).encode()
                    items.append(("POST", f"/api/v1/games/{game['id']}/deals/", body))
        work.append(items)
    return work


def gunicorn_path() -> str:
    """gunicorn next to this Python (a worktree may use another checkout's virtualenv)."""
    here = Path(sys.executable).parent / "gunicorn"
    return str(here if here.exists() else ROOT / ".venv" / "bin" / "gunicorn")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(port: int, path: str, timeout: float = 30) -> None:
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


def redis_flush(redis_url: str) -> None:
    import redis

    redis.Redis.from_url(redis_url).flushdb()


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=150)
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--requests", type=int, default=3000, help="per read/baseline phase")
    parser.add_argument("--cap", type=float, default=30.0, help="seconds, per phase")
    parser.add_argument(
        "--rounds", type=int, default=5, help="slices per phase, the phases taking turns"
    )
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--no-write", action="store_true", help="do not update RESULTS.md")
    args = parser.parse_args(argv)

    database_url = os.environ.get("BENCH_DATABASE_URL", DEFAULT_DB)
    redis_url = os.environ.get("BENCH_REDIS_URL", DEFAULT_REDIS)
    env = server_env(database_url, redis_url)
    recreate_database(database_url)
    redis_flush(redis_url)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=env,
        check=True,
    )
    setup_django(env)
    data = seed(args.games + 1, args.seed)
    queries = count_queries(data["games"].pop(), data["token"])
    from django.db import connections

    connections.close_all()

    port = free_port()
    server = subprocess.Popen(
        [
            gunicorn_path(),
            "config.wsgi",
            "--workers",
            "2",
            "--bind",
            f"127.0.0.1:{port}",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
    )
    results: dict[str, dict] = {}
    try:
        wait_for(port, "/bench/list/")
        load = Load("127.0.0.1", port, data["token"])
        n, t, cap = args.requests, args.threads, args.cap
        game_ids = [g["id"] for g in data["games"]]
        rng = random.Random(args.seed)

        def create_work(count: int) -> list:
            return spread(
                [
                    ("POST", "/bench/create/", json.dumps({"name": f"N{i}"}).encode())
                    for i in range(count)
                ],
                t,
            )

        def get_work(paths: list[str]) -> list:
            return spread([("GET", p, None) for p in paths], t)

        rounds = args.rounds
        load.run(create_work(300), cap)  # warm-up: connections, imports, caches
        writes = {
            "trivial create": create_work(n),
            "deal submission": deal_work(data["games"], t),
        }
        results.update(alternate(load, writes, rounds, cap * len(writes)))
        rebuild_standings(data["event"])
        detail = [f"/api/v1/games/{rng.choice(game_ids)}/" for _ in range(n)]
        standings = f"/api/v1/events/{data['event']}/standings/"
        reads = {
            "trivial list (50 rows)": get_work(["/bench/list/"] * n),
            "game detail": get_work(detail),
            "event standings": get_work([standings] * n),
            "event list": get_work(["/api/v1/events/"] * n),
        }
        for work in reads.values():  # warm-up: each endpoint's caches
            load.run([items[:20] for items in work], cap)
        results.update(alternate(load, reads, rounds, cap * len(reads)))
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
        redis_flush(redis_url)

    report = render(results, args, queries)
    print(report)
    if not args.no_write:
        from bench.report import write_section  # ROOT is on sys.path by now

        write_section(SECTION, report)
    return 0


def render(results: dict[str, dict], args: argparse.Namespace, queries: dict[str, int]) -> str:
    create, deals = results["trivial create"], results["deal submission"]
    listing = results["trivial list (50 rows)"]
    lines = [
        SECTION,
        "",
        f"`bench/bench_api.py --games {args.games} --threads {args.threads} "
        f"--requests {args.requests} --cap {args.cap:g} --rounds {args.rounds}`, "
        f"{datetime.date.today()}; machine: "
        f"{platform.machine()}, nproc {os.cpu_count()}, Python {platform.python_version()}; "
        "gunicorn 2 sync workers, PostgreSQL (CONN_MAX_AGE=600), Redis broker/cache, load "
        "generator (threads, keep-alive) on the same machine. Organiser token on every "
        "request; the trivial endpoints authenticate and throttle with the API's classes "
        "(bench/api_bench_urls.py). Writes, then reads, run in "
        f"{args.rounds} slices per endpoint taking turns (A B, B A, ...), so that the "
        "machine's changes of speed weigh on each endpoint and its baseline alike.",
        "",
        "| endpoint | requests | req/s | p50 ms | p99 ms | statuses | vs baseline |",
        "|---|---:|---:|---:|---:|---|---|",
    ]
    baseline = {
        "deal submission": "trivial create",
        "game detail": "trivial list (50 rows)",
        "event standings": "trivial list (50 rows)",
        "event list": "trivial list (50 rows)",
    }
    for name, r in results.items():
        base = results[baseline[name]] if name in baseline else None
        ratio = ""
        if base is not None:
            ratio = f"{r['rps'] / base['rps']:.2f}× req/s"
            if name == "deal submission":
                ratio += f", p99 {r['p99'] / base['p99']:.2f}×"
        statuses = ", ".join(f"{k}: {v}" for k, v in sorted(r["statuses"].items()))
        lines.append(
            f"| {name} | {r['requests']} | {r['rps']:.0f} | {r['p50']:.1f} | {r['p99']:.1f} "
            f"| {statuses} | {ratio} |"
        )
    ok_deals = deals["rps"] >= create["rps"] / 2 and deals["p99"] <= 3 * create["p99"]
    reads = [results[k]["rps"] / listing["rps"] for k in ("game detail", "event standings")]

    def slice_ratios(name: str) -> str:
        pairs = zip(results[name]["rounds"], results[baseline[name]]["rounds"], strict=True)
        ratios = [r / b for r, b in pairs if b]
        return f"{name} {min(ratios):.2f}–{max(ratios):.2f}×"

    lines += [
        "",
        "Ratio in each slice (requests/s against the baseline's slice of the same round): "
        + "; ".join(
            slice_ratios(name) for name in ("deal submission", "game detail", "event standings")
        )
        + ".",
        "",
        f"Targets: deal submission ≥ 0.5× the trivial create's req/s and p99 ≤ 3× its p99: "
        f"{'met' if ok_deals else 'NOT met'}; reads ≥ 0.7× the trivial list: "
        f"{'met' if min(reads) >= 0.7 else 'NOT met'}.",
        "",
        "SQL statements per request (in-process, same data): "
        + ", ".join(f"{name} {count}" for name, count in queries.items())
        + " (BEGIN and COMMIT included); trivial create 2 (token, insert), trivial list 2 "
        "(token, select). Redis: a write's throttle counter (both writes), the standings "
        "queue's coalescing mark (deal submission).",
    ]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

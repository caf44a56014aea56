"""Benchmark: how soon a deal saved at a table shows on the live evening page and on the
table's second phone, with 200 viewers watching the evening, on the production stack.

Run by hand from the repository root: `.venv/bin/python bench/bench_live.py`. It drops and
recreates the PostgreSQL database BENCH_DATABASE_URL (default `tavolo_live_bench`),
empties the Redis database BENCH_REDIS_URL (default 10), migrates, seeds a published
evening of `--tables` tables in progress, and starts gunicorn (`--workers` sync workers,
persistent connections) and a real Celery worker (the standings task after each deal).

Then, in slices taking turns (new design, previous design, new, ...), `--viewers` threads
poll the evening's live part as the browser does, one thread per table polls its state
as the second phone does (and reloads the table page when it changed), and deals are
posted through the API with the table's key, one every `--interval` seconds, the tables in
turn (table pace: one table's deals are `tables x interval` seconds apart).

- new design: the live part every 1 s with If-None-Match (the ETag it holds), the phone
  every 1 s likewise (games/core/live.py);
- previous design (the baseline): the live part every 5 s and the phone every 8 s, both
  without If-None-Match, as the pages polled before.

For each deal and each viewer: the time from the 201 of the save to that viewer's first
answer showing the table's new deal count, and to its first answer showing the standings
with the deal (the players' points equal the game's totals in the 201); for the phone, to
the reloaded page after the state changed. Percentiles over (deal, viewer) pairs.
Results go to the "## Live updates" section of bench/RESULTS.md.
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import http.client
import json
import os
import random
import re
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "bench")]

from api_server import free_port, recreate_database, redis_flush  # noqa: E402

SECTION = "## Live updates"
DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/tavolo_live_bench"
DEFAULT_REDIS = "redis://127.0.0.1:6379/10"
DESIGNS = {
    # name: (live part's period, phone's period, conditional requests)
    "new": (1.0, 1.0, True),
    "previous": (5.0, 8.0, False),
}

TABLES_RE = re.compile(r'<span class="num">(\d+)/(\d+)</span>')
STANDING_RE = re.compile(
    r'<a href="[^"]*/players/\d+/">([^<]+)</a>.*?'
    r'<td class="[^"]*\bpoints\b[^"]*"[^>]*>([^<]*)</td>',
    re.S,
)


@dataclass(frozen=True)
class LiveState:
    """What one answer of the live part shows: each table's deal count, each player's points."""

    progress: tuple[int, ...]
    points: dict[str, float] = field(default_factory=dict)


def parse_live(body: str) -> LiveState:
    """Read the live part (templates/scoring/_event_live.html): the standings come first,
    then the tables in order."""
    standings, _, tables = body.partition("<h2>")
    points = {}
    for name, value in STANDING_RE.findall(standings):
        try:
            points[name.strip()] = float(value.strip().replace(",", "."))
        except ValueError:
            continue
    return LiveState(tuple(int(n) for n, _target in TABLES_RE.findall(tables)), points)


def shows_progress(state: LiveState, table: int, number: int) -> bool:
    return len(state.progress) > table and state.progress[table] >= number


def shows_standings(state: LiveState, totals: dict[str, float]) -> bool:
    return all(abs(state.points.get(name, 1e18) - float(v)) < 1e-6 for name, v in totals.items())


def percentiles(values: list[float]) -> dict[str, float]:
    values = sorted(values)
    if not values:
        return {"n": 0, "p50": float("nan"), "p95": float("nan"), "max": float("nan")}
    n = len(values)
    return {
        "n": n,
        "p50": values[n // 2],
        "p95": values[min(n - 1, int(n * 0.95))],
        "max": values[-1],
    }


# --- The stack --------------------------------------------------------------------------


def server_env(database_url: str, redis_url: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        PYTHONPATH=str(ROOT),
        DATABASE_URL=database_url,
        CONN_MAX_AGE="600",
        REDIS_URL=redis_url,
        DEBUG="0",
        LOG_LEVEL="ERROR",
        THROTTLE_WRITES="100000000/min",
    )
    return env


def seed(tables: int, seed_value: int) -> dict:
    """A published English-speaking club's running evening: `tables` tables of four, each
    game's deals generated in advance (italian7: whole points)."""
    from django.utils import timezone

    from clubs.models import Club, Membership, Player
    from games.barbu.game_creation import game_create
    from games.models import Event, Round, Seat, Table
    from scoring.engine.barbu.randomgame import random_game

    club = Club.objects.create(
        name="Bench club",
        slug="bench",
        language="en",
        ruleset={"preset": "italian7", "options": {}},
    )
    event = Event.objects.create(
        club=club,
        name="Bench evening",
        starts_at=timezone.now(),
        ruleset=club.ruleset,
        status=Event.Status.RUNNING,
    )
    rnd = Round.objects.create(event=event, number=1)
    rng = random.Random(seed_value)
    plan = []
    for number in range(1, tables + 1):
        table = Table.objects.create(round=rnd, number=number)
        players = Player.objects.bulk_create(
            Player(name=f"Player {number:02d}{seat}") for seat in "ABCD"
        )
        for position, player in enumerate(players):
            Membership.objects.create(club=club, player=player)
            Seat.objects.create(table=table, position=position, player=player)
        game = game_create(table=table)
        record = random_game(rng, game.ruleset, players=list(game.player_names))
        plan.append({"id": game.pk, "key": table.key, "deals": record["deals"]})
    return {"event": event.pk, "games": plan}


def count_queries(event_id: int, game: dict) -> dict[str, int]:
    """SQL statements of the polls (in-process, the same database and Redis)."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from games.core import live

    def queries(client: Client, url: str, **headers: str) -> tuple[int, object]:
        with CaptureQueriesContext(connection) as ctx:
            response = client.get(url, **headers)
        return len(ctx.captured_queries), response

    client = Client(HTTP_HOST="localhost")
    url = f"/events/{event_id}/live/"
    state = f"/t/{game['key']}/state/"
    counts = {}
    live.touch("event", [event_id])
    counts["live part, first viewer of a change (renders)"], first = queries(client, url)
    counts["live part, other viewers of that change (cached answer)"], _ = queries(
        Client(HTTP_HOST="localhost"), url
    )
    counts["live part, unchanged poll (304)"], _ = queries(
        client, url, HTTP_IF_NONE_MATCH=first["ETag"]
    )
    # CPU per poll, in-process (no network): 200 unchanged polls, 200 full renders.
    started = time.perf_counter()
    for _ in range(200):
        client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    counts["ms per unchanged poll (304, in-process)"] = round(
        (time.perf_counter() - started) * 5, 2
    )
    started = time.perf_counter()
    for _ in range(200):
        live.touch("event", [event_id])  # every poll renders, as the previous design did
        client.get(url)
    counts["ms per rendered poll (in-process)"] = round((time.perf_counter() - started) * 5, 2)
    live.touch("game", [game["id"]])
    counts["phone state, changed"], answer = queries(client, state)
    counts["phone state, unchanged poll (304)"], _ = queries(
        client, state, HTTP_IF_NONE_MATCH=answer["ETag"]
    )
    return counts


def wait_for(port: int, path: str, timeout: float = 180) -> None:
    until, last = time.time() + timeout, ""
    while time.time() < until:
        try:
            status, _tag, body = request(port, path, {})
            if status == 200:
                return
            last = f"{status} {body[:200]!r}"
        except (OSError, http.client.HTTPException) as error:
            last = repr(error)
        time.sleep(0.5)
    raise SystemExit(f"gunicorn did not answer {path}: {last}")


def db_transactions(database_url: str) -> int:
    import psycopg

    name = database_url.rsplit("/", 1)[1]
    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute("SELECT pg_stat_clear_snapshot()")
        row = conn.execute(
            "SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = %s",
            (name,),
        ).fetchone()
    return int(row[0])


# --- The load ---------------------------------------------------------------------------


def request(port: int, path: str, headers: dict[str, str], body: bytes | None = None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    try:
        conn.request("POST" if body is not None else "GET", path, body=body, headers=headers)
        response = conn.getresponse()
        data = response.read()
        return response.status, response.getheader("ETag") or "", data
    finally:
        conn.close()


class Slice:
    """One slice of one design: viewers, phones and the deals saved meanwhile."""

    def __init__(self, port: int, event_id: int, games: list[dict], design: str) -> None:
        self.port, self.event_id, self.games, self.design = port, event_id, games, design
        self.period, self.phone_period, self.conditional = DESIGNS[design]
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.parsed: dict[bytes, LiveState] = {}
        self.seen: list[list[tuple[float, LiveState]]] = []
        self.phone_seen: dict[int, list[tuple[float, int]]] = {}
        self.statuses: dict[str, dict[int, int]] = {"viewer": {}, "phone": {}}
        self.deals: list[dict] = []

    def _count(self, who: str, status: int) -> None:
        with self.lock:
            self.statuses[who][status] = self.statuses[who].get(status, 0) + 1

    def _state(self, body: bytes) -> LiveState:
        digest = hashlib.sha1(body).digest()
        state = self.parsed.get(digest)
        if state is None:
            state = self.parsed[digest] = parse_live(body.decode())
        return state

    def viewer(self, index: int, rng: random.Random) -> None:
        path = f"/events/{self.event_id}/live/"
        mine: list[tuple[float, LiveState]] = []
        self.seen[index] = mine
        etag, state = "", None
        next_at = time.perf_counter() + rng.uniform(0, self.period)
        while not self.stop.is_set():
            self.stop.wait(max(0.0, next_at - time.perf_counter()))
            if self.stop.is_set():
                break
            next_at += self.period
            headers = {"If-None-Match": etag} if (self.conditional and etag) else {}
            try:
                status, tag, body = request(self.port, path, headers)
            except (OSError, http.client.HTTPException):
                self._count("viewer", 0)  # no answer within the timeout: counted as 0
                continue
            now = time.perf_counter()
            self._count("viewer", status)
            if status == 200:
                etag, state = tag, self._state(body)
            if state is not None:
                mine.append((now, state))

    def phone(self, game_index: int, rng: random.Random) -> None:
        key = self.games[game_index]["key"]
        mine: list[tuple[float, int]] = []
        self.phone_seen[game_index] = mine
        etag, stamp = "", None
        next_at = time.perf_counter() + rng.uniform(0, self.phone_period)
        while not self.stop.is_set():
            self.stop.wait(max(0.0, next_at - time.perf_counter()))
            if self.stop.is_set():
                break
            next_at += self.phone_period
            headers = {"Accept": "application/json"}
            if self.conditional and etag:
                headers["If-None-Match"] = etag
            try:
                status, tag, body = request(self.port, f"/t/{key}/state/", headers)
                self._count("phone", status)
                if status != 200:
                    continue
                etag, new = tag, json.loads(body)["stamp"]
                if stamp is not None and new != stamp:
                    request(self.port, f"/t/{key}/", {})  # the page reloads itself
                    mine.append((time.perf_counter(), int(new.split(".")[0])))
                stamp = new
            except (OSError, http.client.HTTPException):
                self._count("phone", 0)

    def submitter(self, deals: int, interval: float, cursor: list[int]) -> None:
        for _ in range(deals):
            started = time.perf_counter()
            table = cursor[0] % len(self.games)
            cursor[0] += 1
            game = self.games[table]
            number = game["sent"] + 1
            body = json.dumps({**game["deals"][number - 1], "number": number}).encode()
            headers = {"X-Table-Key": game["key"], "Content-Type": "application/json"}
            status, _tag, answer = request(
                self.port, f"/api/v1/games/{game['id']}/deals/", headers, body
            )
            saved = time.perf_counter()
            if status != 201:
                raise SystemExit(f"deal refused: {status} {answer[:300]!r}")
            game["sent"] = number
            totals = json.loads(answer)["totals"]
            self.deals.append({"table": table, "number": number, "at": saved, "totals": totals})
            time.sleep(max(0.0, started + interval - time.perf_counter()))

    def run(self, viewers: int, deals: int, interval: float, settle: float, seed: int, cursor):
        rng = random.Random(seed)
        self.seen = [[] for _ in range(viewers)]
        threads = [
            threading.Thread(target=self.viewer, args=(i, random.Random(rng.random())), daemon=True)
            for i in range(viewers)
        ] + [
            threading.Thread(target=self.phone, args=(g, random.Random(rng.random())), daemon=True)
            for g in range(len(self.games))
        ]
        for thread in threads:
            thread.start()
        try:
            time.sleep(max(self.period, self.phone_period) + 1)  # every viewer has the page
            started = time.perf_counter()
            self.submitter(deals, interval, cursor)
            time.sleep(settle)  # the last deal's slowest viewer
            self.elapsed = time.perf_counter() - started
        finally:
            self.stop.set()
            for thread in threads:
                thread.join()

    def latencies(self) -> dict[str, list[float]]:
        out: dict[str, list[float]] = {"progress": [], "standings": [], "phone": []}
        for deal in self.deals:
            at, table, number = deal["at"], deal["table"], deal["number"]
            tests = {
                "progress": lambda s, t=table, n=number: shows_progress(s, t, n),
                "standings": lambda s, totals=deal["totals"]: shows_standings(s, totals),
            }
            for answers in self.seen:
                for kind, test in tests.items():
                    when = next((t for t, s in answers if t >= at - 0.2 and test(s)), None)
                    if when is not None:
                        out[kind].append(max(0.0, when - at))
            when = next(
                (t for t, n in self.phone_seen.get(table, []) if t >= at - 0.2 and n >= number),
                None,
            )
            if when is not None:
                out["phone"].append(max(0.0, when - at))
        return out


def quiet_polls(port: int, event_id: int, database_url: str, viewers: int, seconds: float):
    """Only unchanged polls (no deal), once every viewer holds the page: the polls answered
    meanwhile and the database's transactions meanwhile."""
    load = Slice(port, event_id, [], "new")
    load.seen = [[] for _ in range(viewers)]
    rng = random.Random(7)
    threads = [
        threading.Thread(target=load.viewer, args=(i, random.Random(rng.random())))
        for i in range(viewers)
    ]
    for thread in threads:
        thread.start()
    time.sleep(3)  # each viewer's first answer (200) is in
    with load.lock:
        first = dict(load.statuses["viewer"])
    before = db_transactions(database_url)
    time.sleep(seconds)
    with load.lock:
        polls = {k: v - first.get(k, 0) for k, v in load.statuses["viewer"].items()}
    time.sleep(1.5)  # PostgreSQL reports a backend's counts within a second
    after = db_transactions(database_url)
    load.stop.set()
    for thread in threads:
        thread.join()
    return polls, after - before - 2  # less the first count's own two statements


# --- Run and report -----------------------------------------------------------------------


def binary(name: str) -> str:
    here = Path(sys.executable).parent / name
    return str(here if here.exists() else ROOT / ".venv" / "bin" / name)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--viewers", type=int, default=200)
    parser.add_argument("--tables", type=int, default=12)
    parser.add_argument("--deals", type=int, default=60, help="per design, over all slices")
    parser.add_argument("--slices", type=int, default=4, help="per design, taking turns")
    parser.add_argument("--interval", type=float, default=2.0, help="seconds between deals")
    parser.add_argument("--workers", type=int, default=3, help="gunicorn sync workers")
    parser.add_argument("--celery", type=int, default=2, help="Celery worker processes")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--no-write", action="store_true", help="do not update RESULTS.md")
    args = parser.parse_args(argv)

    database_url = os.environ.get("BENCH_DATABASE_URL", DEFAULT_DB)
    redis_url = os.environ.get("BENCH_REDIS_URL", DEFAULT_REDIS)
    env = server_env(database_url, redis_url)
    sys.path.insert(0, str(ROOT))
    recreate_database(database_url)
    redis_flush(redis_url)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=env,
        check=True,
    )
    env["DJANGO_SETTINGS_MODULE"] = "config.settings"
    for key in ("DJANGO_SETTINGS_MODULE", "DATABASE_URL", "CONN_MAX_AGE", "REDIS_URL"):
        os.environ[key] = env[key]
    import django

    django.setup()
    data = seed(args.tables, args.seed)
    games = data["games"]
    for game in games:
        game["sent"] = 0
    from django.db import connections

    connections.close_all()

    port = free_port()
    load_start = os.getloadavg()
    started_at = datetime.datetime.now(datetime.UTC)
    server = subprocess.Popen(
        [
            binary("gunicorn"),
            "config.wsgi",
            "--workers",
            str(args.workers),
            "--bind",
            f"127.0.0.1:{port}",
            "--log-level",
            "warning",
            # The app loaded once before the fork: on a busy machine a worker importing it
            # on its first request can pass the 30 s timeout.
            "--preload",
            "--timeout",
            "120",
        ],
        cwd=ROOT,
        env=env,
    )
    worker = subprocess.Popen(
        [
            binary("celery"),
            "-A",
            "config",
            "worker",
            "-c",
            str(args.celery),
            "-l",
            "warning",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
        ],
        cwd=ROOT,
        env=env,
    )
    slices: dict[str, list[Slice]] = {name: [] for name in DESIGNS}
    try:
        wait_for(port, f"/events/{data['event']}/live/")
        time.sleep(3)  # the worker's start-up sweep
        quiet = quiet_polls(port, data["event"], database_url, args.viewers, 8.0)
        cursor = [0]
        per_slice = max(1, args.deals // args.slices)
        for r in range(args.slices):
            order = list(DESIGNS) if r % 2 == 0 else list(reversed(DESIGNS))
            for name in order:
                part = Slice(port, data["event"], games, name)
                settle = DESIGNS[name][0] + DESIGNS[name][1] + 2
                part.run(args.viewers, per_slice, args.interval, settle, args.seed + r, cursor)
                slices[name].append(part)
                print(f"slice {r + 1} {name}: {len(part.deals)} deals", flush=True)
    finally:
        for process in (server, worker):
            process.send_signal(signal.SIGTERM)
        for process in (server, worker):
            process.wait(timeout=60)
    load_end = os.getloadavg()
    queries = count_queries(data["event"], games[0])
    redis_flush(redis_url)

    report = render(args, slices, queries, quiet, started_at, load_start, load_end)
    print(report)
    if not args.no_write:
        from bench.report import write_section

        write_section(SECTION, report)
    return 0


def summarise(parts: list[Slice]) -> dict:
    merged: dict[str, list[float]] = {"progress": [], "standings": [], "phone": []}
    statuses: dict[str, dict[int, int]] = {"viewer": {}, "phone": {}}
    deals, elapsed = 0, 0.0
    for part in parts:
        for kind, values in part.latencies().items():
            merged[kind] += values
        for who, counts in part.statuses.items():
            for code, n in counts.items():
                statuses[who][code] = statuses[who].get(code, 0) + n
        deals += len(part.deals)
        elapsed += part.elapsed
    return {
        "deals": deals,
        "elapsed": elapsed,
        **{kind: percentiles(values) for kind, values in merged.items()},
        "statuses": statuses,
    }


def render(args, slices, queries, quiet, started_at, load_start, load_end) -> str:
    results = {name: summarise(parts) for name, parts in slices.items()}
    new, old = results["new"], results["previous"]

    def cell(r: dict) -> str:
        return f"{r['p50']:.2f} / {r['p95']:.2f} / {r['max']:.2f}"

    def share_304(r: dict, who: str) -> str:
        counts = r["statuses"][who]
        total = sum(counts.values())
        return f"{100 * counts.get(304, 0) / total:.1f} % of {total}" if total else "-"

    lines = [
        SECTION,
        "",
        f"`bench/bench_live.py --viewers {args.viewers} --tables {args.tables} --deals "
        f"{args.deals} --slices {args.slices} --interval {args.interval:g} --workers "
        f"{args.workers} --celery {args.celery}`, {started_at:%Y-%m-%d %H:%M} UTC; machine: "
        f"{_machine()}; load average {load_start[0]:.1f} at the start, {load_end[0]:.1f} at "
        "the end (figures move with the machine's load: compare the designs of one run). "
        "Production stack on this machine: gunicorn "
        f"({args.workers} sync workers, CONN_MAX_AGE=600), PostgreSQL, Redis (cache and "
        f"broker), a Celery worker ({args.celery} processes) rebuilding the standings after "
        f"each deal; {args.viewers} viewers of one evening of {args.tables} tables and one "
        "second phone per table, all simulated by threads of this script; a deal posted "
        f"through the API (X-Table-Key) every {args.interval:g} s, the tables in turn. "
        f"Each design ran in {args.slices} slices, the designs taking turns.",
        "",
        "Seconds from the save's 201 to each viewer's first answer showing it, over "
        "(deal, viewer) pairs: p50 / p95 / max.",
        "",
        "| design | deals | live page: table's deal count | live page: standings | "
        "second phone: page reloaded | viewer polls answered 304 | phone polls answered 304 |",
        "|---|---:|---|---|---|---|---|",
    ]
    labels = {
        "new": "now: every 1 s, If-None-Match (ETag)",
        "previous": "previous (baseline): every 5 s (phone 8 s), unconditional",
    }
    for name, r in results.items():
        lines.append(
            f"| {labels[name]} | {r['deals']} | {cell(r['progress'])} | {cell(r['standings'])} "
            f"| {cell(r['phone'])} | {share_304(r, 'viewer')} | {share_304(r, 'phone')} |"
        )
    met = all(new[k]["p95"] < 2.0 for k in ("progress", "standings", "phone"))
    lines += [
        "",
        "p95 previous ÷ now: table's deal count "
        f"{old['progress']['p95'] / new['progress']['p95']:.1f}×, "
        f"standings {old['standings']['p95'] / new['standings']['p95']:.1f}×, second phone "
        f"{old['phone']['p95'] / new['phone']['p95']:.1f}×. Target p95 < 2 s on the live page "
        f"(standings included) and the second phone: {'met' if met else 'NOT met'}. Pairs "
        f"measured (now): {new['progress']['n']} / {new['standings']['n']} / {new['phone']['n']} "
        f"of {new['deals'] * args.viewers} / {new['deals'] * args.viewers} / {new['deals']}.",
        "",
        f"Unchanged polls cost no database query: {args.viewers} viewers that hold the page, "
        f"polling for 8 s with nothing new ({sum(quiet[0].values())} polls, "
        f"{', '.join(f'{k}: {v}' for k, v in sorted(quiet[0].items()))}) made "
        f"{quiet[1]} database transactions (pg_stat_database, every connection of the "
        "database). SQL statements (and time) per request (in-process, same database and Redis): "
        + ", ".join(f"{name} {count}" for name, count in queries.items())
        + ". The previous design rendered every poll (the first viewer's figure, each time).",
    ]
    return "\n".join(lines) + "\n"


def _machine() -> str:
    from bench.report import machine

    return machine()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

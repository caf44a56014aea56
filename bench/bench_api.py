"""Benchmark: the API as other programs use it, on the production stack, beside its floor.

Run by hand from the repository root: `.venv/bin/python bench/bench_api.py`. It drops and
recreates the PostgreSQL database BENCH_DATABASE_URL (default `tavolo_bench`), migrates
and seeds it, empties the Redis database BENCH_REDIS_URL (default 9), and starts:
- gunicorn (2 sync workers, persistent connections, settings bench/api_bench_settings.py,
  which add the trivial endpoints /bench/create/ and /bench/list/);
- a Celery worker (`celery -A config worker`, one process) consuming the standings,
  league and ratings tasks the submissions queue, as in production.
The load comes from `--threads` clients at once, each a keep-alive connection. Results go
to the "## API" section of bench/RESULTS.md.

What it answers: how many deals a second the API takes, and how long each read takes to
answer, with that many clients at once. Phases, in slices taking turns with the stack's
floor (trivial DRF endpoints with the API's own authentication and throttles), so a
machine that speeds up or slows down weighs on all alike:
- writes: deal submissions from a phone (`X-Table-Key` of its table and a fresh
  `Idempotency-Key` on every request, as the API guide says a phone sends) and by the
  organiser (`Authorization: Token`), each the next valid deal of one of many games in
  progress; the floor is the trivial create (one field in, one row written);
- reads, organiser's token: every read endpoint of games/api and scoring/api; the floor is
  the trivial list (50 rows).
SQL statements per request are counted in-process on the same data
(django.test.utils.CaptureQueriesContext), never written by hand.
Targets (issue 35's, for what a club feels): every answer's p99 under 500 ms and no
error; deals taken at least ten times as fast as a 150-table Barbu evening writes them
(a deal a table every 90 s: 1.7 a second).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import random
import subprocess
import sys
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "bench")]

from api_load import Load, alternate, spread, summary  # noqa: E402,F401
from api_server import (  # noqa: E402
    drained,
    free_port,
    recreate_database,
    redis_flush,
    server_env,
    start_server,
    start_worker,
    stop,
    wait_for,
    worker_tasks,
)

SECTION = "## API"
DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/tavolo_bench"
# A Redis database of its own: the broker queue and the cache, emptied before and after.
DEFAULT_REDIS = "redis://127.0.0.1:6379/9"
JSON = {"Content-Type": "application/json"}
FLOOR_WRITE = "floor: trivial create"
FLOOR_READ = "floor: trivial list (50 rows)"
P99_TARGET_MS = 500
EVENING_DEALS_PER_SECOND = 150 / 90  # a 150-table Barbu evening, a deal a table every 90 s


def setup_django(env: dict[str, str]) -> None:
    # The servers' settings, throttle rates included: the statements are counted
    # in-process right after the writes, which a quiet machine sends faster than the
    # default 600 a minute (the count then met a 429).
    keys = ("DJANGO_SETTINGS_MODULE", "DATABASE_URL", "CONN_MAX_AGE", "REDIS_URL")
    for key in (*keys, "THROTTLE_WRITES", "THROTTLE_AUTH"):
        os.environ[key] = env[key]
    sys.path[:0] = [str(ROOT)]
    import django

    django.setup()


def seed(games: int, seed_value: int) -> dict:
    """A club with a league, a published evening with `games` tables in progress, an
    organiser's token, and each game's deals generated in advance; 50 more players for the
    trivial list; one complete game, so that the history, rating and league reads answer
    something."""
    from django.contrib.auth import get_user_model
    from django.utils import timezone
    from rest_framework.authtoken.models import Token

    from clubs.models import Club, League, Membership, Player
    from games.barbu.game_creation import game_create
    from games.barbu.submission import deal_submit
    from games.models import Event, Round, Seat, Table
    from scoring.engine.barbu.randomgame import random_game

    club = Club.objects.create(name="Bench club", slug="bench")
    league = League.objects.create(club=club, name="Bench league", season="2026")
    user = get_user_model().objects.create_user("bench", password="bench-password")
    organiser = Player.objects.create(name="Organiser", user=user)
    Membership.objects.create(club=club, player=organiser, role=Membership.Role.ORGANISER)
    event = Event.objects.create(
        club=club,
        league=league,
        name="Bench evening",
        starts_at=timezone.now(),
        ruleset=club.ruleset,
        status="running",
    )
    rnd = Round.objects.create(event=event, number=1)
    Player.objects.bulk_create(Player(name=f"List {i:02d}") for i in range(50))
    rng = random.Random(seed_value)
    plan = []
    for number in range(1, games + 2):
        table = Table.objects.create(round=rnd, number=number)
        players = Player.objects.bulk_create(Player(name=f"T{number:03d}{seat}") for seat in "ABCD")
        for position, player in enumerate(players):
            Membership.objects.create(club=club, player=player)
            Seat.objects.create(table=table, position=position, player=player)
        game = game_create(table=table)
        record = random_game(rng, game.ruleset, players=list(game.player_names))
        plan.append(
            {"id": game.pk, "key": table.key, "deals": record["deals"], "player": players[0].pk}
        )
    done = plan.pop()  # played to the end now: history, rating, league standings
    for deal in done["deals"]:
        deal_submit(game_id=done["id"], deal=deal)
    return {
        "token": Token.objects.create(user=user).key,
        "club": club.pk,
        "league": league.pk,
        "event": event.pk,
        "round": rnd.pk,
        "done": done,
        "games": plan,
    }


def phone_headers(game: dict) -> dict[str, str]:
    """A phone at the game's table: its table key and a fresh Idempotency-Key."""
    return {**JSON, "X-Table-Key": game["key"], "Idempotency-Key": str(uuid.uuid4())}


def token_headers(token: str) -> dict[str, str]:
    return {**JSON, "Authorization": f"Token {token}"}


def deal_work(plan: list[dict], threads: int, headers) -> list[list]:
    """Each thread owns whole games and posts their deals in order, games interleaved;
    `headers(game)` gives each request's headers."""
    work = []
    for games in spread(plan, threads):
        items = []
        for k in range(max((len(g["deals"]) for g in plan), default=0)):
            for game in games:
                if k < len(game["deals"]):
                    body = json.dumps({**game["deals"][k], "number": k + 1}).encode()
                    path = f"/api/v1/games/{game['id']}/deals/"
                    items.append(("POST", path, body, headers(game)))
        work.append(items)
    return work


def read_paths(data: dict, rng: random.Random, n: int) -> dict[str, list[str]]:
    """Every read endpoint of games/api and scoring/api, with n paths each (a random game
    for the game's own endpoints; the same URL otherwise)."""
    v1 = "/api/v1"
    games = [g["id"] for g in data["games"]]
    done = data["done"]
    fixed = {
        "event list": f"{v1}/events/",
        "event detail": f"{v1}/events/{data['event']}/",
        "event standings": f"{v1}/events/{data['event']}/standings/",
        "club list": f"{v1}/clubs/",
        "club detail": f"{v1}/clubs/{data['club']}/",
        "league list": f"{v1}/leagues/",
        "league detail": f"{v1}/leagues/{data['league']}/",
        "league standings": f"{v1}/leagues/{data['league']}/standings/",
        "player list": f"{v1}/players/",
        "player detail": f"{v1}/players/{done['player']}/",
        "player history": f"{v1}/players/{done['player']}/history/",
        "player rating": f"{v1}/players/{done['player']}/rating/",
        "round list": f"{v1}/rounds/",
        "round detail": f"{v1}/rounds/{data['round']}/",
        "table list": f"{v1}/tables/",
        "game list": f"{v1}/games/",
        "deal list": f"{v1}/deals/",
    }
    per_game = {
        "game detail": "{v1}/games/{g}/",
        "game's deals": "{v1}/games/{g}/deals/",
        "game's deal": "{v1}/games/{g}/deals/1/",
        "table detail": None,
    }
    paths = {name: [path] * n for name, path in fixed.items()}
    for name, template in per_game.items():
        if template is None:
            continue
        paths[name] = [template.format(v1=v1, g=rng.choice(games)) for _ in range(n)]
    from games.models import Deal, Game

    tables = dict(Game.objects.filter(pk__in=games).values_list("pk", "table_id"))
    paths["table detail"] = [f"{v1}/tables/{tables[rng.choice(games)]}/" for _ in range(n)]
    deal_ids = list(Deal.objects.filter(game_id__in=games).values_list("pk", flat=True))
    paths["deal detail"] = [f"{v1}/deals/{rng.choice(deal_ids)}/" for _ in range(n)]
    return dict(sorted(paths.items()))


def count_statements(data: dict, reads: dict[str, list[str]]) -> dict[str, int]:
    """In-process, same data: the SQL statements of one request of each kind.
    Submissions: the second deal of a spare game (the first creates the game's score
    rows), by a phone and by the organiser."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    def measure(call) -> int:
        with CaptureQueriesContext(connection) as captured:
            response = call()
        assert response.status_code in (200, 201), (response.status_code, response.content)
        return len(captured)

    client = Client(HTTP_HOST="localhost", HTTP_AUTHORIZATION=f"Token {data['token']}")
    counts: dict[str, int] = {}
    phone, organiser = data["spare"]
    for name, game, extra in (
        ("phone submission", phone, {"HTTP_X_TABLE_KEY": phone["key"]}),
        ("organiser submission", organiser, {}),
    ):
        c = Client(HTTP_HOST="localhost", **extra) if extra else client
        for k in range(2):

            def post(k=k, c=c, game=game, phone=bool(extra)):
                fresh = {"HTTP_IDEMPOTENCY_KEY": str(uuid.uuid4())} if phone else {}
                return c.post(
                    f"/api/v1/games/{game['id']}/deals/",
                    json.dumps({**game["deals"][k], "number": k + 1}),
                    content_type="application/json",
                    **fresh,
                )

            counts[name] = measure(post)
    counts[FLOOR_WRITE] = measure(
        lambda: client.post(
            "/bench/create/", json.dumps({"name": "x"}), content_type="application/json"
        )
    )
    for name, paths in {FLOOR_READ: ["/bench/list/"], **reads}.items():
        counts[name] = measure(lambda path=paths[0]: client.get(path))
    return counts


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="per submission path")
    parser.add_argument("--threads", type=int, default=8, help="clients at once")
    parser.add_argument("--requests", type=int, default=600, help="per read")
    parser.add_argument("--cap", type=float, default=60.0, help="seconds, per phase")
    parser.add_argument("--rounds", type=int, default=4, help="slices per phase, taking turns")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--only",
        default="",
        help="reads whose names contain this (or one of these, comma-separated)",
    )
    parser.add_argument("--no-write", action="store_true", help="do not update RESULTS.md")
    args = parser.parse_args(argv)

    database_url = os.environ.get("BENCH_DATABASE_URL", DEFAULT_DB)
    redis_url = os.environ.get("BENCH_REDIS_URL", DEFAULT_REDIS)
    env = server_env(database_url, redis_url, "api_bench_settings")
    recreate_database(database_url)
    redis_flush(redis_url)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=env,
        check=True,
    )
    setup_django(env)
    rng = random.Random(args.seed)
    data = seed(2 * args.games + 2, args.seed)
    data["spare"] = [data["games"].pop(), data["games"].pop()]  # for counting statements
    from django.db import connections

    connections.close_all()

    log = Path(f"/tmp/bench_api_worker_{os.getpid()}.log")
    # BENCH_PORTS="8710": the server's port on a machine where it is assigned.
    ports = os.environ.get("BENCH_PORTS", "")
    port = int(ports.split(",")[0]) if ports else free_port()
    processes = [start_server(env, port), start_worker(env, log)]
    results: dict[str, dict] = {}
    load_before = os.getloadavg()
    try:
        wait_for(port, "/bench/list/")
        load = Load("127.0.0.1", port)
        t, cap, rounds = args.threads, args.cap, args.rounds
        organiser = token_headers(data["token"])

        def create_work(count: int) -> list:
            return spread(
                [
                    ("POST", "/bench/create/", json.dumps({"name": f"N{i}"}).encode(), organiser)
                    for i in range(count)
                ],
                t,
            )

        half = len(data["games"]) // 2
        phone_games, organiser_games = data["games"][:half], data["games"][half:]
        n_deals = sum(len(g["deals"]) for g in phone_games)
        load.run(create_work(300), cap)  # warm-up: connections, imports
        writes = {
            FLOOR_WRITE: create_work(n_deals),
            "phone submission": deal_work(phone_games, t, phone_headers),
            "organiser submission": deal_work(organiser_games, t, lambda g: organiser),
        }
        results.update(alternate(load, writes, rounds, cap * len(writes)))
        drained_in = drained(redis_url, timeout=120)
        tasks = worker_tasks(log)
        # Every game now has deals: the reads' paths, and each request's statements.
        reads = {
            name: paths
            for name, paths in read_paths(data, rng, args.requests).items()
            if any(word in name for word in args.only.split(","))
        }
        statements = count_statements(data, reads)

        def get_work(paths: list[str]) -> list:
            return spread([("GET", p, None, organiser) for p in paths], t)

        phases = {FLOOR_READ: get_work(["/bench/list/"] * args.requests)}
        phases.update((name, get_work(paths)) for name, paths in reads.items())
        # Warm-up: every distinct URL once (connections, the first query of each kind).
        load.run(get_work(sorted({p for paths in reads.values() for p in paths})), cap)
        results.update(alternate(load, phases, rounds, cap * len(phases)))
    finally:
        load_after = os.getloadavg()
        for process in processes:
            stop(process)
        redis_flush(redis_url)
    report = render(
        results,
        args,
        statements,
        {"tasks": tasks, "drained": drained_in, "load": (load_before, load_after)},
    )
    print(report)
    if not args.no_write:
        from bench.report import write_section  # ROOT is on sys.path by now

        write_section(SECTION, report)
    return 0


def missed(results: dict) -> list[str]:
    """What misses the targets: a p99 of 500 ms or more, an answer other than 200 or 201,
    phones' deals taken slower than ten times a 150-table evening's pace."""
    out = []
    for name, r in results.items():
        if r["p99"] >= P99_TARGET_MS:
            out.append(f"{name} p99 {r['p99']:.0f} ms")
        errors = sum(n for code, n in r["statuses"].items() if code not in (200, 201))
        if errors:
            out.append(f"{name} {errors} errors")
    phone = results.get("phone submission")
    if phone and phone["rps"] < 10 * EVENING_DEALS_PER_SECOND:
        out.append(f"phone submission {phone['rps']:.1f} deals/s")
    return out


def clients(n: int) -> str:
    return f"{n} client" if n == 1 else f"{n} clients"


def render(results: dict, args: argparse.Namespace, statements: dict, run: dict) -> str:
    from bench.report import machine

    (b1, _b5, _b15), (a1, _a5, _a15) = run["load"]
    lines = [
        SECTION,
        "",
        f"`bench/bench_api.py --games {args.games} --threads {args.threads} "
        f"--requests {args.requests} --rounds {args.rounds}`, "
        f"{datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC; machine: {machine()}; "
        f"load average {b1:.1f} before, {a1:.1f} after. gunicorn 2 sync workers, "
        "PostgreSQL (CONN_MAX_AGE=600), Redis broker and cache, a Celery worker consuming "
        "the standings tasks, and the load generator on the same machine: "
        f"{clients(args.threads)} at once, each a keep-alive connection. The floor rows are "
        "trivial DRF endpoints with the API's own authentication and throttles "
        f"(bench/api_bench_urls.py), run in {args.rounds} slices taking turns with the "
        "real ones (A B C, C B A, ...): what the stack itself costs on this machine today.",
        "",
        "| request | requests | req/s | p50 ms | p99 ms | statuses | statements |",
        "|---|---:|---:|---:|---:|---|---:|",
    ]
    for name, r in results.items():
        statuses = ", ".join(f"{k}: {v}" for k, v in sorted(r["statuses"].items()))
        lines.append(
            f"| {name} | {r['requests']} | {r['rps']:.0f} | {r['p50']:.1f} | {r['p99']:.1f} "
            f"| {statuses} | {statements.get(name, '')} |"
        )
    problems = missed(results)
    phone = results.get("phone submission")
    tasks = ", ".join(f"{name} {count}" for name, count in sorted(run["tasks"].items()))
    lines += [
        "",
        f"Targets: every p99 under {P99_TARGET_MS} ms with {clients(args.threads)} at once, "
        "no error, and deals taken at least ten times as fast as a 150-table Barbu evening "
        f"writes them ({EVENING_DEALS_PER_SECOND:.1f} a second): "
        + ("met." if not problems else "NOT met: " + "; ".join(problems) + "."),
    ]
    if phone:
        lines.append(
            f"Phones' deals were taken at {phone['rps']:.0f} a second, "
            f"{phone['rps'] / EVENING_DEALS_PER_SECOND:.0f} times what such an evening writes."
        )
    lines += [
        "",
        "Statements: SQL statements of one request, counted in-process on the same data "
        "(CaptureQueriesContext, which lists a transaction's BEGIN and COMMIT too).",
        "",
        f"Celery worker during the writes: tasks run {tasks or 'none'}; queue "
        + (
            f"drained {run['drained']:.1f} s after the last submission."
            if run["drained"] is not None
            else "NOT drained within 120 s."
        ),
    ]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

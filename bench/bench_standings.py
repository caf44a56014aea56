"""Standings benchmark on PostgreSQL: a league of 1,000 players and 20,000 games.

    .venv/bin/python bench/bench_standings.py [--players 1000] [--games 20000] [--keep]
        [--league-only] [--database tavolo_bench_standings]

Creates the database (default tavolo_bench_standings; dropped first unless --keep finds it
filled),
migrates it and loads the league with COPY: 200 evenings of 25 tables x 4 rounds, every
game a random valid italian7 game scored by the engine (a pool of 500 records reused),
with its Deal, DealScore and GameScore rows: 560,000 deals, 2,240,000 DealScore rows.

Measured (median and range of several runs):
- for scale, the floor: one plain SQL GROUP BY player over the rows a league rebuild
  reads (the GameScore rows of the league's complete games:
  scoring.barbu.aggregates.league_scores);
- the full league standings rebuild (barbu_rebuild.rebuild_league_standings: two rankings, the
  second for the movement since the previous evening), for the three ranking methods and
  for the best 10 evenings (total and placement);
- the incremental path after one new deal on a running evening of 25 tables: the task's
  work (rebuild.rebuild_event_standings), the same rebuild again with nothing new to
  write, and what a deal that completes a game adds
  (the league rebuild and the ratings sync replaying one game);
- ratings: a full replay of every game, and the sync after a correction half-way.
Targets (what users feel: standings follow a stored deal within about two seconds on the
live pages, the standings task coalesced per league): a league rebuild well under a
second; the rebuild after one new deal a small part of those two seconds. With --keep,
each run starts from a fresh copy of the database as loaded (`<database>_pristine`, made
after loading; CREATE DATABASE ... TEMPLATE). --league-only loads the GameScore rows
without deals and times the league rebuilds alone (how their cost grows: e.g. --players
10000 --games 200000). Writes the "## Standings" section of bench/RESULTS.md (unless
--no-write).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import time
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "RESULTS.md"
SECTION = "## Standings"
DB_NAME = "tavolo_bench_standings"
SERVER = os.environ.get("BENCH_POSTGRES", "postgres://postgres@127.0.0.1:5432")

sys.path.insert(0, str(ROOT))

from bench.report import write_section  # noqa: E402

os.environ.pop("REDIS_URL", None)  # eager tasks, local cache: we time the work itself
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")


def pristine_name() -> str:
    """The loaded league as it was before any run: --keep copies it afresh each time."""
    return f"{DB_NAME}_pristine"


def create_database(keep: bool) -> bool:
    """Create the database DB_NAME; True when --keep found the loaded league: DB_NAME is
    then a fresh copy of its pristine database (CREATE DATABASE ... TEMPLATE), so that
    every run measures the same data (a run adds an evening and changes results)."""
    import psycopg

    with psycopg.connect(f"{SERVER}/postgres", autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [DB_NAME]).fetchone()
        pristine = conn.execute(
            "SELECT 1 FROM pg_database WHERE datname = %s", [pristine_name()]
        ).fetchone()
        if exists:
            conn.execute(f'DROP DATABASE "{DB_NAME}" WITH (FORCE)')
        if pristine and keep:
            conn.execute(f'CREATE DATABASE "{DB_NAME}" TEMPLATE "{pristine_name()}"')
            return True
        if pristine:
            conn.execute(f'DROP DATABASE "{pristine_name()}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{DB_NAME}"')
    return False


def keep_pristine() -> None:
    """Copy the freshly loaded DB_NAME to its pristine database (for later --keep runs)."""
    import psycopg
    from django.db import connections

    connections.close_all()
    with psycopg.connect(f"{SERVER}/postgres", autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{pristine_name()}" TEMPLATE "{DB_NAME}"')


FLOOR = (
    "SELECT s.player_id, COUNT(*), SUM(s.total) FROM games_gamescore s "
    "JOIN games_game g ON g.id = s.game_id JOIN games_table t ON t.id = g.table_id "
    "JOIN games_round r ON r.id = t.round_id JOIN games_event e ON e.id = r.event_id "
    "WHERE e.league_id = %s AND g.status = 'complete' GROUP BY s.player_id"
)


def fingerprint() -> str:
    """What the run starts from, to compare between runs: with --keep the same as loaded
    (no standings, no live evening, no ratings of an earlier run)."""
    from django.db import connection

    with connection.cursor() as cur:
        cur.execute(
            "SELECT (SELECT COUNT(*) FROM games_event), (SELECT COUNT(*) FROM games_game), "
            "(SELECT COUNT(*) FROM games_deal), "
            "(SELECT md5(string_agg(game_id || ':' || player_id || ':' || total || ':' "
            "|| place, ',' ORDER BY id)) FROM games_gamescore), "
            "(SELECT COUNT(*) FROM scoring_leaguestanding), "
            "(SELECT COUNT(*) FROM scoring_ratinghistory)"
        )
        events, games, deals, digest, standings, history = cur.fetchone()
    return (
        f"{events} evenings, {games} games, {deals} deals, GameScore md5 {digest[:12]}, "
        f"{standings} league standing rows, {history} rating history rows"
    )


def timed(fn, repeat: int) -> tuple[float, list[float]]:
    """fn's median time in ms over `repeat` runs, and every run's."""
    runs = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        runs.append((time.perf_counter() - started) * 1000)
    return statistics.median(runs), runs


class Copier:
    """COPY rows of a model given as dicts of attnames (defaults for what is missing)."""

    def __init__(self, connection) -> None:
        connection.ensure_connection()
        self.raw = connection.connection

    def copy(self, model, rows: list[dict]) -> None:
        # Not generated columns: the database computes them.
        fields = [f for f in model._meta.concrete_fields if not f.generated]
        cols = ", ".join(f'"{f.column}"' for f in fields)
        sql = f'COPY "{model._meta.db_table}" ({cols}) FROM STDIN'
        with self.raw.cursor() as cur, cur.copy(sql) as copy:
            for row in rows:
                copy.write_row([self._value(f, row) for f in fields])

    @staticmethod
    def _value(field, row):
        if field.attname in row:
            value = row[field.attname]
        elif field.has_default():
            value = field.get_default()
        elif field.null:
            value = None
        else:
            value = "" if field.get_internal_type() == "CharField" else None
        if field.get_internal_type() == "JSONField" and value is not None:
            return json.dumps(value)
        return value


def load(players: int, games: int, seed: int, *, deals: bool = True) -> None:
    """The league, loaded with COPY; without `deals`, only the GameScore rows of its games
    (all a league rebuild reads)."""
    from django.db import connection, transaction

    from clubs.models import Club, League, Membership, Player
    from games.barbu.game_scores import doubles_won_lost, seat_places
    from games.models import Deal, DealScore, Event, Game, GameScore, Round, Seat, Table
    from scoring.engine import barbu
    from scoring.engine.barbu.randomgame import random_game

    rng = random.Random(seed)
    names = ["S0", "S1", "S2", "S3"]
    started = time.perf_counter()
    pool = []
    for _ in range(500):
        record = random_game(rng, "italian7", players=names)
        scores = barbu.score_game(record)
        pool.append((record, scores))
    print(f"  500 random games scored in {time.perf_counter() - started:.1f} s", flush=True)

    copier = Copier(connection)
    now = datetime(2026, 1, 1, tzinfo=UTC)
    tables_per_round, rounds_per_evening = 25, 4
    per_evening = tables_per_round * rounds_per_evening
    evenings = -(-games // per_evening)
    with transaction.atomic():
        club = Club.objects.create(name="Bench club", slug="bench")
        league = League.objects.create(club=club, name="Bench league", season="2026")
        copier.copy(
            Player,
            [
                {"id": i, "name": f"Player {i:04d}", "created_at": now}
                for i in range(1, players + 1)
            ],
        )
        copier.copy(
            Membership,
            [
                {"id": i, "club_id": club.pk, "player_id": i, "role": "member", "joined_at": now}
                for i in range(1, players + 1)
            ],
        )
        ruleset = {"preset": "italian7", "options": {}}
        ev_rows, rd_rows, tb_rows, seat_rows, game_rows, gs_rows = [], [], [], [], [], []
        deal_rows, ds_rows = [], []
        game_id = deal_id = ds_id = gs_id = seat_id = 0
        for e in range(1, evenings + 1):
            ev_rows.append(
                {
                    "id": e,
                    "club_id": club.pk,
                    "league_id": league.pk,
                    "name": f"Evening {e}",
                    "starts_at": now + timedelta(days=e),
                    "status": "closed",
                    "ruleset": ruleset,
                    "created_at": now,
                }
            )
            present = rng.sample(range(1, players + 1), tables_per_round * 4)
            for r in range(1, rounds_per_evening + 1):
                round_id = (e - 1) * rounds_per_evening + r
                rd_rows.append({"id": round_id, "event_id": e, "number": r, "created_at": now})
                rng.shuffle(present)
                for t in range(1, tables_per_round + 1):
                    if game_id >= games:
                        break
                    game_id += 1
                    table_id = game_id
                    tb_rows.append(
                        {"id": table_id, "round_id": round_id, "number": t, "key": f"k{table_id}"}
                    )
                    seated = present[(t - 1) * 4 : t * 4]
                    for pos, player in enumerate(seated):
                        seat_id += 1
                        seat_rows.append(
                            {
                                "id": seat_id,
                                "table_id": table_id,
                                "position": pos,
                                "player_id": player,
                            }
                        )
                    record, scores = pool[rng.randrange(len(pool))]
                    totals = scores["totals"]
                    places, aboves = seat_places(totals)
                    game_rows.append(
                        {
                            "id": game_id,
                            "table_id": table_id,
                            "kind": "barbu",
                            "ruleset": ruleset,
                            "player_names": names,
                            "deals_target": 28,
                            "status": "complete",
                            "deals_count": 28,
                            "totals": totals,
                            "updated_at": now,
                        }
                    )
                    by_name = dict(zip(names, seated, strict=True))
                    for seat, name in enumerate(names):
                        gs_id += 1
                        gs_rows.append(
                            {
                                "id": gs_id,
                                "game_id": game_id,
                                "player_id": by_name[name],
                                "seat": seat,
                                "total": Decimal(str(totals[name])),
                                "place": Decimal(str(places[name])),
                                "above": aboves[name],
                                "deals": 28,
                            }
                        )
                    dealt = zip(record["deals"], scores["deals"], strict=True) if deals else ()
                    for deal, sheet in dealt:
                        deal_id += 1
                        king = (deal.get("result") or {}).get("king_of_hearts")
                        won, lost = doubles_won_lost(deal, sheet["raw"])
                        deal_rows.append(
                            {
                                "id": deal_id,
                                "game_id": game_id,
                                "number": sheet["number"],
                                "dealer_id": by_name[deal["dealer"]],
                                "contract": deal["contract"],
                                "data": deal,
                                "scores": {k: sheet[k] for k in ("raw", "doubles", "score")},
                                "version": 1,
                                "status": "confirmed",
                                "created_at": now,
                                "updated_at": now,
                            }
                        )
                        for name in names:
                            ds_id += 1
                            ds_rows.append(
                                {
                                    "id": ds_id,
                                    "deal_id": deal_id,
                                    "game_id": game_id,
                                    "player_id": by_name[name],
                                    "contract": deal["contract"],
                                    "is_dealer": deal["dealer"] == name,
                                    "raw": sheet["raw"][name],
                                    "doubles": sheet["doubles"][name],
                                    "score": sheet["score"][name],
                                    "took_king": deal["contract"] == "barbu" and king == name,
                                    "doubles_won": won.get(name, 0),
                                    "doubles_lost": lost.get(name, 0),
                                }
                            )
            # Write per evening so memory stays small.
            if e % 20 == 0 or e == evenings:
                for model, rows in (
                    (Event, ev_rows),
                    (Round, rd_rows),
                    (Table, tb_rows),
                    (Seat, seat_rows),
                    (Game, game_rows),
                    (GameScore, gs_rows),
                    (Deal, deal_rows),
                    (DealScore, ds_rows),
                ):
                    copier.copy(model, rows)
                    rows.clear()
                print(f"  evenings {e}/{evenings}, games {game_id}", flush=True)
        with connection.cursor() as cur:
            for model in (
                Player,
                Membership,
                Event,
                Round,
                Table,
                Seat,
                Game,
                GameScore,
                Deal,
                DealScore,
            ):
                table = model._meta.db_table
                cur.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                    f"(SELECT COALESCE(MAX(id), 1) FROM {table}))"
                )
    with connection.cursor() as cur:
        cur.execute("VACUUM ANALYZE")
    print(f"  loaded in {time.perf_counter() - started:.1f} s", flush=True)


# The league rebuilds timed: (key, the league's ranking); LEAGUE_LABELS names them.
LEAGUE_RANKINGS = [
    ("league_total", {"method": "total"}),
    ("league_placement", {"method": "placement"}),
    ("league_average", {"method": "average", "min_games": 40}),
    ("league_best10", {"method": "total", "best_evenings": 10}),
    ("league_placement_best10", {"method": "placement", "best_evenings": 10}),
]


def measure(repeat: int, league_only: bool = False) -> dict:
    from django.db import connection
    from django.utils import timezone

    from clubs.models import League, Player
    from games.barbu.game_creation import game_create
    from games.barbu.submission import deal_submit
    from games.core.signals import deals_changed
    from games.models import DealScore, Event, Game
    from scoring import rebuild
    from scoring.barbu import rating_sync as barbu_rating_sync
    from scoring.barbu import rebuild as barbu_rebuild
    from scoring.engine.barbu.randomgame import random_game
    from scoring.models import LeagueStanding, RatingHistory
    from tests.factories import make_table

    # Tasks would run eagerly inside each deal_submit: here we call the work ourselves.
    deals_changed.disconnect(dispatch_uid="scoring.standings_on_deals_changed")
    league = League.objects.get()
    out: dict = {
        "fingerprint": fingerprint(),
        "deal_scores": DealScore.objects.count(),
        "deals": DealScore.objects.count() // 4,
        "games": Game.objects.count(),
        "players": Player.objects.count(),
    }

    def group_by() -> None:
        """The floor: one GROUP BY over the rows a league rebuild reads (the GameScore rows
        of the league's games, found through their evening)."""
        with connection.cursor() as cur:
            cur.execute(FLOOR, [league.pk])
            cur.fetchall()

    group_by()  # warm the cache as the rebuild will be
    out["group_by"] = timed(group_by, repeat)

    for key, ranking in LEAGUE_RANKINGS:
        league.ranking = ranking
        league.save()
        barbu_rebuild.rebuild_league_standings(league_id=league.pk)  # the ranking's rows written
        out[key] = timed(
            lambda: barbu_rebuild.rebuild_league_standings(league_id=league.pk), repeat
        )
    league.ranking = {}
    league.save()
    barbu_rebuild.rebuild_league_standings(league_id=league.pk)
    out["league_rows"] = LeagueStanding.objects.filter(league=league).count()
    out["load"] = os.getloadavg()
    if league_only:
        return out

    # Ratings: full replay, nothing-to-do sync, and a correction half-way.
    out["ratings_full"] = timed(lambda: barbu_rating_sync.sync_ratings(full=True), 1)
    out["ratings_noop"] = timed(barbu_rating_sync.sync_ratings, repeat)
    history = RatingHistory.objects.count()
    middle = (
        Game.objects.filter(
            table__round__event__starts_at__gte=Event.objects.order_by("starts_at")[
                Event.objects.count() // 2
            ].starts_at
        )
        .order_by("pk")
        .first()
    )
    scores = list(middle.scores.order_by("seat"))
    # Swap first and last place of one game half-way through the season.
    a, b = scores[0], scores[-1]
    a.place, b.place = b.place, a.place
    a.save(update_fields=["place"])
    b.save(update_fields=["place"])
    # As deal_correct does: the game row's updated_at tells the sync what to compare.
    Game.objects.filter(pk=middle.pk).update(updated_at=timezone.now())
    started = time.perf_counter()
    report = barbu_rating_sync.sync_ratings()
    out["ratings_half"] = ((time.perf_counter() - started) * 1000, report.replayed)
    out["history_rows"] = history

    # A running evening of 25 tables: the incremental path after one new deal.
    last = Event.objects.order_by("-starts_at").first()
    event = Event.objects.create(
        club=league.club,
        league=league,
        name="Live evening",
        starts_at=last.starts_at + timedelta(days=7),
        status="running",
        ruleset={"preset": "italian7", "options": {}},
    )
    rng = random.Random(7)
    people = rng.sample(list(Player.objects.all()), 100)
    live = []
    for t in range(25):
        table = make_table(event, people[t * 4 : t * 4 + 4])
        game = game_create(table=table)
        live.append((game, random_game(rng, "italian7", players=list(game.player_names))))
    # Every table plays 10 deals first; then we time single deals.
    for game, record in live:
        for deal in record["deals"][:10]:
            deal_submit(game_id=game.pk, deal=deal)
    per_deal, unchanged = [], []
    for i in range(max(repeat * 4, 20)):
        game, record = live[i % 25]
        number = game.deals.count()
        deal_submit(game_id=game.pk, deal=record["deals"][number])
        started = time.perf_counter()
        rebuild.rebuild_event_standings(event_id=event.pk)
        per_deal.append((time.perf_counter() - started) * 1000)
        # The same rebuild again: a duplicate task, or one queued by a deal already seen.
        started = time.perf_counter()
        rebuild.rebuild_event_standings(event_id=event.pk)
        unchanged.append((time.perf_counter() - started) * 1000)
    out["event_after_deal"] = (statistics.median(per_deal), per_deal)
    out["event_unchanged"] = (statistics.median(unchanged), unchanged)

    # A deal that completes a game: the league table and the ratings follow.
    game, record = live[0]
    for deal in record["deals"][game.deals.count() : 27]:
        deal_submit(game_id=game.pk, deal=deal)
    deal_submit(game_id=game.pk, deal=record["deals"][27])
    started = time.perf_counter()
    rebuild.rebuild_event_standings(event_id=event.pk)
    t_event = (time.perf_counter() - started) * 1000
    started = time.perf_counter()
    barbu_rebuild.rebuild_league_standings(league_id=league.pk)
    t_league = (time.perf_counter() - started) * 1000
    started = time.perf_counter()
    report = barbu_rating_sync.sync_ratings()
    t_ratings = (time.perf_counter() - started) * 1000
    out["game_complete"] = (t_event, t_league, t_ratings, report.replayed)
    out["load"] = os.getloadavg()
    return out


LEAGUE_LABELS = {
    "league_total": "league rebuild, total points (two rankings: now and before the latest "
    "evening; {rows} rows compared, the changed ones written)",
    "league_placement": "league rebuild, placement points [4, 2, 1, 0]",
    "league_average": "league rebuild, average (min 40 games)",
    "league_best10": "league rebuild, total of the best 10 evenings",
    "league_placement_best10": "league rebuild, placement points of the best 10 evenings",
}


def section(out: dict, args: argparse.Namespace) -> str:
    today = datetime.now().strftime("%Y-%m-%d")
    machine = f"{platform.machine()}, nproc {os.cpu_count()}, Python {platform.python_version()}"

    def ms(value: float) -> str:
        return f"{value:,.0f} ms" if value >= 100 else f"{value:.1f} ms"

    def spread(timing: tuple[float, list[float]]) -> str:
        median, runs = timing
        return f"{ms(median)} ({ms(min(runs))}-{ms(max(runs))})"

    options = f"{' --keep' if args.keep else ''}{' --league-only' if args.league_only else ''}"
    deals = (
        f"{out['deals']:,} deals ({out['deal_scores']:,} DealScore rows)"
        if out["deals"]
        else "no deals (loaded with --league-only)"
    )
    lines = [
        SECTION,
        "",
        f"`bench/bench_standings.py --players {args.players} --games {args.games}{options} "
        f"--database {args.database}`, {today}; machine: {machine}; PostgreSQL 15 on the "
        f"same machine; median (and range) of {args.repeat} runs; load average during the "
        f"run {out['load'][0]:.1f} (the machine is shared).",
        "",
        f"Data: {out['players']:,} players, {out['games']:,} complete games, {deals}, one "
        f"league of {out['games'] // 100} evenings (25 tables x 4 rounds), loaded with COPY. "
        f"At the start of the run: {out['fingerprint']}.",
        "",
        "| measurement | time: median (range) | target |",
        "|---|---|---|",
        f"| for scale, the floor: `SELECT s.player_id, COUNT(*), SUM(s.total) FROM "
        f"games_gamescore s JOIN games_game g, games_table, games_round, games_event e WHERE "
        f"e.league_id = ... AND g.status = 'complete' GROUP BY s.player_id` "
        f"| {spread(out['group_by'])} | |",
    ]
    for key, _ranking in LEAGUE_RANKINGS:
        label = LEAGUE_LABELS[key].format(rows=f"{out['league_rows']:,}")
        met = "met" if out[key][0] < 1000 else "NOT met"
        lines.append(f"| {label} | {spread(out[key])} | < 1 s: {met} |")
    if not args.league_only:
        ev, lg, rt, replayed = out["game_complete"]
        half_ms, half_games = out["ratings_half"]
        lines += [
            f"| one new deal on a running evening of 25 tables: the task's rebuild of the "
            f"evening | {spread(out['event_after_deal'])} | a small part of 2 s |",
            f"| one new deal, nothing new to write: the same rebuild run again at once "
            f"| {spread(out['event_unchanged'])} | |",
            f"| a deal completing a game: evening + league + ratings (replays {replayed} game) "
            f"| {ms(ev)} + {ms(lg)} + {ms(rt)} | |",
            f"| ratings: full replay of {out['games']:,} games ({out['history_rows']:,} history "
            f"rows) | {ms(out['ratings_full'][0])} | |",
            f"| ratings: sync with nothing to do (compare history with results) | "
            f"{spread(out['ratings_noop'])} | |",
            f"| ratings: a result corrected half-way (replays {half_games:,} games) | "
            f"{ms(half_ms)} | |",
        ]
    lines += [
        "",
        "The league table is computed from GameScore (four rows a game, written with each deal"
        " by games/barbu/game_scores.py), so its cost follows the number of games, not of deals,"
        " and"
        " italian6 settlements (which are not in DealScore) are counted. A league rebuild"
        " reads each player's lines per evening in one GROUP BY of the ORM (games, total,"
        " wins, best game, deals and, for placement points, how many games the player had in"
        " each place at the table, from the place stored with each deal), combines them per"
        " player in Python (the best N evenings chosen there), ranks them, and combines again"
        " without the latest evening only the lines of that evening's players, for the"
        " movement. Head-to-head reads the games of the players a tie leaves level, once for"
        " both rankings. Each rebuild reads the stored rows once and writes only those that"
        " differ (bulk_create with update_conflicts; a DELETE for players no longer there):"
        " nothing when nothing changed, as in the timed runs above after the first. The"
        " ratings sync compares the stored history with the complete games' places and"
        " replays from the first difference: a new game at the end replays one game, a"
        " correction replays from that game on. The ratings sync after a new game compares"
        " only games changed since the previous sync (Game.updated_at, with a ten-minute"
        " margin) and starts from the stored current ratings.",
        "",
    ]
    return "\n".join(lines)


def main() -> int:
    global DB_NAME
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--repeat", type=int, default=9)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--keep", action="store_true", help="reuse a loaded database")
    parser.add_argument("--no-write", action="store_true", help="do not update RESULTS.md")
    parser.add_argument(
        "--league-only",
        action="store_true",
        help="load no deals and time the league rebuilds only (with --keep: a database "
        "loaded with this option too)",
    )
    parser.add_argument(
        "--database", default=DB_NAME, help="the database to (re)create: one of your own"
    )
    args = parser.parse_args()

    DB_NAME = args.database
    os.environ["DATABASE_URL"] = f"{SERVER}/{DB_NAME}"
    loaded = create_database(args.keep)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    if not loaded:
        print(f"loading {args.games} games for {args.players} players...", flush=True)
        load(args.players, args.games, args.seed, deals=not args.league_only)
        keep_pristine()
    else:
        print(f"a fresh copy of {pristine_name()} (--keep)", flush=True)
        # A migration may have rewritten a table of the copy (a column added since it was
        # loaded): statistics and visibility as after a load, before anything is timed.
        from django.db import connection

        with connection.cursor() as cur:
            cur.execute("VACUUM ANALYZE")
    import logging

    logging.disable(logging.INFO)
    out = measure(args.repeat, league_only=args.league_only)
    text = section(out, args)
    print(text)
    if not args.no_write:
        write_section(SECTION, text)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Writes of derived data: event and league standings and ratings, rebuilt from the games.

Each rebuild aggregates the GameScore rows in SQL (one query per player and evening; an
evening's few hundred rows are read once as they are, head-to-head games included),
hands the aggregates to the pure maths of scoring/standings.py and scoring/ratings.py,
and writes the stored rows that differ in one transaction that first locks the event,
league or rating row: two workers never interleave, and a worker killed half-way leaves
the old rows. Running a rebuild twice gives the same rows (the second writes nothing).
"""

from __future__ import annotations

import gc
import logging
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from decimal import Context as DecimalContext
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import connection, transaction
from django.db.models import (
    BooleanField,
    Case,
    Count,
    F,
    IntegerField,
    Max,
    Q,
    Sum,
    Value,
    When,
    Window,
)
from django.db.models.functions import RowNumber
from django.utils import timezone

from clubs.models import League
from games.models import Event, Game, GameScore
from scoring import ratings as rating_maths
from scoring import standings as maths
from scoring.models import EventStanding, LeagueStanding, PlayerRating, RatingHistory, RatingRun

log = logging.getLogger(__name__)

EVENT_FIELD = "game__table__round__event_id"


def forget(key: str) -> None:
    """Drop the cached standings under this key, in every language they were cached in,
    and their version (the API's rendered pages are cached per version: scoring/api.py)."""
    keys = [f"{key}:{code}" for code, _name in settings.LANGUAGES]
    cache.delete_many([*keys, version_cache_key(key)])


def version_cache_key(key: str) -> str:
    return f"{key}:version"


def event_cache_key(event_id: int) -> str:
    return f"standings:event:{event_id}"


def league_cache_key(league_id: int) -> str:
    return f"standings:league:{league_id}"


def ranking_of(obj: Any, fallback: Any = None) -> maths.Ranking:
    """The Ranking configured on an event or league (its own, else the fallback's)."""
    config = obj.ranking or (fallback.ranking if fallback is not None else None)
    ranking, problems = maths.parse_ranking(config)
    if problems:
        log.warning("ranking of %r has problems %s: defaults used there", obj, problems)
    return ranking


def evening_lines(scores: Any, ranking: maths.Ranking) -> list[maths.EveningLine]:
    """Per player and evening: games, total, wins, best game and deals, in one SQL query;
    with the placement method, the placement points too (same query, see below)."""
    if ranking.method == "placement":
        return _evening_lines_with_placement(scores, ranking)
    rows = (
        scores.values("player_id", event=F(EVENT_FIELD))
        .annotate(
            n=Count("id"),
            sum_total=Sum("total"),
            # A win: first at the table, alone or level with one other player, in a
            # complete game (an unfinished game is nobody's win).
            n_wins=Count(
                "id", filter=Q(place__lte=Decimal("1.5"), game__status=Game.Status.COMPLETE)
            ),
            best=Max("total"),
            n_deals=Sum("deals"),
        )
        .values_list("player_id", "event", "n", "sum_total", "n_wins", "best", "n_deals")
        .order_by()
    )
    # Run as plain SQL: tens of thousands of rows in a league, and the ORM would convert
    # each aggregate again in Python (as in the placement query below).
    sql, params = rows.query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        fetched = cursor.fetchall()
    return [
        maths.EveningLine(
            player_id=player_id,
            event_id=event_id,
            games=games,
            total=_sql_decimal(total),
            wins=wins,
            best_game=_sql_decimal(best),
            deals=deals or 0,
        )
        for player_id, event_id, games, total, wins, best, deals in fetched
    ]


# SQLite hands back sums of decimals as floats: made exact as the ORM's converter does.
_FLOATS = DecimalContext(prec=15)
_CENTS = Decimal("0.01")


def _sql_decimal(value: Any) -> Decimal:
    if type(value) is Decimal:  # PostgreSQL's numeric: tens of thousands of rows a league
        return value
    if value is None:
        return Decimal(0)
    if isinstance(value, float):
        return _FLOATS.create_decimal_from_float(value).quantize(_CENTS)
    return Decimal(value)


# Weights up to this keep every sum in SQL a 64-bit integer (SQLite has no bigger): any
# configuration in whole, half or tenth points is far below; beyond it, cases are counted.
MAX_SQL_WEIGHT = 2**31


def _case_sum(weights: Sequence[int]) -> str:
    """SUM over the rows of the weight of each row's (above, level) case, as SQL, from the
    stored columns: `above` the players above, `place` the shared place, which with it
    tells the players level (place = above + (level + 1) / 2, so 1.5 after 0 above is two
    level for first). Both are written with each deal from the same totals."""
    by_above: dict[int, list[str]] = {}
    for (above, tied), weight in zip(maths.PLACEMENT_CASES, weights, strict=True):
        place = Decimal(above) + Decimal(tied + 1) / 2
        by_above.setdefault(above, []).append(f"WHEN {place} THEN {int(weight):d}")
    branches = " ".join(
        f"WHEN {above:d} THEN (CASE place {' '.join(whens)} ELSE 0 END)"
        for above, whens in by_above.items()
    )
    return f"SUM(CASE above {branches} ELSE 0 END)"


def _evening_lines_with_placement(scores: Any, ranking: maths.Ranking) -> list[maths.EveningLine]:
    """The evening lines with placement points, in one query on SQLite and PostgreSQL.

    Inside: each GameScore row with its evening and its place at the table as stored with
    each deal (`above`, the players above, and `place`, the shared place; no window
    function over the games). Outside: a plain GROUP BY (player, evening) with the usual
    aggregates and the placement points as one sum of whole-number weights
    (maths.placement_weights), divided once in Python: exact with shared places, which a
    sum of rounded shares in SQL would not be.
    """
    weights, denominator = maths.placement_weights(ranking.placement_points)
    by_counts = None
    if max(abs(w) for w in weights) <= MAX_SQL_WEIGHT:
        sums = [_case_sum(weights)]
    else:  # Huge or finely divided points: count each case, the maths weighs them.
        sums = [_case_sum([int(i == j) for j in range(len(weights))]) for i in range(len(weights))]
        by_counts = maths.placement_of_cases(ranking.placement_points)

    placed = (
        scores.annotate(
            st_event=F(EVENT_FIELD),
            st_done=Case(
                When(game__status=Game.Status.COMPLETE, then=Value(1)),
                default=Value(0),
                output_field=IntegerField(),
            ),
        )
        .values_list("player_id", "st_event", "total", "place", "deals", "above", "st_done")
        .order_by()
    )
    inner, params = placed.query.sql_with_params()
    sql = (
        "SELECT player_id, st_event, COUNT(*), SUM(total),"
        # A win: first at the table, alone or level with one other player, in a
        # complete game (an unfinished game is nobody's win).
        " SUM(CASE WHEN place <= 1.5 AND st_done = 1 THEN 1 ELSE 0 END), MAX(total),"
        " SUM(deals), "
        f"{', '.join(sums)} FROM ({inner}) placed GROUP BY player_id, st_event"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    Line = maths.EveningLine
    if by_counts is not None:
        return [
            Line(
                player_id,
                event_id,
                games,
                _sql_decimal(total),
                wins,
                _sql_decimal(best),
                by_counts([int(v or 0) for v in values]),
                deals or 0,
            )
            for player_id, event_id, games, total, wins, best, deals, *values in rows
        ]
    # Tens of thousands of rows: positional fields, Decimals (PostgreSQL) kept as they
    # are, and one Fraction per distinct weight sum, shared by the lines that have it.
    shares = _Shares(denominator)
    return [
        Line(
            player_id,
            event_id,
            games,
            _sql_decimal(total),
            wins,
            _sql_decimal(best),
            shares[n],
            deals or 0,
        )
        for player_id, event_id, games, total, wins, best, deals, n in rows
    ]


class _Shares(dict[Any, Fraction]):
    """Placement points by sum of weights: Fraction(sum, denominator), made once a sum."""

    def __init__(self, denominator: int) -> None:
        super().__init__()
        self.denominator = denominator

    def __missing__(self, n: Any) -> Fraction:
        share = self[n] = Fraction(int(n or 0), self.denominator)
        return share


def game_results(scores: Any) -> list[maths.GameResult]:
    """Each game's totals by player (four rows per game, not per deal)."""
    rows: Any = scores.values_list("game_id", EVENT_FIELD, "player_id", "total").order_by()
    if connection.vendor == "postgresql":
        # Plain SQL, as the aggregates: the same values (numeric is Decimal already),
        # without the ORM's work per row over tens of thousands of rows.
        sql, params = rows.query.sql_with_params()
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            rows = cursor.fetchall()
    out: dict[int, maths.GameResult] = {}
    for game_id, event_id, player_id, total in rows:
        result = out.get(game_id)
        if result is None:
            result = out[game_id] = maths.GameResult(game_id, event_id, {})
        result.totals[player_id] = total  # type: ignore[index]
    return list(out.values())


class _GamesOfPlayers:
    """The games for head-to-head, read from these GameScore rows only for the players
    asked about, each player's rows at most once: the two rankings of a league rebuild
    (now, and before the latest evening) mostly ask about the same level players."""

    def __init__(self, scores: Any, games: Sequence[maths.GameResult] | None = None) -> None:
        """`games`: every game of these rows, read already (nothing more will be read)."""
        self.scores = scores
        self.complete = games is not None
        self.loaded: set[int] = set()
        self.games: dict[int, maths.GameResult] = {g.game_id: g for g in games or ()}
        # Each player's games, made as the games are read (not again on every call).
        self.by_player: dict[int, list[maths.GameResult]] = {}
        for game in self.games.values():
            for player_id in game.totals:
                self.by_player.setdefault(player_id, []).append(game)

    def _load(self, players: set[int]) -> None:
        missing = set() if self.complete else players - self.loaded
        if not missing:
            return
        by_player = self.by_player
        for result in game_results(self.scores.filter(player_id__in=missing)):
            known = self.games.get(result.game_id)
            if known is None:
                known = self.games[result.game_id] = result
            else:
                known.totals.update(result.totals)  # type: ignore[attr-defined]
            for player_id in result.totals:  # only missing players: not indexed before
                by_player.setdefault(player_id, []).append(known)
        self.loaded |= missing

    def __call__(self, players: set[int], without_event: int | None = None) -> list[Any]:
        """Every game of these players, with only their totals."""
        self._load(players)
        seen: dict[int, maths.GameResult] = {}
        for player_id in players:
            for result in self.by_player.get(player_id, ()):
                if result.event_id != without_event:
                    seen[result.game_id] = result
        return [
            maths.GameResult(
                result.game_id,
                result.event_id,
                {p: t for p, t in result.totals.items() if p in players},
            )
            for result in seen.values()
        ]

    def shared(self, players: set[int], without_event: int | None = None) -> list[Any]:
        """The games at least two of these players played, with only their totals: all
        head-to-head compares (a game with one of them changes no one's score)."""
        self._load(players)
        count: dict[int, int] = {}
        for player_id in players:
            for result in self.by_player.get(player_id, ()):
                count[result.game_id] = count.get(result.game_id, 0) + 1
        out = []
        games = self.games
        for game_id, n in count.items():
            if n < 2:
                continue
            result = games[game_id]
            if result.event_id == without_event:
                continue
            totals = {p: t for p, t in result.totals.items() if p in players}
            out.append(maths.GameResult(game_id, result.event_id, totals))
        return out


@dataclass
class Aggregates:
    """What a ranking needs from the database, read once: per (player, evening) lines
    (placement points included); games for head-to-head are read only if a tie needs them,
    and once for both rankings of a league rebuild."""

    scores: Any
    lines: list[maths.EveningLine]
    games: _GamesOfPlayers
    without_event: int | None = None

    def without(self, event_id: int) -> Aggregates:
        """The same rows minus one evening (the ranking before it), with no new query."""
        return Aggregates(
            self.scores,
            [line for line in self.lines if line.event_id != event_id],
            self.games,
            event_id,
        )

    def load_games(self, players: set[int]) -> list[maths.GameResult]:
        return self.games(players, self.without_event)

    def load_shared_games(self, players: set[int]) -> list[maths.GameResult]:
        """As load_games, only the games two or more of the players played together."""
        return self.games.shared(players, self.without_event)


def aggregate(scores: Any, ranking: maths.Ranking) -> Aggregates:
    return Aggregates(scores, evening_lines(scores, ranking), _GamesOfPlayers(scores))


def aggregate_seats(scores: Any, ranking: maths.Ranking) -> Aggregates:
    """As aggregate(), for a scope of a few hundred rows (an evening): one read of the
    rows themselves gives the lines, placement points and head-to-head games at once."""
    seats = (
        scores.annotate(
            st_done=Case(
                When(game__status=Game.Status.COMPLETE, then=Value(True)),
                default=Value(False),
                output_field=BooleanField(),
            )
        )
        .values_list("game_id", EVENT_FIELD, "player_id", "total", "place", "deals", "st_done")
        .order_by()
    )
    lines, games = maths.lines_of_seats(seats, ranking)
    return Aggregates(scores, lines, _GamesOfPlayers(scores, games))


def rank(data: Aggregates, ranking: maths.Ranking) -> list[maths.Standing]:
    players = maths.combine(data.lines, ranking)
    return maths.rank(players, ranking, data.load_shared_games)


def compute(scores: Any, ranking: maths.Ranking) -> list[maths.Standing]:
    """The standings of these GameScore rows under a ranking (nothing written)."""
    return rank(aggregate(scores, ranking), ranking)


def _details(standing: maths.Standing) -> dict[str, Any]:
    line = standing.line
    num = maths.number
    details = {
        "total": num(line.total),
        "placement": num(line.placement),
        "average": num(line.average),
        "wins": line.wins,
        "best_game": num(line.best_game),
        "deals": line.deals,
        "qualified": standing.qualified,
    }
    if standing.tiebreak and standing.tiebreak != "tied":
        details["tiebreak"] = {
            "key": standing.tiebreak,
            "value": num(standing.tiebreak_values.get(standing.tiebreak)),
        }
    return details


def _points(value: maths.Number) -> Decimal:
    """Points as stored: two decimal places (totals are Decimals already, shares Fractions)."""
    if isinstance(value, Decimal | int):
        return Decimal(value).quantize(_CENTS)
    value = Fraction(value)
    return (Decimal(value.numerator) / Decimal(value.denominator)).quantize(_CENTS)


COMPARED = ("rank", "previous_rank", "points", "games", "evenings", "details", "tiebreak_note")


def _replace_rows(model: Any, scope: dict[str, int], rows: dict[int, dict[str, Any]]) -> int:
    """Make the stored rows of this scope exactly `rows` (the compared fields of each
    player's row, by player id), inside the caller's transaction; the number of rows
    written or deleted.

    One read of the stored rows, compared with the new ones (maths.row_changes): new and
    changed rows are written by one INSERT ... ON CONFLICT DO UPDATE, vanished ones
    deleted, unchanged ones left alone (no model instance is even made for them). After
    one deal most of an evening's or a league's rows are unchanged, and when nothing
    changed nothing is written.
    """
    fields = [f for f in COMPARED if hasattr(model, f)]
    stored = {
        values[0]: values[1:]
        for values in model.objects.filter(**scope).values_list("player_id", *fields)
    }
    changed, vanished = maths.row_changes(
        stored, {p: tuple(row[f] for f in fields) for p, row in rows.items()}
    )
    if vanished:
        model.objects.filter(**scope, player_id__in=vanished).delete()
    if changed:
        (owner,) = (key.removesuffix("_id") for key in scope)
        model.objects.bulk_create(
            [model(**scope, player_id=p, **rows[p]) for p in changed],
            batch_size=2000,
            update_conflicts=True,
            unique_fields=[owner, "player"],
            update_fields=[*fields, "updated_at"],
        )
    return len(changed) + len(vanished)


@contextmanager
def _derived_rows_transaction() -> Iterator[None]:
    """transaction.atomic() for a standings rebuild. When it is the outermost transaction
    on PostgreSQL, its commit does not wait for the WAL to reach the disk (SET LOCAL
    synchronous_commit = off, this transaction only): the rows are derived from the
    games, so a crash can lose at most the last few hundred milliseconds of them, never
    a deal, and the next rebuild (or the nightly one) writes them again. Inside a
    caller's transaction (a deal being stored, a test) the caller's commit decides."""
    outermost = not connection.in_atomic_block and connection.get_autocommit()
    with transaction.atomic():
        if outermost and connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL synchronous_commit = off")
        yield


def event_scores(event_id: int, *, complete_only: bool = False) -> Any:
    """The GameScore rows an evening's standings count: every game with a deal (live), or
    only complete games (an evening closed with unfinished games that do not count)."""
    scores = GameScore.objects.filter(
        game__table__round__event_id=event_id, game__deals_count__gt=0
    )
    if complete_only:
        scores = scores.filter(game__status=Game.Status.COMPLETE)
    return scores


def _unfinished_by_player(scores: Any) -> dict[int, int]:
    """How many of each player's counted games are not complete (one query)."""
    rows = (
        scores.exclude(game__status=Game.Status.COMPLETE)
        .values_list("player_id")
        .annotate(n=Count("id"))
        .order_by()
    )
    return dict(rows)


def league_scores(league_id: int) -> Any:
    """The GameScore rows a league table counts: complete games of the league's events."""
    return GameScore.objects.filter(
        game__table__round__event__league_id=league_id, game__status=Game.Status.COMPLETE
    )


def rebuild_event_standings(*, event_id: int) -> int:
    """Bring an evening's standing rows up to date; the number of players ranked."""
    with _derived_rows_transaction():
        try:
            event = (
                Event.objects.select_for_update(of=("self",))
                .select_related("league")
                .get(pk=event_id)
            )
        except Event.DoesNotExist:
            return 0
        ranking = ranking_of(event, event.league)
        scores = event_scores(
            event_id,
            complete_only=event.status == Event.Status.CLOSED and event.unfinished == "exclude",
        )
        standings = rank(aggregate_seats(scores, ranking), ranking)
        unfinished = _unfinished_by_player(scores)
        _replace_rows(
            EventStanding,
            {"event_id": event_id},
            {
                s.player_id: {
                    "rank": s.rank,
                    "points": _points(s.points),
                    "games": s.line.games,
                    # Games counted that are not complete: the pages mark them.
                    "details": {**_details(s), "unfinished": unfinished.get(s.player_id, 0)},
                    "tiebreak_note": s.tiebreak,
                }
                for s in standings
            },
        )
        transaction.on_commit(lambda: forget(event_cache_key(event_id)))
    return len(standings)


@contextmanager
def _no_cycle_collection() -> Iterator[None]:
    """Pause the cyclic garbage collector (as it was before, after): a league rebuild
    makes tens of thousands of small acyclic objects (lines, Fractions, games), enough to
    set off full collections that walk every live object, about a fifth of the rebuild's
    time. Reference counting still frees everything as usual."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def latest_evening(league_id: int) -> int | None:
    """The league's latest evening with a complete game: movement is measured against it."""
    return (
        Event.objects.filter(league_id=league_id, rounds__tables__game__status=Game.Status.COMPLETE)
        .order_by("-starts_at", "-id")
        .values_list("id", flat=True)
        .first()
    )


def rebuild_league_standings(*, league_id: int) -> int:
    """Bring a league table up to date, with each player's rank before the latest evening;
    the number of players ranked."""
    with _derived_rows_transaction():
        try:
            league = League.objects.select_for_update().get(pk=league_id)
        except League.DoesNotExist:
            return 0
        ranking = ranking_of(league)
        with _no_cycle_collection():
            data = aggregate(league_scores(league_id), ranking)
            standings = rank(data, ranking)
            last = latest_evening(league_id)
            previous = {}
            if last is not None:
                previous = {s.player_id: s.rank for s in rank(data.without(last), ranking)}
        _replace_rows(
            LeagueStanding,
            {"league_id": league_id},
            {
                s.player_id: {
                    "rank": s.rank,
                    "previous_rank": previous.get(s.player_id),
                    "points": _points(s.points),
                    "games": s.line.games,
                    "evenings": s.line.evenings,
                    "details": {**_details(s), "evenings_counted": s.line.evenings_counted},
                    "tiebreak_note": s.tiebreak,
                }
                for s in standings
            },
        )
        transaction.on_commit(lambda: forget(league_cache_key(league_id)))
    return len(standings)


# --- Ratings ---------------------------------------------------------------------------


def order_key(starts_at: Any, event_id: int, round_number: int, table: int, game_id: int) -> str:
    """Text that sorts games in rating order: event date, event, round, table, game."""
    stamp = starts_at.astimezone(UTC).strftime("%Y%m%d%H%M%S")
    return f"{stamp}|{event_id:09d}|{round_number:04d}|{table:04d}|{game_id:012d}"


@dataclass(frozen=True)
class RatedGame:
    key: str
    game_id: int
    event_id: int
    places: dict[int, Decimal]


def rated_games(where: Q | None = None) -> list[RatedGame]:
    """Complete games (all, or those matching `where`) with their players' places, in
    rating order (four rows a game)."""
    games: dict[int, RatedGame] = {}
    rows = GameScore.objects.filter(game__status=Game.Status.COMPLETE)
    if where is not None:
        rows = rows.filter(where)
    for game_id, player_id, place, event_id, starts_at, rnd, table in rows.values_list(
        "game_id",
        "player_id",
        "place",
        EVENT_FIELD,
        "game__table__round__event__starts_at",
        "game__table__round__number",
        "game__table__number",
    ).order_by():
        game = games.get(game_id)
        if game is None:
            key = order_key(starts_at, event_id, rnd, table, game_id)
            game = games[game_id] = RatedGame(key, game_id, event_id, {})
        game.places[player_id] = place
    return sorted(games.values(), key=lambda g: g.key)


@dataclass(frozen=True)
class RatingsReport:
    games: int
    replayed: int
    from_key: str | None


# A deal's transaction can commit a little after the game row's updated_at was set: games
# changed this long before the previous sync started are looked at again.
SYNC_SLACK = timedelta(minutes=10)


def _first_difference(since: Any) -> str | None:
    """The order key of the earliest complete game changed since then whose places (or
    order) differ from the rating history; None when the history is up to date."""
    changed = rated_games(Q(game__updated_at__gte=since))
    if not changed:
        return None
    stored: dict[int, tuple[str, dict[int, Decimal]]] = {}
    for game_id, player_id, key, place in RatingHistory.objects.filter(
        game_id__in=[g.game_id for g in changed]
    ).values_list("game_id", "player_id", "order_key", "place"):
        stored.setdefault(game_id, (key, {}))[1][player_id] = place
    keys = [g.key for g in changed if stored.get(g.game_id) != (g.key, g.places)]
    return min(keys) if keys else None


def _ratings_before(from_key: str) -> dict[int, rating_maths.Rating]:
    """Each player's rating just before the game with this key (one query)."""
    if not from_key:
        return {}
    last = RatingHistory.objects.aggregate(last=Max("order_key"))["last"]
    if last is None or last < from_key:
        # New games after everything rated: the current ratings are the start.
        rows = PlayerRating.objects.values_list("player_id", "mu", "sigma")
    else:
        rows = (
            RatingHistory.objects.filter(order_key__lt=from_key)
            .annotate(
                newest=Window(
                    RowNumber(), partition_by=[F("player_id")], order_by=F("order_key").desc()
                )
            )
            .filter(newest=1)
            .values_list("player_id", "mu", "sigma")
        )
    return {p: rating_maths.Rating(mu, sigma) for p, mu, sigma in rows}


def sync_ratings(*, full: bool = False, now: Any = None) -> RatingsReport:
    """Bring ratings up to date with the complete games: replay from the earliest game whose
    result (or place in the order) changed, or everything when `full`.

    Only games changed since the previous sync are compared with the history, so a new
    game at the end replays one game and a corrected old game replays from it on. Games
    that vanished (an event deleted, its history with it) make it replay everything.
    """
    now = now or timezone.now()
    with transaction.atomic():
        RatingRun.objects.get_or_create(pk=1)
        run = RatingRun.objects.select_for_update().get(pk=1)
        rated = RatingHistory.objects.values("game_id").distinct().count()
        if full or run.started_at is None or rated != run.games:
            from_key: str | None = ""
        else:
            from_key = _first_difference(run.started_at - SYNC_SLACK)
        run.started_at = now
        if from_key is None:
            run.replayed = 0
            run.save()
            return RatingsReport(run.games, 0, None)

        start = _ratings_before(from_key)
        if from_key:
            since = datetime.strptime(from_key[:14], "%Y%m%d%H%M%S").replace(tzinfo=UTC)
            todo = [
                g
                for g in rated_games(Q(game__table__round__event__starts_at__gte=since))
                if g.key >= from_key
            ]
        else:
            todo = rated_games()
        by_id = {g.game_id: g for g in todo}
        final, history = rating_maths.replay(
            start,
            (
                rating_maths.TableResult(g.game_id, {p: float(x) for p, x in g.places.items()})
                for g in todo
            ),
        )
        RatingHistory.objects.filter(order_key__gte=from_key).delete()
        RatingHistory.objects.bulk_create(
            (
                RatingHistory(
                    player_id=player_id,
                    game_id=game_id,
                    event_id=by_id[game_id].event_id,
                    order_key=by_id[game_id].key,
                    place=by_id[game_id].places[player_id],
                    mu=r.mu,
                    sigma=r.sigma,
                    ordinal=r.ordinal,
                )
                for game_id, player_id, r in history
            ),
            batch_size=2000,
        )
        touched = {p for g in todo for p in g.places}
        _write_player_ratings({p: final[p] for p in touched}, full=not from_key)
        run.games = RatingHistory.objects.values("game_id").distinct().count()
        run.replayed = len(todo)
        run.finished_at = timezone.now()
        run.save()
    return RatingsReport(run.games, len(todo), from_key)


def _write_player_ratings(final: dict[int, rating_maths.Rating], *, full: bool) -> None:
    """Store these players' ratings and game counts (a full replay also drops the others)."""
    counts = dict(
        RatingHistory.objects.filter(player_id__in=list(final))
        .values("player_id")
        .annotate(n=Count("id"))
        .values_list("player_id", "n")
        .order_by()
    )
    if full:
        PlayerRating.objects.exclude(player_id__in=list(final)).delete()
    existing = dict(
        PlayerRating.objects.filter(player_id__in=list(final)).values_list("player_id", "pk")
    )
    rows = [
        PlayerRating(
            pk=existing.get(p),
            player_id=p,
            mu=r.mu,
            sigma=r.sigma,
            ordinal=r.ordinal,
            games=counts.get(p, 0),
        )
        for p, r in final.items()
    ]
    PlayerRating.objects.bulk_create([r for r in rows if r.pk is None], batch_size=2000)
    PlayerRating.objects.bulk_update(
        [r for r in rows if r.pk is not None],
        ["mu", "sigma", "ordinal", "games"],
        batch_size=2000,
    )


def rebuild_all(progress: Callable[[str, int, int], None] | None = None) -> dict[str, int]:
    """Every event's and league's standings and the ratings, from scratch."""
    events = list(Event.objects.order_by("id").values_list("id", flat=True))
    leagues = list(League.objects.order_by("id").values_list("id", flat=True))
    for i, event_id in enumerate(events, 1):
        rebuild_event_standings(event_id=event_id)
        if progress:
            progress("events", i, len(events))
    for i, league_id in enumerate(leagues, 1):
        rebuild_league_standings(league_id=league_id)
        if progress:
            progress("leagues", i, len(leagues))
    report = sync_ratings(full=True)
    if progress:
        progress("ratings", report.games, report.games)
    return {"events": len(events), "leagues": len(leagues), "games_rated": report.games}

"""The GameScore rows a ranking counts, aggregated in SQL for the ranking maths.

Per player and evening: games, total, wins, best game, deals and placement points, in
one query (one read of an evening's few hundred rows as they are, head-to-head games
included); head-to-head games read only for the players a tie needs. The aggregates go
to the pure maths of scoring/standings.py (rank, compute); nothing here writes.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Context as DecimalContext
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.db import connection
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
)
from django.db.models.expressions import RawSQL

from games.models import Event, Game, GameScore
from scoring import standings as maths

log = logging.getLogger(__name__)

EVENT_FIELD = "game__table__round__event_id"


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
# Hundredths, as totals and points are stored (scoring/rebuild.py rounds points to them).
CENTS = Decimal("0.01")


def _sql_decimal(value: Any) -> Decimal:
    if type(value) is Decimal:  # PostgreSQL's numeric: tens of thousands of rows a league
        return value
    if value is None:
        return Decimal(0)
    if isinstance(value, float):
        return _FLOATS.create_decimal_from_float(value).quantize(CENTS)
    return Decimal(value)


# Weights up to this keep every sum in SQL a 64-bit integer (SQLite has no bigger): any
# configuration in whole, half or tenth points is far below; beyond it, cases are counted.
MAX_SQL_WEIGHT = 2**31


def _case_sum(weights: Sequence[int]) -> str:
    """SUM over the rows of the weight of each row's (above, level) case (case_weight)."""
    return f"SUM({case_weight(weights)})"


def case_weight(weights: Sequence[int]) -> str:
    """The weight of a row's (above, level) case, as SQL, from the stored columns: `above`
    the players above, `place` the shared place, which with it tells the players level
    (place = above + (level + 1) / 2, so 1.5 after 0 above is two level for first). Both
    are written with each deal from the same totals."""
    by_above: dict[int, list[str]] = {}
    for (above, tied), weight in zip(maths.PLACEMENT_CASES, weights, strict=True):
        place = Decimal(above) + Decimal(tied + 1) / 2
        by_above.setdefault(above, []).append(f"WHEN {place} THEN {int(weight):d}")
    branches = " ".join(
        f"WHEN {above:d} THEN (CASE place {' '.join(whens)} ELSE 0 END)"
        for above, whens in by_above.items()
    )
    return f"CASE above {branches} ELSE 0 END"


def placed_rows(scores: Any) -> tuple[str, tuple[Any, ...]]:
    """Each GameScore row with its evening (st_event) and whether its game is complete
    (st_done, 1 or 0), as an SQL subquery and its parameters."""
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
    return placed.query.sql_with_params()


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

    inner, params = placed_rows(scores)
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


def head_to_head_pairs(
    scores: Any, groups: Sequence[Sequence[int]], without_event: int | None = None
) -> maths.PairNets:
    """maths.pair_nets of the games of these GameScore rows (without the evening
    `without_event`), counted in SQL: head_to_head_pairs_of for one set of groups."""
    return head_to_head_pairs_of(scores, [(without_event, groups)])[0]


def head_to_head_pairs_of(
    scores: Any, sets: Sequence[tuple[int | None, Sequence[Sequence[int]]]]
) -> list[maths.PairNets]:
    """For each (evening left out or None, groups): maths.pair_nets of the games of these
    GameScore rows but that evening's, in one SQL query for all: only the rows of the
    groups' players are read, each pair of players of one group who shared a game
    compared there, and one net score a pair handed back, not the games (issue 20). The
    groups of one set are one ranking's (disjoint); nothing is read for none."""
    rows: list[tuple[int, int, int]] = []  # (player, group label, set)
    label = 0
    for kind, (_without, groups) in enumerate(sets):
        seen: set[int] = set()
        for group in groups:
            members = {int(p) for p in group}
            if members & seen:
                raise ValueError("head_to_head_pairs: a player in two groups of one ranking")
            seen |= members
            rows.extend((p, label, kind) for p in members)
            label += 1
    if not rows:
        return [{} for _ in sets]
    # First the games two players of one group shared (their rows found by the player
    # index, a few thousand), then which of those games these rows count (tens).
    counted = scores.filter(game_id__in=RawSQL("SELECT game_id FROM met", ()))
    inner, params = counted.values_list("game_id").order_by().query.sql_with_params()
    params = list(params)
    left_out = ""
    for kind, (without, _groups) in enumerate(sets):
        if without is not None:
            games = Game.objects.filter(table__round__event_id=without).values("id").order_by()
            games_sql, games_params = games.query.sql_with_params()
            left_out += f" AND NOT (kind = {kind:d} AND game_id IN ({games_sql}))"
            params.extend(games_params)
    # Ids and labels inlined as whole numbers (ids, not input): no parameter limit.
    values = ", ".join(f"({p:d}, {g:d}, {k:d})" for p, g, k in rows)
    ids = ", ".join(f"{p:d}" for p in sorted({p for p, _g, _k in rows}))
    table = GameScore._meta.db_table
    # Each step's size known to the planner: the rows of the groups' players read once
    # by the player index, each two of them at one game paired (a few thousand rows, a
    # thousand pairs: both MATERIALIZED, as written; joined to the groups inline, the
    # conditions on the player made PostgreSQL expect one row and pair two players' few
    # hundred by a nested loop, and grouping (game, group) first was slower), then the
    # pairs of one group kept.
    sql = (
        f"WITH grp (player_id, grp, kind) AS (VALUES {values}), "
        "mine AS MATERIALIZED (SELECT game_id, player_id, total "
        f"FROM {table} WHERE player_id IN ({ids})), "
        "pairs AS MATERIALIZED (SELECT a.game_id, a.player_id AS pa, b.player_id AS pb, "
        "CASE WHEN a.total > b.total THEN 1 WHEN a.total < b.total THEN -1 ELSE 0 END AS net "
        "FROM mine a JOIN mine b ON b.game_id = a.game_id AND b.player_id > a.player_id), "
        "met AS (SELECT p.game_id, ga.kind, p.pa, p.pb, p.net FROM pairs p "
        "JOIN grp ga ON ga.player_id = p.pa "
        "JOIN grp gb ON gb.player_id = p.pb AND gb.grp = ga.grp) "
        f"SELECT kind, pa, pb, SUM(net) FROM met WHERE game_id IN ({inner}){left_out} "
        "GROUP BY kind, pa, pb"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        fetched = cursor.fetchall()
    out: list[dict[int, dict[int, int]]] = [{} for _ in sets]
    for kind, a, b, net in fetched:
        nets, net = out[kind], int(net)
        nets.setdefault(a, {})[b] = net
        nets.setdefault(b, {})[a] = -net
    return out


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

    def players_without(
        self, event_id: int, now: Sequence[maths.PlayerLine], ranking: maths.Ranking
    ) -> list[maths.PlayerLine]:
        """The player lines of self.without(event_id), from `now` (combine(self.lines)):
        combined again only for the players of that evening, a tenth of a league's; every
        other player's line is the same either way (each player's line is made from their
        own evenings only)."""
        played = {line.player_id for line in self.lines if line.event_id == event_id}
        again = maths.combine(
            [e for e in self.lines if e.player_id in played and e.event_id != event_id], ranking
        )
        return [line for line in now if line.player_id not in played] + again

    def latest_event(self) -> int | None:
        """The latest evening (by start, then id) of these lines: of a league's, the latest
        with a complete game (one query over their few hundred ids)."""
        events = {line.event_id for line in self.lines}
        latest = Event.objects.filter(pk__in=events).order_by("-starts_at", "-id")
        return latest.values_list("id", flat=True).first() if events else None

    def load_games(self, players: set[int]) -> list[maths.GameResult]:
        return self.games(players, self.without_event)

    def load_shared_games(self, players: set[int]) -> list[maths.GameResult]:
        """As load_games, only the games two or more of the players played together."""
        return self.games.shared(players, self.without_event)


def aggregate(scores: Any, ranking: maths.Ranking) -> Aggregates:
    return Aggregates(scores, evening_lines(scores, ranking), _GamesOfPlayers(scores))


def read_seats(scores: Any) -> list[tuple[Any, ...]]:
    """These GameScore rows as seats, each (game id, event id, player id, total, place,
    deals, whether the game is complete), in one query: for a scope of a few hundred
    rows (an evening)."""
    return list(
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


def unfinished_by_player(seats: Sequence[tuple[Any, ...]]) -> dict[int, int]:
    """How many of each player's seats (read_seats) are in games not complete."""
    out: dict[int, int] = {}
    for seat in seats:
        if not seat[6]:
            out[seat[2]] = out.get(seat[2], 0) + 1
    return out


def aggregate_seats(
    scores: Any, ranking: maths.Ranking, seats: Sequence[tuple[Any, ...]] | None = None
) -> Aggregates:
    """As aggregate(), for a scope of a few hundred rows (an evening): one read of the
    rows themselves (read_seats, or `seats` read already) gives the lines, placement
    points and head-to-head games at once."""
    if seats is None:
        seats = read_seats(scores)
    lines, games = maths.lines_of_seats(seats, ranking)
    return Aggregates(scores, lines, _GamesOfPlayers(scores, games))


def rank(data: Aggregates, ranking: maths.Ranking) -> list[maths.Standing]:
    players = maths.combine(data.lines, ranking)
    return maths.rank(players, ranking, data.load_shared_games)


def compute(scores: Any, ranking: maths.Ranking) -> list[maths.Standing]:
    """The standings of these GameScore rows under a ranking (nothing written)."""
    return rank(aggregate(scores, ranking), ranking)


def event_scores(event_id: int, *, complete_only: bool = False) -> Any:
    """The GameScore rows an evening's standings count: every game with a deal (live), or
    only complete games (an evening closed with unfinished games that do not count)."""
    scores = GameScore.objects.filter(
        game__table__round__event_id=event_id, game__deals_count__gt=0
    )
    if complete_only:
        scores = scores.filter(game__status=Game.Status.COMPLETE)
    return scores


def league_scores(league_id: int) -> Any:
    """The GameScore rows a league table counts: complete games of the league's events."""
    return GameScore.objects.filter(
        game__table__round__event__league_id=league_id, game__status=Game.Status.COMPLETE
    )


def league_games(league_id: int) -> Any:
    """The games a league table counts, whose GameScore rows are league_scores: the
    complete games of the league's events."""
    return Game.objects.filter(
        table__round__event__league_id=league_id, status=Game.Status.COMPLETE
    )

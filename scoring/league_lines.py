"""A league table over every evening in one GROUP BY player: each player's line now and
before the latest evening, without a line per (player, evening) (issue 20).

A league rebuild read one aggregate per (player, evening), twenty thousand rows for a
season of 200 evenings, and combined them in Python twice (now, and before the latest
evening for the movement): about four times its floor, a GROUP BY player over the same
rows. When every evening counts, a player's line is a plain sum over their rows, and the
line before the latest evening is that sum minus the same aggregates over that evening's
few hundred rows (UNION ALL in the same statement); only the best game needs its own
maximum without that evening. With the best N evenings, the evenings are numbered best
first in SQL (window functions), now and without the latest evening, and the first N
summed. Either way the league's complete games are found with their evening first and
their rows joined to them once (_rows), and the rebuild's statement finds the latest
evening itself (league_player_lines). An average of the best N evenings (fractions to
order) keeps the lines per (player, evening). tests/standings/test_league_lines.py checks the lines
against combine() of the evening lines, for each method.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.db import connection
from django.db.models import F
from django.db.models.expressions import RawSQL

from games.models import Event, Game, GameScore, Round, Table
from scoring import standings as maths
from scoring.aggregates import MAX_SQL_WEIGHT, case_weight, league_games


def latest_evening(league_id: int) -> int | None:
    """The league's latest evening (by start, then id) with a complete game: movement is
    measured against it.

    The evenings sorted first and asked in that order whether they have a complete game,
    until one has: the subquery's OFFSET keeps PostgreSQL from asking every evening of
    the season first and sorting those that have one (issue 20)."""
    sql, params = _latest_sql(league_id)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    return None if row is None else row[0]


def _latest_sql(league_id: int) -> tuple[str, list[Any]]:
    event, game = Event._meta.db_table, Game._meta.db_table
    table, round_ = Table._meta.db_table, Round._meta.db_table
    fence = "OFFSET 0" if connection.vendor == "postgresql" else "LIMIT -1 OFFSET 0"
    sql = (
        f"SELECT ev.id FROM (SELECT id, starts_at FROM {event} WHERE league_id = %s "
        f"ORDER BY starts_at DESC, id DESC {fence}) ev "
        f"WHERE EXISTS (SELECT 1 FROM {game} g JOIN {table} t ON t.id = g.table_id "
        f"JOIN {round_} r ON r.id = t.round_id WHERE r.event_id = ev.id AND g.status = %s) "
        "ORDER BY ev.starts_at DESC, ev.id DESC LIMIT 1"
    )
    return sql, [league_id, Game.Status.COMPLETE.value]


@dataclass(frozen=True)
class _Last:
    """The evening left out for the lines before it, as the lines' query names it: a
    number (a parameter), or the league's latest evening found in the same statement
    (a `latest` CTE: one round trip less, which on a busy machine is a wait for the
    database's process)."""

    value: int | None = None
    league_id: int | None = None

    def cte(self) -> tuple[str, list[Any]]:
        """`latest AS (...), ` and its parameters, or nothing."""
        if self.league_id is None:
            return "", []
        sql, params = _latest_sql(self.league_id)
        return f"latest AS ({sql}), ", params

    def sql(self) -> tuple[str, list[Any]]:
        """The evening's id as SQL, and its parameters (-1, no evening's id, for none)."""
        if self.league_id is None:
            return "%s", [-1 if self.value is None else self.value]
        return "(SELECT id FROM latest)", []

    @property
    def none(self) -> bool:
        return self.league_id is None and self.value is None

    def found(self, ids: Iterable[Any]) -> int | None:
        """The evening: the one given, or the latest as each row of the query names it
        (none without rows: then nothing is ranked)."""
        if self.league_id is None:
            return self.value
        return next(iter(ids), None)


def supported(ranking: maths.Ranking) -> bool:
    """Whether player_lines can give this ranking's lines: placement weights (if any) sum
    as integers in SQL; with best_evenings, the evenings' points order in SQL exactly
    (totals and placement weights; not an average, a fraction)."""
    if ranking.best_evenings is not None and ranking.method == "average":
        return False
    if ranking.method != "placement":
        return True
    weights, _denominator = maths.placement_weights(ranking.placement_points)
    return max(abs(w) for w in weights) <= MAX_SQL_WEIGHT


def player_lines(
    games: Any, ranking: maths.Ranking, last: int | None
) -> tuple[list[maths.PlayerLine], list[maths.PlayerLine]]:
    """Each player's line over the GameScore rows of these complete games (a league's:
    aggregates.league_games, whose rows are league_scores), and the lines without the
    evening `last` (a player who played only that evening has none then): what
    maths.combine(evening lines) gives for a ranking that `supported`.

    Every evening counting: one GROUP BY player over the rows, and the same aggregates
    over the rows of `last` alone (a few hundred, found through the evening's indexes),
    subtracted in Python; only the best game without `last` needs its own maximum. The
    evenings are counted with COUNT(DISTINCT): grouping by (player, evening) first made
    PostgreSQL keep a numeric sum and maximum for each of the twenty thousand groups, a
    third of the floor more (issue 20)."""
    now, before, _last = _lines(games, ranking, _Last(value=last))
    return now, before


def league_player_lines(
    league_id: int, ranking: maths.Ranking
) -> tuple[list[maths.PlayerLine], list[maths.PlayerLine], int | None]:
    """player_lines(league_games(league_id), ranking, latest_evening(league_id)) and that
    latest evening, the evening found by the lines' own statement."""
    return _lines(league_games(league_id), ranking, _Last(league_id=league_id))


def _lines(
    games: Any, ranking: maths.Ranking, last: _Last
) -> tuple[list[maths.PlayerLine], list[maths.PlayerLine], int | None]:
    if ranking.best_evenings is not None:
        return _best_lines(games, ranking, last)
    placement = ranking.method == "placement"
    denominator = 1
    weight = "0"
    if placement:
        weights, denominator = maths.placement_weights(ranking.placement_points)
        weight = case_weight(weights)
    cte, cte_params = last.cte()
    mark, mark_params = last.sql()
    inner, params = _rows(games)
    sql = (
        f"{'WITH ' + cte[:-2] + ' ' if cte else ''}"
        f"SELECT 0, {mark}, player_id, {_SUMS.format(weight=weight)}, MAX(total), "
        f"COUNT(DISTINCT st_event), MAX(CASE WHEN st_event <> {mark} THEN total END) "
        f"FROM ({inner}) placed GROUP BY player_id"
    )
    params = [*cte_params, *mark_params, *mark_params, *params]
    if not last.none:
        # The evening's own rows, through its indexes (the condition inside the games'
        # subquery), in the same statement.
        at, at_params = _rows(games.filter(**{GAME_EVENT: RawSQL(mark, mark_params)}))
        sql += (
            f" UNION ALL SELECT 1, NULL, player_id, {_SUMS.format(weight=weight)}, "
            f"NULL, NULL, NULL FROM ({at}) placed GROUP BY player_id"
        )
        params += at_params
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        fetched = cursor.fetchall()
    rows = [row[2:] for row in fetched if row[0] == 0]
    at_last = {row[2]: row[3:8] for row in fetched if row[0] == 1}
    found = last.found(row[1] for row in fetched if row[0] == 0)
    shares: dict[Any, Fraction] = {}

    def points(n: Any) -> Fraction | int:
        if not placement:
            return 0
        share = shares.get(n)
        if share is None:
            share = shares[n] = Fraction(int(n or 0), denominator)
        return share

    now, before = [], []
    for player_id, games, total, wins, deals, weighed, best, evenings, best_other in rows:
        # Sums of counts: numeric on PostgreSQL, whole numbers here.
        games, wins, deals = int(games), int(wins), int(deals or 0)
        line = maths.PlayerLine(
            player_id=player_id,
            games=games,
            total=_hundredths(total),
            wins=wins,
            best_game=_hundredths(best),
            placement=points(weighed),
            deals=deals,
            evenings=evenings,
            evenings_counted=evenings,
        )
        now.append(line)
        there = at_last.get(player_id)
        if there is None:
            before.append(line)
            continue
        games_l, total_l, wins_l, deals_l, weighed_l = there
        games_l = int(games_l)
        if games_l < games:
            before.append(
                maths.PlayerLine(
                    player_id=player_id,
                    games=games - games_l,
                    total=line.total - _hundredths(total_l),
                    wins=wins - int(wins_l),
                    best_game=_hundredths(best_other),
                    placement=points((weighed or 0) - (weighed_l or 0)),
                    deals=deals - int(deals_l or 0),
                    evenings=evenings - 1,
                    evenings_counted=evenings - 1,
                )
            )
    return now, before, found


# The sums of a player's line (games, total, wins, deals, placement weights) over rows of
# complete games: a win is first at the table, alone or level with one other player.
_SUMS = (
    "COUNT(*), SUM(total), SUM(CASE WHEN place <= 1.5 THEN 1 ELSE 0 END), SUM(deals), SUM({weight})"
)


def _hundredths(value: Any) -> Decimal:
    """A sum or maximum of GameScore.total_cents as the total it stands for (0 for none):
    whole numbers on both databases (a numeric sum of bigints on PostgreSQL)."""
    return Decimal(0) if value is None else Decimal(int(value)).scaleb(-2)


# A game's evening, from the game.
GAME_EVENT = "table__round__event_id"


def _rows(games: Any) -> tuple[str, tuple[Any, ...]]:
    """The GameScore rows of these games (complete ones) with their evening (st_event), as
    an SQL subquery and its parameters: the columns the lines need, the total in
    hundredths (GameScore.total_cents: whole numbers sum and compare cheaper than
    PostgreSQL's numeric, about a seventh of a best-N league's statement, and exactly on
    SQLite, whose decimals are floats).

    The games are first found with their evening (a few per evening, through table and
    round), then their rows joined to them once: joined row by row to game, table,
    round and evening, as the ORM writes it, PostgreSQL probed three hash tables more
    for each of a league's tens of thousands of rows, a third of the floor (issue 20).
    The subquery's OFFSET keeps it apart, as written."""
    found, params = (
        games.annotate(st_event=F(GAME_EVENT))
        .values_list("id", "st_event")
        .order_by()
        .query.sql_with_params()
    )
    fence = "OFFSET 0" if connection.vendor == "postgresql" else "LIMIT -1 OFFSET 0"
    return (
        "SELECT s.player_id, ge.st_event, s.total_cents AS total, s.place, s.deals, s.above "
        f"FROM {GameScore._meta.db_table} s JOIN ({found} {fence}) ge ON ge.id = s.game_id"
    ), params


def _evenings(games: Any, weight: str, cte: str = "") -> tuple[str, tuple[Any, ...]]:
    """`WITH ev AS (...)`: each player's aggregates per evening over these rows (of
    complete games; n games, t total, w wins, b best game, d deals, p placement weights),
    and its parameters."""
    inner, params = _rows(games)
    weighed = "0" if weight == "0" else f"SUM({weight})"  # no sum of nothing per group
    return (
        f"WITH {cte}ev AS (SELECT player_id, st_event, COUNT(*) AS n, SUM(total) AS t, "
        "SUM(CASE WHEN place <= 1.5 THEN 1 ELSE 0 END) AS w, "
        f"MAX(total) AS b, SUM(deals) AS d, {weighed} AS p "
        f"FROM ({inner}) placed GROUP BY player_id, st_event)"
    ), params


def _best_lines(
    games: Any, ranking: maths.Ranking, last: _Last
) -> tuple[list[maths.PlayerLine], list[maths.PlayerLine], int | None]:
    """player_lines with best_evenings N: each (player, evening) aggregated, numbered per
    player best first (points, then the earlier evening: combine()'s order), and each
    player's counted evenings summed, in one query (a window function, on SQLite too).

    Before the evening `last`, the order of the other evenings is the same, one place
    higher after it: if `last` is among the first N (its number is at most N), the first
    N + 1 but it count; otherwise the first N, as now. Both sums come from the query,
    with the number of `last`, and the line picks one."""
    placement = ranking.method == "placement"
    denominator = 1
    weight = "0"
    if placement:
        weights, denominator = maths.placement_weights(ranking.placement_points)
        weight = case_weight(weights)
    cte, cte_params = last.cte()
    mark, mark_params = last.sql()
    inner, params = _evenings(games, weight, cte)
    points = "p" if placement else "t"
    now = "rn <= %s"
    before = f"rn <= %s AND st_event <> {mark}"
    sql = (
        f"{inner}, ranked AS (SELECT ev.*, "
        f"ROW_NUMBER() OVER (PARTITION BY player_id ORDER BY {points} DESC, st_event) AS rn "
        "FROM ev) "
        f"SELECT player_id, COUNT(*), MAX(CASE WHEN st_event = {mark} THEN rn END), {mark}, "
        + ", ".join(
            f"{agg}(CASE WHEN {cond} THEN {col} END)"
            for cond in (now, before)
            for agg, col in (
                ("COUNT", "1"),
                ("SUM", "n"),
                ("SUM", "t"),
                ("SUM", "w"),
                ("MAX", "b"),
                ("SUM", "d"),
                ("SUM", "p"),
            )
        )
        + " FROM ranked GROUP BY player_id"
    )
    n = ranking.best_evenings
    assert n is not None
    with connection.cursor() as cursor:
        cursor.execute(
            sql,
            [
                *cte_params,
                *params,
                *mark_params,
                *mark_params,
                *[n] * 7,
                *[n + 1, *mark_params] * 7,
            ],
        )
        rows = cursor.fetchall()
    shares: dict[Any, Fraction] = {}

    def share(value: Any) -> Fraction | int:
        if not placement:
            return 0
        found = shares.get(value)
        if found is None:
            found = shares[value] = Fraction(int(value or 0), denominator)
        return found

    def line(player_id: int, evenings: int, counted: list[Any]) -> maths.PlayerLine:
        n_counted, games, total, wins, best, deals, weighed = counted
        return maths.PlayerLine(
            player_id=player_id,
            games=int(games),
            total=_hundredths(total),
            wins=int(wins),
            best_game=_hundredths(best),
            placement=share(weighed),
            deals=int(deals or 0),
            evenings=evenings,
            evenings_counted=n_counted,
        )

    lines_now, lines_before = [], []
    found = last.found(row[3] for row in rows)
    for player_id, evenings, at_last, _last, *counted in rows:
        now_line = line(player_id, evenings, counted[:7])
        lines_now.append(now_line)
        if at_last is None:  # not there that evening: the same line
            lines_before.append(now_line)
        elif evenings > 1:
            lines_before.append(
                line(player_id, evenings - 1, counted[7:] if at_last <= n else counted[:7])
            )
    return lines_now, lines_before, found

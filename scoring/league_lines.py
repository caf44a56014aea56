"""A league table over every evening in one GROUP BY player: each player's line now and
before the latest evening, without a line per (player, evening) (issue 20).

A league rebuild read one aggregate per (player, evening), twenty thousand rows for a
season of 200 evenings, and combined them in Python twice (now, and before the latest
evening for the movement): about four times its floor, a GROUP BY player over the same
rows. When every evening counts, a player's line is a plain sum over their rows, and the
line before the latest evening is that sum minus the same aggregates over that evening's
rows, summed in the same query (FILTER as CASE, which SQLite runs too); only the best
game needs its own maximum without that evening. With the best N evenings, the evenings
are numbered best first in SQL (window functions), now and without the latest evening,
and the first N summed. An average of the best N evenings (fractions to order) keeps the
lines per (player, evening). tests/standings/test_league_lines.py checks the lines
against combine() of the evening lines, for each method.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from django.db import connection
from django.db.models import Exists, OuterRef

from games.models import Event, Game
from scoring import standings as maths
from scoring.aggregates import MAX_SQL_WEIGHT, _sql_decimal, case_weight, placed_rows


def latest_evening(league_id: int) -> int | None:
    """The league's latest evening (by start, then id) with a complete game: movement is
    measured against it."""
    complete = Game.objects.filter(
        table__round__event_id=OuterRef("pk"), status=Game.Status.COMPLETE
    )
    return (
        Event.objects.filter(league_id=league_id)
        .filter(Exists(complete))
        .order_by("-starts_at", "-id")
        .values_list("id", flat=True)
        .first()
    )


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
    scores: Any, ranking: maths.Ranking, last: int | None
) -> tuple[list[maths.PlayerLine], list[maths.PlayerLine]]:
    """Each player's line over these GameScore rows, and the lines without the evening
    `last` (a player who played only that evening has none then): what
    maths.combine(evening lines) gives for a ranking that `supported`, in one query."""
    if ranking.best_evenings is not None:
        return _best_lines(scores, ranking, last)
    placement = ranking.method == "placement"
    denominator = 1
    weight = "0"
    if placement:
        weights, denominator = maths.placement_weights(ranking.placement_points)
        weight = case_weight(weights)
    inner, params = _evenings(scores, weight)
    at_last = "st_event = %s"
    # A second GROUP BY over the (player, evening) groups, not COUNT(DISTINCT st_event)
    # over the rows: a DISTINCT aggregate makes PostgreSQL sort every row by player
    # instead of hashing (issue 20).
    sql = (
        f"{inner} SELECT player_id, SUM(n), SUM(t), SUM(w), MAX(b), SUM(d), COUNT(*), SUM(p), "
        f"SUM(CASE WHEN {at_last} THEN n ELSE 0 END), "
        f"SUM(CASE WHEN {at_last} THEN t ELSE 0 END), "
        f"SUM(CASE WHEN {at_last} THEN w ELSE 0 END), "
        "MAX(CASE WHEN st_event <> %s THEN b END), "
        f"SUM(CASE WHEN {at_last} THEN d ELSE 0 END), "
        f"SUM(CASE WHEN {at_last} THEN p ELSE 0 END) "
        "FROM ev GROUP BY player_id"
    )
    marker = -1 if last is None else last  # no evening has id -1: nothing is "last"
    with connection.cursor() as cursor:
        cursor.execute(sql, [*params, *[marker] * 6])
        rows = cursor.fetchall()
    shares: dict[Any, Fraction] = {}

    def points(n: Any) -> Fraction | int:
        if not placement:
            return 0
        share = shares.get(n)
        if share is None:
            share = shares[n] = Fraction(int(n or 0), denominator)
        return share

    now, before = [], []
    for row in rows:
        player_id, games, total, wins, best, deals, evenings, weighed = row[:8]
        games_l, total_l, wins_l, best_other, deals_l, weighed_l = row[8:]
        # Sums of counts: numeric on PostgreSQL, whole numbers here.
        games, wins, deals = int(games), int(wins), int(deals or 0)
        games_l, wins_l, deals_l = int(games_l), int(wins_l), int(deals_l or 0)
        line = maths.PlayerLine(
            player_id=player_id,
            games=games,
            total=_sql_decimal(total),
            wins=wins,
            best_game=_sql_decimal(best),
            placement=points(weighed),
            deals=deals,
            evenings=evenings,
            evenings_counted=evenings,
        )
        now.append(line)
        if not games_l:
            before.append(line)
        elif games_l < games:
            before.append(
                maths.PlayerLine(
                    player_id=player_id,
                    games=games - games_l,
                    total=line.total - _sql_decimal(total_l),
                    wins=wins - wins_l,
                    best_game=_sql_decimal(best_other),
                    placement=points((weighed or 0) - (weighed_l or 0)),
                    deals=deals - deals_l,
                    evenings=evenings - 1,
                    evenings_counted=evenings - 1,
                )
            )
    return now, before


def _evenings(scores: Any, weight: str) -> tuple[str, tuple[Any, ...]]:
    """`WITH ev AS (...)`: each player's aggregates per evening over these rows (n games,
    t total, w wins, b best game, d deals, p placement weights), and its parameters."""
    inner, params = placed_rows(scores)
    return (
        "WITH ev AS (SELECT player_id, st_event, COUNT(*) AS n, SUM(total) AS t, "
        "SUM(CASE WHEN place <= 1.5 AND st_done = 1 THEN 1 ELSE 0 END) AS w, "
        f"MAX(total) AS b, SUM(deals) AS d, SUM({weight}) AS p "
        f"FROM ({inner}) placed GROUP BY player_id, st_event)"
    ), params


def _best_lines(
    scores: Any, ranking: maths.Ranking, last: int | None
) -> tuple[list[maths.PlayerLine], list[maths.PlayerLine]]:
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
    inner, params = _evenings(scores, weight)
    # Totals order as the stored hundredths (SQLite sums them as floats).
    points = "p" if placement else "ROUND(t, 2)"
    now = "rn <= %s"
    before = "rn <= %s AND st_event <> %s"
    sql = (
        f"{inner}, ranked AS (SELECT ev.*, "
        f"ROW_NUMBER() OVER (PARTITION BY player_id ORDER BY {points} DESC, st_event) AS rn "
        "FROM ev) "
        "SELECT player_id, COUNT(*), MAX(CASE WHEN st_event = %s THEN rn END), "
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
    marker = -1 if last is None else last  # no evening has id -1: nothing is "last"
    n = ranking.best_evenings
    assert n is not None
    with connection.cursor() as cursor:
        cursor.execute(sql, [*params, marker, *[n] * 7, *[n + 1, marker] * 7])
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
            total=_sql_decimal(total),
            wins=int(wins),
            best_game=_sql_decimal(best),
            placement=share(weighed),
            deals=int(deals or 0),
            evenings=evenings,
            evenings_counted=n_counted,
        )

    lines_now, lines_before = [], []
    for player_id, evenings, at_last, *counted in rows:
        now_line = line(player_id, evenings, counted[:7])
        lines_now.append(now_line)
        if at_last is None:  # not there that evening: the same line
            lines_before.append(now_line)
        elif evenings > 1:
            lines_before.append(
                line(player_id, evenings - 1, counted[7:] if at_last <= n else counted[:7])
            )
    return lines_now, lines_before

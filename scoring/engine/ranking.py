"""Ranking methods and tie-breaks: pure arithmetic on per-player aggregates (no Django).

A league or an event chooses how players are ranked with a small JSON object:

    {"method": "total" | "placement" | "average",
     "placement_points": [4, 2, 1, 0],   # points per place at the table, ties shared
     "min_games": 0,                     # average: games needed to qualify
     "best_evenings": null,              # leagues: count only a player's best N evenings
     "tiebreaks": ["wins", "best_game", "head_to_head"]}

`parse_ranking` checks it; `evening_lines` + `combine` turn per-evening aggregates into
one line per player; `rank` orders the lines, applying the tie-breaks in order and
recording which one decided each place.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from fractions import Fraction
from itertools import repeat
from math import lcm
from typing import Any

from scoring.engine.head_to_head import GameResult, Games

METHODS = ("total", "placement", "average")
TIEBREAKS = ("wins", "best_game", "head_to_head", "average", "games", "total")
DEFAULT_TIEBREAKS = ("wins", "best_game", "head_to_head")
DEFAULT_PLACEMENT_POINTS = (4, 2, 1, 0)

# Totals come from the database as Decimal (exact, fast in C); shares and averages are
# Fractions, so equal values compare equal and ties are real ties.
Number = int | Decimal | Fraction


@dataclass(frozen=True)
class Ranking:
    method: str = "total"
    placement_points: tuple[float, ...] = DEFAULT_PLACEMENT_POINTS
    min_games: int = 0
    best_evenings: int | None = None
    tiebreaks: tuple[str, ...] = DEFAULT_TIEBREAKS


@dataclass(frozen=True)
class RankingProblem:
    """What is wrong with a ranking configuration: a stable code, the field, its parameters."""

    field: str
    code: str
    params: dict[str, Any]


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def parse_ranking(obj: object) -> tuple[Ranking, list[RankingProblem]]:
    """The Ranking a JSON object describes (defaults for what is missing) and its problems.

    With problems, the Ranking returned keeps every valid part and the defaults elsewhere,
    so standings can still be shown while the organiser fixes the configuration.
    """
    problems: list[RankingProblem] = []
    if obj in (None, ""):
        return Ranking(), problems
    if not isinstance(obj, Mapping):
        return Ranking(), [RankingProblem("ranking", "not_object", {})]
    out = Ranking()
    # "season_points": a Burraco league's points by place in each tournament (1st, 2nd,
    # ...), read by scoring.burraco.selectors; Barbu's ranking ignores it.
    known = {"method", "placement_points", "min_games", "best_evenings", "tiebreaks"}
    for key in obj:
        if key not in known | {"season_points"}:
            problems.append(RankingProblem(str(key), "unknown_option", {"option": str(key)}))
    season_points = obj.get("season_points", [1])
    if not (
        isinstance(season_points, list | tuple)
        and season_points
        and all(_is_number(p) and p >= 0 for p in season_points)
    ):
        problems.append(RankingProblem("season_points", "season_points", {}))
    method = obj.get("method", "total")
    if method in METHODS:
        out = replace(out, method=method)
    else:
        problems.append(RankingProblem("method", "unknown_method", {"method": str(method)}))
    points = obj.get("placement_points", list(DEFAULT_PLACEMENT_POINTS))
    if isinstance(points, list | tuple) and len(points) == 4 and all(_is_number(p) for p in points):
        out = replace(out, placement_points=tuple(points))
    else:
        problems.append(RankingProblem("placement_points", "placement_points", {}))
    min_games = obj.get("min_games", 0)
    if _is_int(min_games) and min_games >= 0:
        out = replace(out, min_games=min_games)
    else:
        problems.append(RankingProblem("min_games", "not_count", {"value": str(min_games)}))
    best = obj.get("best_evenings")
    if best is None or (_is_int(best) and best >= 1):
        out = replace(out, best_evenings=best)
    else:
        problems.append(RankingProblem("best_evenings", "not_count", {"value": str(best)}))
    tiebreaks = obj.get("tiebreaks", list(DEFAULT_TIEBREAKS))
    if isinstance(tiebreaks, list | tuple):
        good = []
        for tb in tiebreaks:
            if tb in TIEBREAKS and tb not in good:
                good.append(tb)
            else:
                problems.append(
                    RankingProblem("tiebreaks", "unknown_tiebreak", {"tiebreak": str(tb)})
                )
        out = replace(out, tiebreaks=tuple(good))
    else:
        problems.append(RankingProblem("tiebreaks", "not_list", {}))
    return out, problems


def ranking_to_json(ranking: Ranking) -> dict[str, Any]:
    return {
        "method": ranking.method,
        "placement_points": list(ranking.placement_points),
        "min_games": ranking.min_games,
        "best_evenings": ranking.best_evenings,
        "tiebreaks": list(ranking.tiebreaks),
    }


def placement_points(totals: Sequence[Any], points: Sequence[float]) -> list[Fraction]:
    """Points each seat earns for its place at the table; tied seats share their places' points.

    Two players level in first place of [4, 2, 1, 0] get (4 + 2) / 2 = 3 each.
    """
    out = []
    for mine in totals:
        above = sum(1 for t in totals if t > mine)
        tied = sum(1 for t in totals if t == mine)
        shared = sum(Fraction(str(p)) for p in points[above : above + tied])
        out.append(shared / tied)
    return out


@dataclass(slots=True)
class EveningLine:
    """A player's aggregates over one evening's games (from SQL), plus placement points."""

    player_id: int
    event_id: int
    games: int
    total: Number
    wins: int = 0
    best_game: Number | None = None
    placement: Number = 0
    deals: int = 0


@dataclass(slots=True)
class PlayerLine:
    """A player's aggregates over what counts for the ranking (all or best N evenings)."""

    player_id: int
    games: int = 0
    total: Number = 0
    wins: int = 0
    best_game: Number | None = None
    placement: Number = 0
    deals: int = 0
    evenings: int = 0
    evenings_counted: int = 0
    counted_events: tuple[int, ...] = ()

    @property
    def average(self) -> Fraction:
        return Fraction(self.total) / self.games if self.games else Fraction(0)


@dataclass
class Standing:
    player_id: int
    rank: int
    points: Number
    qualified: bool
    line: PlayerLine
    tiebreak: str = ""
    tiebreak_values: dict[str, Any] = field(default_factory=dict)


# The places a seat can have at a table of four: (players above, players level including
# oneself). Ten cases; a game's placement points depend on nothing else.
PLACEMENT_CASES: tuple[tuple[int, int], ...] = tuple(
    (above, tied) for above in range(4) for tied in range(1, 5 - above)
)


def _shares(points: Sequence[float]) -> dict[tuple[int, int], Fraction]:
    """Points for (players above, players level including oneself): ten cases at most."""
    table = {}
    for above, tied in PLACEMENT_CASES:
        shared = sum(Fraction(str(p)) for p in points[above : above + tied])
        table[above, tied] = shared / tied
    return table


def placement_weights(points: Sequence[float]) -> tuple[tuple[int, ...], int]:
    """The shares as whole numbers over one common denominator: a game in the i-th of
    PLACEMENT_CASES earns weights[i] / denominator points ([4, 2, 1, 0]: twelfths).

    Whole numbers can be summed exactly anywhere, SQL included; one division at the end
    gives the exact points (7/3 for a three-way tie for first of [4, 2, 1, 0]).
    """
    table = _shares(points)
    denominator = lcm(*(share.denominator for share in table.values()))
    weights = tuple(
        table[case].numerator * (denominator // table[case].denominator) for case in PLACEMENT_CASES
    )
    return weights, denominator


def placement_of_cases(points: Sequence[float]) -> Callable[[Sequence[int]], Fraction]:
    """A function from case counts (how many games a line had of each of PLACEMENT_CASES,
    in that order) to the line's placement points: ten integer products, one Fraction."""
    weights, denominator = placement_weights(points)

    def placement(counts: Sequence[int]) -> Fraction:
        return Fraction(sum(w * n for w, n in zip(weights, counts, strict=True)), denominator)

    return placement


def add_placement(lines: Iterable[EveningLine], results: Iterable[GameResult], ranking: Ranking):
    """Add each game's placement points to the evening lines of its players.

    Counts how often each line had each (above, level) case, in whole numbers, and turns
    the counts into points once: exact, and fast over tens of thousands of games.
    """
    by_key = {(line.player_id, line.event_id): line for line in lines}
    cases: dict[tuple[int, int], dict[tuple[int, int], int]] = {}
    for result in results:
        totals = result.totals
        values = list(totals.values())
        for player_id, mine in totals.items():
            above = sum(1 for t in values if t > mine)
            tied = sum(1 for t in values if t == mine)
            counts = cases.setdefault((player_id, result.event_id), {})
            counts[above, tied] = counts.get((above, tied), 0) + 1
    placement = placement_of_cases(ranking.placement_points)
    for key, counts in cases.items():
        line = by_key.get(key)
        if line is not None:
            line.placement += placement([counts.get(case, 0) for case in PLACEMENT_CASES])


def lines_of_seats(
    seats: Iterable[tuple[Any, ...]], ranking: Ranking
) -> tuple[list[EveningLine], list[GameResult]]:
    """Evening lines and games from the seats themselves, each (game id, event id, player
    id, total, place, deals): what the per-(player, evening) SQL aggregates give, for a
    scope small enough to read row by row (one evening: a few hundred seats), so that the
    games head-to-head may need come from the same read. A win is first at the table,
    alone or level with one other player (place <= 1.5), in a complete game: a seat may
    carry a seventh value, whether its game is complete (True when left out)."""
    lines: dict[tuple[int, int], EveningLine] = {}
    games: dict[int, GameResult] = {}
    for game_id, event_id, player_id, total, place, deals, *complete in seats:
        line = lines.get((player_id, event_id))
        if line is None:
            line = lines[player_id, event_id] = EveningLine(player_id, event_id, 0, 0, 0, None)
        line.games += 1
        line.total += total
        line.wins += place <= Decimal("1.5") and (not complete or bool(complete[0]))
        line.best_game = total if line.best_game is None else max(line.best_game, total)
        line.deals += deals or 0
        game = games.get(game_id)
        if game is None:
            game = games[game_id] = GameResult(game_id, event_id, {})
        game.totals[player_id] = total  # type: ignore[index]
    out = list(lines.values())
    results = list(games.values())
    if ranking.method == "placement":
        add_placement(out, results, ranking)
    return out, results


def evening_points(line: EveningLine | PlayerLine, ranking: Ranking) -> Number:
    """The ranking points of a line under the method (an average for "average")."""
    if ranking.method == "placement":
        return line.placement
    if ranking.method == "average":
        return Fraction(line.total) / line.games if line.games else Fraction(0)
    return line.total


def _exact_sum(values: Sequence[Number]) -> Number:
    """sum(values), but Fractions are added over one common denominator: one Fraction
    made instead of one per addition (placement points of thousands of evenings)."""
    if not values or not all(isinstance(v, Fraction) for v in values):
        return sum(values)
    denominator = lcm(*(v.denominator for v in values))
    return Fraction(sum(v.numerator * (denominator // v.denominator) for v in values), denominator)


def _over_common_denominator(values: Sequence[Number]) -> tuple[list[int], int] | None:
    """Fractions as whole numbers over their common denominator (None unless every value is
    a Fraction). Each distinct object is converted once: the evenings' placement points
    are a few shared Fractions (one per distinct sum), repeated over thousands of lines."""
    if not values or not all(map(isinstance, values, repeat(Fraction))):
        return None
    # By identity, in C (hashing a Fraction is Python code); `values` keeps each object
    # alive, so no id is reused meanwhile.
    distinct = dict(zip(map(id, values), values, strict=True))
    denominator = lcm(*(v.denominator for v in distinct.values()))
    whole = {i: v.numerator * (denominator // v.denominator) for i, v in distinct.items()}
    return list(map(whole.__getitem__, map(id, values))), denominator


def combine(lines: Iterable[EveningLine], ranking: Ranking) -> list[PlayerLine]:
    """One line per player: the sum of their evenings, or of their best N evenings."""
    lines = list(lines)
    best_n = ranking.best_evenings
    per_player: dict[int, list[int]] = {}  # indexes into lines
    for i, line in enumerate(lines):
        per_player.setdefault(line.player_id, []).append(i)
    # Placement points as whole numbers over one denominator, made once: each player's
    # sum is then one integer sum and one Fraction.
    placements = _over_common_denominator([line.placement for line in lines])
    # Comparable stand-ins for the evenings' points, made once (see _order_keys).
    keys: Sequence[Number] = ()
    if best_n is not None:
        if ranking.method == "placement" and placements is not None:
            keys = placements[0]
        else:
            keys = _order_keys([evening_points(line, ranking) for line in lines])
    sort_key: Callable[[int], Any] = int
    if best_n is not None:
        # Best first; on equal points the earlier evening (lower id) counts, so a rebuild
        # always picks the same ones. Whole-number points: one integer a line orders as
        # (-points, event id) does, looked up in C instead of a tuple made by a lambda.
        events = [e.event_id for e in lines]
        if all(type(k) is int for k in keys) and min(events, default=0) >= 0:
            span = max(events, default=0) + 1
            sort_key = [
                -k * span + event for k, event in zip(keys, events, strict=True)
            ].__getitem__
        else:
            sort_key = lambda i: (-keys[i], lines[i].event_id)  # noqa: E731
    out = []
    for player_id, indexes in per_player.items():
        if best_n is not None and len(indexes) > best_n:
            indexes_counted = sorted(indexes, key=sort_key)[:best_n]
        else:
            indexes_counted = indexes
        counted = [lines[i] for i in indexes_counted]
        # One pass over the evenings (a thousand players, two rankings per rebuild).
        games = wins = deals = 0
        total: Number = 0
        best: Number | None = None
        for e in counted:
            games += e.games
            total += e.total
            wins += e.wins
            deals += e.deals
            if e.best_game is not None and (best is None or e.best_game > best):
                best = e.best_game
        if placements is not None:
            whole, denominator = placements
            placement: Number = Fraction(sum([whole[i] for i in indexes_counted]), denominator)
        else:
            placement = _exact_sum([e.placement for e in counted])
        out.append(
            PlayerLine(
                player_id=player_id,
                games=games,
                total=total,
                wins=wins,
                best_game=best,
                placement=placement,
                deals=deals,
                evenings=len(indexes),
                evenings_counted=len(counted),
                counted_events=tuple(sorted(e.event_id for e in counted)),
            )
        )
    return out


def _value(tiebreak: str, line: PlayerLine) -> Number:
    if tiebreak == "wins":
        return line.wins
    if tiebreak == "best_game":
        return line.best_game if line.best_game is not None else -(10**9)
    if tiebreak == "average":
        return line.average
    if tiebreak == "games":
        return line.games
    if tiebreak == "total":
        return line.total
    raise ValueError(tiebreak)


def _order_keys(values: Sequence[Number]) -> Sequence[Number]:
    """Values that order and compare as these do: Fractions (placement points, averages)
    as whole numbers over their common denominator, far cheaper to sort than Fractions."""
    whole = _over_common_denominator(values)
    return values if whole is None else whole[0]


def rank(
    lines: Iterable[PlayerLine],
    ranking: Ranking,
    results: Sequence[GameResult] | Callable[[set[int]], Sequence[GameResult]] = (),
) -> list[Standing]:
    """The standings: qualified players first, by points, ties broken in the configured order.

    `results` are the games the lines come from, needed only for "head_to_head": or a
    function giving the games of some players, called once with every player still level
    with another when head-to-head's turn comes (so a table without such ties loads no
    games). Players still level after every tie-break share the rank (1, 2, 2, 4) with
    note "tied".
    """
    groups = _level_groups(lines, ranking)
    reaching = _reaching_head_to_head(groups, ranking.tiebreaks)
    games = Games(results, {p for group in reaching for p in group})
    ordered: list[list[Standing]] = []  # groups still level after the tie-breaks
    for group in groups:
        ordered.extend(_break(group, list(ranking.tiebreaks), games))

    out: list[Standing] = []
    position = 1
    for group in ordered:
        for standing in group:
            standing.rank = position
            if len(group) > 1:
                standing.tiebreak = "tied"
            out.append(standing)
        position += len(group)
    return out


def _level_groups(lines: Iterable[PlayerLine], ranking: Ranking) -> list[list[Standing]]:
    """The lines as standings (not ranked yet) in order, in groups level on points."""
    entries = []
    for line in lines:
        qualified = ranking.method != "average" or line.games >= ranking.min_games
        entries.append(Standing(line.player_id, 0, evening_points(line, ranking), qualified, line))
    order = _order_keys([s.points for s in entries])
    keyed = sorted(
        zip(order, entries, strict=True), key=lambda k: (not k[1].qualified, -k[0], k[1].player_id)
    )
    groups: list[list[Standing]] = []
    level = None
    for key, entry in keyed:
        if (entry.qualified, key) == level:
            groups[-1].append(entry)
        else:
            groups.append([entry])
            level = (entry.qualified, key)
    return groups


def _reaching_head_to_head(
    groups: list[list[Standing]], tiebreaks: Sequence[str]
) -> list[list[int]]:
    """The groups of players whose games head-to-head may need: those still level with
    each other after the tie-breaks configured before it (every group it will be asked
    about is part of one of them; far fewer players than everyone level on points when
    wins or best game come first)."""
    if "head_to_head" not in tiebreaks:
        return []
    before = tiebreaks[: tiebreaks.index("head_to_head")]
    out: list[list[int]] = []
    for group in groups:
        if len(group) < 2:
            continue
        by_values: dict[tuple[Number, ...], list[int]] = {}
        for s in group:
            key = tuple(_value(tb, s.line) for tb in before)
            by_values.setdefault(key, []).append(s.player_id)
        out.extend(players for players in by_values.values() if len(players) > 1)
    return out


def _break(group: list[Standing], tiebreaks: list[str], games: Games) -> list[list[Standing]]:
    """Split a level group with the first tie-break that separates anyone, recursively."""
    if len(group) == 1 or not tiebreaks:
        return [group]
    tiebreak, rest = tiebreaks[0], tiebreaks[1:]
    if tiebreak == "head_to_head":
        values = games.head_to_head([s.player_id for s in group])
    else:
        values = {s.player_id: _value(tiebreak, s.line) for s in group}
    by_value: dict[Number, list[Standing]] = {}
    for s in group:
        by_value.setdefault(values[s.player_id], []).append(s)
    if len(by_value) == 1:
        return _break(group, rest, games)
    out: list[list[Standing]] = []
    for value in sorted(by_value, reverse=True):
        sub = by_value[value]
        for s in sub:
            s.tiebreak = tiebreak
            s.tiebreak_values[tiebreak] = value
        out.extend(_break(sub, rest, games))
    return out


def number(value: Number | None) -> int | float | None:
    """A number as JSON shows it: whole numbers as int, others rounded to two places."""
    if value is None:
        return None
    if isinstance(value, int):  # bool too, as before: int(True) == 1
        return int(value)
    if isinstance(value, Decimal):  # totals: no Fraction needed
        return int(value) if value == value.to_integral_value() else round(float(value), 2)
    if not isinstance(value, Fraction):
        value = Fraction(value)
    numerator, denominator = value.numerator, value.denominator
    if denominator == 1:
        return numerator
    return round(numerator / denominator, 2)  # float(value), without its method call


def average_number(line: PlayerLine) -> int | float:
    """number(line.average), without making the Fraction: the quotient of the exact
    total by the games (a whole number as int, else its correctly rounded float rounded
    to two places, as number() gives it)."""
    games = line.games
    if not games:
        return 0
    total = line.total
    if not isinstance(total, Decimal | Fraction | int):
        return number(line.average)  # type: ignore[return-value]
    numerator, denominator = total.as_integer_ratio()
    denominator *= games
    whole, rest = divmod(numerator, denominator)
    return whole if rest == 0 else round(numerator / denominator, 2)


def row_changes(
    stored: Mapping[Any, Sequence[Any]], wanted: Mapping[Any, Sequence[Any]]
) -> tuple[list[Any], list[Any]]:
    """What turns the stored rows into the wanted ones, both by key (a player id): the keys
    to write (new, or with different values) and the keys to delete (no longer wanted).
    Nothing to write and nothing to delete when a rebuild finds the rows up to date."""
    changed = [key for key, values in wanted.items() if stored.get(key) != tuple(values)]
    vanished = [key for key in stored if key not in wanted]
    return changed, vanished

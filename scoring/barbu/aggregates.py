"""The GameScore rows a Barbu ranking counts, aggregated by the ORM for the ranking maths.

Per player and evening: games, total, wins, best game, deals and placement points, in
one GROUP BY (a league), or from one read of an evening's few hundred rows as they are,
head-to-head games included (aggregate_seats); head-to-head games read only for the
players a tie needs. The aggregates go to the pure maths of scoring/engine/ranking.py (rank,
compute); nothing here writes.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.db.models import (
    BooleanField,
    Case,
    Count,
    F,
    Max,
    Q,
    Sum,
    Value,
    When,
)

from games.models import Event, Game, GameScore
from scoring.engine import ranking as maths

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
    """Per player and evening: games, total, wins, best game and deals, in one query; with
    the placement method, the placement points too (from the same query's counts of each
    place at the table: maths.placement_of_cases weighs them exactly, shared places
    included)."""
    placement = ranking.method == "placement"
    cases = _case_counts() if placement else {}
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
            **cases,
        )
        .values_list("player_id", "event", "n", "sum_total", "n_wins", "best", "n_deals", *cases)
        .order_by()
    )
    points = _Placement(ranking.placement_points) if placement else None
    # Hundredths, as stored: SQLite sums decimals as floats.
    return [
        maths.EveningLine(
            player_id=player_id,
            event_id=event_id,
            games=games,
            total=total.quantize(CENTS),
            wins=wins,
            best_game=best.quantize(CENTS),
            placement=0 if points is None else points(counts),
            deals=deals or 0,
        )
        for player_id, event_id, games, total, wins, best, deals, *counts in rows
    ]


# Hundredths, as totals and points are stored (scoring/barbu/rebuild.py rounds points to them).
CENTS = Decimal("0.01")


def _case_counts() -> dict[str, Count]:
    """For each of maths.PLACEMENT_CASES (players above, players level including oneself),
    the rows in that case, from the columns stored with each deal: `above`, and `place`,
    the shared place (above + (level + 1) / 2: 1.5 after 0 above is two level for first)."""
    return {
        f"case_{i}": Count(
            "id", filter=Q(above=above, place=Decimal(above) + Decimal(tied + 1) / 2)
        )
        for i, (above, tied) in enumerate(maths.PLACEMENT_CASES)
    }


class _Placement:
    """Placement points from a line's counts of each case: the same Fraction for the same
    counts (a league has tens of thousands of lines and far fewer distinct counts)."""

    def __init__(self, points: Sequence[float]) -> None:
        self.weigh = maths.placement_of_cases(points)
        self.known: dict[tuple[int, ...], Fraction] = {}

    def __call__(self, counts: Sequence[int]) -> Fraction:
        key = tuple(counts)
        found = self.known.get(key)
        if found is None:
            found = self.known[key] = self.weigh(key)
        return found


def game_results(scores: Any) -> list[maths.GameResult]:
    """Each game's totals by player (four rows per game, not per deal)."""
    rows = scores.values_list("game_id", EVENT_FIELD, "player_id", "total").order_by()
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

"""What the public Burraco pages and exports read: a tournament's ranking with each pair's
name, and a league's season ranking (scoring.burraco_standings.season_ranking) over its
closed tournaments. A fixed number of queries whatever the number of tournaments or pairs."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from clubs.models import League
from games.burraco.results import ranking_so_far
from games.models import Event, ScoreCard
from scoring.burraco_standings import PairRow, SeasonRow, season_ranking
from scoring.models import PairStanding

# League.ranking's "method" for a Burraco league: "total" sums each pair's VP,
# "placement" gives "season_points" by place in each tournament (1st, 2nd, ...); the best
# "best_evenings" tournaments count ("average" is Barbu's: the sum of VP here).
SEASON_METHODS = {"total": "vp", "placement": "placement"}
DEFAULT_SEASON_POINTS = (20, 15, 12, 10, 8, 6, 5, 4, 3, 2, 1)


def pair_label(number: int, a: str, b: str | None) -> str:
    """An entry's label: "4 – Anna / Bruno" for a pair, "4 – Anna" for a player of an
    individual tournament."""
    return f"{number} – {a} / {b}" if b is not None else f"{number} – {a}"


def tournament_ranking(event: Event) -> tuple[list[PairRow], dict[int, str], bool]:
    """The pairs ranked by their results so far (scoring.burraco_standings.rank_pairs),
    each pair's label, and whether the ranking is final (the tournament closed with every
    score card confirmed). Four queries."""
    pairs = list(
        event.pairs.order_by("number").values_list("number", "player_a__name", "player_b__name")
    )
    labels = {n: pair_label(n, a, b) for n, a, b in pairs}
    rows = ranking_so_far(event, [n for n, _a, _b in pairs])
    unconfirmed = (
        ScoreCard.objects.filter(game__table__round__event=event)
        .exclude(status=ScoreCard.Status.CONFIRMED)
        .exists()
    )
    return rows, labels, event.status == Event.Status.CLOSED and not unconfirmed


@dataclass(frozen=True)
class SeasonSettings:
    method: str  # "vp" or "placement" (season_ranking's)
    best: int | None
    placement_points: tuple[Decimal | int | float, ...]


def season_settings(league: League) -> SeasonSettings:
    ranking = league.ranking or {}
    method = SEASON_METHODS.get(ranking.get("method", "total"), "vp")
    best = ranking.get("best_evenings") or None
    points = tuple(ranking.get("season_points") or DEFAULT_SEASON_POINTS)
    return SeasonSettings(method, best if isinstance(best, int) and best > 0 else None, points)


@dataclass(frozen=True)
class _EventRow:
    pair: Any
    place: int
    vp: Decimal
    mp_difference: int


def season(league: League) -> dict[str, Any]:
    """The season ranking of a Burraco league over its closed tournaments (one query):
    rows (each entry the two players of a pair, whoever partnered whom in which
    tournament), their labels, the settings and how many tournaments counted."""
    settings = season_settings(league)
    stored = (
        PairStanding.objects.filter(event__league=league, event__status=Event.Status.CLOSED)
        .values_list(
            "event_id",
            "rank",
            "vp",
            "mp_difference",
            "pair__player_a_id",
            "pair__player_a__name",
            "pair__player_b_id",
            "pair__player_b__name",
        )
        .order_by("event_id", "rank")
    )
    events: dict[int, list[_EventRow]] = {}
    labels: dict[Any, str] = {}
    for event_id, rank, vp, mp, a_id, a_name, b_id, b_name in stored:
        key: tuple[int, ...]
        if b_id is None:  # a player of an individual tournament
            key = (a_id,)
            labels.setdefault(key, a_name)
        else:
            (first_id, first), (second_id, second) = sorted(((a_id, a_name), (b_id, b_name)))
            key = (first_id, second_id)
            labels.setdefault(key, f"{first} / {second}")
        events.setdefault(event_id, []).append(_EventRow(key, rank, Decimal(vp), mp))
    rows: list[SeasonRow] = season_ranking(
        list(events.values()),
        settings.method,
        settings.best,
        settings.placement_points if settings.method == "placement" else None,
    )
    return {
        "rows": rows,
        "labels": labels,
        "lines": [{"row": row, "label": labels.get(row.entry, "")} for row in rows],
        "settings": settings,
        "tournaments": len(events),
    }

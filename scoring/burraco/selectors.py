"""What the public Burraco pages and exports read: a tournament's ranking with each pair's
name, and a league's season ranking (scoring.engine.burraco.ranking.season_ranking) over its
closed tournaments. A fixed number of queries whatever the number of tournaments or pairs."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from clubs.models import League
from games.burraco.results import ranking_so_far, tie_breaks_of, turn_scores
from games.models import Event, Game, ScoreCard
from scoring.engine import burraco
from scoring.engine.burraco.free_match_ranking import EveningLine, FreeRow, rank_season
from scoring.engine.burraco.ranking import PairRow, SeasonRow, rank_pairs, season_ranking
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
    """The pairs ranked by their results so far (scoring.engine.burraco.ranking.rank_pairs),
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


def ranking_after(event: Event, turn: int) -> tuple[list[PairRow], dict[int, str], bool]:
    """The ranking as it stood after turn `turn` (its results and those before it: the
    pure rank_pairs on those turns only), each entry's label, and whether every score card
    of those turns is confirmed (three queries)."""
    pairs = list(
        event.pairs.order_by("number").values_list("number", "player_a__name", "player_b__name")
    )
    labels = {n: pair_label(n, a, b) for n, a, b in pairs}
    draw = event.ranking.get("draw_order") or None
    draw_order = {int(k): int(v) for k, v in draw.items()} if draw else None
    scores = [s for s in turn_scores(event.pk) if s.turn <= turn]
    rows = rank_pairs(scores, tie_breaks_of(event), draw_order, [n for n, _a, _b in pairs])
    unconfirmed = (
        ScoreCard.objects.filter(
            game__table__round__event=event, game__table__round__number__lte=turn
        )
        .exclude(status=ScoreCard.Status.CONFIRMED)
        .exists()
    )
    return rows, labels, not unconfirmed


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


def _closed_entries(league: League, burraco_format: str, *fields: str) -> Any:
    """The stored rows of the league's closed events of `burraco_format`, event by event
    in ranking order: event id, `fields`, then each player's id and name (the second
    None for a player of an individual tournament)."""
    return (
        PairStanding.objects.filter(
            event__league=league,
            event__status=Event.Status.CLOSED,
            event__burraco_format=burraco_format,
        )
        .values_list(
            "event_id",
            *fields,
            "pair__player_a_id",
            "pair__player_a__name",
            "pair__player_b_id",
            "pair__player_b__name",
        )
        .order_by("event_id", "rank")
    )


def season(league: League) -> dict[str, Any]:
    """The season ranking of a Burraco league over its closed tournaments (one query):
    rows (each entry the two players of a pair, whoever partnered whom in which
    tournament), their labels, the settings and how many tournaments counted."""
    settings = season_settings(league)
    stored = _closed_entries(league, Event.BurracoFormat.TURNS, "rank", "vp", "mp_difference")
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


def _details(details: dict | None) -> dict:
    return details if isinstance(details, dict) else {}


def evening_ranking(event: Event) -> tuple[list[dict[str, Any]], bool]:
    """An evening of free matches ranked as its stored rows stand (the Celery rebuild's):
    each pair's place, label, matches played, won and lost, point difference, and whether
    the ranking is final (the evening closed with every finished match confirmed). One
    query."""
    rows = []
    unconfirmed = playing = 0
    stored = PairStanding.objects.filter(event=event).values_list(
        "rank",
        "pair__number",
        "pair__player_a__name",
        "pair__player_b__name",
        "turns",
        "won",
        "lost",
        "mp_difference",
        "details",
    )
    for rank, number, a, b, played, won, lost, difference, details in stored.order_by(
        "rank", "pair__number"
    ):
        details = _details(details)
        unconfirmed += details.get("unconfirmed", 0)
        playing += details.get("playing", 0)
        rows.append(
            {
                "place": rank,
                "pair": number,
                "label": pair_label(number, a, b),
                "played": played,
                "won": won,
                "lost": lost,
                "difference": difference,
                "points_for": details.get("points_for", 0),
                "points_against": details.get("points_against", 0),
                "playing": details.get("playing", 0),
                "unconfirmed": details.get("unconfirmed", 0),
            }
        )
    return rows, event.status == Event.Status.CLOSED and not unconfirmed


def free_season(league: League) -> dict[str, Any]:
    """The season of a league's closed evenings of free matches (one query): each entry
    (the two players of a pair, whoever partnered whom) with evenings, matches won and
    lost and the point difference, ranked by
    scoring.engine.burraco.free_match_ranking.rank_season."""
    stored = _closed_entries(league, Event.BurracoFormat.FREE, "won", "lost", "mp_difference")
    evenings: dict[int, list[EveningLine]] = {}
    labels: dict[Any, str] = {}
    names: dict[Any, list[str]] = {}
    for event_id, won, lost, difference, a_id, a_name, b_id, b_name in stored:
        (first_id, first), (second_id, second) = sorted(((a_id, a_name), (b_id, b_name)))
        key = (first_id, second_id)
        labels.setdefault(key, f"{first} / {second}")
        names.setdefault(key, [first, second])
        evenings.setdefault(event_id, []).append(EveningLine(key, won, lost, difference))
    rows: list[FreeRow] = rank_season(evenings.values())
    return {
        "rows": rows,
        "labels": labels,
        "names": names,
        "lines": [{"row": row, "label": labels.get(row.entry, "")} for row in rows],
        "evenings": len(evenings),
    }


def evening_matches(event: Event) -> list[dict[str, Any]]:
    """The matches of an evening of free matches, by table and in the order each table
    played them: pairs, totals, the winner once the engine says so, the card's state (one
    query)."""
    target = burraco.ruleset_from_json(event.ruleset).target
    rows = (
        Game.objects.filter(table__round__event=event)
        .order_by("table__number", "table__round__number")
        .values_list(
            "pk",
            "table__number",
            "table__ns_pair__number",
            "table__ew_pair__number",
            "deals_count",
            "card__ns_total",
            "card__ew_total",
            "card__status",
        )
    )
    out: list[dict[str, Any]] = []
    played: dict[int, int] = {}
    for pk, table, ns, ew, hands, ns_total, ew_total, status in rows:
        played[table] = played.get(table, 0) + 1
        state = burraco.free_match_state(ns_total or 0, ew_total or 0, target)
        out.append(
            {
                "game": pk,
                "table": table,
                "match": played[table],
                "ns": ns,
                "ew": ew,
                "hands": hands,
                "totals": {"NS": ns_total or 0, "EW": ew_total or 0},
                "winner": state.winner,
                "needs": state.needs,
                "status": status or ScoreCard.Status.OPEN,
            }
        )
    return out


def plays_free_matches(league: League) -> bool:
    """The league holds evenings of free matches (its season counts matches won)."""
    return league.events.filter(burraco_format=Event.BurracoFormat.FREE).exists()

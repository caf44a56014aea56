"""What the public Barbu pages, exports and API read: an evening's and a league's stored
standings, the ranking explained, the evening's tables, a player's evenings, contract
statistics and rating, a game's score sheet.

Every function here makes a fixed number of queries whatever the size of the league or
the player's history; standings are the stored rows (one query). Who may see what is
scoring/selectors.py's Viewer.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Avg, Count, Q, Sum
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from clubs.models import Player
from games.barbu.selectors import game_record
from games.models import Deal, DealScore, Event, Game
from scoring.barbu.aggregates import ranking_of
from scoring.engine import barbu
from scoring.engine import ranking as maths
from scoring.models import EventStanding, LeagueStanding, PlayerRating, RatingHistory
from scoring.selectors import Viewer

TIEBREAK_LABELS = {
    "wins": gettext_lazy("more games won at the table"),
    "best_game": gettext_lazy("better best game"),
    "head_to_head": gettext_lazy("head-to-head results between the tied players"),
    "average": gettext_lazy("better average per game"),
    "games": gettext_lazy("more games played"),
    "total": gettext_lazy("more points in total"),
    "tied": gettext_lazy("level after every tie-break: the place is shared"),
}


# --- Ranking explained -------------------------------------------------------------------


def explain_ranking(ranking: maths.Ranking, *, league: bool) -> list[str]:
    """The ranking method and its tie-breaks in sentences for the page."""
    points = ", ".join(str(p) for p in ranking.placement_points)
    if ranking.method == "placement":
        lines = [
            _(
                "Each game gives points for the place at the table (%(points)s from first "
                "to fourth); players level at the table share the points of the places "
                "they occupy."
            )
            % {"points": points}
        ]
    elif ranking.method == "average":
        lines = [_("Players are ranked by their average score per game.")]
        if ranking.min_games:
            lines.append(
                _("At least %(n)d games are needed to qualify; the others are listed below.")
                % {"n": ranking.min_games}
            )
    else:
        lines = [_("Players are ranked by the total of their scores in every game.")]
    if league and ranking.best_evenings:
        lines.append(
            _("Only each player's best %(n)d evenings count.") % {"n": ranking.best_evenings}
        )
    if league:
        lines.append(_("League tables count complete games only."))
    if ranking.tiebreaks:
        lines.append(
            _("Ties are broken by, in order: %(list)s.")
            % {"list": "; ".join(str(TIEBREAK_LABELS[t]) for t in ranking.tiebreaks)}
        )
    return lines


# --- Standings ----------------------------------------------------------------------------


_ROW_COLUMNS = ("rank", "player_id", "player__name", "points", "games", "details", "tiebreak_note")
_LEAGUE_COLUMNS = ("evenings", "previous_rank")


def _rows(standings: Any, extra: tuple[str, ...] = ()) -> list[dict[str, Any]]:
    """The stored rows as the pages and the API show them, read as plain values (no model
    instance per row: an evening's standings are read cold after every deal)."""
    labels = {key: str(label) for key, label in TIEBREAK_LABELS.items()}
    rows = []
    for rank, player_id, name, points, games, details, note, *more in standings.order_by(
        "rank", "player__name"
    ).values_list(*_ROW_COLUMNS, *extra):
        rows.append(
            {
                "rank": rank,
                "player_id": player_id,
                "player": name,
                "points": maths.number(points),
                "games": games,
                "details": details,
                "tiebreak": note,
                "tiebreak_label": labels.get(note, "") if note else "",
                **dict(zip(extra, more, strict=True)),
            }
        )
        if "previous_rank" in extra:  # LeagueStanding.movement
            previous = rows[-1]["previous_rank"]
            rows[-1]["movement"] = None if previous is None else previous - rank
    return rows


def event_standings(event_id: int) -> list[dict[str, Any]]:
    """The stored standings of an evening (one query)."""
    return _rows(EventStanding.objects.filter(event_id=event_id))


def league_standings(league_id: int) -> list[dict[str, Any]]:
    """The stored league table (one query)."""
    return _rows(LeagueStanding.objects.filter(league_id=league_id), _LEAGUE_COLUMNS)


# --- Evening -----------------------------------------------------------------------------


def event_tables(event: Event) -> list[dict[str, Any]]:
    """Each table's game and its progress, by round and table (one query)."""
    games = (
        Game.objects.filter(table__round__event=event)
        .select_related("table__round")
        .order_by("table__round__number", "table__number")
    )
    return [
        {
            "game_id": g.pk,
            "round": g.table.round.number,
            "table": g.table.number,
            "players": list(g.player_names),
            "totals": g.totals,
            "seats": [{"name": n, "total": g.totals.get(n, 0)} for n in g.player_names],
            "deals_count": g.deals_count,
            "deals_target": g.deals_target,
            "complete": g.status == Game.Status.COMPLETE,
            "percent": round(100 * g.deals_count / g.deals_target) if g.deals_target else 0,
        }
        for g in games
    ]


def standings_status(event: Event, tables: list[dict[str, Any]]) -> dict[str, Any]:
    """Whether an evening's standings are final, and the sentence saying so.

    Provisional while the evening runs or any of its games is unfinished; once it is
    closed with unfinished games, the sentence says how they count (Event.unfinished).
    """
    unfinished = sum(1 for t in tables if not t["complete"])
    running = event.status != Event.Status.CLOSED
    if running:
        sentence = _("Provisional standings: the evening is still being played.")
    elif unfinished and event.unfinished == "exclude":
        sentence = ngettext(
            "Provisional standings: %(count)s game is not finished and does not count.",
            "Provisional standings: %(count)s games are not finished and do not count.",
            unfinished,
        ) % {"count": unfinished}
    elif unfinished:
        sentence = ngettext(
            "Provisional standings: %(count)s game is not finished and counts as it stands.",
            "Provisional standings: %(count)s games are not finished and count as they stand.",
            unfinished,
        ) % {"count": unfinished}
    else:
        sentence = _("Final standings: every game is complete.")
    return {
        "provisional": running or unfinished > 0,
        "unfinished": unfinished,
        "sentence": sentence,
    }


def event_ranking(event: Event) -> maths.Ranking:
    return ranking_of(event, event.league)


# --- Player ------------------------------------------------------------------------------


def player_evenings(player: Player, who: Viewer) -> list[dict[str, Any]]:
    """The player's rank in each evening (one query), newest first."""
    rows = (
        EventStanding.objects.filter(player=player)
        .filter(who.visible("event"))
        .select_related("event")
        .order_by("-event__starts_at", "-event_id")
    )
    return [
        {
            "event_id": s.event_id,
            "event": s.event.name,
            "date": s.event.starts_at,
            "rank": s.rank,
            "points": maths.number(maths.Fraction(s.points)),
            "games": s.games,
        }
        for s in rows
    ]


def contract_statistics(player: Player, who: Viewer) -> list[dict[str, Any]]:
    """Per contract: deals, average score, K♥ taken, doubles won and lost (one query)."""
    rows = (
        DealScore.objects.filter(player=player)
        .filter(who.visible("game__table__round__event"))
        .values("contract")
        .annotate(
            deals=Count("id"),
            average=Avg("score"),
            total=Sum("score"),
            kings=Count("id", filter=Q(took_king=True)),
            won=Sum("doubles_won"),
            lost=Sum("doubles_lost"),
            dealt=Count("id", filter=Q(is_dealer=True)),
        )
        .order_by("contract")
    )
    order = {c: i for i, c in enumerate(barbu.CONTRACTS)}
    out = [
        {
            "contract": r["contract"],
            "deals": r["deals"],
            "average": round(float(r["average"] or 0), 1),
            "total": r["total"] or 0,
            "kings": r["kings"],
            "doubles_won": r["won"] or 0,
            "doubles_lost": r["lost"] or 0,
            "dealt": r["dealt"],
        }
        for r in rows
    ]
    out.sort(key=lambda r: order.get(r["contract"], 99))
    return out


def player_rating(player: Player, who: Viewer) -> dict[str, Any]:
    """The current rating and its history over the visible games (two queries)."""
    current = PlayerRating.objects.filter(player=player).first()
    history = (
        RatingHistory.objects.filter(player=player)
        .filter(who.visible("event"))
        .select_related("event")
        .order_by("order_key")
    )
    return {
        "mu": round(current.mu, 3) if current else None,
        "sigma": round(current.sigma, 3) if current else None,
        "ordinal": round(current.ordinal, 3) if current else None,
        "games": current.games if current else 0,
        "history": [
            {
                "game_id": h.game_id,
                "event_id": h.event_id,
                "event": h.event.name,
                "date": h.event.starts_at,
                "place": float(h.place),
                "mu": round(h.mu, 3),
                "sigma": round(h.sigma, 3),
                "ordinal": round(h.ordinal, 3),
            }
            for h in history
        ],
    }


# --- Score sheet ---------------------------------------------------------------------------


def score_sheet(game: Game) -> dict[str, Any]:
    """The paper score sheet: a row per deal with running totals, a subtotal after each
    dealer's turn, and the italian6 settlement where the rules settle turns."""
    deals = list(Deal.objects.filter(game=game).order_by("number"))
    players = list(game.player_names)
    if not deals:
        return {"players": players, "rows": [], "totals": {p: 0 for p in players}}
    scores = barbu.score_game(game_record(game, deals))
    turn_end = {turn["deals"][-1]: turn for turn in scores["turns"]}
    per_turn = barbu.ruleset_from_json(game.ruleset).deals_per_turn
    running = dict.fromkeys(players, 0)
    rows: list[dict[str, Any]] = []
    for deal, sheet in zip(deals, scores["deals"], strict=True):
        for p in players:
            running[p] += sheet["score"][p]
        rows.append(
            {
                "kind": "deal",
                "number": sheet["number"],
                "dealer": sheet["dealer"],
                "contract": sheet["contract"],
                "trump": (deal.data.get("trump") if sheet["contract"] == "trumps" else None),
                "doubles": len(deal.data.get("doubles") or []),
                "status": deal.status,
                "status_label": str(Deal.Status(deal.status).label),
                "cells": [sheet["score"][p] for p in players],
                "running": [running[p] for p in players],
                "pairs": [(sheet["score"][p], running[p]) for p in players],
            }
        )
        turn = turn_end.get(sheet["number"])
        if turn is not None and len(turn["deals"]) == per_turn:
            rows.append(
                {
                    "kind": "subtotal",
                    "dealer": turn["dealer"],
                    "cells": [turn["score"][p] for p in players],
                }
            )
            if "settlement" in turn:
                for p in players:
                    running[p] += turn["settlement"][p]
                rows.append(
                    {
                        "kind": "settlement",
                        "dealer": turn["dealer"],
                        "cells": [turn["settlement"][p] for p in players],
                        "running": [running[p] for p in players],
                        "pairs": [(turn["settlement"][p], running[p]) for p in players],
                    }
                )
    return {
        "players": players,
        "rows": rows,
        "totals": [scores["totals"][p] for p in players],
        "ranking": scores["ranking"],
        "complete": scores["complete"],
    }

"""The shared machinery of every deal write (submission, confirmation, correction).

The game's row locked, its seating read (the seat players, the round and evening and
whether they are open), the engine's scores written as the game's derived rows (the
deals' DealScore rows, the game's totals and its four GameScore rows with each seat's
place), and the deals_changed signal sent once the transaction commits (standings are
queued then). The callers own the transaction: games/barbu/submission.py and
games/barbu/corrections.py; games/barbu/evenings.py rewrites a game's rows on a seat change.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from games.barbu.seat_history import Change, players_at, result_players
from games.core.errors import EntryError, EveningClosed
from games.core.signals import deals_changed
from games.models import Deal, DealScore, Event, Game, GameScore, Round, Seat, Substitution, Table


@dataclass(frozen=True)
class Seating:
    """The game's players' ids in seat order (seat 0 deals first), its event and league,
    and whether its round and event are still open."""

    player_ids: list[int]
    event_id: int
    league_id: int | None
    round_number: int = 0
    round_status: str = Round.Status.OPEN
    event_status: str = Event.Status.RUNNING


def check_open_for_deals(round_number: int, round_status: str, event_status: str) -> None:
    """Raise EveningClosed when a closed round or evening would take a new deal."""
    if event_status == Event.Status.CLOSED:
        raise EveningClosed(
            _("This evening is closed: no more deals can be entered."),
            code="event_closed",
            params={"round": round_number},
        )
    if round_status == Round.Status.CLOSED:
        raise EveningClosed(
            _("Round %(round)s is closed: no more deals can be entered.") % {"round": round_number},
            code="round_closed",
            params={"round": round_number},
        )


def read_seating(game: Game) -> Seating:
    """One plain query. (An ORM query with joins or subqueries costs several times its
    SQL to build: four seat subqueries on the lock statement took 8 ms of Python, this
    and the bare lock 2 ms.)"""
    rows = sorted(
        Seat.objects.filter(table_id=game.table_id)
        .order_by()
        .values_list(
            "position",
            "player_id",
            "table__round__event_id",
            "table__round__event__league_id",
            "table__round__number",
            "table__round__status",
            "table__round__event__status",
        )
    )
    if rows:
        return Seating([row[1] for row in rows], *rows[0][2:])
    where = (
        Table.objects.filter(pk=game.table_id)
        .values_list(
            "round__event_id",
            "round__event__league_id",
            "round__number",
            "round__status",
            "round__event__status",
        )
        .get()
    )
    return Seating([], *where)


def deal_sheet(sheet: dict) -> dict:
    """What a Deal row keeps of the engine's scores of that deal."""
    return {k: sheet[k] for k in ("raw", "doubles", "score")}


def set_totals(game: Game, scores: dict) -> tuple[dict[str, Any], dict[str, int]]:
    """The game's totals, deal count and status from the engine's scores (not saved); each
    player's shared place and the number of players above, for the GameScore rows."""
    totals = scores["totals"]
    game.totals = totals
    game.deals_count = len(scores["deals"])
    game.status = (
        Game.Status.COMPLETE if game.deals_count >= game.deals_target else Game.Status.IN_PROGRESS
    )
    return seat_places(totals)


def write_scores(
    game: Game,
    scores: dict,
    deals: list[Deal],
    *,
    player_ids: list[int] | None = None,
    new: bool = False,
) -> None:
    """Rewrite the derived rows of these deals and of the game from the engine's scores.

    `player_ids`: the seat players' ids, when the caller has them already. `new`: the
    deals were just inserted with their scores (Deal.scores set before the INSERT), so
    there are no DealScore rows to delete and no Deal row to update.
    """
    if player_ids is None:
        player_ids = read_seating(game).player_ids
    names = list(game.player_names)
    changes = seat_changes(game)
    if not new:
        DealScore.objects.filter(deal__in=deals).delete()
    rows = []
    for deal in deals:
        sheet = scores["deals"][deal.number - 1]
        won, lost = doubles_won_lost(deal.data, sheet["raw"])
        king = deal.data.get("result", {}).get("king_of_hearts")
        # Each deal's rows go to whoever played it (a substitute's deals to them).
        played = players_at(player_ids, changes, deal.number) if changes else player_ids
        for name, player_id in zip(names, played, strict=True):
            rows.append(
                DealScore(
                    deal=deal,
                    game=game,
                    player_id=player_id,
                    contract=deal.contract,
                    is_dealer=deal.data["dealer"] == name,
                    raw=sheet["raw"][name],
                    doubles=sheet["doubles"][name],
                    score=sheet["score"][name],
                    took_king=deal.contract == "barbu" and king == name,
                    doubles_won=won.get(name, 0),
                    doubles_lost=lost.get(name, 0),
                )
            )
        if not new:
            deal.scores = deal_sheet(sheet)
            Deal.objects.filter(pk=deal.pk).update(scores=deal.scores)
    DealScore.objects.bulk_create(rows)

    places, aboves = set_totals(game, scores)
    game.save(update_fields=["totals", "deals_count", "status", "updated_at"])
    results = result_players(player_ids, changes, game.deals_count) if changes else player_ids
    # One INSERT ... ON CONFLICT (game, seat) DO UPDATE for the four rows, whether the
    # game had score rows already or not (instead of four update_or_create round trips).
    GameScore.objects.bulk_create(
        [
            GameScore(
                game=game,
                seat=seat,
                player_id=player_id,
                total=Decimal(str(game.totals[name])),
                place=Decimal(str(places[name])),
                above=aboves[name],
                deals=game.deals_count,
            )
            for seat, (name, player_id) in enumerate(zip(names, results, strict=True))
        ],
        update_conflicts=True,
        unique_fields=["game", "seat"],
        update_fields=["player", "total", "place", "above", "deals"],
    )


def seat_changes(game: Game) -> list[Change]:
    """The game's substitutions as seat_history reads them; none without a query for a
    game never substituted."""
    if not game.substituted:
        return []
    rows = Substitution.objects.filter(game_id=game.pk).values_list(
        "seat", "from_deal", "player_out_id", "player_in_id"
    )
    return [Change(*row) for row in rows]


def _stored_totals(totals: dict[str, float]) -> dict[str, Decimal]:
    """The totals as GameScore.total stores them (hundredths): places are found from these,
    so the stored place and above always agree with the stored totals (which the window
    functions over GameScore would see), whatever the engine's rounding."""
    return {name: Decimal(str(total)).quantize(_HUNDREDTH) for name, total in totals.items()}


_HUNDREDTH = Decimal("0.01")


def seat_places(totals: dict[str, float]) -> tuple[dict[str, float], dict[str, int]]:
    """Each player's place 1..4 by stored total (tied players share the average of the
    places they occupy) and how many players have a higher stored total (GameScore.above):
    with the place, that tells the players level too (place = above + (level + 1) / 2)."""
    stored = _stored_totals(totals)
    places, aboves = {}, {}
    for name, total in stored.items():
        above = sum(1 for other in stored.values() if other > total)
        tied = sum(1 for other in stored.values() if other == total)
        places[name] = above + (tied + 1) / 2
        aboves[name] = above
    return places, aboves


def doubles_won_lost(data: dict, raw: dict[str, int]) -> tuple[dict[str, int], dict[str, int]]:
    """How many doubles each player won and lost in this deal (mutual doubles count once)."""
    won: dict[str, int] = {}
    lost: dict[str, int] = {}
    seen = set()
    for double in data.get("doubles") or []:
        pair = frozenset((double["by"], double["against"]))
        if pair in seen:
            continue
        seen.add(pair)
        a, b = double["by"], double["against"]
        d = raw[a] - raw[b]
        if d > 0:
            won[a] = won.get(a, 0) + 1
            lost[b] = lost.get(b, 0) + 1
        elif d < 0:
            won[b] = won.get(b, 0) + 1
            lost[a] = lost.get(a, 0) + 1
    return won, lost


def announce_deals_changed(game: Game, seating: Seating) -> None:
    """Send deals_changed for this game once the transaction commits (standings queued)."""
    # The game's status as this transaction leaves it: the receiver need not read it again.
    leagues = [seating.league_id] if game.status == Game.Status.COMPLETE else []
    event_id = seating.event_id
    transaction.on_commit(
        lambda: deals_changed.send(
            sender=Game, game_ids=[game.pk], event_ids=[event_id], complete_league_ids=leagues
        )
    )


def lock_game(game_id: int) -> Game:
    """The game, its row locked until the transaction ends.

    Only the game's row: a FOR UPDATE with select_related would lock the table, round
    and event rows too, and the tables of one evening would queue behind each other's
    deals. readread_seating() reads the rest.
    """
    try:
        return Game.objects.select_for_update().get(pk=game_id)
    except Game.DoesNotExist:
        raise EntryError(_("This game does not exist."), code="not_found") from None

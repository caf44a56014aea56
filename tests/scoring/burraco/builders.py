"""Builders of played Burraco pair tournaments for the rating and player-page tests,
through the services (games/burraco/tournaments.py, scorecards.py)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta

from django.utils import timezone

from clubs.models import Club, Player
from games.burraco import scorecards, tournaments
from games.models import Event, Game, Round
from tests.games.burraco.builders import burraco_club, play_table

__all__ = ["burraco_club", "card", "pair_tournament", "play_table", "seat_turn"]


def pair_tournament(
    club: Club,
    pairs: Sequence[tuple[Player, Player]],
    *,
    days_ago: int = 0,
    name: str = "Torneo",
    hands: int = 3,
    turns: int = 4,
    published: bool = True,
) -> Event:
    event = tournaments.tournament_create(
        club=club,
        name=name,
        starts_at=timezone.now() - timedelta(days=days_ago),
        turns=turns,
        hands_per_turn=hands,
        published=published,
    )
    for a, b in pairs:
        tournaments.pair_enter(event=event, player_a=a, player_b=b)
    return event


def seat_turn(event: Event) -> Round:
    """The next turn: the first by entry order (Mitchell), then Mitchell again."""
    first = not event.rounds.exists()
    return tournaments.turn_seat(event=event, movement="first" if first else "mitchell").round


def card(rnd: Round, table: int) -> Game:
    return rnd.tables.get(number=table).game


def cards_hand(closed: str, ns_burracos: int, ew_burracos: int) -> dict:
    """A hand counted from the cards: the closing line has its pozzetto taken and at
    least one clean burraco."""
    lines = {}
    for line, burracos in (("NS", ns_burracos), ("EW", ew_burracos)):
        entry = {"melded": 100 + 50 * burracos, "in_hand": 0 if line == closed else 20}
        if burracos:
            entry["clean"] = burracos
        entry["pozzetto"] = True
        lines[line] = entry
    return {"closed": closed, **lines}


def submit_cards(game: Game, hands: Sequence[dict], *, confirm: bool = True) -> None:
    for hand in hands:
        scorecards.hand_submit(game_id=game.pk, hand=hand, line="NS")
    if confirm:
        scorecards.card_confirm(game_id=game.pk, line="EW", agree=True)

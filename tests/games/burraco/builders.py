"""Builders of Burraco tournaments for the tests: a club, pairs entered, turns seated."""

from __future__ import annotations

from django.utils import timezone

from clubs.models import Club
from games.burraco import scorecards, tournaments
from games.models import BurracoPair, Event, Game, Round
from scoring.rebuild import rebuild_event_standings
from tests.factories import make_club, make_player


def burraco_club(name: str = "Circolo Burraco", **kw) -> Club:
    kw.setdefault("game", Club.Games.BURRACO)
    kw.setdefault("language", "en")
    return make_club(name, **kw)


def tournament(
    pairs: int = 7, *, club: Club | None = None, hands: int = 3, turns: int = 4
) -> Event:
    club = club or burraco_club()
    event = tournaments.tournament_create(
        club=club,
        name="Torneo del martedì",
        starts_at=timezone.now(),
        turns=turns,
        hands_per_turn=hands,
    )
    for n in range(1, pairs + 1):
        a = make_player(club, f"Player {n}a")
        b = make_player(club, f"Player {n}b")
        tournaments.pair_enter(event=event, player_a=a, player_b=b)
    return event


def play_table(game: Game, mps: list[tuple[int, int]], *, confirm: bool = True) -> None:
    """Enter the hands from NS's phone, then confirm from EW's."""
    for ns, ew in mps:
        scorecards.hand_submit(game_id=game.pk, hand={"mp": {"NS": ns, "EW": ew}}, line="NS")
    if confirm:
        scorecards.card_confirm(game_id=game.pk, line="EW", agree=True)


def play_turn(rnd: Round, mps_by_table=None) -> None:
    """Every table of the turn plays (by default NS wins each hand by 100 + 5 x table)."""
    hands = rnd.hands_per_turn
    for table in rnd.tables.select_related("game").order_by("number"):
        mps = (mps_by_table or {}).get(table.number) or [(200 + 5 * table.number, 100)] * hands
        play_table(table.game, mps)


def pair(event: Event, number: int) -> BurracoPair:
    return event.pairs.get(number=number)


def individual_tournament(
    players: int = 8, *, club: Club | None = None, hands: int = 3, turns: int = 3
) -> Event:
    """An individual tournament with `players` players entered (numbers 1..players)."""
    club = club or burraco_club()
    event = tournaments.tournament_create(
        club=club,
        name="Individuale del giovedì",
        starts_at=timezone.now(),
        turns=turns,
        hands_per_turn=hands,
        individual=True,
    )
    for n in range(1, players + 1):
        tournaments.player_enter(event=event, player=make_player(club, f"Solo {n}"))
    return event


def played_individual(players: int, club=None) -> Event:
    event = individual_tournament(players, club=club)
    rnd = tournaments.turn_seat(event=event, movement="first", seed=1).round
    play_turn(rnd, {1: [(300, 100)] * 3, 2: [(310, 100)] * 3})
    rebuild_event_standings(event_id=event.pk)
    return event

"""Builders of Burraco evenings of free matches for the tests."""

from __future__ import annotations

from django.utils import timezone

from clubs.models import Club, League
from games.burraco import free_matches, scorecards, tournaments
from games.models import BurracoPair, Event, Game
from tests.factories import make_player
from tests.games.burraco.builders import burraco_club

# A match to 2005 in five hands: NS 1665 after four, "NS needs 340 to win", then 2105.
MATCH_TO_2005 = [(600, 150), (-100, 420), (815, 330), (350, 300), (440, 120)]


def free_evening(
    pairs: int = 4,
    *,
    club: Club | None = None,
    target: int = 2005,
    league: League | None = None,
    name: str = "Serata libera",
    names: str = "Player",
) -> Event:
    club = club or burraco_club()
    event = free_matches.free_evening_create(
        club=club, name=name, starts_at=timezone.now(), target=target, league=league
    )
    for n in range(1, pairs + 1):
        a = make_player(club, f"{names} {n}a")
        b = make_player(club, f"{names} {n}b")
        tournaments.pair_enter(event=event, player_a=a, player_b=b)
    return event


def pair(event: Event, number: int) -> BurracoPair:
    return event.pairs.get(number=number)


def start(event: Event, table: int, ns: int, ew: int) -> Game:
    return free_matches.match_start(
        event=event, table_number=table, ns=pair(event, ns), ew=pair(event, ew)
    ).game


def play_match(game: Game, mps: list[tuple[int, int]], *, confirm: bool = True) -> None:
    """NS's phone enters the hands, EW's confirms."""
    for ns, ew in mps:
        scorecards.hand_submit(game_id=game.pk, hand={"mp": {"NS": ns, "EW": ew}}, line="NS")
    if confirm:
        scorecards.card_confirm(game_id=game.pk, line="EW", agree=True)


def free_matches_evening_with_same_players(first, league):
    """A second evening where the first evening's pair 1 is pair 2 and pair 2 is pair 1."""
    from django.utils import timezone

    from games.burraco import free_matches, tournaments

    second = free_matches.free_evening_create(
        club=first.club, name="Martedì", starts_at=timezone.now(), league=league
    )
    for number in (2, 1, 3, 4):
        old = pair(first, number)
        tournaments.pair_enter(event=second, player_a=old.player_b, player_b=old.player_a)
    return second

"""A Burraco tournament run: created here with its rules frozen, in a league that ranks
its format; its entries (games/burraco/entries.py: pairs or, in an individual tournament,
players entered, checked in or withdrawn) and its turns (games/burraco/turns.py, each
seated by the movement the referee chooses, through games/burraco/turn_sides.py) are
named here too, as the views, the API and the tests call them."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from django.utils.translation import gettext as _

from clubs.models import Club, GameChoice, League
from games.burraco.closing import tournament_close, tournament_reopen
from games.burraco.entries import (
    checkin_all,
    pair_checkin,
    pair_enter,
    pair_reinstate,
    pair_withdraw,
    player_enter,
)
from games.burraco.tournament_base import (
    FIRST_ORDERS,
    HANDS,
    MOVEMENTS,
    TournamentError,
    TurnConflict,
    closed_error,
)
from games.burraco.turns import SeatedTurn, turn_seat
from games.models import Event
from scoring.engine import burraco

__all__ = [
    "FIRST_ORDERS",
    "HANDS",
    "MOVEMENTS",
    "SeatedTurn",
    "TournamentError",
    "TurnConflict",
    "checkin_all",
    "closed_error",
    "league_format_check",
    "pair_checkin",
    "pair_enter",
    "pair_reinstate",
    "pair_withdraw",
    "player_enter",
    "tournament_close",
    "tournament_create",
    "tournament_reopen",
    "turn_seat",
]


def league_format_check(league: League | None, burraco_format: str) -> None:
    """A league ranks one format over its season: the VP of its tournaments, or the
    matches won at its evenings of free matches. An event of the other format is refused
    (a club keeps a league for each)."""
    if league is None:
        return
    other = (
        Event.BurracoFormat.TURNS
        if burraco_format == Event.BurracoFormat.FREE
        else Event.BurracoFormat.FREE
    )
    if not league.events.filter(game=GameChoice.BURRACO, burraco_format=other).exists():
        return
    if burraco_format == Event.BurracoFormat.FREE:
        message = _(
            "%(league)s ranks tournaments by VP: an evening of free matches needs a league "
            "of its own (or none)."
        )
    else:
        message = _(
            "%(league)s ranks evenings of free matches by matches won: a tournament needs "
            "another league (or none)."
        )
    raise TournamentError(
        message % {"league": league.name},
        code="league_format",
        params={"league": league.pk, "format": other},
    )


def tournament_create(
    *,
    club: Club,
    name: str,
    starts_at: datetime,
    league: League | None = None,
    turns: int = 4,
    hands_per_turn: int = 3,
    tie_breaks: Sequence[str] = ("mp_difference", "head_to_head"),
    published: bool = True,
    individual: bool = False,
) -> Event:
    """A new Burraco tournament with the league's (or the club's) rules frozen in it: of
    pairs, or `individual` (players enter alone, partners change every turn)."""
    if league is not None and league.club_id != club.pk:
        raise TournamentError(_("This league belongs to another club."), code="foreign_league")
    league_format_check(league, Event.BurracoFormat.TURNS)
    if hands_per_turn not in HANDS:
        raise TournamentError(
            _("A turn plays 2, 3 or 4 hands."),
            code="invalid_hands",
            params={"hands": hands_per_turn},
        )
    if not 1 <= turns <= 30:
        raise TournamentError(
            _("A tournament plays from 1 to 30 turns."), code="invalid_turns", params={}
        )
    source = league.effective_ruleset() if league else club.burraco_ruleset
    ruleset = burraco.ruleset_to_json(burraco.ruleset_from_json(source))
    return Event.objects.create(
        club=club,
        league=league,
        name=name.strip() or _("Burraco tournament"),
        kind=Event.Kind.TOURNAMENT,
        game=GameChoice.BURRACO,
        starts_at=starts_at,
        planned_rounds=turns,
        published=published,
        individual=individual,
        ruleset=ruleset,
        ranking={
            "turns": turns,
            "hands_per_turn": hands_per_turn,
            "tie_breaks": list(tie_breaks),
        },
    )

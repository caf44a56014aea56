"""A Burraco tournament's entries: pairs (or, in an individual tournament, players)
entered, late while the first turn is played, checked in and withdrawn; an evening of
free matches takes pairs all evening long."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from clubs.models import Player
from games.burraco import history
from games.burraco.tournament_base import TournamentError, check_burraco
from games.models import (
    BurracoPair,
    Event,
    Game,
    ScoreCard,
)


def _first_turn_over(event: Event) -> bool:
    """The first turn has ended: a second one is seated, or every card of it is confirmed."""
    rounds = list(event.rounds.values_list("number", flat=True))
    if not rounds:
        return False
    if len(rounds) > 1:
        return True
    return (
        not Game.objects.filter(table__round__event=event, table__round__number=1)
        .exclude(card__status=ScoreCard.Status.CONFIRMED)
        .exists()
    )


def check_entries_open(event: Event, late: bool) -> None:
    """A late entry (`late`: the first turn seated) is refused once the first turn ends."""
    if late and _first_turn_over(event):
        raise TournamentError(
            _("Late entries close when the first turn ends."), code="entries_closed"
        )


def _entry_number(event: Event, number: int | None, taken: str) -> int:
    """The entry's number: the one asked for, or the next free one when None; `taken`
    (with %(number)s) refuses a number below 1 or already held by another entry."""
    numbers = set(event.pairs.values_list("number", flat=True))
    if number is None:
        return max(numbers, default=0) + 1
    if number < 1 or number in numbers:
        raise TournamentError(
            taken % {"number": number}, code="number_taken", params={"number": number}
        )
    return number


def _logged(pair: BurracoPair, by_user: Any) -> BurracoPair:
    history.log(
        pair.event,
        history.LATE_ENTRY if pair.late else history.ENTERED,
        by_user,
        pair=pair.number,
        names=pair.names,
    )
    return pair


def pair_enter(
    *,
    event: Event,
    player_a: Player,
    player_b: Player,
    number: int | None = None,
    by_user: Any = None,
    log: bool = True,
) -> BurracoPair:
    """Enter a pair: before the first turn, or late while the first turn is being played.
    In the tournament's history unless `log` is False (an import logs its pairs at once)."""
    check_burraco(event)
    if event.individual:
        raise TournamentError(
            _("Players enter this individual tournament alone, not in pairs."),
            code="individual_tournament",
        )
    if player_a.pk == player_b.pk:
        raise TournamentError(_("A pair needs two different players."), code="same_player")
    # An evening of free matches takes pairs all evening long.
    late = event.rounds.exists() and not event.is_free_matches
    check_entries_open(event, late)
    taken = entered_players(event)
    for player in (player_a, player_b):
        if player.pk in taken:
            raise TournamentError(
                _("%(name)s is already in another pair.") % {"name": player.name},
                code="player_taken",
                params={"player": player.pk},
            )
    number = _entry_number(event, number, _("Pair number %(number)s is already taken."))
    pair = BurracoPair.objects.create(
        event=event, number=number, player_a=player_a, player_b=player_b, late=late
    )
    return _logged(pair, by_user) if log else pair


def entered_players(event: Event) -> set[int]:
    """The players who cannot enter again: in an individual tournament everyone entered,
    in a pair tournament the players of the pairs still playing (one query)."""
    entries = event.pairs.all() if event.individual else event.pairs.filter(active=True)
    return {
        pk
        for pair in entries.values_list("player_a_id", "player_b_id")
        for pk in pair
        if pk is not None
    }


def player_enter(
    *, event: Event, player: Player, number: int | None = None, by_user: Any = None
) -> BurracoPair:
    """Enter a player in an individual tournament: before the first turn, or late while
    the first turn is being played. The entry is a BurracoPair with no second player."""
    check_burraco(event)
    if not event.individual:
        raise TournamentError(
            _("This is a pair tournament: enter a pair of two players."),
            code="pair_tournament",
        )
    late = event.rounds.exists()
    check_entries_open(event, late)
    if player.pk in entered_players(event):
        raise TournamentError(
            _("%(name)s is already entered.") % {"name": player.name},
            code="player_taken",
            params={"player": player.pk},
        )
    number = _entry_number(event, number, _("Number %(number)s is already taken."))
    entry = BurracoPair.objects.create(
        event=event, number=number, player_a=player, player_b=None, late=late
    )
    return _logged(entry, by_user)


def pair_checkin(*, pair: BurracoPair, present: bool = True, by_user: Any = None) -> BurracoPair:
    """Check a pair in (or undo it); in the history when it changes something."""
    check_burraco(pair.event)
    if pair.checked_in == present:
        return pair
    with transaction.atomic():
        pair.checked_in = present
        pair.save(update_fields=["checked_in"])
        history.log(
            pair.event,
            history.CHECKED_IN if present else history.CHECKED_OUT,
            by_user,
            pair=pair.number,
        )
    return pair


def checkin_all(*, event: Event, by_user: Any = None) -> list[int]:
    """Check in every entry still playing and not checked in yet (one line of the
    history): the numbers checked in now."""
    check_burraco(event)
    with transaction.atomic():
        waiting = event.pairs.filter(active=True, checked_in=False)
        numbers = sorted(waiting.values_list("number", flat=True))
        if numbers:
            waiting.update(checked_in=True)
            history.log(event, history.CHECKED_IN_ALL, by_user, pairs=numbers)
    return numbers


def pair_withdraw(*, pair: BurracoPair, by_user: Any = None) -> BurracoPair:
    """The pair leaves: it keeps its results and is seated in no later turn."""
    check_burraco(pair.event)
    with transaction.atomic():
        pair.active = False
        pair.withdrawn_after = pair.event.rounds.count()
        pair.save(update_fields=["active", "withdrawn_after"])
        history.log(
            pair.event, history.WITHDRAWN, by_user, pair=pair.number, after=pair.withdrawn_after
        )
    return pair


def pair_reinstate(*, pair: BurracoPair, by_user: Any = None) -> BurracoPair:
    """A withdrawal undone (a click too many at the desk): the pair plays again, as long
    as no turn was seated since it withdrew; after that it missed a turn for good."""
    check_burraco(pair.event)
    if pair.active:
        return pair
    if pair.withdrawn_after is not None and pair.event.rounds.count() > pair.withdrawn_after:
        message = (
            _("A turn was seated since player %(pair)s withdrew: the withdrawal stays.")
            if pair.event.individual
            else _("A turn was seated since pair %(pair)s withdrew: the withdrawal stays.")
        )
        raise TournamentError(message % {"pair": pair}, code="withdrawn_for_good")
    with transaction.atomic():
        pair.active = True
        pair.withdrawn_after = None
        pair.save(update_fields=["active", "withdrawn_after"])
        history.log(pair.event, history.REINSTATED, by_user, pair=pair.number)
    return pair

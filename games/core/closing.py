"""Closing and reopening an evening's rounds: a closed round takes no more deals.

Closing freezes the games of the round (or of the whole evening): games.barbu.submission.deal_submit
refuses new deals with EveningClosed (HTTP 409), the table page says so and shows no form.
An organiser may reopen, and may always correct a stored deal (audited by DealRevision; the
standings are recomputed as after any correction). Every close and reopen is written to the
evening's log (EventLog: who, when, what was decided about unfinished games).

To close, the round's games are locked first (the lock deal_submit takes), so a deal is
either stored before the round closes or refused after it: never stored into a closed round.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.core.errors import EveningError
from games.core.signals import deals_changed
from games.models import Event, EventLog, Game, Round

UNFINISHED_CHOICES = ("count", "exclude")


def _user(by_user: Any) -> Any:
    return by_user if getattr(by_user, "is_authenticated", False) else None


def _lock_games(**where: Any) -> list[Game]:
    """The games, locked in id order (deal_submit locks one game: no deadlock)."""
    return list(
        Game.objects.select_for_update().filter(**where).order_by("pk").select_related("table")
    )


def _unfinished(games: list[Game]) -> list[Game]:
    return [g for g in games if g.status != Game.Status.COMPLETE]


def _announce(event_id: int, game_ids: list[int]) -> None:
    transaction.on_commit(
        lambda: deals_changed.send(sender=Event, game_ids=game_ids, event_ids=[event_id])
    )


def round_close(*, rnd: Round, force: bool = False, by_user: Any = None) -> Round:
    """Close a round; refused while a game is unfinished unless the organiser confirms."""
    with transaction.atomic():
        rnd = Round.objects.select_for_update().select_related("event").get(pk=rnd.pk)
        if rnd.status == Round.Status.CLOSED:
            return rnd
        games = _lock_games(table__round=rnd)
        unfinished = _unfinished(games)
        if unfinished and not force:
            raise EveningError(
                ngettext(
                    "%(count)s table has not finished (table %(tables)s). "
                    "Tick the confirmation to close the round anyway.",
                    "%(count)s tables have not finished (tables %(tables)s). "
                    "Tick the confirmation to close the round anyway.",
                    len(unfinished),
                )
                % {
                    "count": len(unfinished),
                    "tables": ", ".join(str(g.table.number) for g in unfinished),
                },
                code="games_unfinished",
                params={"tables": [g.table.number for g in unfinished]},
            )
        rnd.status = Round.Status.CLOSED
        rnd.save(update_fields=["status"])
        EventLog.objects.create(
            event_id=rnd.event_id,
            round=rnd,
            action=EventLog.Action.CLOSED,
            by_user=_user(by_user),
            detail={"unfinished_games": [g.pk for g in unfinished]},
        )
        _announce(rnd.event_id, [])
    return rnd


def round_reopen(*, rnd: Round, by_user: Any = None) -> Round:
    """Reopen a closed round of an open evening: its tables may enter deals again."""
    with transaction.atomic():
        rnd = Round.objects.select_for_update().select_related("event").get(pk=rnd.pk)
        if rnd.event.status == Event.Status.CLOSED:
            raise EveningError(
                _("The evening is closed: reopen the evening first."), code="event_closed"
            )
        if rnd.status == Round.Status.OPEN:
            return rnd
        rnd.status = Round.Status.OPEN
        rnd.save(update_fields=["status"])
        EventLog.objects.create(
            event_id=rnd.event_id,
            round=rnd,
            action=EventLog.Action.REOPENED,
            by_user=_user(by_user),
        )
        _announce(rnd.event_id, [])
    return rnd


def event_close(
    *, event: Event, force: bool = False, unfinished: str | None = None, by_user: Any = None
) -> Event:
    """Close the evening and its open rounds; standings are recomputed after commit.

    With unfinished games the organiser must say how they count: `unfinished` "count"
    (as they stand) or "exclude" (not at all); `force` alone keeps them as they stand.
    Refused while a game is unfinished and neither is given.
    """
    if unfinished is not None and unfinished not in UNFINISHED_CHOICES:
        raise EveningError(_("Choose how the unfinished games count."), code="unfinished_choice")
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        if event.status == Event.Status.CLOSED:
            return event
        games = _lock_games(table__round__event=event)
        left = _unfinished(games)
        if left and not (force or unfinished):
            rounds = dict(Round.objects.filter(event=event).values_list("pk", "number"))
            raise EveningError(
                ngettext(
                    "%(count)s game has not finished (%(tables)s). "
                    "Choose whether it counts as it stands or not at all to close the "
                    "event anyway.",
                    "%(count)s games have not finished (%(tables)s). "
                    "Choose whether they count as they stand or not at all to close the "
                    "event anyway.",
                    len(left),
                )
                % {
                    "count": len(left),
                    "tables": ", ".join(
                        _("round %(round)s table %(table)s")
                        % {"round": rounds[g.table.round_id], "table": g.table.number}
                        for g in left
                    ),
                },
                code="games_unfinished",
                params={"games": [g.pk for g in left]},
            )
        choice = (unfinished or "count") if left else "count"
        closed_rounds = list(
            event.rounds.filter(status=Round.Status.OPEN).values_list("pk", flat=True)
        )
        Round.objects.filter(pk__in=closed_rounds).update(status=Round.Status.CLOSED)
        event.status = Event.Status.CLOSED
        event.unfinished = choice
        event.save(update_fields=["status", "unfinished"])
        EventLog.objects.create(
            event=event,
            action=EventLog.Action.CLOSED,
            by_user=_user(by_user),
            detail={
                "unfinished": choice,
                "unfinished_games": [g.pk for g in left],
                "rounds_closed": closed_rounds,
            },
        )
        _announce(event.pk, [g.pk for g in games])
    return event


def event_reopen(*, event: Event, by_user: Any = None) -> Event:
    """Reopen a closed evening and the round it was playing (its last round), so its
    tables may finish their games; standings are recomputed (provisional again)."""
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        if event.status != Event.Status.CLOSED:
            return event
        last = event.rounds.order_by("-number").first()
        if last is not None and last.status == Round.Status.CLOSED:
            last.status = Round.Status.OPEN
            last.save(update_fields=["status"])
        event.status = Event.Status.RUNNING
        event.unfinished = "count"
        event.save(update_fields=["status", "unfinished"])
        EventLog.objects.create(
            event=event,
            action=EventLog.Action.REOPENED,
            by_user=_user(by_user),
            detail={"round_reopened": last.number if last is not None else None},
        )
        game_ids = list(Game.objects.filter(table__round__event=event).values_list("pk", flat=True))
        _announce(event.pk, game_ids)
    return event


def closing_log(event: Event) -> list[EventLog]:
    """The evening's closes and reopens, oldest first, with who did them."""
    return list(event.log.select_related("round", "by_user"))

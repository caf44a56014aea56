"""A Burraco tournament closed at the end of its day, and reopened: through the evenings'
closing (games/core/closing.py: every close and reopen in the tournament's log, with who
did it), once every score card is confirmed, so the ranking it leaves is final."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.burraco.tournament_base import TournamentError, TurnConflict
from games.core import closing
from games.models import Event, ScoreCard


def _check(event: Event) -> None:
    if not event.is_burraco or event.is_free_matches:
        raise TournamentError(_("This event is not a Burraco tournament."), code="not_burraco")


def unconfirmed_cards(event: Event) -> list[tuple[int, int]]:
    """(turn, table) of every score card of the tournament not confirmed yet."""
    return list(
        ScoreCard.objects.filter(game__table__round__event=event)
        .exclude(status=ScoreCard.Status.CONFIRMED)
        .order_by("game__table__round__number", "game__table__number")
        .values_list("game__table__round__number", "game__table__number")
    )


def tournament_close(*, event: Event, by_user: Any = None) -> Event:
    """Close the tournament: its last turn closed, no more hands, the ranking final.
    Refused (409 cards_unconfirmed, with each turn and table) while a score card is not
    confirmed: the referee confirms or corrects it first. Closing a closed tournament
    changes nothing."""
    _check(event)
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        if event.status == Event.Status.CLOSED:
            return event
        missing = unconfirmed_cards(event)
        if missing:
            raise TurnConflict(
                ngettext(
                    "%(count)s score card is not confirmed yet (%(tables)s): confirm or "
                    "correct it before closing the tournament.",
                    "%(count)s score cards are not confirmed yet (%(tables)s): confirm or "
                    "correct them before closing the tournament.",
                    len(missing),
                )
                % {
                    "count": len(missing),
                    "tables": ", ".join(
                        _("turn %(turn)s: table %(table)s") % {"turn": turn, "table": table}
                        for turn, table in missing
                    ),
                },
                code="cards_unconfirmed",
                params={"tables": [{"turn": turn, "table": table} for turn, table in missing]},
            )
        return closing.event_close(event=event, force=True, by_user=by_user)


def tournament_reopen(*, event: Event, by_user: Any = None) -> Event:
    """Reopen a closed tournament (its last turn open again, the ranking provisional)."""
    _check(event)
    return closing.event_reopen(event=event, by_user=by_user)

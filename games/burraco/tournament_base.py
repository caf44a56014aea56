"""What every part of a Burraco tournament's run shares (games/burraco/tournaments.py,
entries.py, turns.py): its movements and hands, its errors, and the check that the event
is a Burraco one still open."""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.core.errors import EntryError
from games.models import Event

# "pairing": any turn seated as the referee gives it: pasted text read here
# (`pairing`, the API) or the (table, NS, EW) lines the desk's form read (`by_hand`), both
# through games/burraco/movements/pairing_import.py.
# "individual": the only movement of an individual tournament (new partners every turn).
MOVEMENTS = ("first", "mitchell", "round_robin", "danese", "pairing", "individual")


FIRST_ORDERS = ("entry", "draw", "hand")


HANDS = (2, 3, 4)


class TournamentError(EntryError):
    """A referee's mistake while running a tournament (not a bug)."""

    code = "tournament_error"


class TurnConflict(TournamentError):
    """The turn cannot be seated now: the previous one has cards to confirm, or the turn
    the referee meant is already seated (409 in the API)."""

    status = 409
    code = "turn_conflict"


def closed_error(event: Event) -> TournamentError:
    """The refusal of any change to a closed event, naming it as what it is (an evening of
    free matches or a tournament: the words agree with it in it/es/fr)."""
    if event.is_free_matches:
        message = _("This evening is closed: nothing in it can be changed any more.")
    else:
        message = _("This tournament is closed: nothing in it can be changed any more.")
    return TournamentError(message, code="event_closed")


def check_burraco(event: Event) -> None:
    if not event.is_burraco:
        raise TournamentError(_("This event is not a Burraco tournament."), code="not_burraco")
    if event.status == Event.Status.CLOSED:
        raise closed_error(event)

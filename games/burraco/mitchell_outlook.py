"""Whether the tournament's Mitchell can go on as its pairs now stand (issue 31, item 9):
said at the desk when a late pair is entered, not only when seating the next turn fails.

A Mitchell's calendar numbers the pairs 1..N at its first turn; a late pair joins at the
end, so the tables (N / 2, rounded up) and the two lines change, and a later turn of the
calendar may seat pairs that already met (turns.turn_seat then refuses it), or have no
turn left without a rematch. The outlook runs the calendar's next turns, up to the
planned ones, as turn_seat would, and names what to do instead: Danese (no rematch), or
a pairing pasted by the referee, with a bye for a pair of an odd field.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.burraco import movements
from games.burraco.movement_messages import movement_message
from games.burraco.turn_sides import calendar_order, met_again, without_withdrawn
from games.models import Event, Table


def _alternatives() -> str:
    return _(
        "Seat the next turns by Danese (no rematch), or paste a pairing, giving a pair a "
        "bye if the field is odd."
    )


def _seated_against(event: Event) -> set[frozenset[int]]:
    """The pairs seated against each other in a turn so far, played or not yet."""
    return {
        frozenset(pairs)
        for pairs in Table.objects.filter(
            round__event=event, ns_pair__isnull=False, ew_pair__isnull=False
        ).values_list("ns_pair__number", "ew_pair__number")
    }


def mitchell_outlook(event: Event) -> str:
    """Why the Mitchell seating this tournament cannot seat its next turn as the pairs
    now stand, with the alternatives; empty when it can (or no Mitchell is under way, or
    no turn is left). Four queries."""
    if event.individual or event.is_free_matches:
        return ""
    rounds = list(event.rounds.order_by("number").values_list("movement", "movement_step"))
    if not rounds or rounds[-1][0] != "mitchell":
        return ""
    planned = int(event.ranking.get("turns") or 0)
    if planned and len(rounds) >= planned:
        return ""
    playing = list(event.pairs.filter(active=True))
    order = calendar_order(event, playing, "entry", 0)
    done = sum(1 for movement, _step in rounds if movement == "mitchell")
    count, turn_number = len(order), len(rounds) + 1
    try:
        schedule = movements.mitchell(count, done + 1, rounds[-1][1] or 1)
    except movements.MovementError as error:
        detail = movement_message(error).rstrip(".")
        return "{} {}".format(
            _("With %(count)s pairs the Mitchell cannot seat turn %(turn)s: %(detail)s.")
            % {"count": count, "turn": turn_number, "detail": detail},
            _alternatives(),
        )
    turn = schedule.turns[-1]
    sides = [(i, order[int(t.ns) - 1], order[int(t.ew) - 1]) for i, t in enumerate(turn.tables, 1)]
    byes = [order[int(b) - 1] for b in turn.byes]
    sides, _byes = without_withdrawn(sides, byes, playing)
    again = met_again(event, sides, _seated_against(event))
    if not again:
        return ""
    return "{} {}".format(
        _(
            "With %(count)s pairs the Mitchell cannot seat turn %(turn)s: pairs would meet "
            "again (%(pairs)s)."
        )
        % {
            "count": count,
            "turn": turn_number,
            "pairs": ", ".join(f"{a}–{b}" for a, b in again),
        },
        _alternatives(),
    )

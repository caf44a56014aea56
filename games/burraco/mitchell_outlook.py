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
from django.utils.translation import ngettext

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


def _rematches(
    event: Event, order: list, playing: list, done: int, step: int, seated: set
) -> list[tuple[int, int]] | str:
    """The pairs the Mitchell's next turn at this step seats against each other again, or
    why it cannot seat it at all (the movement's own message)."""
    try:
        schedule = movements.mitchell(len(order), done + 1, step)
    except movements.MovementError as error:
        return movement_message(error).rstrip(".")
    turn = schedule.turns[-1]
    sides = [(i, order[int(t.ns) - 1], order[int(t.ew) - 1]) for i, t in enumerate(turn.tables, 1)]
    byes = [order[int(b) - 1] for b in turn.byes]
    sides, _byes = without_withdrawn(sides, byes, playing)
    return met_again(event, sides, seated)


def mitchell_outlook(event: Event) -> str:
    """Why the Mitchell seating this tournament cannot seat its next turn at its step as the
    pairs now stand, with the alternatives (another step first, when one seats it without
    a rematch); empty when it can (or no Mitchell is under way, or no turn is left).
    Four queries."""
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
    count, turn_number, step = len(order), len(rounds) + 1, rounds[-1][1] or 1
    seated = _seated_against(event)
    found = _rematches(event, order, playing, done, step, seated)
    if not found:
        return ""
    if isinstance(found, str):
        said = _("With %(count)s pairs the Mitchell cannot seat turn %(turn)s: %(detail)s.") % {
            "count": count,
            "turn": turn_number,
            "detail": found,
        }
    else:
        said = _(
            "With %(count)s pairs the Mitchell cannot seat turn %(turn)s: pairs would meet "
            "again (%(pairs)s)."
        ) % {
            "count": count,
            "turn": turn_number,
            "pairs": ", ".join(f"{a}–{b}" for a, b in found),
        }
    tables = (count + 1) // 2
    others = [
        other
        for other in range(1, max(tables, 2))
        if other != step and _rematches(event, order, playing, done, other, seated) == []
    ]
    if others:
        said += " " + ngettext(
            "A Mitchell with step %(steps)s seats it without a rematch.",
            "A Mitchell with one of the steps %(steps)s seats it without a rematch.",
            len(others),
        ) % {"steps": ", ".join(map(str, others))}
    return f"{said} {_alternatives()}"

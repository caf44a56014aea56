"""A Burraco tournament's history at the desk: every desk action (entries, late entries,
imports, check-ins, withdrawals, seatings, close and reopen) in the tournament's log
(EventLog, its details as data), with the score cards' confirmations, disputes,
corrections and penalties (ScoreCardRevision, their old and new values).

Each line is written when it is read, in the reader's language: the log keeps numbers
and codes, never words, so a line entered from a phone in Italian reads in English on an
English desk. Reading the history is a fixed number of queries.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from games.burraco.movement_messages import FIRST_ORDER_NAMES, MOVEMENT_NAMES
from games.burraco.scorecards import read_hand
from games.core.errors import EntryError
from games.models import Event, EventLog, Round, ScoreCardRevision

Action = EventLog.Action
ENTERED = Action.ENTERED
LATE_ENTRY = Action.LATE_ENTRY
IMPORTED = Action.IMPORTED
CHECKED_IN = Action.CHECKED_IN
CHECKED_OUT = Action.CHECKED_OUT
CHECKED_IN_ALL = Action.CHECKED_IN_ALL
WITHDRAWN = Action.WITHDRAWN
REINSTATED = Action.REINSTATED
SEATED = Action.SEATED


def _user(by_user: Any) -> Any:
    return by_user if getattr(by_user, "is_authenticated", False) else None


def log(
    event: Event, action: str, by_user: Any = None, rnd: Round | None = None, **detail: Any
) -> EventLog:
    """One desk action in the tournament's log: `detail` its numbers (never words)."""
    return EventLog.objects.create(
        event=event, round=rnd, action=action, by_user=_user(by_user), detail=detail
    )


@dataclass(frozen=True)
class HistoryLine:
    at: datetime
    turn: int | None
    table: int | None
    text: str
    who: str = ""
    old: str = ""  # a correction's or a penalty's values before, and after
    new: str = ""


def _line_name(line: str) -> str:
    return {"NS": pgettext("line", "NS"), "EW": pgettext("line", "EW")}.get(line, line)


def who(by_user: Any, by_label: str, table: int | None) -> str:
    """Who did it: the organiser, or the phone's line of the table (its label was written
    in the phone's language: only the line it ends with is kept)."""
    if by_user is not None:
        return str(by_user)
    words = by_label.replace(",", " ").split()
    if words and words[-1] in ("NS", "EW") and table is not None:
        return _("table %(table)s, %(line)s") % {"table": table, "line": _line_name(words[-1])}
    return by_label


def _entry(event: Event, number: Any) -> str:
    return (_("player %(number)s") if event.individual else _("pair %(number)s")) % {
        "number": number
    }


def _log_text(event: Event, row: EventLog) -> str:
    d = row.detail or {}
    entry = _entry(event, d.get("pair", ""))
    names = d.get("names", "")
    if row.action == ENTERED:
        return _("%(entry)s entered: %(names)s") % {"entry": entry, "names": names}
    if row.action == LATE_ENTRY:
        return _("%(entry)s entered late: %(names)s") % {"entry": entry, "names": names}
    if row.action == IMPORTED:
        pairs = d.get("pairs", [])
        text = ngettext(
            "%(count)s pair imported (%(pairs)s)",
            "%(count)s pairs imported (%(pairs)s)",
            len(pairs),
        ) % {"count": len(pairs), "pairs": ", ".join(map(str, pairs))}
        new = d.get("new_players", 0)
        if new:
            text += ", " + ngettext("%(count)s new player", "%(count)s new players", new) % {
                "count": new
            }
        return text + (", " + _("late entries") if d.get("late") else "")
    if row.action == CHECKED_IN:
        return _("%(entry)s checked in") % {"entry": entry}
    if row.action == CHECKED_OUT:
        return _("%(entry)s: check-in undone") % {"entry": entry}
    if row.action == CHECKED_IN_ALL:
        numbers = d.get("pairs", [])
        return ngettext(
            "Check in all: %(count)s entry checked in (%(numbers)s)",
            "Check in all: %(count)s entries checked in (%(numbers)s)",
            len(numbers),
        ) % {"count": len(numbers), "numbers": ", ".join(map(str, numbers))}
    if row.action == WITHDRAWN:
        return _("%(entry)s withdrawn after turn %(turn)s") % {
            "entry": entry,
            "turn": d.get("after", 0),
        }
    if row.action == REINSTATED:
        return _("%(entry)s back in the tournament (withdrawal undone)") % {"entry": entry}
    if row.action == SEATED:
        return _seated_text(event, d)
    if row.action == Action.CLOSED:
        return _("Tournament closed")
    if row.action == Action.REOPENED:
        return _("Tournament reopened")
    return row.get_action_display()


def _seated_text(event: Event, d: dict) -> str:
    movement = str(MOVEMENT_NAMES.get(d.get("movement", ""), d.get("movement", "")))
    if d.get("first_order") in FIRST_ORDER_NAMES:
        movement = str(FIRST_ORDER_NAMES[d["first_order"]])
    text = ngettext(
        "Turn seated (%(movement)s): %(tables)s table",
        "Turn seated (%(movement)s): %(tables)s tables",
        d.get("tables", 0),
    ) % {"movement": movement, "tables": d.get("tables", 0)}
    byes = d.get("byes") or []
    if byes:
        text += " · " + _("bye: %(entries)s") % {"entries": ", ".join(map(str, byes))}
    return text


def _mp(data: Any, ruleset: dict, number: int) -> str:
    """A hand as its two lines' MP (counted again from the cards when entered so)."""
    try:
        _mode, _data, scores = read_hand(data, ruleset, number)
    except (EntryError, TypeError, KeyError):
        return "?"
    return f"{scores['NS']['score']}–{scores['EW']['score']}"


def _hands_change(before: dict, after: dict, ruleset: dict) -> tuple[str, str]:
    """The hands a correction changed: each as it was, and as it is now."""
    old_hands = (before or {}).get("hands") or []
    new_hands = (after or {}).get("hands") or []
    olds, news = [], []
    for number in range(1, max(len(old_hands), len(new_hands)) + 1):
        old = old_hands[number - 1] if number <= len(old_hands) else None
        new = new_hands[number - 1] if number <= len(new_hands) else None
        if old == new:
            continue
        hand = _("hand %(number)s") % {"number": number}
        olds.append(f"{hand}: {_mp(old, ruleset, number) if old is not None else '—'}")
        news.append(f"{hand}: {_mp(new, ruleset, number) if new is not None else '—'}")
    return "; ".join(olds), "; ".join(news)


def _penalty(values: dict | None) -> str:
    if not values:
        return "—"
    return _("−%(vp)s VP, −%(mp)s MP") % {"vp": values.get("vp", 0), "mp": values.get("mp", 0)}


def _revision_line(event: Event, r: ScoreCardRevision) -> HistoryLine:
    table = r.game.table.number if r.game is not None else None
    text = str(r.get_action_display())
    old = new = ""
    if r.action == ScoreCardRevision.Action.CORRECTED:
        old, new = _hands_change(r.before, r.after, r.game.ruleset if r.game else {})
    elif r.action == ScoreCardRevision.Action.PENALTY:
        text = "{} · {}".format(text, _entry(event, r.pair.number if r.pair else ""))
        old, new = _penalty(r.before), _penalty(r.after)
    if r.reason:
        text = f"{text}: {r.reason}"
    return HistoryLine(
        r.at, r.round.number, table, text, who(r.by_user, r.by_label, table), old, new
    )


def desk_history(event: Event, limit: int = 50) -> list[HistoryLine]:
    """The `limit` latest lines of the tournament's history, latest first: two queries."""
    revisions = (
        ScoreCardRevision.objects.filter(round__event=event)
        .exclude(action=ScoreCardRevision.Action.ENTERED)
        .select_related("round", "game__table", "pair", "by_user")
        .order_by("-at", "-id")[:limit]
    )
    logged = EventLog.objects.filter(event=event).select_related("round", "by_user")
    lines = [_revision_line(event, r) for r in revisions]
    lines += _log_lines(event, list(logged.order_by("-at", "-id")[:limit]))
    return sorted(lines, key=lambda line: line.at, reverse=True)[:limit]


def _log_lines(event: Event, rows: list[EventLog]) -> list[HistoryLine]:
    """The log's lines, latest first; check-ins one after the other by the same person
    summarised in one line ("pairs 3, 5, 8 checked in"), as a referee ticks them off."""
    lines: list[HistoryLine] = []
    run: list[EventLog] = []

    def flush() -> None:
        if len(run) > 1:
            numbers = ", ".join(str(r.detail.get("pair", "")) for r in reversed(run))
            text = (
                _("players %(numbers)s checked in")
                if event.individual
                else _("pairs %(numbers)s checked in")
            ) % {"numbers": numbers}
            lines.append(HistoryLine(run[0].at, None, None, text, _by(run[0])))
        elif run:
            lines.append(_log_line(event, run[0]))
        run.clear()

    for row in rows:
        if row.action == CHECKED_IN and (not run or run[0].by_user_id == row.by_user_id):
            run.append(row)
            continue
        flush()
        if row.action == CHECKED_IN:
            run.append(row)
        else:
            lines.append(_log_line(event, row))
    flush()
    return lines


def _by(row: EventLog) -> str:
    return str(row.by_user) if row.by_user else ""


def _log_line(event: Event, row: EventLog) -> HistoryLine:
    turn = row.round.number if row.round else None
    return HistoryLine(row.at, turn, None, _log_text(event, row), _by(row))

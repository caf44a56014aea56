"""How a round's seating was chosen, in the active language and in plain words.

The seating planner (games/barbu/seating) is pure and speaks English to its command line; the
site stores a round's reasons as codes and parameters (Round.seating_explanation: a list
of {"code", "params"}) and says them here in the reader's language, naming the players
who play together again. Rounds seated before this stored English sentences: they are
shown as they are.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubs.models import Player
from games.models import Event, Seat

Note = dict[str, Any]


def met_this_evening(event: Event) -> set[frozenset[int]]:
    """The pairs of players who have already shared a table this evening."""
    tables: dict[int, list[int]] = {}
    for table_id, player_id in Seat.objects.filter(table__round__event=event).values_list(
        "table_id", "player_id"
    ):
        tables.setdefault(table_id, []).append(player_id)
    return {
        frozenset((a, b)) for players in tables.values() for a in players for b in players if a < b
    }


def seating_notes(
    *,
    method: str,
    tables: Sequence[Sequence[int]],
    byes: Sequence[int],
    met_tonight: set[frozenset[int]],
    met_before: Iterable[frozenset[int]],
    earlier_rounds: bool,
    stopped_by_time_limit: bool,
) -> list[Note]:
    """The reasons of one seated round as codes and parameters (players by id)."""
    notes: list[Note] = [
        {
            "code": "tables",
            "params": {
                "players": sum(len(t) for t in tables) + len(byes),
                "tables": len(tables),
                "byes": list(byes),
            },
        }
    ]
    if byes:
        notes.append({"code": "bye_rule", "params": {}})
    notes.append({"code": f"method_{method}", "params": {}})
    again = []
    earlier = []
    before = set(met_before)
    for number, table in enumerate(tables, start=1):
        for i, a in enumerate(table):
            for b in table[i + 1 :]:
                pair = frozenset((a, b))
                if pair in met_tonight:
                    again.append([a, b, number])
                elif pair in before:
                    earlier.append([a, b, number])
    if again:
        notes.append({"code": "meet_again", "params": {"pairs": again}})
    elif earlier_rounds:
        notes.append({"code": "no_one_again", "params": {}})
    if earlier:
        notes.append({"code": "met_earlier_evenings", "params": {"pairs": earlier}})
    notes.append({"code": "first_dealer", "params": {}})
    if stopped_by_time_limit:
        notes.append({"code": "time_limit", "params": {}})
    return notes


def _names(ids: Sequence[int], names: Mapping[int, str]) -> str:
    shown = [names.get(i, "?") for i in ids]
    if len(shown) <= 1:
        return "".join(shown)
    return _("%(names)s and %(last)s") % {"names": ", ".join(shown[:-1]), "last": shown[-1]}


def _pairs(pairs: Sequence[Sequence[int]], names: Mapping[int, str]) -> str:
    return "; ".join(
        _("%(a)s and %(b)s (table %(table)s)")
        % {"a": names.get(a, "?"), "b": names.get(b, "?"), "table": table}
        for a, b, table in pairs
    )


def _sentence(note: Mapping[str, Any], names: Mapping[int, str]) -> str:
    code, params = note.get("code"), note.get("params") or {}
    if code == "tables":
        players, tables = params["players"], params["tables"]
        text = ngettext(
            "%(players)s players: %(tables)s table of four.",
            "%(players)s players: %(tables)s tables of four.",
            tables,
        ) % {"players": players, "tables": tables}
        byes = params.get("byes") or []
        if byes:
            text += " " + ngettext(
                "%(names)s sits out this round.", "%(names)s sit out this round.", len(byes)
            ) % {"names": _names(byes, names)}
        return text
    if code == "bye_rule":
        return _(
            "Who sits out: whoever has sat out least often this evening; then, with "
            "Swiss seating, whoever is lowest in the standings; then by lot."
        )
    if code == "method_mix":
        return _("The tables are mixed so that as few players as possible play together again.")
    if code == "method_swiss":
        return _(
            "The tables follow the standings: the top four together, the next four "
            "together, and so on, with a few players swapped between nearby tables so "
            "that fewer play together again."
        )
    if code == "method_random":
        return _("The tables were drawn by lot.")
    if code == "method_fixed":
        return _("The organiser's tables are kept as given.")
    if code == "meet_again":
        return _("Playing together again tonight: %(pairs)s.") % {
            "pairs": _pairs(params["pairs"], names)
        }
    if code == "no_one_again":
        return _("Nobody plays again with someone already met at a table tonight.")
    if code == "met_earlier_evenings":
        return _("Already met at earlier evenings of the league: %(pairs)s.") % {
            "pairs": _pairs(params["pairs"], names)
        }
    if code == "first_dealer":
        return _(
            "At each table, whoever has dealt first least often sits in seat 1 and deals first."
        )
    if code == "time_limit":
        return _(
            "The search stopped at its time limit: seating the round again may give other tables."
        )
    return str(code)


def seating_sentences(stored: Sequence[Any], names: Mapping[int, str] | None = None) -> list[str]:
    """A round's stored reasons as sentences in the active language.

    `names` (player id -> name) spares the query for the names when the page has them.
    """
    if names is not None:
        return [
            _sentence(note, names) if isinstance(note, Mapping) else str(note) for note in stored
        ]
    ids: set[int] = set()
    for note in stored:
        if isinstance(note, Mapping):
            params = note.get("params") or {}
            ids.update(params.get("byes") or [])
            for pair in params.get("pairs") or []:
                ids.update(pair[:2])
    names = dict(Player.objects.filter(pk__in=ids).values_list("pk", "name")) if ids else {}
    return [_sentence(note, names) if isinstance(note, Mapping) else str(note) for note in stored]

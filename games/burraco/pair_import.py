"""Pairs of a Burraco tournament imported at once: pasted, or a spreadsheet's CSV (read by
clubs.csv_text, one way for every import), each line two players with their optional
federation membership numbers and an optional pair number.

A line is ``name; name`` or ``name; membership number; name; membership number``, a
pair number first if wanted (``12; Anna Rossi; Bruno Neri``); or any columns a header
line names (``coppia;giocatore 1;tessera 1;giocatore 2;tessera 2``). A player is the
club's player with that membership number, else the one with that name; a name the club
does not know is a new player of the club (as the players' import makes them), with the
membership number given.

``pairs_import_preview`` says, line by line, what would be created or what is wrong;
nothing is stored. ``pairs_import`` stores every pair, the new players and the
membership numbers learnt, or nothing at all when any line is wrong.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubs.csv_text import csv_rows, header_columns
from clubs.models import Membership, Player
from games.burraco import entries, history
from games.burraco.tournament_base import TournamentError, check_burraco
from games.models import BurracoPair, Event

MAX_LINES = 500
NAME_LENGTH = 80
NUMBER_LENGTH = 20


def _aliases(key: str, *names: str) -> dict[str, str]:
    return dict.fromkeys(names, key)


# A header line's column names, in the site's languages.
PAIR_COLUMNS = {
    **_aliases("pair", "pair", "coppia", "pareja", "paar", "paire", "n", "nr", "no", "n."),
    **_aliases(
        "player_a",
        "player 1",
        "player a",
        "first player",
        "giocatore 1",
        "giocatore a",
        "nome 1",
        "jugador 1",
        "spieler 1",
        "joueur 1",
        "name 1",
    ),
    **_aliases(
        "player_b",
        "player 2",
        "player b",
        "second player",
        "giocatore 2",
        "giocatore b",
        "nome 2",
        "jugador 2",
        "spieler 2",
        "joueur 2",
        "name 2",
    ),
    **_aliases(
        "number_a",
        "membership 1",
        "membership number 1",
        "tessera 1",
        "tessera a",
        "licencia 1",
        "mitgliedsnummer 1",
        "licence 1",
        "number 1",
    ),
    **_aliases(
        "number_b",
        "membership 2",
        "membership number 2",
        "tessera 2",
        "tessera b",
        "licencia 2",
        "mitgliedsnummer 2",
        "licence 2",
        "number 2",
    ),
}
KEYS = ("pair", "player_a", "number_a", "player_b", "number_b")
# The columns of a line without a header, by its number of cells once a pair number
# first (digits) is set apart and the empty cells at its end dropped (a spreadsheet's
# extra separators): name; name, or each name with its membership number (the second's
# may be left out).
POSITIONS = {
    2: ("player_a", "player_b"),
    3: ("player_a", "number_a", "player_b"),
    4: ("player_a", "number_a", "player_b", "number_b"),
}


def _positional(cells: list[str]) -> tuple[tuple[str, ...] | None, list[str]]:
    """The keys of a line without a header, and its cells, one for each key."""
    keys: tuple[str, ...] = ()
    first: list[str] = []
    if cells and cells[0].isascii() and cells[0].isdigit():
        keys, first, cells = ("pair",), cells[:1], cells[1:]
    while len(cells) > 2 and not cells[-1]:
        cells = cells[:-1]
    found = POSITIONS.get(len(cells))
    return (keys + found if found else None), first + cells


@dataclass
class ImportedPlayer:
    name: str
    number: str = ""
    player: Player | None = None  # None: a new player of the club
    number_learnt: bool = False  # a known player whose membership number is recorded now

    @property
    def is_new(self) -> bool:
        return self.player is None


@dataclass
class PairLine:
    """One line of the import: the pair it would enter, or what is wrong with it."""

    line: int
    number: int | None
    players: list[ImportedPlayer]
    errors: list[str] = field(default_factory=list)


@dataclass
class PairImportPreview:
    lines: list[PairLine]
    errors: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return bool(self.lines) and not self.errors and all(not x.errors for x in self.lines)

    @property
    def new_players(self) -> int:
        return sum(p.is_new for line in self.lines for p in line.players)


class _Club:
    """The club's players as the import looks them up: two queries."""

    def __init__(self, event: Event) -> None:
        members = Membership.objects.filter(
            club_id=event.club_id, player__merged_into__isnull=True
        ).select_related("player")
        self.by_name: dict[str, list[Membership]] = {}
        self.by_number: dict[str, Membership] = {}
        for m in members:
            self.by_name.setdefault(m.player.name.casefold(), []).append(m)
            if m.federation_number:
                self.by_number[m.federation_number.casefold()] = m
        self.entered = entries.entered_players(event)

    def find(self, wanted: ImportedPlayer) -> str | None:
        """Fill `wanted.player`: the error, if the line's player cannot be told."""
        named = self.by_name.get(wanted.name.casefold(), [])
        if wanted.number:
            holder = self.by_number.get(wanted.number.casefold())
            if holder is not None:
                if holder.player.name.casefold() != wanted.name.casefold():
                    return _("Membership number %(number)s is %(holder)s's, not %(name)s's.") % {
                        "number": wanted.number,
                        "holder": holder.player.name,
                        "name": wanted.name,
                    }
                wanted.player = holder.player
                return None
            if len(named) == 1 and named[0].federation_number:
                return _("%(name)s's membership number is %(known)s, not %(number)s.") % {
                    "name": wanted.name,
                    "known": named[0].federation_number,
                    "number": wanted.number,
                }
            unnumbered = [m for m in named if not m.federation_number]
            if len(unnumbered) > 1:
                return _(
                    "The club has %(count)s players named %(name)s without a membership "
                    "number: enter this pair by hand."
                ) % {"count": len(unnumbered), "name": wanted.name}
            if unnumbered:
                wanted.player = unnumbered[0].player
                wanted.number_learnt = True
            return None
        if len(named) > 1:
            return _(
                "The club has %(count)s players named %(name)s: add the membership number."
            ) % {"count": len(named), "name": wanted.name}
        if named:
            wanted.player = named[0].player
        return None


def _columns(rows: list[tuple[int, list[str]]]) -> tuple[list[str] | None, str | None]:
    """The header's column keys (None: no header line), or an error saying which column
    is not known."""
    header = header_columns(rows[0][1], PAIR_COLUMNS)
    if header is None:
        return None, None
    unknown = [c for c in header if c not in KEYS]
    if unknown or "player_a" not in header or "player_b" not in header:
        return None, _(
            "Unknown columns %(columns)s: the columns are pair, player 1, membership 1, "
            "player 2, membership 2 (the pair and the membership numbers may be left out)."
        ) % {"columns": ", ".join(unknown) or "–"}
    return header, None


def _read_line(number: int, cells: list[str], columns: list[str] | None) -> PairLine:
    line = PairLine(number, None, [])
    keys: Sequence[str] | None = columns
    if columns is None:
        keys, cells = _positional(cells)
    if keys is None or len(cells) > len(keys):
        line.errors.append(
            _(
                "%(count)s cells: a line is two players (name; name), each with its "
                "membership number if known (name; number; name; number), the pair number "
                "first if wanted."
            )
            % {"count": len(cells)}
        )
        return line
    values = dict(zip(keys, cells, strict=False))
    line.players = [
        ImportedPlayer(values.get("player_a", ""), values.get("number_a", "")),
        ImportedPlayer(values.get("player_b", ""), values.get("number_b", "")),
    ]
    if values.get("pair"):
        pair = values["pair"]
        if pair.isascii() and pair.isdigit() and 1 <= int(pair) <= 999:
            line.number = int(pair)
        else:
            line.errors.append(_("The pair number %(pair)s is not 1 to 999.") % {"pair": pair})
    for player in line.players:
        if not player.name:
            line.errors.append(_("A player's name is missing."))
        elif len(player.name) > NAME_LENGTH:
            line.errors.append(
                _("The name %(name)s is longer than 80 characters.") % {"name": player.name[:20]}
            )
        if len(player.number) > NUMBER_LENGTH:
            line.errors.append(
                _("The membership number %(number)s is longer than 20 characters.")
                % {"number": player.number[:20]}
            )
        elif player.number and not any(c.isdigit() for c in player.number):
            # A name in the number's place, most likely: a line's cells shifted.
            line.errors.append(
                _("%(number)s is not a membership number: it has no digit.")
                % {"number": player.number}
            )
    return line


def _check_event(event: Event) -> None:
    check_burraco(event)
    if event.individual:
        raise TournamentError(
            _("Players enter this individual tournament alone, not in pairs."),
            code="individual_tournament",
        )
    if event.status == Event.Status.CLOSED:
        raise TournamentError(_("The tournament is closed."), code="event_closed")
    late = event.rounds.exists() and not event.is_free_matches
    entries.check_entries_open(event, late)


def pairs_import_preview(*, event: Event, text: str) -> PairImportPreview:
    """Read the pairs of a CSV text and check each line; nothing is stored."""
    try:
        _check_event(event)
    except TournamentError as error:
        return PairImportPreview([], [error.message])
    rows = csv_rows(text)
    if not rows:
        return PairImportPreview([], [_("The file is empty.")])
    if len(rows) > MAX_LINES:
        return PairImportPreview([], [_("At most %(max)s lines at a time.") % {"max": MAX_LINES}])
    columns, problem = _columns(rows)
    if problem:
        return PairImportPreview([], [problem])
    if columns is not None:
        rows = rows[1:]
    club = _Club(event)
    taken = set(event.pairs.values_list("number", flat=True))
    lines = [_read_line(number, cells, columns) for number, cells in rows]
    if not lines:
        return PairImportPreview([], [_("The file has no pairs.")])
    seen_players: dict[str, int] = {}  # a player (id, or a new one's name) → its line
    seen_numbers: dict[str, tuple[str, int]] = {}  # membership number → (name, line)
    pair_numbers: dict[int, int] = {}
    for line in lines:
        if line.errors:
            continue
        _check_line(line, club, seen_players, seen_numbers, pair_numbers, taken)
    _number_pairs(lines, taken | set(pair_numbers))
    return PairImportPreview(lines)


def _check_line(
    line: PairLine,
    club: _Club,
    seen_players: dict[str, int],
    seen_numbers: dict[str, tuple[str, int]],
    pair_numbers: dict[int, int],
    taken: set[int],
) -> None:
    if line.number is not None:
        if line.number in taken:
            line.errors.append(
                _("Pair number %(number)s is already taken.") % {"number": line.number}
            )
        elif line.number in pair_numbers:
            line.errors.append(
                _("Pair number %(number)s is also on line %(line)s.")
                % {"number": line.number, "line": pair_numbers[line.number]}
            )
        pair_numbers.setdefault(line.number, line.line)
    keys = []
    for player in line.players:
        problem = club.find(player)
        if problem:
            line.errors.append(problem)
            continue
        if player.player is not None and player.player.pk in club.entered:
            line.errors.append(_("%(name)s is already in another pair.") % {"name": player.name})
        key = f"id:{player.player.pk}" if player.player else f"new:{player.name.casefold()}"
        if key in keys:
            line.errors.append(_("A pair needs two different players."))
        elif key in seen_players:
            line.errors.append(
                _("%(name)s is also on line %(line)s.")
                % {"name": player.name, "line": seen_players[key]}
            )
        keys.append(key)
        seen_players.setdefault(key, line.line)
        if player.number:
            folded = player.number.casefold()
            other = seen_numbers.setdefault(folded, (player.name.casefold(), line.line))
            if other[0] != player.name.casefold():
                line.errors.append(
                    _("Membership number %(number)s is also on line %(line)s, for another player.")
                    % {"number": player.number, "line": other[1]}
                )


def _number_pairs(lines: list[PairLine], taken: set[int]) -> None:
    """The lines without a pair number take the next numbers after every one taken."""
    following = max(taken, default=0)
    for line in lines:
        if line.number is None and not line.errors:
            following += 1
            line.number = following


def _player(club_id: int, wanted: ImportedPlayer, made: dict[str, Player]) -> Player:
    if wanted.player is not None:
        if wanted.number_learnt:
            Membership.objects.filter(club_id=club_id, player=wanted.player).update(
                federation_number=wanted.number
            )
        return wanted.player
    key = wanted.name.casefold()
    if key not in made:
        made[key] = Player.objects.create(name=wanted.name)
        Membership.objects.create(
            club_id=club_id, player=made[key], federation_number=wanted.number
        )
    return made[key]


def pairs_import(*, event: Event, text: str, by_user: Any = None) -> list[BurracoPair]:
    """Enter every pair of the text, with the new players and the membership numbers it
    names; refused, nothing stored, when any line is wrong."""
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        preview = pairs_import_preview(event=event, text=text)
        if not preview.ok:
            bad = [line.line for line in preview.lines if line.errors]
            raise TournamentError(
                preview.errors[0]
                if preview.errors
                else ngettext(
                    "Line %(lines)s has errors: nothing was imported.",
                    "Lines %(lines)s have errors: nothing was imported.",
                    len(bad),
                )
                % {"lines": ", ".join(map(str, bad))},
                code="import_errors",
                params={"lines": bad},
            )
        made: dict[str, Player] = {}
        pairs = [
            entries.pair_enter(
                event=event,
                player_a=_player(event.club_id, line.players[0], made),
                player_b=_player(event.club_id, line.players[1], made),
                number=line.number,
                log=False,
            )
            for line in preview.lines
        ]
        history.log(
            event,
            history.IMPORTED,
            by_user,
            pairs=[p.number for p in pairs],
            new_players=len(made),
            late=any(p.late for p in pairs),
        )
    return pairs

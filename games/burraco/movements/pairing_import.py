"""A turn's pairing pasted from the referee's desktop program: one table a line.

Each line is ``table, NS pair, EW pair`` (the three numbers separated by commas,
semicolons, tabs or spaces); ``bye, 7`` or ``-, 7`` names a pair resting that
turn. Blank lines are skipped, and so is a first line with no number in it (the
column heads of a spreadsheet: ``Table;NS;EW``).

``parse_pairing`` returns the same ``Turn`` the movements make (its ``to_json``
is ``{"turn": 1, "tables": [{"table": 1, "NS": 1, "EW": 8}, ...], "byes": [7]}``)
or every problem found, each a ``MovementError`` with a stable code, its
parameters (always ``line``, counted from 1, except ``pairs_missing``) and an
English message; the site translates the code. ``format_pairing`` writes a turn
back in the same form.

Codes: ``empty_pairing`` (), ``malformed_line`` (line, text), ``unknown_pair``
(line, pair), ``pair_twice`` (line, pair, first_line), ``table_twice`` (line,
table, first_line), ``pairs_missing`` (pairs, count).
"""

from __future__ import annotations

import re
from collections.abc import Collection

from .errors import MovementError
from .schedule import Table, Turn

_SEPARATORS = re.compile(r"[,;\s]+")
# Words a desktop program (or a referee) writes for a bye, in the site's languages.
BYE_WORDS = frozenset(
    {"-", "bye", "riposo", "zoppo", "descanso", "freilos", "spielfrei", "exempt", "repos"}
)
_SHOWN = 60  # characters of a bad line quoted back


def _whole(token: str) -> int | None:
    return int(token) if token.isascii() and token.isdigit() else None


def _malformed(number: int, text: str) -> MovementError:
    shown = text if len(text) <= _SHOWN else text[: _SHOWN - 3] + "..."
    return MovementError(
        "malformed_line",
        f"line {number}: {shown!r} is not 'table, NS pair, EW pair' nor 'bye, pair'",
        line=number,
        text=shown,
    )


def parse_pairing(
    text: str, turn: int = 1, pairs: Collection[int] | None = None
) -> tuple[Turn | None, list[MovementError]]:
    """The turn the text describes, or None and every problem with it, line by line.

    ``pairs``: the pair numbers of the tournament, if known; then a pair outside them
    is ``unknown_pair`` and a pair neither seated nor resting is ``pairs_missing``.
    """
    problems: list[MovementError] = []
    tables: list[Table] = []
    byes: list[int] = []
    pair_lines: dict[int, int] = {}
    table_lines: dict[int, int] = {}
    known = set(pairs) if pairs is not None else None
    first = True

    def seat(pair: int, number: int) -> bool:
        if pair < 1 or (known is not None and pair not in known):
            problems.append(
                MovementError(
                    "unknown_pair",
                    f"line {number}: there is no pair {pair}",
                    line=number,
                    pair=pair,
                )
            )
            return False
        if pair in pair_lines:
            problems.append(
                MovementError(
                    "pair_twice",
                    f"line {number}: pair {pair} is already on line {pair_lines[pair]}",
                    line=number,
                    pair=pair,
                    first_line=pair_lines[pair],
                )
            )
            return False
        pair_lines[pair] = number
        return True

    for number, raw in enumerate(text.lstrip("\ufeff").splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        tokens = [t for t in _SEPARATORS.split(line) if t]
        values = [_whole(t) for t in tokens]
        if first and all(v is None for v in values) and tokens[0].lower() not in BYE_WORDS:
            first = False
            continue  # the column heads
        first = False
        if len(tokens) == 2 and tokens[0].lower() in BYE_WORDS and values[1] is not None:
            if seat(values[1], number):
                byes.append(values[1])
            continue
        if len(tokens) != 3 or any(v is None for v in values):
            problems.append(_malformed(number, line))
            continue
        table, ns, ew = (v for v in values if v is not None)
        ok = True
        if table < 1:
            problems.append(_malformed(number, line))
            ok = False
        elif table in table_lines:
            problems.append(
                MovementError(
                    "table_twice",
                    f"line {number}: table {table} is already on line {table_lines[table]}",
                    line=number,
                    table=table,
                    first_line=table_lines[table],
                )
            )
            ok = False
        else:
            table_lines[table] = number
        ok = seat(ns, number) and ok
        ok = seat(ew, number) and ok
        if ok:
            tables.append(Table(table, ns, ew))
    if not tables and not byes and not problems:
        problems.append(MovementError("empty_pairing", "the pairing has no table"))
    if known is not None and not problems:
        missing = sorted(known - pair_lines.keys())
        if missing:
            shown = ", ".join(str(p) for p in missing)
            problems.append(
                MovementError(
                    "pairs_missing",
                    f"pairs neither seated nor resting: {shown}",
                    pairs=shown,
                    count=len(missing),
                )
            )
    if problems:
        return None, problems
    return Turn(turn, tuple(sorted(tables, key=lambda t: t.number)), tuple(sorted(byes))), []


def format_pairing(turn: Turn, separator: str = ", ") -> str:
    """The turn as lines ``table, NS, EW`` then ``bye, pair`` (what ``parse_pairing`` reads)."""
    lines = [
        separator.join(str(v) for v in (table.number, table.ns, table.ew)) for table in turn.tables
    ]
    lines.extend(f"bye{separator}{pair}" for pair in turn.byes)
    return "\n".join(lines) + "\n"

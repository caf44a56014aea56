"""CSV and printable PDF of a Burraco ranking (a tournament's, or a season's), headers in
the reader's language.

The rows come from scoring/engine/burraco/ranking.py (`PairRow`, `SeasonRow`); `labels` gives
each entry's name as the page shows it ("3 – Rossi / Bianchi"). Cells that a spreadsheet
would take for a formula are quoted, as in scoring/exports.py.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from decimal import Decimal
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from scoring.burraco.seating import Marks
from scoring.engine.burraco.free_match_ranking import FreeRow
from scoring.engine.burraco.ranking import PairRow, SeasonRow
from scoring.exports import PAGE_MM, _Sheet


def decided_by_label(decided_by: str | None, shared: bool) -> str:
    """What separated an entry from the one above, in words ("" for the first)."""
    if shared and decided_by is None:
        return pgettext("ranking", "level")
    labels = {
        "vp": _("VP"),
        "points": _("Points"),
        "mp_difference": _("MP difference"),
        "head_to_head": _("Head-to-head"),
        "draw": _("Referee's draw"),
    }
    return str(labels.get(decided_by or "", ""))


def _number(value: Decimal | int) -> str:
    """A VP or points total as a spreadsheet reads it: 24, 23.5 (never 2.4E+1)."""
    if isinstance(value, Decimal):
        text = format(value.normalize(), "f")
        return text
    return str(value)


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else str(value)


def marks_text(mark: Marks | None, *, individual: bool = False) -> str:
    """An entry's marks in words: "withdrawn after turn 2; short card in turn 3"."""
    if mark is None:
        return ""
    words = []
    who = "player" if individual else "pair"  # the word's gender: "ritirato", "ritirata"
    if mark.withdrawn_after == 0:
        words.append(pgettext(who, "withdrawn before turn 1"))
    elif mark.withdrawn_after is not None:
        words.append(
            pgettext(who, "withdrawn after turn %(turn)s") % {"turn": mark.withdrawn_after}
        )
    if mark.short:
        turns = ", ".join(str(t) for t in mark.short)
        words.append(
            ngettext(
                "short card in turn %(turns)s", "short cards in turns %(turns)s", len(mark.short)
            )
            % {"turns": turns}
        )
    return "; ".join(words)


def ranking_rows(
    rows: Sequence[PairRow],
    labels: Mapping[int, str] | None = None,
    *,
    individual: bool = False,
    marks: Mapping[int, Marks] | None = None,
) -> list[list[Any]]:
    """A tournament's ranking as lists of cells, header first; with `marks` (by entry
    number: scoring.burraco.seating.entry_marks) a last column of notes: withdrawn, short
    cards."""
    labels = labels or {}
    entry = _("Player") if individual else _("Pair")
    header = [_("Place"), entry, _("Name"), _("VP"), _("MP difference"), _("Turns")]
    header += [_("Byes"), _("VP penalty"), _("MP penalty"), _("Decided by")]
    if marks is not None:
        header.append(_("Notes"))
    out: list[list[Any]] = [header]
    for row in rows:
        notes = [] if marks is None else [marks_text(marks.get(row.pair), individual=individual)]
        out.append(
            [
                row.place,
                row.pair,
                labels.get(row.pair, ""),
                _number(row.vp),
                _signed(row.mp_difference),
                row.turns,
                row.byes,
                _number(-row.penalty_vp) if row.penalty_vp else "",
                -row.penalty_mp if row.penalty_mp else "",
                decided_by_label(row.decided_by, row.shared),
                *notes,
            ]
        )
    return out


def season_rows(
    rows: Sequence[SeasonRow], labels: Mapping[Hashable, str] | None = None
) -> list[list[Any]]:
    """A season's ranking as lists of cells, header first."""
    labels = labels or {}
    header = [_("Place"), _("Name"), _("Points"), _("VP"), _("MP difference")]
    header += [_("Tournaments"), _("Tournaments counted"), _("Decided by")]
    out: list[list[Any]] = [header]
    for row in rows:
        out.append(
            [
                row.place,
                labels.get(row.entry, str(row.entry)),
                _number(row.points),
                _number(row.vp),
                _signed(row.mp_difference),
                row.events,
                row.counted,
                decided_by_label(row.decided_by, row.shared),
            ]
        )
    return out


def evening_rows(rows: Sequence[Mapping[str, Any]]) -> list[list[Any]]:
    """An evening of free matches (burraco_selectors.evening_ranking's rows), header first."""
    header = [_("Place"), _("Pair"), _("Name"), _("Won"), _("Lost"), _("Point difference")]
    header += [_("Points for"), _("Points against")]
    out: list[list[Any]] = [header]
    for row in rows:
        out.append(
            [
                row["place"],
                row["pair"],
                row["label"],
                row["won"],
                row["lost"],
                _signed(row["difference"]),
                row["points_for"],
                row["points_against"],
            ]
        )
    return out


def free_season_rows(
    rows: Sequence[FreeRow], labels: Mapping[Hashable, str] | None = None
) -> list[list[Any]]:
    """A season of free-match evenings as lists of cells, header first."""
    labels = labels or {}
    header = [_("Place"), _("Name"), _("Won"), _("Lost"), _("Point difference"), _("Events")]
    out: list[list[Any]] = [header]
    for row in rows:
        out.append(
            [
                row.place,
                labels.get(row.entry, str(row.entry)),
                row.won,
                row.lost,
                _signed(row.difference),
                row.evenings,
            ]
        )
    return out


# The names column never narrower than this: names wrap at their spaces and hyphens.
NAMES_MIN_MM = 40
# The table's text and the room beside it in a cell: nine columns headed in Spanish or
# German fit A4 portrait.
SIZE_PT = 8
PAD_MM = 1.0


def printed_columns(lines: list[list[str]]) -> list[int]:
    """The columns the PDF prints: not a column empty in every row (penalties, where there
    are none), nor the pair's number where each name already starts with it."""
    head, rows = lines[0], lines[1:]
    keep = [i for i in range(len(head)) if not rows or any(row[i] for row in rows)]
    names = head.index(_("Name")) if _("Name") in head else -1
    if names > 0 and rows and all(row[names].startswith(f"{row[names - 1]} ") for row in rows):
        keep.remove(names - 1)
    return keep


def _widths(pdf: _Sheet, lines: list[list[str]], wide: int) -> list[float]:
    """Each column as wide as its widest cell (heads word by word), column `wide` (the
    names) taking what is left of the page. Where the page is too narrow, the last column
    (words: "Decided by") wraps first, down to its longest word; numbers and heads are
    squeezed only when even that is not enough."""
    widths, longest_word = [], []
    for i in range(len(lines[0])):
        pdf.set_font(pdf.family, "B", SIZE_PT)
        widest = max(pdf.get_string_width(w) for w in (pdf.text_of(lines[0][i]).split() or [""]))
        pdf.set_font(pdf.family, "", SIZE_PT)
        word = widest
        for line in lines[1:]:
            text = pdf.text_of(line[i])
            widest = max(widest, pdf.get_string_width(text))
            word = max([word, *(pdf.get_string_width(w) for w in text.split())])
        widths.append(widest + 2 * PAD_MM + 1)
        longest_word.append(word + 2 * PAD_MM + 1)
    room = PAGE_MM - NAMES_MIN_MM
    last = len(widths) - 1

    def others() -> float:
        return sum(w for i, w in enumerate(widths) if i != wide)

    if others() > room and last != wide:
        widths[last] = max(longest_word[last], widths[last] - (others() - room))
    if others() > room:  # still too wide: every column shares the page by its need
        scale = room / others()
        widths = [w * scale for w in widths]
    # Rounded to 0.1 mm, the others first: the names take what is left, rounded down, so
    # the sum never passes the page (fpdf refuses a table wider than the page).
    rounded = [round(w, 1) for w in widths]
    rounded[wide] = (
        math.floor((PAGE_MM - sum(w for i, w in enumerate(rounded) if i != wide)) * 10) / 10
    )
    return rounded


def ranking_pdf(lines: list[list[Any]], *, title: str, subtitle: str, status: str) -> bytes:
    """A ranking (`ranking_rows` or `season_rows`: heads first) on A4 to print and pin up;
    `status` says in bold whether it is final or provisional."""
    pdf = _Sheet()
    pdf.set_auto_page_break(auto=True, margin=15)
    pdf.add_page()
    t = pdf.text_of
    pdf.set_font(pdf.family, "B", 16)
    pdf.multi_cell(0, 8, t(title), align="L", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font(pdf.family, "", 10)
    pdf.multi_cell(0, 6, t(subtitle), align="L", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font(pdf.family, "B", 11)
    pdf.multi_cell(0, 6, t(status), align="L", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(3)
    text = [[str(cell) for cell in line] for line in lines]
    columns = printed_columns(text)
    text = [[line[i] for i in columns] for line in text]
    names = text[0].index(_("Name")) if _("Name") in text[0] else 1
    widths = _widths(pdf, text, names)
    words = {names, len(widths) - 1} | {
        i for i, head in enumerate(text[0]) if head in (_("Decided by"), _("Notes"))
    }
    align = ["LEFT" if i in words else "RIGHT" for i in range(len(widths))]
    pdf.set_font(pdf.family, "", SIZE_PT)
    with pdf.sheet_table(widths, align, line_height=4.5, padding=(1, PAD_MM)) as table:
        for line in text:
            table.row([t(c) for c in line])
    if len(text) == 1:
        pdf.cell(0, 6, t(_("No results yet.")), new_x="LMARGIN", new_y="NEXT")
    return bytes(pdf.output())

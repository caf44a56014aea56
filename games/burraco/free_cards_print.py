"""Blank score cards of an evening of free matches to print: one card per match of a
sitting, two or four per A4 page, drawn with the tournament cards' tools
(games/burraco/cards_print.py).

A free match has no fixed number of hands and no VP: a card has the event, the table and
its match, the target, the two pairs, a row per hand with both lines' points and their
running totals (as many rows as the card holds), the winner, and a signature line for
one player of each pair. Made from plain data (no model).
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils import translation
from django.utils.translation import gettext as _

from games.burraco.cards_print import MARGIN, PAGE_H, PAGE_W, _Cards, card_frame, signatures

# The least height of a hand's row (room to write a number); the card's other parts.
ROW_MIN = 5.0
PAD, HEADING, SIGN_H = 3.0, 15.0, 10.0
FOOTER = 2 + 7 + 7 + 3 + SIGN_H + 1  # the rule (two lines), the winner, the signatures
HEAD_ROWS = 3.6  # NS / EW, the pairs (1.6 rows), the column heads


def _rows_room(h: float) -> float:
    return h - 2 * PAD - HEADING - FOOTER


def hand_rows(h: float) -> int:
    """How many hand rows a card `h` mm tall holds."""
    return int(_rows_room(h) / ROW_MIN - HEAD_ROWS)


def _card(
    pdf: _Cards,
    x: float,
    y: float,
    w: float,
    h: float,
    *,
    event_name: str,
    target: int,
    table: int,
    match: int,
    ns: str,
    ew: str,
) -> None:
    """One card in the rectangle (x, y, w, h)."""
    heading = _("Table %(number)s, match %(match)s") % {"number": table, "match": match}
    goal = _("Match to %(target)s") % {"target": target}
    x0, y0, inner = card_frame(pdf, x, y, w, h, PAD, event_name, heading, goal)
    top = y0 + HEADING
    # Hand, NS, NS's total, EW, EW's total.
    first = inner * 0.16
    col = (inner - first) / 4
    rows = hand_rows(h)
    row_h = _rows_room(h) / (rows + HEAD_ROWS)
    pdf.set_fill_color(235)
    pdf.box(x0, top, first, row_h, "", border=1)
    pdf.box(x0 + first, top, 2 * col, row_h, _("NS"), size=10, style="B", fill=True)
    pdf.box(x0 + first + 2 * col, top, 2 * col, row_h, _("EW"), size=10, style="B", fill=True)
    top += row_h
    pdf.box(x0, top, first, row_h * 1.6, _("Pair"), size=8, align="L")
    pdf.label(x0 + first, top, 2 * col, row_h * 1.6, ns, size=9, style="B")
    pdf.label(x0 + first + 2 * col, top, 2 * col, row_h * 1.6, ew, size=9, style="B")
    top += row_h * 1.6
    heads = (_("Hand"), _("NS"), _("Total NS"), _("EW"), _("Total EW"))
    widths = (first, col, col, col, col)
    cx = x0
    for head, width in zip(heads, widths, strict=True):
        pdf.box(cx, top, width, row_h, head, size=8, style="B", fill=True)
        cx += width
    top += row_h
    for hand in range(1, rows + 1):
        cx = x0
        for index, width in enumerate(widths):
            pdf.box(cx, top, width, row_h, str(hand) if index == 0 else "", size=8)
            cx += width
        top += row_h
    # The winner: the first line to reach the target at the end of a hand, ahead.
    top += 2
    rule = _(
        "The first pair to reach %(target)s at the end of a hand, ahead, wins. More hands: "
        "go on overleaf."
    ) % {"target": target}
    for i, line in enumerate(pdf.lines(rule, inner, 7, "", 2)):
        pdf.box(x0, top + i * 3.5, inner, 3.5, line, size=pdf.font_size_pt, align="L", border=0)
    top += 7
    pdf.box(x0, top, first * 2, 7, _("Winner"), size=9, style="B", align="L", fill=True)
    pdf.box(x0 + first * 2, top, inner - first * 2, 7)
    top += 7 + 3
    signatures(pdf, x0, top, inner, SIGN_H)


def free_score_cards_pdf(
    *,
    event_name: str,
    target: int,
    tables: Sequence[tuple[int, int, str, str]],
    language: str,
    per_page: int = 2,
) -> bytes:
    """Blank cards of free matches to `target`: one per (table, its match number, NS pair
    label, EW pair label); `per_page` 2 (half pages) or 4 (quarter pages); texts in
    `language`."""
    if per_page not in (2, 4):
        raise ValueError(f"score cards print 2 or 4 a page, not {per_page}")
    pdf = _Cards()
    with translation.override(language):
        pdf.set_title(pdf.t(event_name))
        if not tables:
            pdf.add_page()
        columns = 1 if per_page == 2 else 2
        w = PAGE_W / columns - 2 * MARGIN
        h = PAGE_H / 2 - 2 * MARGIN
        for index, (table, match, ns, ew) in enumerate(tables):
            slot = index % per_page
            if slot == 0:
                pdf.add_page()
            row, column = divmod(slot, columns)
            _card(
                pdf,
                column * PAGE_W / columns + MARGIN,
                row * PAGE_H / 2 + MARGIN,
                w,
                h,
                event_name=event_name,
                target=target,
                table=table,
                match=match,
                ns=ns,
                ew=ew,
            )
    return bytes(pdf.output())

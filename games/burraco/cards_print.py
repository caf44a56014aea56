"""Burraco papers for the tables: blank score cards (one card per table of a turn, two or
four per A4 page), and the day's table cards (`table_cards_pdf`: one A4 sheet per table,
its QR code opening that table's score card in every turn).

A card has the event, the turn and the table, the two lines (a pair each, or two players
each in an individual tournament), a row per hand for both lines' points, the totals, the
difference and the VP boxes, a signature line for one player of each line, and the turn's
VP table, so the players can read their VP off it. Made from plain data (no model) so the
referee's desk, the API and the tests share it.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import segno
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from fpdf import FPDF

from scoring.engine.burraco.presets import VpTable, vp_bands

FONTS = Path("/usr/share/fonts/truetype/dejavu")
# Condensed: the long words of German ("Unterschrift", "Siegpunkte") fit narrow boxes.
FONT = FONTS / "DejaVuSansCondensed.ttf"
FONT_BOLD = FONTS / "DejaVuSansCondensed-Bold.ttf"
PAGE_W, PAGE_H = 210.0, 297.0
MARGIN = 8.0  # around every card, inside its part of the page
MIN_FONT = 5.0


class _Cards(FPDF):
    def __init__(self) -> None:
        super().__init__(orientation="P", unit="mm", format="A4")
        self.set_auto_page_break(auto=False)
        self.set_margins(0, 0, 0)
        if FONT.exists() and FONT_BOLD.exists():
            self.add_font("Sans", "", str(FONT))
            self.add_font("Sans", "B", str(FONT_BOLD))
            self.face = "Sans"
        else:  # no TrueType font on this machine: the core font, Latin-1 only
            self.face = "Helvetica"

    def t(self, value: object) -> str:
        text = "" if value is None else str(value)
        if self.face == "Helvetica":
            return text.encode("latin-1", "replace").decode("latin-1")
        return text

    def fit(self, text: str, width: float, size: float, style: str = "") -> str:
        """Set the largest font size up to `size` at which `text` fits `width`."""
        text = self.t(text)
        self.set_font(self.face, style, size)
        while size > MIN_FONT and self.get_string_width(text) > width - 1:
            size -= 0.5
            self.set_font(self.face, style, size)
        if self.get_string_width(text) > width - 1:  # still too long: cut, and say so
            while text and self.get_string_width(text + "…") > width - 1:
                text = text[:-1]
            text += "…"
        return text

    def lines(self, text: str, width: float, size: float, style: str, most: int) -> list[str]:
        """`text` wrapped to `width` in at most `most` lines, the font shrunk as needed."""
        text = self.t(text)
        while True:
            self.set_font(self.face, style, size)
            lines = self.multi_cell(width - 1, 4, text, dry_run=True, output="LINES")
            whole = {w for line in lines for w in line.split()} >= set(text.split())
            if len(lines) <= most and (whole or size <= MIN_FONT + 2):
                return lines  # no word cut in two, unless that takes a tiny font
            if size <= MIN_FONT:  # still too long: the last line cut, and saying so
                kept = lines[:most]
                kept[-1] = self.fit(kept[-1] + "…", width, size, style)
                return kept
            size -= 0.5

    def label(
        self, x: float, y: float, w: float, h: float, text: str, *, size: float, style: str
    ) -> None:
        """A framed box holding `text` on up to three centred lines."""
        self.rect(x, y, w, h)
        lines = self.lines(text, w, size, style, 3)
        line_h = min(h / max(len(lines), 1), self.font_size * 1.25)
        top = y + (h - line_h * len(lines)) / 2
        for i, line in enumerate(lines):
            self.box(
                x, top + i * line_h, w, line_h, line, size=self.font_size_pt, style=style, border=0
            )

    def box(
        self,
        x: float,
        y: float,
        w: float,
        h: float,
        text: str = "",
        *,
        size: float = 9,
        style: str = "",
        align: str = "C",
        border: int | str = 1,
        fill: bool = False,
    ) -> None:
        shown = self.fit(text, w, size, style)
        self.set_xy(x, y)
        self.cell(w, h, shown, border=border, align=align, fill=fill)


def card_frame(
    pdf: _Cards,
    x: float,
    y: float,
    w: float,
    h: float,
    pad: float,
    event_name: str,
    heading: str,
    aside: str,
) -> tuple[float, float, float]:
    """A card's border and heading (the event, then `heading` in large type and `aside`
    on its right); the left, top and width inside its `pad`."""
    pdf.set_draw_color(0)
    pdf.set_line_width(0.3)
    pdf.rect(x, y, w, h)
    x0, y0, inner = x + pad, y + pad, w - 2 * pad
    pdf.box(x0, y0, inner, 5, event_name, size=9, align="L", border=0)
    pdf.box(x0, y0 + 5, inner * 0.6, 8, heading, size=15, style="B", align="L", border=0)
    pdf.box(x0 + inner * 0.6, y0 + 5, inner * 0.4, 8, aside, size=10, align="R", border=0)
    return x0, y0, inner


def signatures(pdf: _Cards, x0: float, top: float, width: float, sign_h: float) -> None:
    """A signature line for one player of each line, NS then EW, across `width`."""
    for i, side in enumerate((_("NS"), _("EW"))):
        sx = x0 + i * width / 2
        label = _("Signature, %(line)s") % {"line": side}
        pdf.box(sx, top, width / 2 - 2, 4, label, size=7, align="L", border=0)
        pdf.line(sx, top + sign_h, sx + width / 2 - 4, top + sign_h)


def _band_text(start: int, end: int | None) -> str:
    return f"{start}–{end}" if end is not None else f"≥ {start}"


def _card(
    pdf: _Cards,
    x: float,
    y: float,
    w: float,
    h: float,
    *,
    event_name: str,
    turn: int,
    hands: int,
    table: int,
    ns: str,
    ew: str,
    bands: list[tuple[int, int | None, int, int]],
    individual: bool = False,
) -> None:
    """One card in the rectangle (x, y, w, h)."""
    pad = 3.0
    # Heading: the event, then turn and table in large type.
    heading = _("Turn %(turn)s · Table %(table)s") % {"turn": turn, "table": table}
    length = ngettext("%(count)s hand", "%(count)s hands", hands) % {"count": hands}
    x0, y0, inner = card_frame(pdf, x, y, w, h, pad, event_name, heading, length)
    wide = w >= 150  # two a page: the VP table beside the scores; four: below them
    top = y0 + 15

    score_w = inner * 0.62 if wide else inner
    first = score_w * 0.28
    col = (score_w - first) / 2
    sign_h = 10.0
    # Rows as tall as the card allows (room to write), below the VP table on narrow cards.
    room = y + h - pad - top - (sign_h + 5)
    if not wide:
        room -= 5 + 4.5 * (-(-len(bands) // 2) + 1) + 1
    row_h = max(5.5, min(10.0, room / (hands + 5.6)))
    # The lines: NS and EW heads with their pairs' (or players') labels.
    pdf.set_fill_color(235)
    pdf.box(x0, top, first, row_h, "", border=1)
    pdf.box(x0 + first, top, col, row_h, _("NS"), size=10, style="B", fill=True)
    pdf.box(x0 + first + col, top, col, row_h, _("EW"), size=10, style="B", fill=True)
    top += row_h
    entries = _("Players") if individual else _("Pair")
    pdf.box(x0, top, first, row_h * 1.6, entries, size=8, align="L")
    pdf.label(x0 + first, top, col, row_h * 1.6, ns, size=9, style="B")
    pdf.label(x0 + first + col, top, col, row_h * 1.6, ew, size=9, style="B")
    top += row_h * 1.6
    # A row per hand for both lines, then the totals, the difference and the VP.
    for hand in range(1, hands + 1):
        label = _("Hand %(number)s") % {"number": hand}
        pdf.box(x0, top, first, row_h, label, size=8, align="L")
        pdf.box(x0 + first, top, col, row_h)
        pdf.box(x0 + first + col, top, col, row_h)
        top += row_h
    pdf.set_line_width(0.6)
    pdf.line(x0, top, x0 + score_w, top)
    pdf.set_line_width(0.3)
    for label, style in ((_("Total"), "B"), (_("Difference"), ""), (_("VP"), "B")):
        pdf.box(x0, top, first, row_h, label, size=8, style=style, align="L", fill=style == "B")
        pdf.box(x0 + first, top, col, row_h)
        pdf.box(x0 + first + col, top, col, row_h)
        top += row_h
    # Signatures of one player of each line.
    top += 3
    signatures(pdf, x0, top, score_w, sign_h)
    top += sign_h + 2

    # The VP table of the turn.
    if wide:
        vx, vy, vw = x0 + score_w + 4, y0 + 15, inner - score_w - 4
        bottom = y + h - pad
    else:
        vx, vy, vw = x0, top + 1, inner
        bottom = y + h - pad
    title = _("VP table, %(hands)s hands") % {"hands": hands}
    pdf.box(vx, vy, vw, 5, title, size=8, style="B", align="L", border=0)
    vy += 5
    if not bands:
        pdf.box(vx, vy, vw, 5, _("No VP table for this turn."), size=7, align="L", border=0)
        return
    columns = 1 if wide else 2
    per_column = -(-len(bands) // columns)
    line_h = min(5.0, (bottom - vy - 5) / (per_column + 1))
    col_w = vw / columns
    for c in range(columns):
        cx = vx + c * col_w
        diff_w, vp_w = col_w * 0.6, col_w * 0.4 - (1 if columns > 1 else 0)
        pdf.box(cx, vy, diff_w, line_h, _("Difference"), size=7, style="B", fill=True)
        pdf.box(cx + diff_w, vy, vp_w, line_h, _("VP"), size=7, style="B", fill=True)
        for i, (start, end, win, lose) in enumerate(bands[c * per_column : (c + 1) * per_column]):
            ly = vy + line_h * (i + 1)
            pdf.box(cx, ly, diff_w, line_h, _band_text(start, end), size=7)
            pdf.box(cx + diff_w, ly, vp_w, line_h, f"{win}–{lose}", size=7)


def score_cards_pdf(
    *,
    event_name: str,
    turn: int,
    hands: int,
    tables: Sequence[tuple[int, str, str]],
    vp_table: VpTable,
    language: str,
    per_page: int = 2,
    individual: bool = False,
) -> bytes:
    """Blank score cards for a turn: one per (table, NS pair label, EW pair label).

    `vp_table` is the engine's table for the turn's hands (bands (highest difference,
    winner's VP), the last (None, VP)); `per_page` 2 (half pages, the VP table beside the
    scores) or 4 (quarter pages, the VP table below); texts in `language`. `individual`:
    each line is two players of an individual tournament (labelled "Players", not "Pair").
    """
    if per_page not in (2, 4):
        raise ValueError(f"score cards print 2 or 4 a page, not {per_page}")
    bands = vp_bands(vp_table)
    pdf = _Cards()
    with translation.override(language):
        pdf.set_title(pdf.t(f"{event_name} – {turn}"))
        if not tables:
            pdf.add_page()
        columns = 1 if per_page == 2 else 2
        w = PAGE_W / columns - 2 * MARGIN
        h = PAGE_H / 2 - 2 * MARGIN
        for index, (table, ns, ew) in enumerate(tables):
            slot = index % per_page
            if slot == 0:
                pdf.add_page()
            row, column = divmod(slot, columns)
            x = column * PAGE_W / columns + MARGIN
            y = row * PAGE_H / 2 + MARGIN
            _card(
                pdf,
                x,
                y,
                w,
                h,
                event_name=event_name,
                turn=turn,
                hands=hands,
                table=table,
                ns=ns,
                ew=ew,
                bands=bands,
                individual=individual,
            )
    return bytes(pdf.output())


# The day's table card: the QR code's side and its quiet zone (modules of light around it).
QR_MM = 120.0
QR_BORDER = 2


def qr_box(pdf: _Cards, url: str, x: float, y: float, size: float) -> None:
    """`url`'s QR code (error level M) drawn as dark rectangles in the square (x, y, size),
    quiet zone included: each row's run of dark modules one rectangle."""
    matrix = segno.make(url, error="m").matrix
    module = size / (len(matrix) + 2 * QR_BORDER)
    pdf.set_fill_color(0)
    for row, line in enumerate(matrix):
        top = y + (row + QR_BORDER) * module
        column = 0
        while column < len(line):
            if not line[column]:
                column += 1
                continue
            start = column
            while column < len(line) and line[column]:
                column += 1
            left = x + (start + QR_BORDER) * module
            pdf.rect(left, top, (column - start) * module, module, style="F")


def table_card_geometry() -> tuple[float, float, float]:
    """Where a day's table card draws its QR code: left, top and side in mm."""
    return (PAGE_W - QR_MM) / 2, 92.0, QR_MM


def table_cards_pdf(*, event_name: str, tables: Sequence[tuple[int, str]], language: str) -> bytes:
    """The day's table cards: one A4 sheet per (table number, URL of its day's key), the
    number in large type, the QR code of the URL and the URL written under it, in
    `language`. The same card serves every turn (the URL opens the turn being played)."""
    pdf = _Cards()
    left, qr_top, side = table_card_geometry()
    inner = PAGE_W - 2 * 20
    with translation.override(language):
        pdf.set_title(pdf.t(event_name))
        if not tables:
            pdf.add_page()
        for number, url in tables:
            pdf.add_page()
            pdf.set_draw_color(0)
            pdf.box(20, 18, inner, 10, event_name, size=16, border=0)
            heading = _("Table %(table)s") % {"table": number}
            pdf.box(20, 32, inner, 50, heading, size=110, style="B", border=0)
            qr_box(pdf, url, left, qr_top, side)
            below = qr_top + side + 6
            words = _(
                "Scan to open this table's score card: the same code for every turn of the day."
            )
            for i, line in enumerate(pdf.lines(words, inner, 16, "", 3)):
                pdf.box(20, below + i * 8, inner, 8, line, size=pdf.font_size_pt, border=0)
            pdf.box(20, PAGE_H - 30, inner, 6, url, size=9, border=0)
    return bytes(pdf.output())

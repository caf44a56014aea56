"""The papers the referee pins up in the room, on A4: a turn's pairing sheet (the
tabellone: each table with its NS and EW pairs and their names, the byes below), in the
reader's language. The ranking after a turn prints with exports.ranking_pdf."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext
from fpdf import FontFace

from scoring.exports import PAGE_MM, _Sheet

# Large enough to read from a step away on the wall; names wrap within their column.
SIZE_PT = 12
TABLE_MM = 24


def pairing_pdf(seating: dict[str, Any], *, title: str, subtitle: str, individual: bool) -> bytes:
    """A turn's pairing sheet (seating.turn_seating's turn): a row per table, the number
    in bold, the NS then the EW line, each entry's number and names; the byes below."""
    pdf = _Sheet()
    pdf.set_auto_page_break(auto=True, margin=15)
    pdf.add_page()
    t = pdf.text_of
    turn = seating["turn"]
    pdf.set_font(pdf.family, "B", 16)
    pdf.multi_cell(0, 8, t(title), align="L", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font(pdf.family, "", 10)
    pdf.multi_cell(0, 6, t(subtitle), align="L", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font(pdf.family, "B", 20)
    heading = _("Turn %(turn)s: pairings") % {"turn": turn.number}
    pdf.multi_cell(0, 11, t(heading), align="L", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(2)
    line = (PAGE_MM - TABLE_MM) / 2
    pdf.set_font(pdf.family, "", SIZE_PT)
    widths = (TABLE_MM, line, line)  # the page's width
    align = ("CENTER", "LEFT", "LEFT")
    with pdf.sheet_table(widths, align, line_height=6, padding=(1.5, 1.5)) as table:
        table.row([t(_("Table")), t(pgettext("line", "NS")), t(pgettext("line", "EW"))])
        for row in seating["tables"]:
            cells = table.row()
            cells.cell(t(row["number"]), style=FontFace(emphasis="BOLD", size_pt=16))
            cells.cell(t(row["ns"].label))
            cells.cell(t(row["ew"].label))
    byes = seating["byes"]
    if byes:
        pdf.ln(3)
        pdf.set_font(pdf.family, "B", SIZE_PT)
        names = ", ".join(b.label for b in byes)
        if individual:
            text = ngettext("Bye: player %(players)s", "Bye: players %(players)s", len(byes))
            text %= {"players": names}
        else:
            text = ngettext("Bye: pair %(pairs)s", "Bye: pairs %(pairs)s", len(byes))
            text %= {"pairs": names}
        pdf.multi_cell(0, 6, t(text), align="L", new_x="LMARGIN", new_y="NEXT")
    if not seating["tables"] and not byes:
        pdf.cell(0, 6, t(_("No table is seated.")), new_x="LMARGIN", new_y="NEXT")
    return bytes(pdf.output())

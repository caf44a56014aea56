"""Exports of a Barbu evening's and league's standings: the CSV of the standings table,
and the printable evening result sheet (PDF).

The CSV download and the PDF page are what both games share (scoring/exports.py).
"""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from scoring.exports import PAGE_MM, _Sheet, csv_download

# The result sheet's table: rank, player, points, games, wins, tie-break, on the PAGE_MM
# of A4 inside fpdf2's margins; each number column as wide as its head or its widest
# number ("Victoires", "Posizione"), the player and the tie-break sharing what is left.
PAD_MM = 1.5
NUMBERS = (0, 2, 3, 4)
ALIGN = ("RIGHT", "LEFT", "RIGHT", "RIGHT", "RIGHT", "LEFT")


def standings_rows(
    rows: list[dict[str, Any]], *, league: bool = False, status: dict[str, Any] | None = None
) -> list[list[Any]]:
    """The table as lists of cells, header first (shared by CSV and tests).

    `status` (scoring.barbu.selectors.standings_status) adds an evening's columns: each
    player's games not finished, and on every row whether the standings are provisional or
    final, so a sheet copied anywhere still says so.
    """
    header = [_("Rank"), _("Player"), _("Points"), _("Games"), _("Total"), _("Average")]
    header += [_("Wins"), _("Best game"), _("Placement points"), _("Tie-break")]
    if league:
        header += [_("Evenings"), _("Previous rank"), _("Movement")]
    if status is not None:
        header += [_("Games not finished"), _("Standings")]
        state = _("provisional") if status["provisional"] else _("final")
    out = [header]
    for r in rows:
        d = r["details"]
        line = [r["rank"], r["player"], r["points"], r["games"], d.get("total"), d.get("average")]
        line += [d.get("wins"), d.get("best_game"), d.get("placement"), r["tiebreak_label"]]
        if league:
            line += [r["evenings"], r["previous_rank"] or "", _signed(r["movement"])]
        if status is not None:
            line += [d.get("unfinished", 0), state]
        out.append(line)
    return out


def _signed(value: int | None) -> str:
    if value is None:
        return ""
    return f"+{value}" if value > 0 else str(value)


def standings_csv(
    rows: list[dict[str, Any]],
    *,
    filename: str,
    league: bool = False,
    status: dict[str, Any] | None = None,
) -> HttpResponse:
    return csv_download(standings_rows(rows, league=league, status=status), filename=filename)


def result_table(standings: list[dict[str, Any]]) -> tuple[list[str], list[list[str]]]:
    """The result sheet's heads and rows, as texts ("3*": a game not finished counts)."""
    header = [_("Rank"), _("Player"), _("Points"), _("Games"), _("Wins"), _("Tie-break")]
    rows = []
    for r in standings:
        games = f"{r['games']}*" if r["details"].get("unfinished") else r["games"]
        cells = [r["rank"], r["player"], r["points"], games, r["details"].get("wins")]
        rows.append(["" if c is None else str(c) for c in [*cells, r["tiebreak_label"]]])
    return header, rows


def sheet_columns(header: list[str], rows: list[list[str]]) -> tuple[float, ...]:
    """The columns' widths in mm: a number column fits its bold head and its numbers
    whole, the player and the tie-break share the rest (the tie-break a little more)."""
    pdf = _Sheet()
    widths = [0.0] * len(header)
    for i in NUMBERS:
        pdf.set_font(pdf.family, "B", 10)
        widest = max(pdf.get_string_width(w) for w in pdf.text_of(header[i]).split())
        pdf.set_font(pdf.family, "", 10)
        for row in rows:
            widest = max(widest, pdf.get_string_width(pdf.text_of(row[i])))
        widths[i] = round(widest + 2 * PAD_MM + 1, 1)
    rest = PAGE_MM - sum(widths)
    widths[1] = round(rest * 0.45, 1)
    widths[5] = round(rest - widths[1], 1)
    return tuple(widths)


def evening_pdf(
    event: Any,
    standings: list[dict[str, Any]],
    tables: list[dict],
    *,
    status: dict[str, Any] | None = None,
) -> bytes:
    """A one-evening result sheet to print and pin on the club's board; `status`
    (scoring.barbu.selectors.standings_status) says in bold whether they are provisional."""
    pdf = _Sheet()
    pdf.set_auto_page_break(auto=True, margin=15)
    pdf.add_page()
    t = pdf.text_of
    pdf.set_font(pdf.family, "B", 16)
    # multi_cell: a long name (a German one) wraps instead of running off the page.
    title = t(f"{event.club.name} – {event.name}")
    pdf.multi_cell(0, 8, title, align="L", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font(pdf.family, "", 10)
    when = formats.date_format(timezone.localtime(event.starts_at), "DATETIME_FORMAT")
    pdf.cell(0, 6, t(when), new_x="LMARGIN", new_y="NEXT")
    if status is not None:
        pdf.set_font(pdf.family, "B", 11)
        pdf.multi_cell(0, 6, t(status["sentence"]), align="L", new_x="LMARGIN", new_y="NEXT")
        pdf.set_font(pdf.family, "", 10)
    pdf.ln(3)

    # fpdf2's table: every cell wraps its text (a word too long for its column, like a
    # long German one, is broken rather than cut or spilled over the next column), each
    # column keeps one alignment for its head and its numbers, and a row too tall for
    # the page goes to the next one with the heads repeated.
    header, rows = result_table(standings)
    widths = sheet_columns(header, rows)
    pdf.set_font(pdf.family, "", 10)
    with pdf.sheet_table(widths, ALIGN, line_height=5.5, padding=(1, PAD_MM)) as table:
        for line in [header, *rows]:
            table.row([t(c) for c in line])
    if not standings:
        pdf.cell(0, 6, t(_("No results yet.")), new_x="LMARGIN", new_y="NEXT")
    elif any(r["details"].get("unfinished") for r in standings):
        pdf.set_font(pdf.family, "", 8)
        pdf.cell(0, 5, t(_("* counts a game not finished")), new_x="LMARGIN", new_y="NEXT")

    if tables:
        pdf.ln(4)
        pdf.set_font(pdf.family, "B", 12)
        pdf.cell(0, 8, t(_("Tables")), new_x="LMARGIN", new_y="NEXT")
        pdf.set_font(pdf.family, "", 9)
        for table in tables:
            scores = ", ".join(f"{p} {table['totals'].get(p, 0)}" for p in table["players"])
            label = _("Round %(round)s, table %(table)s") % table
            progress = f"{table['deals_count']}/{table['deals_target']}"
            if not table["complete"]:
                progress += ", " + _("not finished")
            text = t(f"{label} ({progress}): {scores}")
            pdf.multi_cell(0, 5, text, align="L", new_x="LMARGIN", new_y="NEXT")
    return bytes(pdf.output())

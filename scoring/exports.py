"""Exports of standings: CSV of any standings table, and the printable evening result sheet."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

from django.http import HttpResponse
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from fpdf import FPDF

FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
FONT_BOLD = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")


def standings_rows(
    rows: list[dict[str, Any]], *, league: bool = False, status: dict[str, Any] | None = None
) -> list[list[Any]]:
    """The table as lists of cells, header first (shared by CSV and tests).

    `status` (scoring.selectors.standings_status) adds an evening's columns: each player's
    games not finished, and on every row whether the standings are provisional or final,
    so a sheet copied anywhere still says so.
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
):
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    # A byte-order mark so spreadsheet programs read the accents of names right.
    response.write("\ufeff")
    writer = csv.writer(response)
    for line in standings_rows(rows, league=league, status=status):
        # Cells starting like a formula are quoted so a spreadsheet never runs them.
        writer.writerow(
            [
                f"'{c}" if isinstance(c, str) and c[:1] in "=+-@" and c != "" and not _num(c) else c
                for c in line
            ]
        )
    return response


def _num(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


class _Sheet(FPDF):
    def __init__(self) -> None:
        super().__init__(orientation="P", unit="mm", format="A4")
        if FONT.exists() and FONT_BOLD.exists():
            self.add_font("Sans", "", str(FONT))
            self.add_font("Sans", "B", str(FONT_BOLD))
            self.family = "Sans"
        else:  # no TrueType font on this machine: the core font, Latin-1 only
            self.family = "Helvetica"

    def text_of(self, value: Any) -> str:
        text = "" if value is None else str(value)
        if self.family == "Helvetica":
            return text.encode("latin-1", "replace").decode("latin-1")
        return text


def evening_pdf(
    event: Any,
    standings: list[dict[str, Any]],
    tables: list[dict],
    *,
    status: dict[str, Any] | None = None,
) -> bytes:
    """A one-evening result sheet to print and pin on the club's board; `status`
    (scoring.selectors.standings_status) says in bold whether they are provisional."""
    pdf = _Sheet()
    pdf.set_auto_page_break(auto=True, margin=15)
    pdf.add_page()
    t = pdf.text_of
    pdf.set_font(pdf.family, "B", 16)
    pdf.cell(0, 9, t(f"{event.club.name} – {event.name}"), new_x="LMARGIN", new_y="NEXT")
    pdf.set_font(pdf.family, "", 10)
    when = formats.date_format(timezone.localtime(event.starts_at), "DATETIME_FORMAT")
    pdf.cell(0, 6, t(when), new_x="LMARGIN", new_y="NEXT")
    if status is not None:
        pdf.set_font(pdf.family, "B", 11)
        pdf.multi_cell(0, 6, t(status["sentence"]), new_x="LMARGIN", new_y="NEXT")
        pdf.set_font(pdf.family, "", 10)
    pdf.ln(3)

    widths = [14, 70, 26, 18, 18, 44]
    header = [_("Rank"), _("Player"), _("Points"), _("Games"), _("Wins"), _("Tie-break")]
    pdf.set_font(pdf.family, "B", 10)
    for w, h in zip(widths, header, strict=True):
        pdf.cell(w, 7, t(h), border="B")
    pdf.ln()
    pdf.set_font(pdf.family, "", 10)
    for r in standings:
        games = r["games"]
        if r["details"].get("unfinished"):  # "3*": a game not finished counts in them
            games = f"{games}*"
        cells = [r["rank"], r["player"], r["points"], games, r["details"].get("wins")]
        cells.append(r["tiebreak_label"][:30])
        for i, (w, c) in enumerate(zip(widths, cells, strict=True)):
            pdf.cell(w, 6, t(c), border="B", align="R" if i in (0, 2, 3, 4) else "L")
        pdf.ln()
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
            pdf.multi_cell(
                0, 5, t(f"{label} ({progress}): {scores}"), new_x="LMARGIN", new_y="NEXT"
            )
    return bytes(pdf.output())

"""What the exports of both games share: the CSV download, and the PDF page with its font.

Each game's tables are its own: scoring/barbu/exports.py (an evening's and a league's
standings, the evening result sheet) and scoring/burraco/exports.py.
"""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

from django.http import HttpResponse
from fpdf import FPDF, FontFace

FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
FONT_BOLD = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")
# The width of a table on A4 inside fpdf2's 10 mm margins.
PAGE_MM = 190


def csv_download(lines: list[list[Any]], *, filename: str) -> HttpResponse:
    """The lines as a CSV download (UTF-8 with a byte-order mark for spreadsheets)."""
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    # A byte-order mark so spreadsheet programs read the accents of names right.
    response.write("\ufeff")
    writer = csv.writer(response)
    for line in lines:
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

    def sheet_table(
        self,
        col_widths: tuple[float, ...] | list[float],
        text_align: Any,
        *,
        line_height: float,
        padding: tuple[float, float],
    ) -> Any:
        """The sheets' one table style (fpdf2's table, a context manager): rules between
        the rows, the heads in bold and repeated on every page, from the left margin."""
        return self.table(
            col_widths=col_widths,
            width=sum(col_widths),
            text_align=text_align,
            borders_layout="HORIZONTAL_LINES",
            line_height=line_height,
            padding=padding,
            headings_style=FontFace(emphasis="BOLD"),
            repeat_headings=1,
            align="LEFT",
        )

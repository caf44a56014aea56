"""One way to read a CSV pasted or uploaded by an organiser (the players' import, the
pairs' import of a Burraco tournament): a spreadsheet's export as it comes, whatever the
program and the country.

An Italian (or German, French, Spanish) spreadsheet writes semicolons between the cells,
Windows line ends and often a byte-order mark, and Excel's "CSV" is Windows-1252 rather
than UTF-8; a header line names the columns in the organiser's language (``nome;email;
ruolo``). ``csv_rows`` reads the cells whichever separator the first line uses;
``header_columns`` maps a header line's names to the importer's own column keys.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping

BOM = "\ufeff"
# Tried in this order on the first line that has any: the most cells wins.
SEPARATORS = (";", "\t", ",")


def decode_upload(data: bytes) -> str:
    """An uploaded file's text: UTF-8 (with or without a byte-order mark), else the
    Windows-1252 an older Excel writes (which decodes any byte)."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252")


def _separator(lines: list[str]) -> str:
    first = next((line for line in lines if line.strip()), "")
    counts = {sep: len(next(csv.reader([first], delimiter=sep))) for sep in SEPARATORS}
    best = max(SEPARATORS, key=lambda sep: counts[sep])
    return best if counts[best] > 1 else ","


def csv_rows(text: str) -> list[tuple[int, list[str]]]:
    """The non-blank rows of a CSV text with their line numbers (from 1), each cell
    stripped: a byte-order mark dropped, any line end (CRLF, CR, LF), the separator
    (semicolon, tab or comma) read from the first line, quotes as a spreadsheet writes
    them."""
    text = text.lstrip(BOM).replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    reader = csv.reader(io.StringIO(text), delimiter=_separator(lines))
    rows = []
    for row in reader:
        cells = [cell.replace(BOM, "").strip() for cell in row]
        if any(cells):
            rows.append((reader.line_num, cells))
    return rows


def _folded(name: str) -> str:
    return " ".join(name.replace("_", " ").replace("-", " ").casefold().split())


def header_columns(row: list[str], names: Mapping[str, str]) -> list[str] | None:
    """A header line's column keys, or None when the row is data: ``names`` maps each
    accepted column name (any language, any case; spaces, dashes and underscores alike)
    to its key. A row is a header when one of its cells is such a name; an unknown
    column is kept under its own name, for the importer to name it in an error."""
    known = {_folded(name): key for name, key in names.items()}
    keys = [known.get(_folded(cell)) for cell in row]
    if not any(keys):
        return None
    return [key or cell for key, cell in zip(keys, row, strict=True)]

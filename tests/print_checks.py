"""Print checks with poppler-utils: a PDF's words with their places on the page
(pdftotext -bbox), its pages as PNG for a person to look at and as grey pixels to check
(pdftoppm). Tests using them skip, saying why, where poppler-utils is not installed."""

from __future__ import annotations

import html
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest

PDFTOTEXT = shutil.which("pdftotext")
PDFTOPPM = shutil.which("pdftoppm")
needs_poppler = pytest.mark.skipif(
    not (PDFTOTEXT and PDFTOPPM),
    reason="pdftotext and pdftoppm are missing: apt-get install poppler-utils",
)
MM = 72 / 25.4  # PDF points in a millimetre

_PAGE = re.compile(r'<page width="([\d.]+)" height="([\d.]+)">(.*?)</page>', re.S)
_WORD = re.compile(
    r'<word xMin="([\d.-]+)" yMin="([\d.-]+)" xMax="([\d.-]+)" yMax="([\d.-]+)">(.*?)</word>'
)


@dataclass(frozen=True)
class Word:
    page: int
    text: str
    x0: float  # points from the page's left edge
    y0: float  # points from the page's top edge
    x1: float
    y1: float


@dataclass(frozen=True)
class Page:
    number: int
    width: float
    height: float
    words: tuple[Word, ...]


def pdf_pages(data: bytes) -> list[Page]:
    """Every page of the PDF with its words and their boxes, in points."""
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "in.pdf"
        source.write_bytes(data)
        out = Path(folder) / "words.html"
        subprocess.run([PDFTOTEXT, "-bbox", str(source), str(out)], check=True)
        text = out.read_text(encoding="utf-8")
    pages = []
    for number, (width, height, body) in enumerate(_PAGE.findall(text), start=1):
        words = tuple(
            Word(number, html.unescape(w), float(a), float(b), float(c), float(d))
            for a, b, c, d, w in _WORD.findall(body)
        )
        pages.append(Page(number, float(width), float(height), words))
    return pages


def words_outside(pages: list[Page], *, margin_mm: float) -> list[str]:
    """The words that reach into the page's margin or past its edges."""
    out = []
    for page in pages:
        m = margin_mm * MM - 0.5  # half a point of rounding
        for w in page.words:
            if w.x0 < m or w.y0 < m or w.x1 > page.width - m or w.y1 > page.height - m:
                out.append(f"page {page.number}: {w.text!r} at ({w.x0:.1f}, {w.y0:.1f})")
    return out


def pdf_to_png(data: bytes, prefix: Path, *, dpi: int = 80) -> list[Path]:
    """The pages as PNG files `prefix-1.png`, `prefix-2.png`... (older ones removed)."""
    prefix.parent.mkdir(parents=True, exist_ok=True)
    for old in prefix.parent.glob(f"{prefix.name}-*.png"):
        old.unlink()
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "in.pdf"
        source.write_bytes(data)
        subprocess.run([PDFTOPPM, "-png", "-r", str(dpi), str(source), str(prefix)], check=True)
    # pdftoppm numbers pages with as many digits as the last page needs: "-1", "-01"...
    return sorted(prefix.parent.glob(f"{prefix.name}-*.png"))


def grey_pages(data: bytes, *, dpi: int = 40) -> list[tuple[int, int, bytes]]:
    """Each page as (width, height, grey bytes row by row; 255 is white)."""
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "in.pdf"
        source.write_bytes(data)
        subprocess.run(
            [PDFTOPPM, "-gray", "-r", str(dpi), str(source), str(Path(folder) / "p")], check=True
        )
        pages = []
        for path in sorted(Path(folder).glob("p-*.pgm")):
            raw = path.read_bytes()
            # PGM (P5): magic, width, height, maximum value, then one byte a pixel.
            head = raw.split(maxsplit=4)
            width, height = int(head[1]), int(head[2])
            pages.append((width, height, raw[len(raw) - width * height :]))
    return pages


def ink_in_margin(data: bytes, *, margin_mm: float, dpi: int = 40) -> list[str]:
    """The pages with anything darker than near-white in their margins."""
    out = []
    for number, (width, height, pixels) in enumerate(grey_pages(data, dpi=dpi), start=1):
        m = int(margin_mm / 25.4 * dpi)
        for y in range(height):
            row = pixels[y * width : (y + 1) * width]
            inside = m <= y < height - m
            cells = (row[:m] + row[width - m :]) if inside else row
            if cells and min(cells) < 200:
                out.append(f"page {number}: ink in the margin on pixel row {y} of {height}")
                break
    return out


A4_MM = (210.0, 297.0)


def a4_problems(pages: list[Page], *, tolerance_mm: float = 1.0) -> list[str]:
    """The pages that are not A4 portrait."""
    out = []
    for page in pages:
        size = (page.width / MM, page.height / MM)
        if any(abs(got - want) > tolerance_mm for got, want in zip(size, A4_MM, strict=True)):
            out.append(
                f"page {page.number}: {size[0]:.1f} x {size[1]:.1f} mm, not A4 (210 x 297 mm)"
            )
    return out

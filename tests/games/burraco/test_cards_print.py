"""Blank Burraco score cards (games/burraco/cards_print.py), read back with poppler's tools."""

from __future__ import annotations

import re
import shutil
import subprocess
from html import unescape
from pathlib import Path

import pytest
from django.conf import settings
from PIL import Image

from games.burraco.cards_print import MARGIN, PAGE_H, PAGE_W, score_cards_pdf
from scoring.engine.burraco import PRESETS
from scoring.engine.burraco.presets import vp_bands

PDFTOTEXT = "/usr/bin/pdftotext"
PDFTOPPM = "/usr/bin/pdftoppm"
LANGUAGES = [code for code, _name in settings.LANGUAGES]
MM = 72 / 25.4
LONG = "Schwarzenberger-Hohenlohe / Müller-Lüdenscheidt / Donaudampfschifffahrt"
TABLES = [(t, f"{t} – Rossi / Bianchi", f"{t + 9} – {LONG}") for t in range(1, 7)]
WORD = re.compile(
    r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*?)</word>'
)


def _words(pdf: bytes, tmp_path: Path) -> list[list[tuple[float, float, float, float, str]]]:
    """Each page's words with their boxes, in points from the top left."""
    if not Path(PDFTOTEXT).exists():
        pytest.skip(f"{PDFTOTEXT} is not installed (poppler-utils)")
    source = tmp_path / "cards.pdf"
    source.write_bytes(pdf)
    html = subprocess.run(
        [PDFTOTEXT, "-bbox", str(source), "-"], capture_output=True, text=True, check=True
    ).stdout
    pages = html.split("<page ")[1:]
    return [
        [(float(a), float(b), float(c), float(d), unescape(w)) for a, b, c, d, w in WORD.findall(p)]
        for p in pages
    ]


def _cards(per_page: int) -> list[tuple[float, float, float, float]]:
    """The card rectangles of a page, in points."""
    columns = 1 if per_page == 2 else 2
    w, h = PAGE_W / columns - 2 * MARGIN, PAGE_H / 2 - 2 * MARGIN
    out = []
    for slot in range(per_page):
        row, column = divmod(slot, columns)
        x, y = column * PAGE_W / columns + MARGIN, row * PAGE_H / 2 + MARGIN
        out.append((x * MM, y * MM, (x + w) * MM, (y + h) * MM))
    return out


def _inside(word: tuple, card: tuple) -> bool:
    x0, y0, x1, y1, _text = word
    return card[0] <= x0 and x1 <= card[2] + 0.5 and card[1] <= y0 and y1 <= card[3] + 0.5


@pytest.mark.parametrize("per_page", [2, 4])
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_word_stays_inside_its_card(language: str, per_page: int, tmp_path: Path) -> None:
    hands = 4
    pdf = score_cards_pdf(
        event_name="Torneo del giovedì sera – Circolo Burraco Roma Nord, Sala grande",
        turn=3,
        hands=hands,
        tables=TABLES,
        vp_table=PRESETS["fibur"].vp_tables[hands],
        language=language,
        per_page=per_page,
    )
    pages = _words(pdf, tmp_path)
    assert len(pages) == -(-len(TABLES) // per_page)
    cards = _cards(per_page)
    for number, words in enumerate(pages):
        assert words
        for word in words:
            assert any(_inside(word, card) for card in cards), (language, number, word)
        text = " ".join(w[4] for w in words)
        # The table numbers of the page, and the VP table's last band, on every card.
        first = number * per_page + 1
        for table in range(first, min(first + per_page, len(TABLES) + 1)):
            assert f"{table} – Rossi" in text
        assert text.count("≥ 2005") == min(per_page, len(TABLES) - number * per_page)


def test_the_vp_table_is_printed_on_the_card(tmp_path: Path) -> None:
    pdf = score_cards_pdf(
        event_name="Serata",
        turn=1,
        hands=3,
        tables=[(1, "1", "8")],
        vp_table=PRESETS["fibur"].vp_tables[3],
        language="en",
    )
    (words,) = _words(pdf, tmp_path)
    text = " ".join(w[4] for w in words)
    for start, end, win, lose in vp_bands(PRESETS["fibur"].vp_tables[3]):
        band = f"{start}–{end}" if end is not None else f"≥ {start}"
        assert band in text and f"{win}–{lose}" in text
    for words_expected in ("Turn 1", "Table 1", "Hand 3", "Total", "Difference", "Signature"):
        assert words_expected in text
    assert "Hand 4" not in text


def test_german_words(tmp_path: Path) -> None:
    pdf = score_cards_pdf(
        event_name="Turnier",
        turn=2,
        hands=3,
        tables=[(4, "4", "11")],
        vp_table=PRESETS["fibur"].vp_tables[3],
        language="de",
        per_page=4,
    )
    (words,) = _words(pdf, tmp_path)
    text = " ".join(w[4] for w in words)
    for german in ("Runde 2", "Tisch 4", "3 Spiele", "Summe", "Differenz", "Unterschrift"):
        assert german in text, text


def test_bad_requests() -> None:
    with pytest.raises(ValueError, match="2 or 4"):
        score_cards_pdf(
            event_name="x", turn=1, hands=3, tables=[], vp_table=(), language="en", per_page=3
        )
    empty = score_cards_pdf(
        event_name="x", turn=1, hands=2, tables=[], vp_table=(), language="en", per_page=4
    )
    assert empty.startswith(b"%PDF")


@pytest.mark.parametrize("language", ["en", "de"])
def test_rendered_page_has_white_margins(language: str, tmp_path: Path) -> None:
    """The page as a printer sees it: ink only inside the cards, none in the margins."""
    if not Path(PDFTOPPM).exists() or shutil.which(PDFTOPPM) is None:
        pytest.skip(f"{PDFTOPPM} is not installed (poppler-utils)")
    pdf = score_cards_pdf(
        event_name="Torneo",
        turn=1,
        hands=3,
        tables=TABLES[:4],
        vp_table=PRESETS["fibur"].vp_tables[3],
        language=language,
        per_page=4,
    )
    source = tmp_path / "cards.pdf"
    source.write_bytes(pdf)
    subprocess.run(
        [PDFTOPPM, "-r", "50", "-png", "-singlefile", str(source), str(tmp_path / "page")],
        check=True,
    )
    image = Image.open(tmp_path / "page.png").convert("L")
    width, height = image.size
    edge = int(MARGIN * 0.8 / PAGE_W * width)  # a little inside the margin
    strips = [
        image.crop((0, 0, width, edge)),
        image.crop((0, height - edge, width, height)),
        image.crop((0, 0, edge, height)),
        image.crop((width - edge, 0, width, height)),
    ]
    assert all(strip.getextrema()[0] > 250 for strip in strips)
    # and there is ink on the page
    assert image.getextrema()[0] < 50

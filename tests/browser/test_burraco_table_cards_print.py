"""A Burraco turn's table cards print right on A4, in Italian and German: each card holds
its text inside its border (at A4's width and a laptop's), the PDF Chromium prints
(page.pdf, A4) has every page A4, no word off the page or in its margins, the long names
whole; and each card's QR code, as printed, is the code of the URL written under it,
module by module, at a size a phone reads (46 mm, modules of half a millimetre or more).

The printed pages are written as PNG to var/screenshots/print/<language>/burraco-cards-N.png
(PAGE_SCREENSHOTS=folder for another place) for a person to look at."""

from __future__ import annotations

import io

import pytest
import segno
from PIL import Image

from games.burraco import tournaments
from tests.browser.prints import CARD_BOXES_JS, WIDTHS
from tests.browser.walk import SHOTS, localised
from tests.factories import make_organiser
from tests.games.burraco.builders import tournament
from tests.print_checks import (
    a4_problems,
    ink_in_margin,
    needs_poppler,
    pdf_pages,
    pdf_to_png,
    words_outside,
)

pytestmark = [pytest.mark.browser, needs_poppler, pytest.mark.django_db(transaction=True)]

LANGUAGES = ["it", "de"]
PX_MM = 25.4 / 96  # a CSS pixel in millimetres
QR_BORDER = 2  # modules of quiet zone (games/cards.qr_svg)
LONG = ("Maximiliane Hohenzollern-Sigmaringen", "Donaudampfschifffahrtskapitän Brünhild")


def qr_matches(png: bytes, url: str) -> list[str]:
    """Where the QR code drawn in `png` differs from `url`'s code (segno, error level M),
    sampling the middle of each module; empty when the picture is that code."""
    image = Image.open(io.BytesIO(png)).convert("L")
    matrix = segno.make(url, error="m").matrix
    count = len(matrix) + 2 * QR_BORDER
    width, height = image.size
    wrong = []
    for row, line in enumerate(matrix):
        for column, dark in enumerate(line):
            x = int((column + QR_BORDER + 0.5) * width / count)
            y = int((row + QR_BORDER + 0.5) * height / count)
            if (image.getpixel((x, y)) < 128) != bool(dark):
                wrong.append(f"module ({row}, {column})")
    return wrong


@pytest.fixture
def seated_turn():
    event = tournament(9)  # four tables and a bye
    event.name = "Vereinsmeisterschaftsabschlussturnier Burraco-Wintermeisterschaft"
    event.save(update_fields=["name"])
    pair = event.pairs.get(number=1)
    for player, name in zip((pair.player_a, pair.player_b), LONG, strict=True):
        player.name = name
        player.save(update_fields=["name"])
    make_organiser(event.club, "referee")
    rnd = tournaments.turn_seat(event=event, movement="first").round
    return event, rnd


def test_burraco_table_cards_print_on_a4_with_readable_qr_codes(
    browser, live_server, seated_turn
) -> None:
    event, rnd = seated_turn
    tables = rnd.tables.count()
    problems = []
    for language in LANGUAGES:
        context = browser.new_context(
            viewport=WIDTHS["1366"], locale=language, device_scale_factor=2
        )
        page = context.new_page()
        page.goto(f"{live_server.url}{localised('login', language)}?next=/")
        page.fill("#id_username", "referee")
        page.fill("#id_password", "tavolo-test")
        with page.expect_navigation():
            page.locator("main form button[type=submit]").click()
        url = localised("table-cards", language, event.club.slug, event.pk, rnd.number)
        page.goto(live_server.url + url)
        assert page.locator(".card").count() == tables
        page.emulate_media(media="print")
        for width, viewport in WIDTHS.items():
            page.set_viewport_size(viewport)
            problems += [f"[{language} {width}] {p}" for p in page.evaluate(CARD_BOXES_JS)]
        page.set_viewport_size(WIDTHS["a4"])
        for number in range(1, tables + 1):
            card = page.locator(f"#card-{number}")
            qr = card.locator("svg.qr")
            box = qr.bounding_box()
            modules = len(segno.make(card.locator(".entry-link").inner_text()).matrix)
            size_mm = box["width"] * PX_MM
            if size_mm < 30 or size_mm / (modules + 2 * QR_BORDER) < 0.5:
                problems.append(f"[{language}] card {number}: QR {size_mm:.1f} mm is too small")
            link = card.locator(".entry-link").inner_text()
            wrong = qr_matches(qr.screenshot(), link)
            if wrong:
                problems.append(f"[{language}] card {number}: QR is not {link}: {wrong[:5]}")
        data = page.pdf(format="A4", print_background=True, prefer_css_page_size=True)
        pdf_to_png(data, SHOTS / "print" / language / "burraco-cards", dpi=80)
        pages = pdf_pages(data)
        problems += [f"[{language} pdf] {p}" for p in a4_problems(pages)]
        problems += [f"[{language} pdf] {p}" for p in words_outside(pages, margin_mm=9)]
        problems += [f"[{language} pdf] {p}" for p in ink_in_margin(data, margin_mm=8)]
        text = " ".join(w.text for p in pages for w in p.words)
        # Long names wrap at their spaces and hyphens, never cut.
        for part in ("Maximiliane", "Hohenzollern-", "Sigmaringen", "Brünhild"):
            if part not in text:
                problems.append(f"[{language} pdf] {part!r} of a long name is not printed")
        if len(pages) != -(-tables // 4):
            problems.append(f"[{language} pdf] {len(pages)} pages for {tables} cards")
        context.close()
    assert not problems, "\n".join(problems)


def test_the_qr_check_sees_another_url() -> None:
    """qr_matches reads the modules: the code of another URL does not pass for this one."""
    code = segno.make("http://example.org/t/abc/", error="m")
    out = io.BytesIO()
    code.save(out, kind="png", scale=8, border=QR_BORDER)
    assert qr_matches(out.getvalue(), "http://example.org/t/abc/") == []
    assert qr_matches(out.getvalue(), "http://example.org/t/abd/")

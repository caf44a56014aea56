"""An individual tournament's table cards print on A4 with every player's name whole: a
line holds two players, each on a line of its own with its number, so a name is never
split across lines nor cut inside a word, in Italian and German. The pages go to
var/screenshots/print/<language>/individual-cards-N.png for a person to look at."""

from __future__ import annotations

import pytest

from games.burraco import tournaments
from tests.browser.prints import CARD_BOXES_JS, WIDTHS
from tests.browser.walk import LANGUAGES, SHOTS, localised
from tests.factories import make_organiser
from tests.games.burraco.builders import individual_tournament
from tests.print_checks import (
    a4_problems,
    ink_in_margin,
    needs_poppler,
    pdf_pages,
    pdf_to_png,
    words_outside,
)

pytestmark = [pytest.mark.browser, needs_poppler, pytest.mark.django_db(transaction=True)]

NAMES = (
    "Maximiliane Hohenzollern-Sigmaringen",
    "Donaudampfschifffahrtskapitän Brünhild",
    "Piergiorgio Castelfranchi Ludovisi",
    "Annamaria Bevilacqua",
    "Massimiliano Caracciolo",
    "Giovanbattista Montecuccoli",
    "Mariagrazia Scaramuzza",
    "Ferdinando Sanseverino",
)


def _whole_words(names: tuple[str, ...]) -> set[str]:
    """The pieces a name may print as: its words, and a hyphenated word's two halves
    (the first with its hyphen, where the line may wrap)."""
    out = set()
    for name in names:
        for word in name.split():
            out.add(word)
            if "-" in word:
                head, tail = word.split("-", 1)
                out.update((f"{head}-", tail))
    return out


def test_individual_table_cards_print_every_name_whole(browser, live_server) -> None:
    event = individual_tournament(8)
    for entry, name in zip(event.pairs.order_by("number"), NAMES, strict=True):
        entry.player_a.name = name
        entry.player_a.save(update_fields=["name"])
    make_organiser(event.club, "referee")
    rnd = tournaments.turn_seat(event=event, movement="individual").round
    tables = rnd.tables.count()
    allowed = _whole_words(NAMES)
    fragments = {w[:4] for w in allowed}
    problems = []
    for language in LANGUAGES:
        context = browser.new_context(viewport=WIDTHS["a4"], locale=language)
        page = context.new_page()
        page.goto(f"{live_server.url}{localised('login', language)}?next=/")
        page.fill("#id_username", "referee")
        page.fill("#id_password", "tavolo-test")
        with page.expect_navigation():
            page.locator("main form button[type=submit]").click()
        page.goto(
            live_server.url + localised("table-cards", language, event.club.slug, event.pk, 1)
        )
        page.emulate_media(media="print")
        problems += [f"[{language}] {p}" for p in page.evaluate(CARD_BOXES_JS)]
        data = page.pdf(format="A4", print_background=True, prefer_css_page_size=True)
        pdf_to_png(data, SHOTS / "print" / language / "individual-cards", dpi=80)
        pages = pdf_pages(data)
        problems += [f"[{language} pdf] {p}" for p in a4_problems(pages)]
        problems += [f"[{language} pdf] {p}" for p in words_outside(pages, margin_mm=9)]
        problems += [f"[{language} pdf] {p}" for p in ink_in_margin(data, margin_mm=8)]
        printed = [w.text for p in pages for w in p.words]
        for name in NAMES:
            for word in name.split():
                if word not in printed and not (
                    "-" in word
                    and {f"{word.split('-')[0]}-", word.split("-", 1)[1]} <= set(printed)
                ):
                    problems.append(f"[{language} pdf] {word!r} of {name!r} is not printed whole")
        # Each name on one printed line, its number just before it: a name is never split
        # (nor its number from it) unless it alone is wider than the card.
        words = [w for p in pages for w in p.words]
        for entry, name in enumerate(NAMES, start=1):
            at = [i for i, w in enumerate(words[:-1]) if w.text == f"{entry}."]
            span, joined = [], ""
            for w in words[at[0] + 1 :] if at else []:
                span.append(w)
                joined += w.text if joined.endswith("-") or not joined else f" {w.text}"
                if len(joined) >= len(name):
                    break
            lines = {(w.page, round(w.y0)) for w in [words[at[0]], *span]} if at else set()
            # A name wider than the card (the first two here) may wrap at its spaces.
            if joined != name or (len(lines) != 1 and len(f"{entry}. {name}") <= 36):
                problems.append(f"[{language} pdf] {entry}. {name} is split: {joined!r}")
        # A piece of a name that is no whole word of it: a name cut mid-word.
        for text in printed:
            bare = text.strip(".,–")
            if bare[:4] in fragments and bare not in allowed:
                problems.append(f"[{language} pdf] {text!r}: a name cut inside a word")
        if len(pages) != -(-tables // 4):
            problems.append(f"[{language} pdf] {len(pages)} pages for {tables} cards")
        context.close()
    assert not problems, "\n".join(problems)

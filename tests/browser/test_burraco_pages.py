"""A running Burraco tournament's pages in a browser: the referee's desk, a turn's table
cards, the public ranking and a table's score card (choosing the line, then entering a
hand) fit a phone (390 px) and a laptop (1366 px) and pass axe (WCAG 2.1 A and AA), in
Italian (the longer words), as tests/browser/test_pages.py checks the demo's pages; the
score card also as the table page is held to (text at 16 px or more, every control at
least 44x44 px, no word broken). Screenshots in var/screenshots/burraco/<language>/<width>/."""

from __future__ import annotations

import pytest

from games.burraco import scorecards, tournaments
from tests.browser.walk import SHOTS, Walk, localised
from tests.factories import make_organiser
from tests.games.burraco.builders import play_table, tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = {"390": {"width": 390, "height": 844}, "1366": {"width": 1366, "height": 900}}


def test_desk_table_cards_and_ranking_fit_and_pass_axe(live_server, browser, axe) -> None:
    language = "it"
    event = tournament(7)
    club = event.club
    club.language = language
    club.save()
    make_organiser(club, "referee")
    rnd = tournaments.turn_seat(event=event, movement="first").round
    first, second, _third = rnd.tables.order_by("number")
    play_table(first.game, [(300, 100)] * 3)
    play_table(second.game, [(100, 300)] * 2, confirm=False)
    bye = rnd.pair_results.get(bye=True)
    scorecards.penalty_set(
        round_id=rnd.pk, pair_id=bye.pair_id, vp=1, mp=50, reason="late", by_user=None
    )
    problems: list[str] = []
    for width, size in WIDTHS.items():
        context = browser.new_context(viewport=size, locale=language)
        try:
            page = context.new_page()
            walk = Walk(page, live_server.url, language, width)
            walk.folder = SHOTS / "burraco" / language / width
            walk.folder.mkdir(parents=True, exist_ok=True)
            page.goto(f"{live_server.url}{localised('login', language)}?next=/")
            page.fill("#id_username", "referee")
            page.fill("#id_password", "tavolo-test")
            with page.expect_navigation():
                page.locator("main form button[type=submit]").click()
            walk.open("desk", localised("burraco-desk", language, club.slug, event.pk), axe)
            cards = localised("table-cards", language, club.slug, event.pk, 1)
            walk.open("cards", cards, axe)  # not "table-...": the table page's own checks
            walk.open("ranking", localised("scoring:event", language, event.pk), axe)
            card = localised("burraco-card", language, second.key)
            walk.open("table-card-line", card, axe)
            with page.expect_navigation():
                page.locator('#line-choice button[value="NS"]').click()
            walk.check("table-card-entry", axe)
            problems += walk.problems
        finally:
            context.close()
    assert not problems, "\n".join(problems)


# Each word of the correction table's heads on one line (a line may end at a hyphen), and
# each hand's input as tall as a finger needs (44 px): the referee corrects on a phone too.
CORRECTION_JS = """() => {
  const out = [];
  for (const th of document.querySelectorAll("table.correct-hands thead th")) {
    const node = th.firstChild;
    for (const match of node.textContent.matchAll(/[^\\s\\-]+/g)) {
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const lines = [...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0);
      if (lines.length > 1) out.push(`"${match[0]}" is broken over ${lines.length} lines`);
    }
  }
  for (const input of document.querySelectorAll("table.correct-hands input")) {
    const r = input.getBoundingClientRect();
    if (r.height < 43.5) out.push(`${input.name} is ${Math.round(r.height)} px tall`);
  }
  return out;
}"""


@pytest.mark.parametrize("language", ["it", "de", "fr"])
def test_the_correction_page_fits_a_phone(live_server, browser, axe, language: str) -> None:
    """The score card's correction at 390 px: "Smazzata", "Spiel", "Donne" whole in the
    first column's head (it broke as "Smazza-/ta"), inputs 44 px tall, axe clean."""
    event = tournament(7)
    club = event.club
    make_organiser(club, "referee")
    rnd = tournaments.turn_seat(event=event, movement="first").round
    game = rnd.tables.order_by("number").first().game
    play_table(game, [(300, 100)] * 3)
    context = browser.new_context(viewport=WIDTHS["390"], locale=language)
    try:
        page = context.new_page()
        walk = Walk(page, live_server.url, language, "390")
        walk.folder = SHOTS / "burraco" / language / "390"
        walk.folder.mkdir(parents=True, exist_ok=True)
        page.goto(f"{live_server.url}{localised('login', language)}?next=/")
        page.fill("#id_username", "referee")
        page.fill("#id_password", "tavolo-test")
        with page.expect_navigation():
            page.locator("main form button[type=submit]").click()
        path = localised("burraco-card-correct", language, club.slug, event.pk, game.pk)
        walk.open("correct", path, axe)
        heads = page.locator("table.correct-hands thead th").all_inner_texts()
        assert heads[0].strip() == {"it": "Smazzata", "de": "Spiel", "fr": "Donne"}[language]
        problems = walk.problems + page.evaluate(CORRECTION_JS)
    finally:
        context.close()
    assert not problems, "\n".join(problems)

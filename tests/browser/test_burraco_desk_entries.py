"""The desk's entries in a browser at a phone's width (390 px), in Italian and English,
with axe (issue 31): 26 pairs, one checked in with a tap that changes its row and leaves
the page where it was, "Check in all", the close tick box big enough for a finger, the
import page's preview of an Italian spreadsheet, the late-entry warning and the history.
Screenshots (PAGE_SCREENSHOTS) in <folder>/<language>/390/desk-entries-*.png."""

from __future__ import annotations

import pytest

from games.burraco import tournaments
from tests.browser.walk import Walk, localised
from tests.factories import make_organiser, make_player
from tests.games.burraco.builders import burraco_club, play_turn, tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
WORDS = {
    "en": {"checked": "checked in", "late": "the Mitchell cannot seat turn 2"},
    "it": {"checked": "presente", "late": "il Mitchell non può disporre il turno 2"},
}


@pytest.mark.parametrize("language", ["it", "en"])
def test_the_desks_entries_at_a_phones_width(live_server, browser, axe, language) -> None:
    club = burraco_club(language=language)
    make_organiser(club, "referee")
    event = tournament(26, club=club)
    played = tournament(4, club=club, turns=1)
    play_turn(tournaments.turn_seat(event=played, movement="first").round)
    context = browser.new_context(viewport=PHONE, locale=language)
    try:
        page = context.new_page()
        walk = Walk(page, live_server.url, language, "390")
        page.goto(f"{live_server.url}{localised('login', language)}?next=/")
        page.fill("#id_username", "referee")
        page.fill("#id_password", "tavolo-test")
        with page.expect_navigation():
            page.locator("main form button[type=submit]").click()
        desk = localised("burraco-desk", language, club.slug, event.pk)
        walk.open("desk-entries", desk, axe)
        # A check-in far down the list: the row changes, the page stays where it was.
        row = page.locator("#pair-20")
        row.scroll_into_view_if_needed()
        before = page.evaluate("window.scrollY")
        assert before > 1000
        row.locator("button.checkin").click()
        page.wait_for_function(
            "w => document.querySelector('#pair-20 .entry-state').textContent.includes(w)",
            arg=WORDS[language]["checked"],
        )
        assert abs(page.evaluate("window.scrollY") - before) < 5
        assert event.pairs.get(number=20).checked_in
        walk.check("desk-entries-checked", axe, audit=False)
        with page.expect_navigation():
            page.locator("#checkin-all-submit").click()
        assert not event.pairs.filter(checked_in=False).exists()
        walk.check("desk-entries-all", axe)
        # The close tick box: 44 px to tap, on a played tournament's desk.
        walk.open("desk-close", localised("burraco-desk", language, club.slug, played.pk), axe)
        label = page.locator("#close-tournament label.tap").bounding_box()
        box = page.locator("#close-confirm").bounding_box()
        assert label["height"] >= 44 and box["width"] >= 24 and box["height"] >= 24
        # The import page's preview of an Italian export, then the pairs entered.
        importer = localised("burraco-pairs-import", language, club.slug, event.pk)
        walk.open("desk-import", importer, axe)
        page.fill(
            "#id_text",
            "coppia;giocatore 1;tessera 1;giocatore 2;tessera 2\n"
            ";Anna Rossi;IT001;Bruno Neri;\n;Player 1a;;Carla Bianchi;\n",
        )
        with page.expect_navigation():
            page.locator("#pairs-import-check").click()
        assert page.locator("#import-preview tr.attention").count() == 1
        walk.check("desk-import-preview", axe)
        # A late pair after turn 1 is seated: the warning, then the history.
        seated = tournament(6, club=club)
        tournaments.turn_seat(event=seated, movement="first")
        late_a, late_b = make_player(club, "Late A"), make_player(club, "Late B")
        page.goto(live_server.url + localised("burraco-desk", language, club.slug, seated.pk))
        page.select_option("#id_player_a", str(late_a.pk))
        page.select_option("#id_player_b", str(late_b.pk))
        with page.expect_navigation():
            page.locator("#pair-add-submit").click()
        assert WORDS[language]["late"] in page.locator("main").inner_text()
        walk.check("desk-late-entry", axe)
        assert page.locator("#history li").count() >= 8
    finally:
        context.close()
    assert not walk.problems, "\n".join(walk.problems)

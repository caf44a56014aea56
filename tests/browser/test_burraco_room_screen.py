"""The room's screen of a Burraco tournament at 1920 px, and the day's pages a player opens
on a phone at 390 px (an entry's seats, a day's table code not used in a turn, an old
turn's card), in Italian and English: nothing scrolls sideways or is clipped, axe finds
nothing, nothing is loaded from another host; the screen's type is large and each of
its columns scrolls by itself."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.burraco import event_tables, tournaments
from tests.browser.walk import Walk, localised
from tests.games.burraco.builders import pair
from tests.scoring.burraco.day import day

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LANGUAGES = ["it", "en"]
SCREEN = {"width": 1920, "height": 1080}
PHONE = {"width": 390, "height": 844}

# The size of the screen's text, and where each column stands in its scrolling.
SCREEN_JS = """() => {
  const cell = document.querySelector("#screen-ranking tbody td:nth-child(2)");
  const seat = document.querySelector("#screen-seating tbody td:nth-child(2)");
  const scroller = document.querySelector("#screen-ranking .scroller");
  return {
    ranking: parseFloat(getComputedStyle(cell).fontSize),
    seating: parseFloat(getComputedStyle(seat).fontSize),
    room: scroller.scrollHeight - scroller.clientHeight,
    top: scroller.scrollTop,
    width: document.documentElement.scrollWidth,
  };
}"""


def test_the_room_screen_at_1920_px(browser, live_server, axe) -> None:
    event = day(27, long_names=True)
    turn = event.rounds.get(number=2)
    problems = []
    for language in LANGUAGES:
        context = browser.new_context(viewport=SCREEN, locale=language)
        page = context.new_page()
        walk = Walk(page, live_server.url, language, "1920")
        walk.open("burraco-screen", localised("scoring:burraco-screen", language, event.pk), axe)
        problems += walk.problems
        seen = page.evaluate(SCREEN_JS)
        if seen["ranking"] < 24 or seen["seating"] < 24:
            problems.append(f"[{language}] text too small for a room: {seen}")
        if seen["width"] > SCREEN["width"]:
            problems.append(f"[{language}] the screen is {seen['width']} px wide")
        if seen["room"] <= 0:
            problems.append(f"[{language}] 27 pairs should not fit without scrolling: {seen}")
        for table in turn.tables.all():  # every table, shown now or further down
            if page.locator(f"#screen-table-{table.number}").count() != 1:
                problems.append(f"[{language}] table {table.number} is not on the screen")
        # It scrolls by itself, after a rest at the top.
        page.wait_for_function(
            "() => document.querySelector('#screen-ranking .scroller').scrollTop > 20",
            timeout=15000,
        )
        problems += [p for p in walk.problems if p not in problems]
        context.close()
    assert not problems, "\n".join(problems)


def test_a_players_day_pages_at_390_px(browser, live_server, axe) -> None:
    event = day(6, long_names=True)
    keys = event_tables.table_keys(event, 3)
    old = event.rounds.get(number=1).tables.get(number=1)
    # Table 3 is not used in a turn seated without two pairs.
    tournaments.pair_withdraw(pair=pair(event, 5))
    problems = []
    for language in LANGUAGES:
        context = browser.new_context(viewport=PHONE, locale=language)
        page = context.new_page()
        walk = Walk(page, live_server.url, language, "390")
        walk.open("burraco-entry", localised("scoring:burraco-entry", language, event.pk, 1), axe)
        walk.open("burraco-event", localised("scoring:event", language, event.pk), axe)
        walk.open("burraco-old-card", localised("burraco-card", language, old.key), axe)
        if not page.locator("#newer-turn").is_visible():
            problems.append(f"[{language}] the old card does not say where its table plays now")
        walk.open("burraco-day-table", localised("burraco-table-of-day", language, keys[1]), axe)
        if reverse("burraco-card", args=["x"]).split("x")[0] not in page.url:
            problems.append(f"[{language}] the day's code of table 1 did not open its card")
        problems += walk.problems
        context.close()
    assert not problems, "\n".join(problems)


def test_the_room_screen_shows_a_change_by_itself(browser, live_server) -> None:
    """A withdrawal at the desk reaches the screen without a reload (its rests shortened
    for the test: data-rest, data-refresh); nothing changed, the screen's fetch is a 304."""
    event = day(5)
    context = browser.new_context(viewport=SCREEN, locale="en")
    page = context.new_page()
    statuses = []
    screen = localised("scoring:burraco-screen", "en", event.pk)
    page.on("response", lambda r: statuses.append(r.status) if r.url.endswith(screen) else None)
    page.goto(live_server.url + screen)
    page.evaluate(
        "() => { const s = document.getElementById('screen');"
        " s.setAttribute('data-rest', '100'); s.setAttribute('data-refresh', '300'); }"
    )
    page.wait_for_timeout(7000)  # the first rest, then polls that find nothing new
    assert 304 in statuses, statuses
    assert page.locator("#screen-row-4 .mark.withdrawn").count() == 0
    tournaments.pair_withdraw(pair=pair(event, 4))
    page.wait_for_selector("#screen-row-4 .mark.withdrawn", timeout=10000)
    context.close()

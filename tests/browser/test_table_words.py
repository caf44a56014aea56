"""The table page never breaks a word in two, in any language: the score table's heads
("Valentina", "Paola G.") at a phone's 390 px and at a laptop's width, and any other text
of the page. Faster than the whole page walk (tests/browser/test_pages.py), which runs the
same check on every table page variant."""

from __future__ import annotations

import pytest
from django.conf import settings

from demo.loader import DEMO_SLUG
from games.models import Event, Table
from tests.browser.walk import BROKEN_WORDS_JS, OVERFLOW_JS, VIEWPORTS, localised

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LANGUAGES = [code for code, _name in settings.LANGUAGES]

HEADS_JS = """() => [...document.querySelectorAll("#score-table thead th")].map((th) => ({
  text: th.innerText.trim(), scroll: th.scrollWidth, client: th.clientWidth,
}))"""


@pytest.fixture
def demo_club() -> None:
    """The demo club: its running evening's tables seat "Valentina", "Francesca",
    "Alessandro" (a game keeps its players' names as they were when it began)."""
    from demo.loader import load_demo

    load_demo(force=True)


def test_no_word_is_broken_on_the_table_page(browser, live_server, demo_club) -> None:
    running = Table.objects.filter(round__event__status=Event.Status.RUNNING)
    tables = running.filter(round__event__club__slug=DEMO_SLUG).order_by("number")  # Barbu's
    problems = []
    for language in LANGUAGES:
        for width, viewport in VIEWPORTS.items():
            context = browser.new_context(viewport=viewport, locale=language)
            page = context.new_page()
            for table in tables:
                page.goto(live_server.url + localised("table-entry", language, table.key))
                where = f"[{language} {width}] table {table.number}"
                problems += [f"{where}: {p}" for p in page.evaluate(BROKEN_WORDS_JS)]
                problems += [f"{where}: {p}" for p in page.evaluate(OVERFLOW_JS)]
                for head in page.evaluate(HEADS_JS):
                    if head["scroll"] > head["client"] + 1:
                        problems.append(f"{where}: head {head['text']!r} is cut")
            context.close()
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems)


# The doubles' buttons: each names a player who may be doubled ("X doubles" → three
# buttons, one per opponent), three a row only while the longest name fits its button.
DOUBLES_JS = """() => {
  const out = [];
  const buttons = ".doubler .cells label.tap > span, .doubler .redouble";
  for (const el of document.querySelectorAll(buttons)) {
    if (!el.getClientRects().length) continue;
    const style = getComputedStyle(el);
    const room = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    // The widest visible line of text in it (names for screen readers are clipped away).
    let text = 0;
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const hidden = node.parentElement.closest(".visually-hidden, .name");
      if (hidden && getComputedStyle(hidden).position === "absolute") continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      for (const rect of range.getClientRects()) text = Math.max(text, rect.width);
    }
    const cells = el.closest(".cells").getBoundingClientRect();
    if (text > room + 0.5 || el.getBoundingClientRect().right > cells.right + 0.5) {
      out.push(`"${el.textContent.trim()}" needs ${text.toFixed(1)} px in ${room.toFixed(1)}`);
    }
  }
  return out;
}"""

LONG_NAMES = (
    "Massimiliano Rossi",
    "Bartholomäus Weber",
    "Christodoulos Papas",
    "Konstantinos Díaz",
)


def test_long_names_fit_the_doubles_buttons(browser, live_server) -> None:
    from tests.factories import make_game

    game = make_game(names=LONG_NAMES)
    problems = []
    for language in ("de", "it"):
        context = browser.new_context(viewport=VIEWPORTS["390"], locale=language)
        page = context.new_page()
        page.goto(live_server.url + localised("table-entry", language, game.table.key))
        page.locator("#entry-form input[name=contract][value=barbu]").check(force=True)
        assert page.locator(".doubler").first.is_visible()
        problems += [f"[{language}] {p}" for p in page.evaluate(DOUBLES_JS)]
        problems += [f"[{language}] {p}" for p in page.evaluate(BROKEN_WORDS_JS)]
        context.close()
    assert not problems, "\n".join(problems)

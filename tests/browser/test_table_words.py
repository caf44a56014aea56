"""The table page never breaks a word in two, in any language: the score table's heads
("Valentina", "Paola G.") at a phone's 390 px and at a laptop's width, and any other text
of the page. Faster than the whole page walk (tests/browser/test_pages.py), which runs the
same check on every table page variant."""

from __future__ import annotations

import pytest
from django.conf import settings

from demo.loader import DEMO_SLUG
from games.models import Event, Table
from tests.browser.test_pages import BROKEN_WORDS_JS, OVERFLOW_JS, VIEWPORTS, localised

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

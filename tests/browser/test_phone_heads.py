"""The pages around a Barbu table on a phone (390 px), in all five languages: the players'
names in column heads never break mid-word ("Valent/ina", "Franc/esca"), no cell is
wider than its column, nothing is past the screen's edge and nothing scrolls sideways:
the table page, the public score sheet, the organiser's game page and a player's page
(in German "Wertungszahl" and "-3,3" were pushed off-screen)."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from django.conf import settings

from tests.browser.phone_pages import OFF_SCREEN_JS, evening
from tests.browser.walk import BROKEN_WORDS_JS, LANGUAGES, OVERFLOW_JS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_pages_around_a_table_fit_a_phone(browser, live_server, language):
    urls = evening(language)
    context = browser.new_context(viewport=PHONE, locale=language)
    host = urlsplit(live_server.url).hostname
    context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "domain": host, "path": "/"}]
    )
    page = context.new_page()
    problems: list[str] = []
    try:
        for name, path in urls.items():
            if name.startswith("manage-"):
                page.goto(f"{live_server.url}/accounts/login/")
                page.fill("#id_username", "organiser")
                page.fill("#id_password", "tavolo-test")
                page.locator("main button[type=submit]").click()
                page.wait_for_load_state()
            page.goto(live_server.url + path)
            found = page.evaluate(OVERFLOW_JS) + page.evaluate(OFF_SCREEN_JS)
            found += page.evaluate(BROKEN_WORDS_JS)
            problems += [f"{name}: {line}" for line in found]
    finally:
        context.close()
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems)

"""The table page for screen readers and keyboards, beyond what axe can see.

Every tap target's accessible name says what it is and whose (the card and the player, the
player whose tricks change, who doubles whom), and the language menu never navigates
before its button is pressed (WCAG 3.2.2): a keyboard user arrowing through it stays on
the page with the deal half entered.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from django.conf import settings

from tests.factories import make_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ("Valentina Conti", "Sara Marino", "Elena Bruno", "Roberto Rizzo")


@pytest.fixture
def phone(browser, live_server):
    game = make_game(names=NAMES)
    context = browser.new_context(viewport={"width": 390, "height": 844})
    # The club speaks Italian; this visitor chose English.
    host = urlsplit(live_server.url).hostname
    context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": "en", "domain": host, "path": "/"}]
    )
    page = context.new_page()
    page.goto(f"{live_server.url}/t/{game.table.key}/")
    yield page
    context.close()


def test_card_grids_name_the_card_and_the_player(phone) -> None:
    phone.locator("#contract-hearts").check(force=True)
    # Thirteen radios of Valentina Conti, each naming its heart.
    assert phone.get_by_role("radio", name="A♥: Valentina Conti", exact=True).count() == 1
    assert phone.get_by_role("radio", name="2♥: Roberto Rizzo", exact=True).count() == 1
    names = phone.locator("input[name^=hearts_]").evaluate_all(
        "inputs => inputs.map(i => i.labels[0].textContent.trim())"
    )
    assert len(names) == 52
    assert len(set(names)) == 52, "two hearts buttons share a name"
    phone.locator("#contract-queens").check(force=True)
    assert phone.get_by_role("radio", name=re.compile(r"^Q♠: Sara Marino$")).count() == 1


def test_trick_buttons_and_doubles_say_whom(phone) -> None:
    phone.locator("#contract-trumps").check(force=True)
    more = phone.get_by_role("button", name="one trick more for Elena Bruno", exact=True)
    less = phone.get_by_role("button", name="one trick less for Elena Bruno", exact=True)
    more.click()
    more.click()
    less.click()
    tricks = phone.get_by_role("spinbutton", name="Elena Bruno", exact=True)
    assert tricks.input_value() == "1"
    # The dealer is Valentina (seat 1): the others double her, or each other.
    double = phone.get_by_role("checkbox", name="Sara Marino doubles: Valentina Conti")
    assert double.count() == 1
    double.check(force=True)
    redouble = phone.get_by_role("checkbox", name="Sara Marino doubles Valentina Conti: redoubled")
    assert redouble.is_visible()


def test_choosing_a_language_waits_for_the_button(phone) -> None:
    url = phone.url
    phone.locator("#contract-hearts").check(force=True)
    select = phone.locator("#language-select")
    select.focus()
    phone.keyboard.press("ArrowDown")
    phone.keyboard.press("ArrowDown")
    phone.wait_for_timeout(300)
    assert phone.url == url
    assert phone.locator("#contract-hearts").is_checked(), "the page was left or reloaded"
    select.select_option("de")
    phone.wait_for_timeout(300)
    assert phone.url == url
    with phone.expect_navigation():
        phone.locator("#language-submit").click()
    assert "/de/t/" in phone.url
    assert phone.locator("html").get_attribute("lang") == "de"

"""A phone at a table that loses its network: a browser with its own profile (the service
worker, its cache and IndexedDB survive closing it, as on a phone), and Barbu's deals."""

from __future__ import annotations

import os
import re
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit

from django.conf import settings
from playwright.sync_api import expect

from tests.browser.table_entry import enter_deal

# The browser of tests/browser/conftest.py, launched here with a profile of its own.
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]

PHONE = {"width": 390, "height": 844}

BARBU = {"dealer": "Anna", "contract": "barbu", "result": {"king_of_hearts": "Dario"}}
HEARTS = {
    "dealer": "Anna",
    "contract": "hearts",
    "result": {
        "hearts": {
            "Anna": ["AH", "KH", "QH", "JH"],
            "Bruno": ["TH", "9H", "8H", "7H", "6H"],
            "Carla": ["5H", "4H", "3H", "2H"],
        }
    },
}
LAST_TWO = {
    "dealer": "Anna",
    "contract": "last_two",
    "result": {"twelfth": "Bruno", "thirteenth": "Carla"},
}
THREE_DEALS = [BARBU, HEARTS, LAST_TWO]


@contextmanager
def phone(browser, profile: Path, live_server, language: str = "en", *, offline: bool = False):
    """A browser with its own profile folder: closed and opened again with the same folder,
    it is the same phone after a restart (cookies, service worker, IndexedDB)."""
    context = browser.browser_type.launch_persistent_context(
        str(profile),
        executable_path=CHROMIUM,
        args=ARGS,
        viewport=PHONE,
        service_workers="allow",
        offline=offline,
    )
    host = urlsplit(live_server.url).hostname
    context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "domain": host, "path": "/"}]
    )
    try:
        yield context
    finally:
        context.close()


def open_ready(context, url: str):
    """The table page (Barbu's entry, Burraco's score card) opened, and kept by the service
    worker for offline use."""
    page = context.pages[0] if context.pages else context.new_page()
    page.goto(url)
    page.locator("[data-offline-ready]").wait_for(timeout=10_000)
    return page


# What a table phone writes: a Barbu deal, a Burraco hand.
WRITES = re.compile(r"/t/[^/]+/(deal|card/hand)/$")


def _no_network(route) -> None:
    route.abort("internetdisconnected")


def go_offline(context) -> None:
    """The network cut: the context set offline, and every open page seeing it
    (navigator.onLine false) before the test taps.

    Chromium applies the offline emulation to a page a moment after the call, and to a
    page reloaded offline a moment after it opens: a write sent in that moment reached the
    server (seen under load: a deal and a hand stored while "offline", by the queue's flush
    as the reloaded page opened). A phone that lost its signal has no such moment, so the
    writes are refused by a route too, until go_online."""
    context.route(WRITES, _no_network)
    context.set_offline(True)
    for page in context.pages:
        page.wait_for_function("() => !navigator.onLine")


def go_online(context) -> None:
    context.unroute(WRITES, _no_network)
    context.set_offline(False)


def save_offline(page, deal: dict, names: list[str]) -> None:
    """Tap a deal and save it without a network: it joins the phone's queue."""
    before = page.locator("#score-table tr.queued").count()
    enter_deal(page, deal, names)
    page.locator("#save").click()
    page.locator("#score-table tr.queued").nth(before).wait_for()


def expect_waiting(page, text: str) -> None:
    """The page says how many entries wait ("3 deals waiting to be sent"): once its script
    has read the queue (after a reload, a moment after the page is shown)."""
    expect(page.locator("#offline-count")).to_have_text(text)

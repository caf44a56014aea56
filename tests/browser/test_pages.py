"""Every public, organiser and table page, in every language, on a phone and on a laptop.

For each of the five languages the demo club is loaded and every page is opened at
390x844 (a phone) and 1366x900 (a laptop), and on each page:

- nothing scrolls sideways: neither the page nor any element in it (a wide table in a
  scrolling box hides columns on a phone just as well), and no table cell clips its text;
- axe-core (axe-playwright-python) finds no violation of the WCAG 2.1 A and AA rules,
  nor of its best practices: on the phone in every language, on the laptop in Italian
  (AUDITED_ON_LAPTOP; the same markup and colours at another width, and axe is half a
  walk's time);
- no request goes to another host, no script error, no Content-Security-Policy report;
- a full-page screenshot is written to var/screenshots/<language>/<width>/<page>.png
  (PAGE_SCREENSHOTS=folder to choose another), for a person to look through.

On the table page no word is broken over two lines (the score table's heads at 390 px
were "Valen-/tina"). The table page is also checked with each contract's inputs shown
(hearts, queens, tricks, the last two tricks, domino, the king of hearts), and with a
seat chosen: the layout checks on every table at both widths, axe and the screenshots of
those variants once, on the first table at 390 px (the same form; only names differ).
All problems of a language are collected and reported together, page by page.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from urllib.parse import urlsplit

import pytest
from django.conf import settings
from django.urls import reverse

from clubs.models import Club, League, Player
from demo.loader import DEMO_SLUG, load_demo
from games.models import Deal, Event, Game, Table
from tests.browser import burraco_pages
from tests.browser.walk import LANGUAGES, VIEWPORTS, Walk, localised, log_in

pytestmark = [pytest.mark.browser]

# The language whose laptop walk runs axe too (the demo club's); the others' laptop walks
# run the layout checks, which is where a width and a language's longer words differ.
AUDITED_ON_LAPTOP = "it"

# The table page's contracts whose inputs appear once chosen (static/deal_form.js).
CONTRACT_INPUTS = ("barbu", "hearts", "queens", "last_two", "trumps", "domino")


def public_pages(language: str) -> dict[str, str]:
    club = Club.objects.get(slug=DEMO_SLUG)
    running = Event.objects.get(club=club, status=Event.Status.RUNNING)
    closed = Event.objects.filter(club=club, status=Event.Status.CLOSED).first()
    complete = Game.objects.filter(table__round__event=closed).first()
    partial = Game.objects.filter(table__round__event=running, deals_count__gt=0).first()
    player = Player.objects.filter(memberships__club=club).order_by("pk").first()
    league = League.objects.get(club=club)
    return {
        "home": localised("home", language),
        "club": localised("scoring:club", language, club.slug),
        "league": localised("scoring:league", language, league.pk),
        "evening-closed": localised("scoring:event", language, closed.pk),
        "evening-live": localised("scoring:event", language, running.pk),
        "score-sheet": localised("scoring:game", language, complete.pk),
        "score-sheet-running": localised("scoring:game", language, partial.pk),
        "player": localised("scoring:player", language, player.pk),
        "login": localised("login", language),
    }


def table_pages(language: str) -> dict[str, str]:
    tables = Table.objects.filter(
        round__event__status=Event.Status.RUNNING, round__event__club__slug=DEMO_SLUG
    ).order_by("number")
    pages = {f"table-{t.number}": localised("table-entry", language, t.key) for t in tables}
    pages["table-not-found"] = localised("table-entry", language, "no-such-table")
    return pages


def organiser_pages(language: str) -> dict[str, str]:
    club = Club.objects.get(slug=DEMO_SLUG)
    slug = club.slug
    running = Event.objects.get(club=club, status=Event.Status.RUNNING)
    closed = Event.objects.filter(club=club, status=Event.Status.CLOSED).first()
    game = Game.objects.filter(table__round__event=running, deals_count__gt=0).first()
    deal = Deal.objects.filter(game=game).order_by("number").first()
    corrected = Deal.objects.filter(version__gt=1).first() or deal
    player = Player.objects.filter(memberships__club=club).order_by("pk").first()
    league = League.objects.get(club=club)
    return {
        "manage-club": localised("club-manage", language, slug),
        "manage-settings": localised("club-settings", language, slug),
        "manage-rules": localised("club-rules", language, slug),
        "manage-players": localised("club-players", language, slug),
        "manage-player": localised("club-player-edit", language, slug, player.pk),
        "manage-import": localised("club-players-import", language, slug),
        "manage-merge": localised("club-players-merge", language, slug),
        "manage-leagues": localised("club-leagues", language, slug),
        "manage-league": localised("club-league-edit", language, slug, league.pk),
        "manage-league-new": localised("club-league-create", language, slug),
        "manage-event-new": localised("event-create", language, slug),
        "manage-evening-live": localised("event-dashboard", language, slug, running.pk),
        "manage-evening-closed": localised("event-dashboard", language, slug, closed.pk),
        "manage-checkin": localised("event-checkin", language, slug, running.pk),
        "manage-round": localised("round-detail", language, slug, running.pk, 1),
        "manage-cards": localised("table-cards", language, slug, running.pk, 1),
        "manage-game": localised("game-deals", language, slug, game.pk),
        "manage-correct": localised("deal-correct", language, slug, deal.pk),
        "manage-correct-history": localised("deal-correct", language, slug, corrected.pk),
    }


def table_variants(walk: Walk, name: str, axe, *, audit: bool) -> bool:
    """The table page with a seat chosen, then with each contract's inputs shown. The layout
    checks run on every variant; axe and the screenshots (`audit`) where the walk asks:
    the variants are the same form at every table, only the names in it differ. A Burraco
    score card has its own variants, always audited. True when Barbu variants were audited."""
    if burraco_pages.table_variants(walk, name, axe):
        return False
    page = walk.page
    seat_buttons = page.locator("#seat-choice button[name=seat]")
    if seat_buttons.count():
        if page.locator("details#seat-choice").count():
            page.locator("details#seat-choice > summary").click()
            walk.check(f"{name}-seat-choice", axe, audit=audit)
        seat_buttons.first.click()
        page.wait_for_load_state()
        walk.check(f"{name}-seat-chosen", axe, audit=audit)
    for contract in CONTRACT_INPUTS:
        choice = page.locator(f"#entry-form input[name=contract][value={contract}]")
        if not choice.count():
            continue
        choice.check(force=True)
        walk.check(f"{name}-{contract}", axe, audit=audit)
    return audit


@pytest.fixture(scope="module")
def demo_site(django_db_setup, django_db_blocker) -> Iterator[str]:
    """The demo clubs, loaded once for the walks of every language this process runs (an
    xdist worker runs several), and a live server over them: its URL.

    The walks only read the demo: what they choose (a seat, a score card's line, a login)
    lives in their browser context's session, which each width starts anew. Loading the
    demo costs ten seconds or more. The server is this module's own (not pytest-django's
    `live_server`, whose tests are flushed one by one); the database is flushed when the
    module's tests are done here, as a transactional test's would be.
    """
    from django.core.management import call_command
    from pytest_django.live_server_helper import LiveServer

    with django_db_blocker.unblock():
        load_demo(force=True)
    server = LiveServer("localhost")
    server._live_server_modified_settings.enable()
    try:
        yield server.url
    finally:
        server._live_server_modified_settings.disable()
        server.stop()
        with django_db_blocker.unblock():
            call_command("flush", interactive=False, verbosity=0)


@pytest.fixture
def demo_club(demo_site, django_db_blocker) -> Iterator[str]:
    """The demo site's URL, with database access for the walk's own reads (autocommit, as
    the server's). The demo is loaded again if a transactional test in between (this
    module's API docs test) flushed it."""
    with django_db_blocker.unblock():
        if not Club.objects.filter(slug=DEMO_SLUG).exists():
            load_demo(force=True)
        yield demo_site


def walk_language(browser, base: str, language: str, axe) -> list[str]:
    problems: list[str] = []
    pages: list[tuple[str, Callable[[], dict[str, str]]]] = [
        ("public", lambda: public_pages(language)),
        ("table", lambda: table_pages(language)),
        ("burraco-public", lambda: burraco_pages.public_pages(language)),
        ("burraco-table", lambda: burraco_pages.table_pages(language)),
    ]
    for width, viewport in VIEWPORTS.items():
        context = browser.new_context(viewport=viewport, locale=language)
        host = urlsplit(base).hostname
        cookie = {"name": settings.LANGUAGE_COOKIE_NAME, "value": language}
        context.add_cookies([{**cookie, "domain": host, "path": "/"}])
        page = context.new_page()
        walk = Walk(
            page, base, language, width, audit=width == "390" or language == AUDITED_ON_LAPTOP
        )
        audited = width != "390"  # the variants are audited once, on the phone
        for _kind, urls in pages:
            for name, path in urls().items():
                walk.open(name, path, axe)
                table = name.startswith("table-") and not name.endswith("not-found")
                if table and table_variants(walk, name, axe, audit=not audited):
                    audited = True
        log_in(page, base, language)
        for name, path in organiser_pages(language).items():
            walk.open(name, path, axe)
        for name, path in burraco_pages.organiser_pages(language).items():
            walk.open(name, path, axe)
        context.close()
        problems += [f"[{language} {width}] {line}" for line in walk.problems]
        problems += [
            f"[{language} {width}] {line}"
            for line in language_offer(browser, base, language, width, viewport, axe)
        ]
    return problems


def language_offer(browser, base: str, language: str, width: str, viewport, axe) -> list[str]:
    """A visitor who never chose, on the Italian demo club's table and club pages: asked."""
    if language == Club.objects.get(slug=DEMO_SLUG).language:
        return []
    context = browser.new_context(viewport=viewport, locale=language)  # no language cookie
    walk = Walk(context.new_page(), base, language, width)
    club = reverse("scoring:club", args=[DEMO_SLUG])
    table = next(iter(table_pages("en").values()))
    for name, path in (("club-language-offer", club), ("table-language-offer", table)):
        walk.open(name, path, axe)
        if not walk.page.locator("#language-offer").is_visible():
            walk._add("the club's language is not offered")
    context.close()
    return walk.problems


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_fits_a_phone_and_passes_axe(browser, demo_club, axe, language: str) -> None:
    problems = walk_language(browser, demo_club, language, axe)
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems)


@pytest.mark.django_db(transaction=True)
def test_api_docs_served_from_this_site_under_the_csp(browser, live_server) -> None:
    """Swagger UI loads its scripts and styles from the site's static files, CSP intact."""
    context = browser.new_context(viewport=VIEWPORTS["1366"])
    page = context.new_page()
    walk = Walk(page, live_server.url, "api", "1366")
    response = page.goto(live_server.url + "/api/docs/")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    page.wait_for_selector(".swagger-ui .info .title", timeout=15000)
    page.screenshot(path=str(walk.folder / "api-docs.png"))
    context.close()
    assert not walk.problems, "\n".join(walk.problems)

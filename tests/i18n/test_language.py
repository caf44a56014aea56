"""Which language a visitor gets: browser, switcher, cookie, URL prefix, the club's default."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from django.conf import settings
from django.template import Context, Template
from django.test import RequestFactory
from django.utils import timezone, translation

from clubs.language import activate_club_language, visitor_chose_language
from clubs.models import Club

pytestmark = pytest.mark.django_db

COOKIE = settings.LANGUAGE_COOKIE_NAME


def _lang(response) -> str:
    text = response.content.decode()
    start = text.index('<html lang="') + len('<html lang="')
    return text[start : text.index('"', start)]


def test_browser_language_is_used_without_a_choice(client) -> None:
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="de-DE,de;q=0.9,en;q=0.5")
    assert _lang(response) == "de"
    assert "Anmelden" in response.content.decode()


def test_default_language_is_english(client) -> None:
    response = client.get("/")
    assert _lang(response) == "en"
    assert "Log in" in response.content.decode()


@pytest.mark.parametrize(
    ("language", "landing", "text"),
    [("it", "/it/", "Accedi"), ("es", "/es/", "Iniciar sesión"), ("fr", "/fr/", "Se connecter")],
)
def test_switcher_lands_on_the_same_page_in_the_new_language(
    client, language: str, landing: str, text: str
) -> None:
    page = client.get("/")
    assert 'action="/i18n/setlang/"' in page.content.decode()
    response = client.post("/i18n/setlang/", {"language": language, "next": "/"})
    assert response.status_code == 302
    assert response["Location"] == landing
    assert response.cookies[COOKIE].value == language
    assert response.cookies[COOKIE]["max-age"] == settings.LANGUAGE_COOKIE_AGE
    page = client.get(landing)
    assert _lang(page) == language
    assert text in page.content.decode()


def test_switching_back_to_english_drops_the_prefix_and_is_remembered(client) -> None:
    client.post("/i18n/setlang/", {"language": "it", "next": "/accounts/login/"})
    response = client.post("/i18n/setlang/", {"language": "en", "next": "/it/accounts/login/"})
    assert response["Location"] == "/accounts/login/"
    # The cookie now says English, whatever the browser prefers.
    page = client.get("/accounts/login/", HTTP_ACCEPT_LANGUAGE="it")
    assert _lang(page) == "en"


def test_switcher_on_a_page_in_the_browsers_language(client) -> None:
    # "/" is shown in German from the browser; the visitor picks Italian.
    response = client.post(
        "/i18n/setlang/", {"language": "it", "next": "/"}, HTTP_ACCEPT_LANGUAGE="de", follow=True
    )
    assert response.redirect_chain[-1][0] == "/it/"
    assert _lang(response) == "it"


def test_switcher_keeps_the_query_string(client) -> None:
    response = client.post("/i18n/setlang/", {"language": "de", "next": "/accounts/login/?next=/x"})
    assert response["Location"] == "/de/accounts/login/?next=/x"


def test_the_cookie_beats_the_browser_and_leads_to_its_prefix(client) -> None:
    client.cookies[COOKIE] = "fr"
    response = client.get("/accounts/login/?next=/x", HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 302
    assert response["Location"] == "/fr/accounts/login/?next=/x"
    assert "Cookie" in response["Vary"]
    response = client.get(response["Location"], HTTP_ACCEPT_LANGUAGE="de")
    assert _lang(response) == "fr"


def test_an_english_cookie_beats_the_browser_in_place(client) -> None:
    client.cookies[COOKIE] = "en"
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 200
    assert _lang(response) == "en"


def test_a_post_to_an_unprefixed_page_is_not_redirected(client) -> None:
    client.cookies[COOKIE] = "it"
    response = client.post("/accounts/login/", {"username": "x", "password": "y"})
    assert response.status_code == 200
    assert _lang(response) == "it"


def test_the_browser_language_varies_the_unprefixed_page(client) -> None:
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="es")
    assert _lang(response) == "es"
    assert response["Content-Language"] == "es"
    assert {"Cookie", "Accept-Language"} <= {v.strip() for v in response["Vary"].split(",")}
    # Links on the page keep the visitor in the language.
    assert 'href="/es/accounts/login/' in response.content.decode()


def test_a_prefix_beats_cookie_and_browser(client) -> None:
    client.cookies[COOKIE] = "fr"
    response = client.get("/de/", HTTP_ACCEPT_LANGUAGE="es")
    assert _lang(response) == "de"


def test_an_unknown_unprefixed_url_is_still_not_found(client) -> None:
    client.cookies[COOKIE] = "it"
    assert client.get("/no-such-page/").status_code == 404


def test_every_page_has_the_switcher_with_all_languages(client) -> None:
    text = client.get("/accounts/login/").content.decode()
    for code, _name in settings.LANGUAGES:
        assert f'<option value="{code}"' in text
    assert 'name="next"' in text


# --- a club's language for its public pages ------------------------------------------------


def _request(path: str = "/club/x/", cookie: str | None = None, accept: str = "de"):
    request = RequestFactory().get(path, HTTP_ACCEPT_LANGUAGE=accept)
    if cookie:
        request.COOKIES[COOKIE] = cookie
    return request


@pytest.fixture
def club() -> Club:
    return Club(name="Circolo", slug="circolo", language="it")


def test_a_visitor_without_a_choice_gets_the_clubs_language(club: Club) -> None:
    request = _request()
    with translation.override("de"):  # what LocaleMiddleware took from the browser
        assert activate_club_language(request, club) == "it"
        assert translation.get_language() == "it"
        assert request.LANGUAGE_CODE == "it"


def test_the_language_cookie_beats_the_club(club: Club) -> None:
    request = _request(cookie="fr")
    with translation.override("fr"):
        assert visitor_chose_language(request)
        assert activate_club_language(request, club) == "fr"
        assert translation.get_language() == "fr"


def test_a_language_prefix_beats_the_club(club: Club) -> None:
    request = _request(path="/es/club/x/")
    with translation.override("es"):
        assert activate_club_language(request, club) == "es"


def test_an_unknown_cookie_is_no_choice(club: Club) -> None:
    request = _request(cookie="xx")
    with translation.override("de"):
        assert activate_club_language(request, club) == "it"


def test_a_club_language_the_site_lacks_changes_nothing() -> None:
    request = _request()
    with translation.override("de"):
        assert activate_club_language(request, Club(language="pt")) == "de"


# --- dates and numbers -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "date", "number"),
    [
        ("en", "Nov. 22, 2026", "1234.5"),
        ("it", "22 Novembre 2026", "1234,5"),  # Django's Italian month names
        ("de", "22. November 2026", "1234,5"),
        ("fr", "22 novembre 2026", "1234,5"),
        ("es", "22 de noviembre de 2026", "1234,5"),
    ],
)
def test_dates_and_numbers_follow_the_language(language: str, date: str, number: str) -> None:
    when = timezone.make_aware(datetime.datetime(2026, 11, 22, 20, 30))
    template = Template(
        '{% load l10n %}{{ when|date:"DATE_FORMAT" }}|{{ when|date:"DATETIME_FORMAT" }}|'
        "{{ value }}|{{ value|floatformat:1 }}"
    )
    with translation.override(language):
        text = template.render(Context({"when": when, "value": Decimal("1234.5")}))
    day, moment, value, rounded = text.split("|")
    assert day == date
    assert date in moment and ("20:30" in moment or "8:30" in moment)
    assert value == number
    assert rounded == number


# --- the club's public page, end to end ------------------------------------------------------


def test_an_unprefixed_club_page_opens_in_the_clubs_language(client) -> None:
    """Needs scoring/views.py to call clubs.language.activate_club_language(request, club)."""
    from tests.factories import make_club

    make_club("Circolo Milano", slug="milano", language="it")
    response = client.get("/clubs/milano/", HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 200
    assert _lang(response) == "it"
    # A visitor who chose German keeps it, through the cookie or the URL.
    client.cookies[COOKIE] = "de"
    assert _lang(client.get("/clubs/milano/", follow=True)) == "de"
    del client.cookies[COOKIE]
    assert _lang(client.get("/de/clubs/milano/")) == "de"

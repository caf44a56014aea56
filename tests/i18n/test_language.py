"""Which language a visitor gets: browser, switcher, cookie, URL prefix, the club's default."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from django.conf import settings
from django.template import Context, Template
from django.test import RequestFactory
from django.utils import timezone, translation

from clubs.language import offer_club_language, visitor_chose_language
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


def test_a_visitor_without_a_choice_is_offered_the_clubs_language(club: Club) -> None:
    request = _request()
    with translation.override("de"):  # what LocaleMiddleware took from the browser
        offer = offer_club_language(request, club)
        assert offer == {"code": "it", "name": "Italienisch"}
        assert request.club_language_offer == offer
        assert translation.get_language() == "de"  # asked, not switched


def test_the_offer_names_the_language_as_a_sentence_does(club: Club) -> None:
    with translation.override("fr"):
        assert offer_club_language(_request(), club)["name"] == "italien"
    with translation.override("en"):
        assert offer_club_language(_request(), club)["name"] == "Italian"


def test_no_offer_once_the_visitor_chose(club: Club) -> None:
    request = _request(cookie="fr")
    with translation.override("fr"):
        assert visitor_chose_language(request)
        assert offer_club_language(request, club) is None
        assert translation.get_language() == "fr"
    request = _request(path="/es/club/x/")
    with translation.override("es"):
        assert offer_club_language(request, club) is None


def test_no_offer_when_the_page_is_in_the_clubs_language(club: Club) -> None:
    with translation.override("it"):
        assert offer_club_language(_request(accept="it"), club) is None


def test_an_unknown_cookie_is_no_choice(club: Club) -> None:
    request = _request(cookie="xx")
    with translation.override("de"):
        assert offer_club_language(request, club)["code"] == "it"


def test_a_club_language_the_site_lacks_is_not_offered() -> None:
    with translation.override("de"):
        assert offer_club_language(_request(), Club(language="pt")) is None


# --- dates and numbers -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "date", "number"),
    [
        ("en", "22 Nov 2026", "1234.5"),  # one date style per language: config/formats
        ("it", "22 nov 2026", "1234,5"),
        ("de", "22. Nov 2026", "1234,5"),
        ("fr", "22 nov 2026", "1234,5"),
        ("es", "22 nov 2026", "1234,5"),
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
    assert moment == f"{date}, 20:30"
    assert value == number
    assert rounded == number


# --- the club's public page, end to end ------------------------------------------------------


def test_a_club_page_asks_before_switching_to_the_clubs_language(client) -> None:
    """An English visitor of an Italian club reads English and is asked; the answer stays."""
    from tests.factories import make_club

    make_club("Circolo Milano", slug="milano", language="it")
    response = client.get("/clubs/milano/")
    assert response.status_code == 200
    assert _lang(response) == "en"
    page = response.content.decode()
    assert "This club's pages are in Italian." in page
    assert 'name="language" value="it"' in page and 'name="language" value="en"' in page
    german = client.get("/clubs/milano/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert 'lang="de"' in german and "Italienisch" in german
    # "Show in Italian": the switcher's view, remembered in the cookie; no more question.
    answer = client.post("/i18n/setlang/", {"language": "it", "next": "/clubs/milano/"})
    assert answer["Location"] == "/it/clubs/milano/"
    assert client.cookies[COOKIE].value == "it"
    italian = client.get("/clubs/milano/", follow=True)
    assert _lang(italian) == "it" and 'id="language-offer"' not in italian.content.decode()
    # "No, thanks": English is remembered, the question is not asked again.
    client.post("/i18n/setlang/", {"language": "en", "next": "/clubs/milano/"})
    again = client.get("/clubs/milano/")
    assert _lang(again) == "en" and 'id="language-offer"' not in again.content.decode()
    # The URL's prefix is a choice too.
    del client.cookies[COOKIE]
    prefixed = client.get("/de/clubs/milano/")
    assert _lang(prefixed) == "de" and 'id="language-offer"' not in prefixed.content.decode()

"""A club's language on its public and table pages: offered to the visitor, never forced.

The page's language is the visitor's (clubs.middleware.LocaleMiddleware: a language prefix
in the URL, then the language cookie set by the switcher, then the browser's
Accept-Language, then settings.LANGUAGE_CODE). A visitor reading an Italian club's pages in
another language who has not chosen one is asked, in their own language, whether to see
them in Italian (templates/base.html shows the offer): "Show in Italian" or "No, thanks".
Either answer goes through Django's set_language view, so the choice is remembered in the
cookie for a year and the question is not asked again.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest
from django.utils import translation

# Language names are adjectives written small in the middle of a sentence in these languages
# ("Mostra in italiano"); German and English write them with a capital.
SMALL_NAMES = {"it", "es", "fr"}


def visitor_chose_language(request: HttpRequest) -> bool:
    """True when the URL carries a language prefix or the language cookie is set."""
    if translation.get_language_from_path(request.path_info):
        return True
    chosen = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
    return bool(chosen) and translation.check_for_language(chosen)


def offer_club_language(request: HttpRequest, club: Any) -> dict[str, str] | None:
    """Offer the club's language when the page is in another and the visitor never chose.

    Sets request.club_language_offer ({"code", "name"}: the name in the page's language)
    for the banner of templates/base.html, and returns it; None when there is nothing to
    offer. The page's language is left as it is.
    """
    language = getattr(club, "language", "") or ""
    supported = {code for code, _name in settings.LANGUAGES}
    current = translation.get_language()
    offer = None
    if language in supported and language != current and not visitor_chose_language(request):
        name = str(translation.get_language_info(language)["name_translated"])
        offer = {"code": language, "name": name.lower() if current in SMALL_NAMES else name}
    request.club_language_offer = offer  # type: ignore[attr-defined]
    return offer

"""The language of a club's public pages: the visitor's explicit choice first, then the club's.

The rule, in order (the first that applies wins):

1. a language prefix in the URL (/de/…): the visitor followed or typed a link in that
   language;
2. the language cookie (settings.LANGUAGE_COOKIE_NAME), set by the switcher on every page:
   the visitor chose;
3. on a club's public pages, the club's language (Club.language);
4. elsewhere, the browser's Accept-Language, then settings.LANGUAGE_CODE (LocaleMiddleware).

So a visitor who never chose sees an Italian club's pages in Italian whatever their browser
says, and the switcher always wins (the cookie is remembered for a year).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest
from django.utils import translation


def visitor_chose_language(request: HttpRequest) -> bool:
    """True when the URL carries a language prefix or the language cookie is set."""
    if translation.get_language_from_path(request.path_info):
        return True
    chosen = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
    return bool(chosen) and translation.check_for_language(chosen)


def activate_club_language(request: HttpRequest, club: Any) -> str:
    """Switch this request to the club's language unless the visitor chose one; return it.

    Call it at the start of a club's public view, before rendering. Needs
    LocaleMiddleware (it activates the visitor's choice first).
    """
    language = getattr(club, "language", "") or ""
    supported = {code for code, _name in settings.LANGUAGES}
    if visitor_chose_language(request) or language not in supported:
        return translation.get_language()
    translation.activate(language)
    request.LANGUAGE_CODE = language
    return language

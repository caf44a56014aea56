"""Pick each request's language: URL prefix, then the visitor's cookie, then the browser.

Django's LocaleMiddleware serves every unprefixed URL of i18n_patterns(...,
prefix_default_language=False) in settings.LANGUAGE_CODE, whatever the language cookie and
Accept-Language say: a visitor who chose Italian got English again on "/". The rule here:

1. a language prefix in the URL (/it/…) decides;
2. an unprefixed page with a language cookie other than English redirects (GET/HEAD) to the
   same page under that prefix: the visitor chose, and the URL now says it;
3. otherwise the unprefixed page is rendered in place in the language of the cookie, or
   of the browser (Accept-Language), or English; a club's public page in another language
   than the club's then offers the club's (clubs.language.offer_club_language), without
   switching. Links on the page carry
   the prefix of its language, so the visitor stays in it.

Unprefixed URLs only resolve while English is active, so the language is switched in
process_view, once the view is found. API requests (/api/) answer in the Accept-Language
of the request when it names a language the site speaks, else the cookie's, else English.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.middleware.locale import LocaleMiddleware as DjangoLocaleMiddleware
from django.urls import get_script_prefix, is_valid_path
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.translation.trans_real import parse_accept_lang_header

API_PREFIX = "/api/"


def language_from_accept_header(request: HttpRequest) -> str | None:
    """The best language of Accept-Language the site speaks, or None."""
    header = request.META.get("HTTP_ACCEPT_LANGUAGE", "")
    for language, _quality in parse_accept_lang_header(header):
        if language == "*":
            break
        try:
            return translation.get_supported_language_variant(language)
        except LookupError:
            continue
    return None


def language_from_cookie(request: HttpRequest) -> str | None:
    """The language the visitor chose with the switcher, if the site speaks it."""
    chosen = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
    if not chosen:
        return None
    try:
        return translation.get_supported_language_variant(chosen)
    except LookupError:
        return None


class LocaleMiddleware(DjangoLocaleMiddleware):
    """LocaleMiddleware that keeps the visitor's language on unprefixed URLs (module doc)."""

    def process_request(self, request: HttpRequest) -> HttpResponse | None:
        default = settings.LANGUAGE_CODE
        from_path = translation.get_language_from_path(request.path_info)
        request.deferred_language = None  # type: ignore[attr-defined]
        if from_path:
            language = from_path
        elif request.path_info.startswith(API_PREFIX):
            language = (
                language_from_accept_header(request) or language_from_cookie(request) or default
            )
        else:
            chosen = language_from_cookie(request)
            if chosen and chosen != default and request.method in ("GET", "HEAD"):
                redirect = self._prefixed(request, chosen)
                if redirect is not None:
                    return redirect
            language = default  # so that the unprefixed URL resolves
            request.deferred_language = chosen or language_from_accept_header(request) or default  # type: ignore[attr-defined]
        translation.activate(language)
        request.LANGUAGE_CODE = translation.get_language()
        return None

    def process_view(self, request: HttpRequest, *args: object) -> None:
        language = getattr(request, "deferred_language", None)
        if language and language != translation.get_language():
            translation.activate(language)
            request.LANGUAGE_CODE = language

    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        response = super().process_response(request, response)
        if getattr(request, "deferred_language", None):
            # The same URL answers in the cookie's language or the browser's.
            patch_vary_headers(response, ("Cookie", "Accept-Language"))
        return response

    def _prefixed(self, request: HttpRequest, language: str) -> HttpResponse | None:
        """A redirect to this page under /<language>/, if that page exists."""
        urlconf = getattr(request, "urlconf", None)
        script_prefix = get_script_prefix()
        with translation.override(language):
            if not is_valid_path(f"/{language}{request.path_info}", urlconf):
                return None
        url = request.get_full_path().replace(script_prefix, f"{script_prefix}{language}/", 1)
        response = HttpResponseRedirect(url)
        patch_vary_headers(response, ("Cookie",))
        return response

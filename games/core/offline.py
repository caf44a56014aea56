"""What lets a table page work without a network, for every game: the service worker
(static/table_worker.js, served from the site's root so that it may keep the table pages),
the JavaScript catalogue of the offline texts (locale/*/LC_MESSAGES/djangojs.po), and the
JSON answer a table's write gives to the offline queue (static/offline_queue.js).

The queue sends each entry as the page's own form would, with two headers: the
Idempotency-Key the phone made when the entry was tapped, and Accept: application/json.
A view that takes queued entries answers them with `stored_answer` or `refused_answer`:

    {"ok": true, "number": 3, "created": true}                              (201 or 200)
    {"ok": false, "code": "deal_conflict", "messages": [...], "stored": "…"}  (4xx)

A refusal stays on the phone, shown at its entry with `stored` (the version the server
keeps), until the table drops it; a network failure or a 5xx is retried later.
"""

from __future__ import annotations

import json

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.templatetags.static import static
from django.urls import path, reverse
from django.utils import translation
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET
from django.views.i18n import JavaScriptCatalog

from games.core.table_pages import could_be_key

WORKER_FILE = "table_worker.js"
MANIFEST_FILE = "site.webmanifest"
# The header a queued entry carries: the key made on the phone when it was tapped.
IDEMPOTENCY_HEADER = "Idempotency-Key"
IDEMPOTENCY_LIMIT = 200


@require_GET
@cache_control(no_cache=True)
def service_worker(request: HttpRequest) -> HttpResponse:
    """static/table_worker.js from the site's root: a worker's scope is at most the folder
    it is served from (here /, so /t/<key>/ and /it/t/<key>/ are in it). Always checked
    again (no-cache), so a new version reaches the phones at their next visit."""
    found = finders.find(WORKER_FILE)
    if not found:
        raise Http404(WORKER_FILE)
    with open(found, "rb") as source:
        response = HttpResponse(source.read(), content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    return response


class ScriptTexts(JavaScriptCatalog):
    """Django's JavaScript catalogue of our own scripts' texts only (locale/, domain
    djangojs), not those of the installed apps' scripts (the admin's)."""

    domain = "djangojs"
    packages = ["games"]  # any: get_paths below names the folders

    def get_paths(self, packages: list[str]) -> list[str]:
        return [str(path) for path in settings.LOCALE_PATHS]


@require_GET
@cache_control(max_age=3600)
def catalogue(request: HttpRequest, language: str) -> HttpResponse:
    """The offline texts (domain djangojs) in `language`: in the URL, so that a phone's
    worker keeps one catalogue per language and the page's language always finds its own."""
    if language not in dict(settings.LANGUAGES):
        raise Http404(language)
    with translation.override(language):
        return ScriptTexts.as_view()(request)


@require_GET
@cache_control(max_age=3600)
def table_manifest(request: HttpRequest, key: str, page: str = "table-entry") -> HttpResponse:
    """The site's web manifest (static/site.webmanifest) for one table: installed to a
    phone's home screen, the icon opens that table's page (`page`, the URL name of the
    game's table page: Barbu's entry, Burraco's score card), not the home page. The key is
    the one of the page that links it (no table is looked up: the page did that)."""
    found = finders.find(MANIFEST_FILE)
    if not found or not could_be_key(key):
        raise Http404(key)
    with open(found, encoding="utf-8") as source:
        manifest = json.load(source)
    # Without a language prefix, as on the table card: the page keeps the visitor's language.
    with translation.override(settings.LANGUAGE_CODE):
        start = reverse(page, kwargs={"key": key})
    manifest.update(id=start, start_url=start, scope="/")
    for icon in manifest.get("icons", []):
        icon["src"] = static(icon["src"])
    return JsonResponse(manifest, content_type="application/manifest+json")


def wants_json(request: HttpRequest) -> bool:
    """Whether the write comes from the offline queue (it asks for JSON), not a form post."""
    return "application/json" in request.headers.get("Accept", "")


def idempotency_key(request: HttpRequest) -> str | None:
    """The queued entry's Idempotency-Key (printable ASCII, at most 200 characters), or
    None (a form post has none; a malformed key is ignored rather than stored)."""
    key = request.headers.get(IDEMPOTENCY_HEADER, "")
    if not key or len(key) > IDEMPOTENCY_LIMIT or not (key.isascii() and key.isprintable()):
        return None
    return key


def stored_answer(number: int, *, created: bool) -> JsonResponse:
    """The queued entry is stored (201), or was already (200: a resend, a double tap)."""
    return JsonResponse(
        {"ok": True, "number": number, "created": created}, status=201 if created else 200
    )


def refused_answer(
    code: str, messages: list[str], *, status: int, stored: str = ""
) -> JsonResponse:
    """The server refuses the queued entry: why (`messages`, in the page's language) and,
    when another phone stored that number first, the stored version in a few words."""
    body: dict[str, object] = {"ok": False, "code": code, "messages": messages}
    if stored:
        body["stored"] = stored
    return JsonResponse(body, status=status)


# One line in config/urls.py includes these: outside the language prefixes, since the
# worker's scope is the whole site and the catalogue names its language itself.
urlpatterns = [
    path("table-worker.js", service_worker, name="table-worker"),
    path("offline/texts/<str:language>.js", catalogue, name="offline-texts"),
    path("offline/manifest/<str:key>.webmanifest", table_manifest, name="table-manifest"),
]

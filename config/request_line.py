"""An over-long request line answered by Tavolo: 414, in the API's JSON error shape under
/api/.

gunicorn refuses a request line over its limit with an HTML page of its own, whatever the
path, so the API's one error shape would break there. gunicorn's limit is therefore its
most (8190 bytes, config/gunicorn_conf.py) and this middleware refuses, before any view,
a request line (method, address with its query, protocol) longer than
settings.REQUEST_LINE_LIMIT: gunicorn's old default, so clients meet the same limit as
before, now answered in the API's shape.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _

from games.api.errors import error_body


def request_line_length(request: HttpRequest) -> int:
    """The length of the request line as the client sent it (gunicorn's RAW_URI; the path
    Django decoded and quoted again elsewhere)."""
    meta = request.META
    uri = meta.get("RAW_URI") or request.get_full_path()
    protocol = meta.get("SERVER_PROTOCOL", "HTTP/1.1")
    return len(request.method or "") + 1 + len(uri) + 1 + len(protocol)


class RequestLineLimitMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        limit = settings.REQUEST_LINE_LIMIT
        if request_line_length(request) <= limit:
            return self.get_response(request)
        message = _(
            "The address is too long: a request line (method, address and query) may have "
            "at most %(limit)d characters."
        ) % {"limit": limit}
        if request.path.startswith("/api/"):
            body = error_body(414, "too_long", message, params={"limit": limit})
            return JsonResponse(body, status=414)
        return HttpResponse(message, status=414, content_type="text/plain; charset=utf-8")

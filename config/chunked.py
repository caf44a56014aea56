"""Request bodies sent with Transfer-Encoding: chunked (no Content-Length) to the API.

Django reads a request body only up to its Content-Length, so a chunked body reached the
API as an empty one, whatever its size. This middleware reads such a body under /api/,
at most DATA_UPLOAD_MAX_MEMORY_SIZE bytes: larger, the answer is the API's 413; within
the limit, the request goes on with the body and its length as if it had been sent with
a Content-Length. (gunicorn passes the de-chunked body on as wsgi.input.)
"""

from __future__ import annotations

from collections.abc import Callable
from io import BytesIO

from django.conf import settings
from django.core.handlers.wsgi import LimitedStream
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _

from games.api.errors import error_body

CHUNK = 64 * 1024


class ChunkedBodyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        meta = request.META
        if (
            request.path.startswith("/api/")
            and "chunked" in meta.get("HTTP_TRANSFER_ENCODING", "").lower()
            and not meta.get("CONTENT_LENGTH")
            and "wsgi.input" in meta
        ):
            limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE or 0
            body = _read_at_most(meta["wsgi.input"], limit + 1)
            if len(body) > limit:
                message = _("The request body is larger than %(limit)d bytes.") % {"limit": limit}
                return JsonResponse(error_body(413, "too_large", message), status=413)
            meta["CONTENT_LENGTH"] = str(len(body))
            request._stream = LimitedStream(BytesIO(body), len(body))
        return self.get_response(request)


def _read_at_most(stream, size: int) -> bytes:
    parts: list[bytes] = []
    left = size
    while left > 0:
        part = stream.read(min(CHUNK, left))
        if not part:
            break
        parts.append(part)
        left -= len(part)
    return b"".join(parts)

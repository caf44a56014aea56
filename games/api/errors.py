"""The one exception handler of the API: every error answers with the same JSON shape.

    {"status": 400, "code": "deal_rejected", "message": "...",
     "errors": [{"deal": 3, "field": "result.tricks", "code": "tricks_total",
                 "params": {"total": 12}, "message": "tricks add up to 12, not 13"}]}

`errors` lists every problem (engine problems as they are, DRF validation errors with
their field paths); 409 and 412 add `stored` (the deal as it is stored). Set as
REST_FRAMEWORK["EXCEPTION_HANDLER"]; any API view (standings included) gets it.
"""

from __future__ import annotations

import sys
from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig
from django.db import DatabaseError, InterfaceError, OperationalError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views import defaults
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import set_rollback

from clubs.engine_words import translate_problems
from games.core.errors import EntryError

# Service error codes whose HTTP status is not the error class's own.
STATUS_BY_CODE = {
    "not_found": status.HTTP_404_NOT_FOUND,
    "already_confirmed": status.HTTP_409_CONFLICT,
    "event_closed": status.HTTP_409_CONFLICT,
    "confirm_by_entering_client": status.HTTP_403_FORBIDDEN,
    "undo_by_other_client": status.HTTP_403_FORBIDDEN,
}


class PreconditionRequired(exceptions.APIException):
    status_code = status.HTTP_428_PRECONDITION_REQUIRED
    default_detail = gettext_lazy("This request needs an If-Match header with the deal's version.")
    default_code = "precondition_required"


class PreconditionFailed(exceptions.APIException):
    status_code = status.HTTP_412_PRECONDITION_FAILED
    default_detail = gettext_lazy("The If-Match header does not name the deal's current version.")
    default_code = "stale_version"


class LoginLocked(exceptions.Throttled):
    """Too many failed logins for this account or address (clubs/login_limits.py)."""

    default_code = "locked_out"

    def __init__(self, wait: int, message: str) -> None:
        # Not Throttled's own sentence about the wait: the message already says it.
        super().__init__(detail=message, code=self.default_code)
        self.wait = wait


class WrongGame(exceptions.NotFound):
    """The object exists and the caller may read it, but it is of the other game, which
    has no such thing (a Burraco game's deals, a Barbu game's score card): 404
    `wrong_game`, `params.game` the game it is, the message where to look instead."""

    default_code = "wrong_game"

    def __init__(self, message: str, game: str) -> None:
        super().__init__(detail=message, code=self.default_code)
        self.params = {"game": str(game)}


class PayloadTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_detail = gettext_lazy("The request body is too large.")
    default_code = "too_large"


def problem(
    message: str,
    *,
    code: str = "invalid",
    field: str | None = None,
    deal: int | None = None,
    params: dict | None = None,
) -> dict[str, Any]:
    """One entry of `errors`, in the engine's problem shape."""
    return {
        "deal": deal,
        "field": field,
        "code": code,
        "params": params or {},
        "message": str(message),
    }


def _flatten(detail: Any, path: str = "") -> list[dict[str, Any]]:
    """DRF's nested ValidationError detail as a flat list of problems with field paths."""
    if isinstance(detail, dict):
        out = []
        for key, value in detail.items():
            name = "" if key == "non_field_errors" else str(key)
            out += _flatten(value, f"{path}.{name}" if path and name else path or name)
        return out
    if isinstance(detail, list):
        if all(isinstance(item, exceptions.ErrorDetail | str) for item in detail):
            return [_detail_problem(item, path) for item in detail]
        out = []
        for index, value in enumerate(detail):
            if value:  # DRF puts {} for list items without errors
                out += _flatten(value, f"{path}.{index}" if path else str(index))
        return out
    return [_detail_problem(detail, path)]


def _detail_problem(item: Any, path: str) -> dict[str, Any]:
    code = getattr(item, "code", None) or "invalid"
    return problem(str(item), code=code, field=path or None)


def error_body(
    status_code: int,
    code: str,
    message: str,
    errors: list[dict] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    body = {"status": status_code, "code": code, "message": str(message), "errors": errors or []}
    body.update(extra)
    return body


def _as_problem(found: dict[str, Any]) -> dict[str, Any]:
    """A service's problem in the API's one shape: a Burraco hand's number, "hand" in the
    engine's own JSON (docs/rules/format.md), is `deal` here, as for Barbu's deals."""
    if "hand" not in found:
        return found
    return problem(
        found.get("message", ""),
        code=found.get("code") or "invalid",
        field=found.get("field"),
        deal=found.get("hand"),
        params=found.get("params"),
    )


def _entry_error(exc: EntryError) -> Response:
    status_code = STATUS_BY_CODE.get(exc.code, exc.status)
    # The engine speaks English; its codes and params give the message in the request's
    # language (clubs/engine_words.py).
    errors = [_as_problem(p) for p in translate_problems(exc.problems)]
    message = errors[0]["message"] if errors and exc.code == "deal_rejected" else exc.message
    if not errors and status_code == status.HTTP_400_BAD_REQUEST:
        errors = [problem(exc.message, code=exc.code, params=exc.params)]
    body = error_body(status_code, exc.code, message, errors, **exc.extra)
    if exc.params:
        body["params"] = exc.params
    return Response(body, status=status_code)


def exception_handler(exc: Exception, context: dict) -> Response | None:
    """REST_FRAMEWORK["EXCEPTION_HANDLER"]: any known error -> the one JSON shape."""
    if isinstance(exc, EntryError):
        set_rollback()
        return _entry_error(exc)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    elif isinstance(exc, RequestDataTooBig):
        exc = PayloadTooLarge()
    if not isinstance(exc, exceptions.APIException):
        return None  # a bug: Django's 500 handling and logging take it

    headers = {}
    if getattr(exc, "auth_header", None):
        headers["WWW-Authenticate"] = exc.auth_header
    if getattr(exc, "wait", None):
        headers["Retry-After"] = str(int(exc.wait))
    set_rollback()

    if isinstance(exc, exceptions.ValidationError):
        errors = _flatten(exc.detail)
        message = (
            errors[0]["message"]
            if len(errors) == 1
            else _("The request has %(count)d problems.") % {"count": len(errors)}
        )
        if errors and errors[0]["field"]:
            message = f"{errors[0]['field']}: {errors[0]['message']}"
            if len(errors) > 1:
                message += " " + _("(and %(count)d more problems)") % {"count": len(errors) - 1}
        body = error_body(exc.status_code, "invalid", message, errors)
        return Response(body, status=exc.status_code, headers=headers)

    detail = exc.detail
    if isinstance(detail, dict | list):
        errors = _flatten(detail)
        message = errors[0]["message"] if errors else str(exc.default_detail)
    else:
        errors = []
        message = str(detail)
    code = exc.get_codes() if not isinstance(detail, dict | list) else exc.default_code
    if not isinstance(code, str):
        code = exc.default_code
    extra: dict[str, Any] = {}
    if isinstance(exc, exceptions.Throttled) and exc.wait is not None:
        extra["params"] = {"wait": int(exc.wait)}
    if getattr(exc, "params", None):
        extra["params"] = exc.params
    if exc.status_code == status.HTTP_400_BAD_REQUEST and not errors:
        errors = [problem(message, code=code)]
    stored = getattr(exc, "stored", None)
    if stored is not None:
        extra["stored"] = stored
    body = error_body(exc.status_code, code, message, errors, **extra)
    return Response(body, status=exc.status_code, headers=headers)


# The database cannot be reached or dropped the connection: worth trying again shortly.
UNAVAILABLE = (OperationalError, InterfaceError)
RETRY_AFTER_SECONDS = 5


def server_error(request: HttpRequest) -> HttpResponse:
    """handler500 (config/urls.py): any uncaught error. Under /api/ the API's JSON error
    shape, never Django's HTML page: 503 with Retry-After when the database is unreachable
    or dropped the connection, else 500. Django has logged the error already; pages get
    Django's own 500 page."""
    if not request.path.startswith("/api/"):
        return defaults.server_error(request)
    error = sys.exc_info()[1]
    if isinstance(error, UNAVAILABLE) or (
        isinstance(error, DatabaseError) and "terminat" in str(error).lower()
    ):
        body = error_body(
            503,
            "unavailable",
            _("The database cannot be reached just now. Try again in a few seconds."),
        )
        response = JsonResponse(body, status=503)
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response
    body = error_body(
        500,
        "server_error",
        _("Something went wrong on the server. Try again; if it keeps failing, tell the club."),
    )
    return JsonResponse(body, status=500)

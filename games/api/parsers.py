"""The API's JSON parser: bounded size and depth, no NUL characters, no lone surrogates
(text that cannot be stored or sent back as UTF-8), strict and finite numbers."""

from __future__ import annotations

import json
import math
import re
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from games.api.errors import PayloadTooLarge

# A deal is four levels deep ({"result": {"hearts": {"Anna": ["AH"]}}}): anything far
# deeper is not a deal, and refusing it early keeps the engine and json.dumps safe.
MAX_DEPTH = 16

# "\udfff" is valid JSON but not Unicode text: PostgreSQL and the renderer cannot encode it.
SURROGATE = re.compile(r"[\ud800-\udfff]")


def _bad_text(text: str) -> str | None:
    if "\x00" in text:
        return _("Text must not contain NUL characters (\\u0000).")
    if SURROGATE.search(text):
        return _("Text must not contain lone surrogates (\\ud800 to \\udfff).")
    return None


def _nul_or_too_deep(data: Any) -> str | None:
    """Why this parsed JSON is refused, or None. Iterative: no recursion on hostile input."""
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if depth > MAX_DEPTH:
            return _("The JSON is nested more than %(depth)d levels deep.") % {"depth": MAX_DEPTH}
        if isinstance(value, str):
            problem = _bad_text(value)
            if problem:
                return problem
        elif isinstance(value, dict):
            for key, item in value.items():
                problem = _bad_text(key)
                if problem:
                    return problem
                stack.append((item, depth + 1))
        elif isinstance(value, list):
            stack.extend((item, depth + 1) for item in value)
    return None


class StrictJSONParser(JSONParser):
    """JSON only, at most DATA_UPLOAD_MAX_MEMORY_SIZE bytes, MAX_DEPTH deep, no NUL."""

    def parse(self, stream, media_type=None, parser_context=None):
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        raw = stream.read(limit + 1) if stream is not None else b""
        if limit is not None and len(raw) > limit:
            raise PayloadTooLarge(
                _("The request body is larger than %(limit)d bytes.") % {"limit": limit}
            )
        try:
            text = raw.decode("utf-8")
            data = json.loads(text, parse_constant=_no_constant, parse_float=_finite)
        except RecursionError:
            raise ParseError(_("The JSON is nested too deeply.")) from None
        except ValueError as exc:  # JSONDecodeError and UnicodeDecodeError are ValueErrors
            raise ParseError(
                _("The body is not valid JSON: %(detail)s") % {"detail": exc}
            ) from None
        problem = _nul_or_too_deep(data)
        if problem:
            raise ParseError(problem)
        return data


def _no_constant(name: str) -> None:
    raise ValueError(_("%(name)s is not a JSON number") % {"name": name})


def _finite(text: str) -> float:
    number = float(text)
    if math.isinf(number):
        raise ValueError(_("%(number)s is too large a number") % {"number": text[:40]})
    return number

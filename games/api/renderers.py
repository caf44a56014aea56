"""The API's JSON renderer: DRF's JSONRenderer, with the encoding done by orjson (issue 20).

A list page of 50 deals is about 30 kB of nested JSON; the standard library's encoder
took a tenth of such a request's CPU, orjson a small part of that. What the client gets
is what DRF's renderer gives:
- the same compact separators, UTF-8 without \\u escapes, U+2028 and U+2029 escaped;
- datetimes, dates, times, durations, decimals, lazy translations, querysets and any
  other type DRF's JSONEncoder knows are converted by that encoder's own `default`
  (orjson is told to pass datetimes and dataclasses through to it), so they read as
  before (`Z` for UTC, DRF's decimal setting);
- dictionary keys that are not strings become strings, as json.dumps makes them.
Where orjson cannot encode the data as the standard encoder would (an integer beyond 64
bits), the standard encoder answers. Indented output (the browsable API, `; indent=N`)
is DRF's own. Two differences, neither in what the API sends today: a float's exponent
has no leading zero (1e-7, not 1e-07: the same number), and a float that is not a number
is written null (DRF's strict setting raised an error: a server error either way for the
client, which must not get such a value).
tests/api/test_renderer.py compares both renderers on random data.
"""

from __future__ import annotations

from typing import Any

import orjson
from rest_framework import renderers
from rest_framework.utils import encoders

_OPTIONS = (
    orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS
)
_DEFAULT = encoders.JSONEncoder().default


class JSONRenderer(renderers.JSONRenderer):
    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: dict[str, Any] | None = None,
    ) -> bytes:
        if data is None:
            return b""
        if (
            not self.compact
            or self.ensure_ascii
            or self.get_indent(accepted_media_type, renderer_context or {}) is not None
        ):
            return super().render(data, accepted_media_type, renderer_context)
        return dumps(data) or super().render(data, accepted_media_type, renderer_context)


def dumps(data: Any, sort_keys: bool = False) -> bytes | None:
    """Compact JSON of `data` as DRF's JSONRenderer writes it (`sort_keys`: as it writes
    the same data with every object's keys sorted); None where only the standard encoder
    can (orjson refuses the data)."""
    option = _OPTIONS | orjson.OPT_SORT_KEYS if sort_keys else _OPTIONS
    try:
        out = orjson.dumps(data, default=_DEFAULT, option=option)
    except orjson.JSONEncodeError:
        return None
    if b"\xe2\x80\xa8" in out or b"\xe2\x80\xa9" in out:  # U+2028, U+2029 as UTF-8
        out = out.replace(b"\xe2\x80\xa8", b"\\u2028").replace(b"\xe2\x80\xa9", b"\\u2029")
    return out

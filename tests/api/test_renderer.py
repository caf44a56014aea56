"""The API's JSON renderer (games/api/renderers.py, orjson) writes what DRF's JSONRenderer
writes: the same bytes for the data the API answers, on random data too."""

from __future__ import annotations

import datetime
import decimal
import json
import uuid

from django.utils.translation import gettext_lazy
from hypothesis import given
from hypothesis import strategies as st
from rest_framework import renderers

from games.api.renderers import JSONRenderer

DRF = renderers.JSONRenderer()
OURS = JSONRenderer()
MEDIA = "application/json"

# JSON-like data without floats (their exponent is written differently, tested below).
scalars = st.none() | st.booleans() | st.integers(-(2**63), 2**63 - 1) | st.text()
data = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=5)
        | st.dictionaries(st.text() | st.integers(-100, 100), inner, max_size=5)
    ),
    max_leaves=30,
)


@given(data)
def test_the_same_bytes_as_drf(value):
    assert OURS.render(value, MEDIA, {}) == DRF.render(value, MEDIA, {})


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_floats_read_back_as_the_same_number(value):
    assert json.loads(OURS.render([value], MEDIA, {})) == json.loads(DRF.render([value], MEDIA, {}))


def test_what_drfs_encoder_converts_reads_as_before():
    value = {
        "at": datetime.datetime(2026, 11, 24, 18, 0, tzinfo=datetime.UTC),
        "local": datetime.datetime(2026, 11, 24, 18, 0),
        "day": datetime.date(2026, 11, 24),
        "time": datetime.time(18, 30),
        "span": datetime.timedelta(minutes=90),
        "points": decimal.Decimal("12.50"),
        "id": uuid.UUID(int=7),
        "word": gettext_lazy("complete"),
        "tuple": (1, 2),
        "line": "a\u2028b\u2029c",
        "big": 2**70,
    }
    assert OURS.render(value, MEDIA, {}) == DRF.render(value, MEDIA, {})
    assert b"\\u2028" in OURS.render(value, MEDIA, {})


def test_indented_output_is_drfs():
    value = {"a": [1, {"b": "c"}]}
    assert OURS.render(value, "application/json; indent=4", {}) == DRF.render(
        value, "application/json; indent=4", {}
    )
    assert OURS.render(value, MEDIA, {"indent": 2}) == DRF.render(value, MEDIA, {"indent": 2})


def test_the_api_answers_with_this_renderer(client, db):
    response = client.get("/api/v1/clubs/")
    assert type(response.accepted_renderer) is JSONRenderer

"""A corpus of malformed requests: each gets 400 (413, 415) with a useful message, and
nothing is stored."""

from __future__ import annotations

import json

import pytest

from games.models import Deal, DealRevision, IdempotencyRecord

pytestmark = pytest.mark.django_db


def nested(depth: int) -> dict:
    value: dict = {}
    for _ in range(depth):
        value = {"a": value}
    return value


# (name, body as raw bytes or JSON-able value, expected status, a word the message contains)
CORPUS = [
    ("not json", b"{dealer: Anna", 400, "JSON"),
    ("truncated", b'{"dealer": "Anna", "contract": "bar', 400, "JSON"),
    (
        "NaN",
        b'{"dealer": "Anna", "contract": "no_tricks", "result": {"tricks": {"Anna": NaN}}}',
        400,
        "NaN",
    ),
    ("not utf-8", b'{"dealer": "\xff\xfe"}', 400, "JSON"),
    ("a list", [1, 2, 3], 400, "object"),
    ("a string", "barbu", 400, "object"),
    ("null", None, 400, "object"),
    ("empty object", {}, 400, "dealer"),
    (
        "dealer a number",
        {"dealer": 3, "contract": "barbu", "result": {"king_of_hearts": "Anna"}},
        400,
        "dealer",
    ),
    (
        "unknown player",
        {"dealer": "Anna", "contract": "barbu", "result": {"king_of_hearts": "Zorro"}},
        400,
        "Zorro",
    ),
    ("unknown contract", {"dealer": "Anna", "contract": "poker", "result": {}}, 400, "poker"),
    ("missing result", {"dealer": "Anna", "contract": "barbu"}, 400, "result"),
    ("result a list", {"dealer": "Anna", "contract": "barbu", "result": ["Anna"]}, 400, "result"),
    (
        "unknown card",
        {
            "dealer": "Anna",
            "contract": "queens",
            "result": {"queens": {"Anna": ["QX", "QS", "QH", "QD"]}},
        },
        400,
        "QX",
    ),
    (
        "tricks off",
        {"dealer": "Anna", "contract": "no_tricks", "result": {"tricks": {"Anna": 5, "Bruno": 5}}},
        400,
        "13",
    ),
    (
        "tricks a string",
        {"dealer": "Anna", "contract": "no_tricks", "result": {"tricks": {"Anna": "13"}}},
        400,
        "tricks",
    ),
    (
        "huge number",
        {"dealer": "Anna", "contract": "no_tricks", "result": {"tricks": {"Anna": 10**30}}},
        400,
        "tricks",
    ),
    (
        "negative tricks",
        {
            "dealer": "Anna",
            "contract": "no_tricks",
            "result": {"tricks": {"Anna": -1, "Bruno": 14}},
        },
        400,
        "tricks",
    ),
    (
        "doubles not a list",
        {
            "dealer": "Anna",
            "contract": "barbu",
            "doubles": "all",
            "result": {"king_of_hearts": "Anna"},
        },
        400,
        "doubles",
    ),
    (
        "number a string",
        {
            "number": "3",
            "dealer": "Anna",
            "contract": "barbu",
            "result": {"king_of_hearts": "Anna"},
        },
        400,
        "number",
    ),
    (
        "number zero",
        {"number": 0, "dealer": "Anna", "contract": "barbu", "result": {"king_of_hearts": "Anna"}},
        400,
        "number",
    ),
    (
        "number ahead",
        {"number": 9, "dealer": "Anna", "contract": "barbu", "result": {"king_of_hearts": "Anna"}},
        400,
        "9",
    ),
    (
        "seat out of range",
        {"seat": 7, "dealer": "Anna", "contract": "barbu", "result": {"king_of_hearts": "Anna"}},
        400,
        "seat",
    ),
    (
        "NUL in a name",
        {"dealer": "An\x00na", "contract": "barbu", "result": {"king_of_hearts": "Anna"}},
        400,
        "NUL",
    ),
    (
        "NUL in a key",
        {"dealer": "Anna", "contract": "barbu", "result": {"king\x00": "Anna"}},
        400,
        "NUL",
    ),
    ("deeply nested", {"dealer": "Anna", "contract": "barbu", "result": nested(50)}, 400, "nested"),
    ("very deeply nested", b"[" * 100_000 + b"]" * 100_000, 400, "nested"),
    (
        "huge body",
        {"dealer": "Anna", "contract": "barbu", "result": {"x": "y" * (1024 * 1024 + 10)}},
        413,
        "large",
    ),
]


def _send(client, url: str, body, content_type: str = "application/json", **headers):
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    return client.generic("POST", url, raw, content_type=content_type, **headers)


def _counts() -> tuple[int, int, int]:
    return Deal.objects.count(), DealRevision.objects.count(), IdempotencyRecord.objects.count()


@pytest.mark.parametrize(("name", "body", "status", "word"), CORPUS, ids=[c[0] for c in CORPUS])
def test_malformed_deal_is_refused_clearly_and_stores_nothing(world, name, body, status, word):
    client = world.client("organiser")
    before = _counts()
    response = _send(
        client, f"/api/v1/games/{world.game.pk}/deals/", body, HTTP_IDEMPOTENCY_KEY=f"k-{name}"
    )
    assert response.status_code == status, response.content[:500]
    error = response.json()
    assert error["status"] == status
    text = error["message"] + " ".join(p["message"] + str(p["field"]) for p in error["errors"])
    assert word.lower() in text.lower(), error
    if status == 400:
        assert error["errors"], error
    assert _counts() == before


@pytest.mark.parametrize(
    ("content_type", "status"),
    [("text/plain", 415), ("application/x-www-form-urlencoded", 415), ("application/xml", 415)],
)
def test_wrong_content_type_is_415(world, content_type, status):
    before = _counts()
    response = _send(
        world.client("organiser"),
        f"/api/v1/games/{world.game.pk}/deals/",
        world.deals[2],
        content_type=content_type,
    )
    assert response.status_code == status
    assert response.json()["code"] == "unsupported_media_type"
    assert _counts() == before


@pytest.mark.parametrize(
    ("method", "path", "body", "status"),
    [
        ("PUT", "1/", {"dealer": "Anna"}, 400),
        ("PUT", "1/", [1], 400),
        ("PUT", "1/", {"reason": 5, "dealer": "Anna"}, 400),
        ("PATCH", "1/", {"contract": "poker"}, 400),
        ("PATCH", "1/", {"number": 2}, 400),
        ("POST", "1/confirm/", {"agree": "maybe", "seat": 1}, 400),
        ("POST", "1/confirm/", {"agree": True, "seat": 9}, 400),
        ("POST", "1/confirm/", {"agree": True}, 400),
        ("DELETE", "1/", None, 405),
        ("PUT", "99/", {"dealer": "Anna"}, 404),
    ],
)
def test_bad_corrections_and_confirmations(world, method, path, body, status):
    before = _counts()
    data = Deal.objects.get(game=world.game, number=1).data
    client = world.client("organiser")
    response = client.generic(
        method,
        f"/api/v1/games/{world.game.pk}/deals/{path}",
        json.dumps(body).encode() if body is not None else b"",
        content_type="application/json",
        HTTP_IF_MATCH='"1"',
    )
    assert response.status_code == status, response.content
    error = response.json()
    assert error["status"] == status and error["message"]
    assert _counts() == before
    assert Deal.objects.get(game=world.game, number=1).data == data


@pytest.mark.parametrize("header", ["yesterday", '"1', '"1" "2"', 'W/"1" x', ""])
def test_a_malformed_if_match_is_400(world, header):
    """Not a list of entity-tags: a bad request (RFC 9110), not a stale version."""
    response = world.client("organiser").put(
        f"/api/v1/games/{world.game.pk}/deals/1/",
        world.deals[0],
        format="json",
        HTTP_IF_MATCH=header,
    )
    assert response.status_code == 400, response.content
    assert response.json()["errors"][0]["field"] == "If-Match"


@pytest.mark.parametrize("key", ["", "x" * 201, "tab\there", "clé"])
def test_bad_idempotency_key_is_400(world, key):
    before = _counts()
    response = world.client("organiser").post(
        f"/api/v1/games/{world.game.pk}/deals/",
        world.deals[2],
        format="json",
        HTTP_IDEMPOTENCY_KEY=key,
    )
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "Idempotency-Key"
    assert _counts() == before


@pytest.mark.parametrize(
    "query",
    [
        "?page=0",
        "?page=abc",
        "?event=abc",
        "?event=1.5",
        "?event=99999999999999999999999",
        "?status=x%00",
    ],
)
def test_bad_query_parameters_are_4xx_not_500(world, query):
    response = world.client("anonymous").get(f"/api/v1/games/{query}")
    assert response.status_code in (400, 404)
    assert response.json()["message"]


def test_drf_validation_errors_have_field_paths(world):
    response = world.client("anonymous").post(
        "/api/v1/auth/token/", {"username": ["x"]}, format="json"
    )
    assert response.status_code == 400
    error = response.json()
    assert {p["field"] for p in error["errors"]} == {"username", "password"}
    assert {p["code"] for p in error["errors"]} == {"invalid", "required"}


@pytest.mark.parametrize("path", ["/api/v1/clubs/", "/api/v1/deals/", "/api/v1/games/"])
def test_a_page_number_past_any_list_is_a_404_not_a_server_error(world, path):
    """Found by schemathesis: ?page=1701985244063273596080881664 made an OFFSET past
    SQLite's 64 bits (a 500, `datatype mismatch`)."""
    client = world.client("organiser")
    for page in ("1701985244063273596080881664", str(2**63), "999999999"):
        answer = client.get(f"{path}?page={page}")
        assert answer.status_code == 404, (page, answer.content)
        assert answer.json()["code"] == "not_found"

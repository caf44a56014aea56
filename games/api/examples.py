"""Answers shown in the OpenAPI schema, one per status of the deal endpoints.

They are real answers: tests/games/api/test_examples.py replays each situation against a game
of Anna, Bruno, Carla and Dario (game 7 here) and compares the answer with the example,
so the documentation cannot drift from what the API says.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample

NAMES = ("Anna", "Bruno", "Carla", "Dario")
GAME_ID = 7

# Deal 1 of game 7: Bruno doubles Anna (the dealer), Anna redoubles; Carla takes the K♥.
FIRST_DEAL: dict[str, Any] = {
    "dealer": "Anna",
    "contract": "barbu",
    "doubles": [{"by": "Bruno", "against": "Anna", "redoubled": True}],
    "result": {"king_of_hearts": "Carla"},
}
FIRST_SCORES: dict[str, Any] = {
    "raw": {"Anna": 0, "Bruno": 0, "Carla": -20, "Dario": 0},
    "doubles": {"Anna": 0, "Bruno": 0, "Carla": 0, "Dario": 0},
    "score": {"Anna": 0, "Bruno": 0, "Carla": -20, "Dario": 0},
}
STORED_FIRST: dict[str, Any] = {
    "number": 1,
    "version": 1,
    "status": "confirmed",
    "deal": FIRST_DEAL,
    "scores": FIRST_SCORES,
}
# Deal 2 as a table might mistype it: 12 tricks counted instead of 13.
MISCOUNTED_DEAL: dict[str, Any] = {
    "dealer": "Anna",
    "contract": "no_tricks",
    "result": {"tricks": {"Anna": 2, "Bruno": 4, "Carla": 3, "Dario": 3}},
}


def _any_against_any() -> list[dict[str, str]]:
    """Every opponent of the dealer Anna may double anyone (italian7, ordinary contracts)."""
    return [{"by": by, "against": to} for by in NAMES[1:] for to in NAMES if to != by]


def _against_dealer() -> list[dict[str, str]]:
    """Trumps and domino: only the dealer may be doubled (italian7)."""
    return [{"by": by, "against": "Anna"} for by in NAMES[1:]]


STORED_ANSWER: dict[str, Any] = {
    "game": GAME_ID,
    **{key: STORED_FIRST[key] for key in ("number", "version", "status", "deal", "scores")},
    "totals": {"Anna": 0, "Bruno": 0, "Carla": -20, "Dario": 0},
    "complete": False,
    "next": {
        "number": 2,
        "dealer": "Anna",
        "contracts_left": ["hearts", "queens", "last_two", "no_tricks", "trumps", "domino"],
        "doubles_allowed": {
            "hearts": _any_against_any(),
            "queens": _any_against_any(),
            "last_two": _any_against_any(),
            "no_tricks": _any_against_any(),
            "trumps": _against_dealer(),
            "domino": _against_dealer(),
        },
        "doubles_owed": [
            {"by": "Bruno", "against": "Anna", "needed": 1, "deals_left": 6},
            {"by": "Carla", "against": "Anna", "needed": 2, "deals_left": 6},
            {"by": "Dario", "against": "Anna", "needed": 2, "deals_left": 6},
        ],
        "must_double_now": [],
    },
}

ERROR_ANSWERS: dict[int, dict[str, Any]] = {
    400: {
        "status": 400,
        "code": "deal_rejected",
        "message": "tricks add up to 12, not 13",
        "errors": [
            {
                "deal": 2,
                "field": "result.tricks",
                "code": "tricks_total",
                "params": {"total": 12},
                "message": "tricks add up to 12, not 13",
            }
        ],
    },
    401: {
        "status": 401,
        "code": "not_authenticated",
        "message": "Authentication credentials were not provided.",
        "errors": [],
    },
    403: {
        "status": 403,
        "code": "permission_denied",
        "message": "Only the organisers of this club or the players at this table may enter deals.",
        "errors": [],
    },
    404: {"status": 404, "code": "not_found", "message": "Not found.", "errors": []},
    409: {
        "status": 409,
        "code": "deal_conflict",
        "message": "Deal 1 is already stored with other content; ask the organiser to correct it.",
        "errors": [],
        "stored": STORED_FIRST,
        "params": {"number": 1},
    },
    412: {
        "status": 412,
        "code": "stale_version",
        "message": "Deal 1 was changed meanwhile (now version 2); reload it and correct again.",
        "errors": [],
        "stored": {**STORED_FIRST, "version": 2},
        "params": {"version": 2, "expected": 1},
    },
    413: {
        "status": 413,
        "code": "too_large",
        "message": "The request body is too large.",
        "errors": [],
    },
    415: {
        "status": 415,
        "code": "unsupported_media_type",
        "message": 'Unsupported media type "text/plain" in request.',
        "errors": [],
    },
    422: {
        "status": 422,
        "code": "idempotency_key_reused",
        "message": "This Idempotency-Key was already used for a different deal.",
        "errors": [],
    },
    428: {
        "status": 428,
        "code": "precondition_required",
        "message": "This request needs an If-Match header with the deal's version.",
        "errors": [],
    },
    429: {
        "status": 429,
        "code": "throttled",
        "message": "Request was throttled. Expected available in 42 seconds.",
        "errors": [],
        "params": {"wait": 42},
    },
}

SITUATIONS: dict[int, str] = {
    400: "Deal 2 with 12 tricks counted",
    401: "No token, session or table key",
    403: "Another table's key",
    404: "A game you cannot see",
    409: "Other content under stored number 1",
    412: "If-Match names version 1; deal 1 is at version 2",
    413: "A body over 1 MiB",
    415: "A text/plain body",
    422: "One Idempotency-Key, another body",
    428: "A correction without If-Match",
    429: "Too many writes",
}


def error_examples(status: int) -> list[OpenApiExample]:
    """The documented answer for an error status, if there is one."""
    if status not in ERROR_ANSWERS:
        return []
    return [OpenApiExample(SITUATIONS[status], value=ERROR_ANSWERS[status], response_only=True)]


STORED_EXAMPLES = [
    OpenApiExample(
        "Deal 1 stored (barbu, Bruno doubles the dealer, redoubled)",
        value=STORED_ANSWER,
        response_only=True,
    )
]

"""What the OpenAPI schema says of the API: errors, headers, examples, public reads."""

from __future__ import annotations

from typing import Any

from drf_spectacular.openapi import AutoSchema
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
)

from games.api import contract, examples, serializers

# --- documentation of errors ------------------------------------------------------------
ERROR_TEXT = {
    400: "Invalid request: `errors` lists every problem (deal number, a Burraco hand's "
    "number too, field path, code, params, message).",
    401: "Not authenticated: send `Authorization: Token ...`, a session, or `X-Table-Key`.",
    403: "Authenticated, but not allowed to do this.",
    404: "No such object, or not visible to you; `wrong_game` (with `params.game`): the "
    "object is of the other game, which has no such thing (a Burraco game's deals, a Barbu "
    "game's score card or hands, a Barbu evening as a tournament).",
    405: "Method not allowed.",
    409: "Conflict: another deal is stored under this number (`stored`), or the game is "
    "complete (`game_closed`), or its round or evening is closed (`round_closed`, "
    "`event_closed`: only corrections of stored deals), or the deal or score card is already "
    "confirmed (or the card disputed: `params.status`).",
    412: "If-Match does not name the deal's current version; `stored` is the current deal.",
    413: "The request body is larger than 1 MiB.",
    415: "The body must be application/json.",
    422: "This Idempotency-Key was already used for a different request.",
    428: "If-Match is required to correct a deal.",
    429: "Too many requests: wait `params.wait` seconds (also in Retry-After).",
}
READ_ERRORS = (400, 401, 404, 429)
WRITE_ERRORS = (400, 401, 403, 404, 413, 415, 429)


def errors(*codes: int) -> dict[int, OpenApiResponse]:
    return {
        code: OpenApiResponse(
            serializers.ConflictSerializer if code in (409, 412) else serializers.ErrorSerializer,
            description=ERROR_TEXT[code],
            examples=examples.error_examples(code),
        )
        for code in codes
    }


IF_MATCH = OpenApiParameter(
    "If-Match",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=True,
    description='The deal\'s version as its ETag, e.g. "3". Missing: 428; stale: 412.',
)
IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    {
        "type": "string",
        "minLength": 1,
        "maxLength": 200,
        "pattern": contract.IDEMPOTENCY_KEY_PATTERN,
    },
    OpenApiParameter.HEADER,
    description="Any unique string of 1 to 200 printable ASCII characters (space to ~), "
    "e.g. a UUID: a retry with the same key and body returns the first answer, byte for "
    "byte, and stores nothing new.",
)
ETAG = OpenApiParameter(
    "ETag",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    response=True,
    description='The deal\'s version, e.g. "3": send it back as If-Match to correct it.',
)

DEAL_EXAMPLES = [
    OpenApiExample(
        "barbu",
        value={
            "number": 1,
            "dealer": "Anna",
            "contract": "barbu",
            "doubles": [{"by": "Bruno", "against": "Anna", "redoubled": True}],
            "result": {"king_of_hearts": "Carla"},
        },
        request_only=True,
    ),
    OpenApiExample(
        "hearts",
        value={
            "dealer": "Anna",
            "contract": "hearts",
            "result": {
                "hearts": {
                    "Anna": ["AH", "KH", "QH"],
                    "Bruno": ["JH", "TH", "9H", "8H"],
                    "Carla": ["7H", "6H", "5H"],
                    "Dario": ["4H", "3H", "2H"],
                }
            },
        },
        request_only=True,
    ),
    OpenApiExample(
        "queens",
        value={
            "dealer": "Anna",
            "contract": "queens",
            "result": {"queens": {"Bruno": ["QS", "QH"], "Dario": ["QD", "QC"]}},
        },
        request_only=True,
    ),
    OpenApiExample(
        "last_two",
        value={
            "dealer": "Anna",
            "contract": "last_two",
            "result": {"twelfth": "Bruno", "thirteenth": "Dario"},
        },
        request_only=True,
    ),
    OpenApiExample(
        "no_tricks",
        value={
            "dealer": "Anna",
            "contract": "no_tricks",
            "result": {"tricks": {"Anna": 2, "Bruno": 4, "Carla": 3, "Dario": 4}},
        },
        request_only=True,
    ),
    OpenApiExample(
        "trumps",
        value={
            "dealer": "Anna",
            "contract": "trumps",
            "trump": "S",
            "result": {"tricks": {"Anna": 6, "Bruno": 3, "Carla": 2, "Dario": 2}},
        },
        request_only=True,
    ),
    OpenApiExample(
        "domino",
        value={
            "dealer": "Anna",
            "contract": "domino",
            "result": {"order": ["Carla", "Anna", "Dario", "Bruno"]},
        },
        request_only=True,
    ),
]


class ApiSchema(AutoSchema):
    """Reads are public (what is visible depends on who asks): authentication optional."""

    def get_auth(self) -> list[dict[str, Any]]:
        auths = super().get_auth()
        if self.method in ("GET", "HEAD") and {} not in auths:
            auths.append({})
        return auths


def read_schema(serializer: type, tag: str) -> Any:
    """The schema of a read-only viewset: its list and its detail, with the read errors."""
    return extend_schema_view(
        list=extend_schema(
            tags=[tag], responses={200: serializer(many=True), **errors(*READ_ERRORS)}
        ),
        retrieve=extend_schema(tags=[tag], responses={200: serializer, **errors(*READ_ERRORS)}),
    )

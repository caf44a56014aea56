"""The answers of `GET /api/v1/tournaments/{id}/` shown in the OpenAPI schema: a pair
tournament and an individual one (tests/games/api/test_individual_tournaments.py checks that
the API answers in these shapes)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample

PAIR_TOURNAMENT = {
    "id": 7,
    "club": 2,
    "name": "Torneo del martedì",
    "game": "burraco",
    "status": "running",
    "format": "turns",
    "target": None,
    "individual": False,
    "turns_planned": 4,
    "pairs": [
        {"number": 1, "players": ["Anna Rossi", "Bruno Neri"], "player_id": None,
         "active": True, "late": False},
        {"number": 2, "players": ["Carla Bianchi", "Dario Verdi"], "player_id": None,
         "active": True, "late": False},
        {"number": 3, "players": ["Elena Conti", "Franco Galli"], "player_id": None,
         "active": True, "late": False},
    ],
    "turns": [
        {
            "number": 1, "status": "running", "movement": "mitchell", "variant": None,
            "step": 1, "hands_per_turn": 3, "time_limit": 50,
            "started_at": "2026-11-24T20:45:00+01:00",
            "tables": [{"table": 1, "game": 31, "NS": 1, "EW": 2, "card": "open"}],
            "byes": [3],
        }
    ],
}  # fmt: skip

INDIVIDUAL_TOURNAMENT = {
    "id": 9,
    "club": 2,
    "name": "Individuale del giovedì",
    "game": "burraco",
    "status": "running",
    "format": "turns",
    "target": None,
    "individual": True,
    "turns_planned": 3,
    "pairs": [
        {"number": n, "players": [name], "player_id": 40 + n, "active": True, "late": False}
        for n, name in enumerate(
            ["Anna Rossi", "Bruno Neri", "Carla Bianchi", "Dario Verdi", "Elena Conti"],
            start=1,
        )
    ],
    "turns": [
        {
            "number": 1, "status": "running", "movement": "individual", "variant": None,
            "step": None, "hands_per_turn": 3, "time_limit": None,
            "started_at": "2026-11-26T20:45:00+01:00",
            "tables": [{"table": 1, "game": 52, "NS": [1, 4], "EW": [2, 5], "card": "open"}],
            "byes": [3],
        }
    ],
}  # fmt: skip

TOURNAMENT_EXAMPLES = [
    OpenApiExample(
        "Burraco pair tournament",
        summary="A pair tournament: pairs, each table's NS and EW pair numbers",
        value=PAIR_TOURNAMENT,
        response_only=True,
    ),
    OpenApiExample(
        "Burraco individual tournament",
        summary="An individual tournament: `pairs` holds players, tables two a side",
        description="`individual` is true: each entry of `pairs` is one player entered "
        "alone (one name, `player_id` the player's id, `number` the player's number for "
        "the evening); each table's `NS` and `EW` are the line's two players' numbers, "
        "and `byes` players' numbers.",
        value=INDIVIDUAL_TOURNAMENT,
        response_only=True,
    ),
]

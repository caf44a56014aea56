"""The pair ranking of a Burraco tournament as `GET /api/v1/events/<id>/standings/` answers
it: its serializers, its example and its rows shaped from the stored ranking
(scoring.selectors.pair_standings, one query or none from the cache)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample
from rest_framework import serializers

from games.models import Event
from scoring import selectors
from scoring.burraco_standings import TIE_BREAKS


class PenaltySerializer(serializers.Serializer):
    """What penalties took from the pair over all turns (VP and MP)."""

    vp = serializers.FloatField()
    mp = serializers.IntegerField()


class PairPlaceSerializer(serializers.Serializer):
    """One entry of a tournament's ranking. In a pair tournament: `pair` the pair's number
    for the evening, `players` its two names, `player_id` null. In an individual
    tournament (`individual: true` in the page): the entry is one player, `pair` the
    player's number for the evening (the key keeps its name for pair clients), `players`
    the one name, `player_id` the player's id (as `/api/v1/players/{id}/burraco/` takes
    it). `vp` and
    `mp_difference` the totals with penalties taken off; `shared`: level with another
    pair after every tie-break; `tiebreak`: the tie-break that placed the pair below the
    one above (empty when the VP did, and for the first pair), `tiebreak_label` its name
    in the reader's language, `tie_break_values` the pair's value of each tie-break
    computed for it; `unconfirmed`: its score cards not confirmed yet."""

    place = serializers.IntegerField()
    shared = serializers.BooleanField()
    pair = serializers.IntegerField()
    players = serializers.ListField(child=serializers.CharField(), min_length=1, max_length=2)
    player_id = serializers.IntegerField(allow_null=True)
    vp = serializers.FloatField()
    mp_difference = serializers.IntegerField()
    turns = serializers.IntegerField()
    byes = serializers.IntegerField()
    tiebreak = serializers.ChoiceField(choices=["", *TIE_BREAKS, "draw"])
    tiebreak_label = serializers.CharField()
    tie_break_values = serializers.DictField()
    penalty = PenaltySerializer()
    unconfirmed = serializers.IntegerField()


class FreePlaceSerializer(serializers.Serializer):
    """One pair of an evening of free matches: matches won and lost (finished matches
    only), `difference` their points scored less conceded, `playing` a match it is still
    playing, `unconfirmed` its won or lost matches whose card is not confirmed yet."""

    place = serializers.IntegerField()
    pair = serializers.IntegerField()
    players = serializers.ListField(child=serializers.CharField())
    played = serializers.IntegerField()
    won = serializers.IntegerField()
    lost = serializers.IntegerField()
    difference = serializers.IntegerField()
    playing = serializers.IntegerField()
    unconfirmed = serializers.IntegerField()


def page_schema(paged: Any) -> Any:
    return paged(
        "TournamentStandingsPage",
        PairPlaceSerializer,
        event=serializers.IntegerField(),
        status=serializers.CharField(),
        game=serializers.ChoiceField(choices=["burraco"]),
        individual=serializers.BooleanField(),  # entries are players, not pairs
        tie_breaks=serializers.ListField(child=serializers.CharField()),
    )


def free_page_schema(paged: Any) -> Any:
    return paged(
        "FreeMatchStandingsPage",
        FreePlaceSerializer,
        event=serializers.IntegerField(),
        status=serializers.CharField(),
        game=serializers.ChoiceField(choices=["burraco"]),
        format=serializers.ChoiceField(choices=["free"]),
        target=serializers.IntegerField(),
    )


EXAMPLE = OpenApiExample(
    "Burraco tournament",
    summary="A Burraco tournament: its pair ranking",
    response_only=True,
    value={
        "event": 7,
        "status": "running",
        "game": "burraco",
        "individual": False,
        "tie_breaks": ["mp_difference", "head_to_head"],
        "count": 2,
        "next": None,
        "previous": None,
        "results": [
            {
                "place": 1,
                "shared": False,
                "pair": 4,
                "players": ["Anna Rossi", "Bruno Neri"],
                "player_id": None,
                "vp": 34,
                "mp_difference": 1120,
                "turns": 2,
                "byes": 0,
                "tiebreak": "",
                "tiebreak_label": "",
                "tie_break_values": {},
                "penalty": {"vp": 0, "mp": 0},
                "unconfirmed": 0,
            },
            {
                "place": 2,
                "shared": False,
                "pair": 2,
                "players": ["Carla Bianchi", "Dario Verdi"],
                "player_id": None,
                "vp": 34,
                "mp_difference": 640,
                "turns": 2,
                "byes": 1,
                "tiebreak": "mp_difference",
                "tiebreak_label": "MP difference",
                "tie_break_values": {"mp_difference": 640},
                "penalty": {"vp": 1, "mp": 50},
                "unconfirmed": 0,
            },
        ],
    },
)


def free_rows(event_id: int) -> list[dict[str, Any]]:
    """An evening of free matches: the stored ranking (FreePlaceSerializer's rows)."""
    return [
        {
            "place": row["rank"],
            "pair": row["pair"],
            "players": row["players"],
            "played": row["turns"],
            "won": row["won"],
            "lost": row["lost"],
            "difference": row["mp_difference"],
            "playing": row["playing"],
            "unconfirmed": row["unconfirmed"],
        }
        for row in selectors.pair_standings(event_id)
    ]


INDIVIDUAL_EXAMPLE = OpenApiExample(
    "Burraco individual tournament",
    summary="An individual Burraco tournament: its players' ranking",
    description="`individual` is true: each entry of `results` is one player; `pair` is "
    "the player's number for the evening, `players` the one name, `player_id` the "
    "player's id.",
    response_only=True,
    value={
        "event": 9,
        "status": "closed",
        "game": "burraco",
        "individual": True,
        "tie_breaks": ["mp_difference", "head_to_head"],
        "count": 2,
        "next": None,
        "previous": None,
        "results": [
            {
                "place": 1,
                "shared": False,
                "pair": 5,
                "players": ["Elena Conti"],
                "player_id": 41,
                "vp": 47,
                "mp_difference": 980,
                "turns": 3,
                "byes": 1,
                "tiebreak": "",
                "tiebreak_label": "",
                "tie_break_values": {},
                "penalty": {"vp": 0, "mp": 0},
                "unconfirmed": 0,
            },
            {
                "place": 2,
                "shared": False,
                "pair": 2,
                "players": ["Franco Galli"],
                "player_id": 38,
                "vp": 44,
                "mp_difference": 615,
                "turns": 3,
                "byes": 0,
                "tiebreak": "",
                "tiebreak_label": "",
                "tie_break_values": {},
                "penalty": {"vp": 0, "mp": 0},
                "unconfirmed": 0,
            },
        ],
    },
)


def rows(event_id: int) -> list[dict[str, Any]]:
    return [
        {
            "place": row["rank"],
            "shared": row["shared"],
            "pair": row["pair"],
            "players": row["players"],
            # Rows cached before the field existed have none: read them as pairs'.
            "player_id": row.get("player_id"),
            "vp": row["vp"],
            "mp_difference": row["mp_difference"],
            "turns": row["turns"],
            "byes": row["byes"],
            "tiebreak": row["tiebreak"],
            "tiebreak_label": row["decided_by"],
            "tie_break_values": row["tie_break_values"],
            "penalty": {"vp": row["penalty_vp"], "mp": row["penalty_mp"]},
            "unconfirmed": row["unconfirmed"],
        }
        for row in selectors.pair_standings(event_id)
    ]


def head(event: Event) -> dict[str, Any]:
    if event.is_free_matches:
        return {
            "event": event.pk,
            "status": event.status,
            "game": "burraco",
            "format": "free",
            "target": int(event.ranking.get("target", 2005)),
        }
    return {
        "event": event.pk,
        "status": event.status,
        "game": "burraco",
        "individual": event.individual,
        "tie_breaks": list(event.ranking.get("tie_breaks", ["mp_difference", "head_to_head"])),
    }

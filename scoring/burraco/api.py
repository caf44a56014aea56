"""The pair ranking of a Burraco tournament as `GET /api/v1/events/<id>/standings/` answers
it: its serializers, its example and its rows shaped from the stored ranking
(scoring.selectors.pair_standings, one query)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample
from rest_framework import serializers

from clubs.models import League
from games.models import Event
from scoring import selectors
from scoring.burraco import selectors as burraco_selectors
from scoring.burraco.seating import Marks, entry_marks
from scoring.engine.burraco.ranking import TIE_BREAKS


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
    computed for it; `unconfirmed`: its score cards not confirmed yet;
    `withdrawn_after`: the turn after which the entry withdrew (0: before the first turn;
    null while it plays); `short_turns`: the turns whose score card it played was
    confirmed with fewer hands than the turn's (time ran out)."""

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
    withdrawn_after = serializers.IntegerField(allow_null=True)
    short_turns = serializers.ListField(child=serializers.IntegerField())


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


class FreeSeasonPlaceSerializer(serializers.Serializer):
    """One pair of a league's season of free-match evenings (its closed evenings): the two
    players whatever their pair number each evening (`player_ids`, `players` in the same
    order), the evenings it played, its matches played, won and lost, and `difference`,
    the points it scored less conceded in them."""

    place = serializers.IntegerField()
    player_ids = serializers.ListField(child=serializers.IntegerField())
    players = serializers.ListField(child=serializers.CharField())
    evenings = serializers.IntegerField()
    played = serializers.IntegerField()
    won = serializers.IntegerField()
    lost = serializers.IntegerField()
    difference = serializers.IntegerField()


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


def _example_place(
    place: int,
    pair: int,
    players: list[str],
    player_id: int | None,
    vp: int,
    mp_difference: int,
    turns: int,
    byes: int,
    *,
    tiebreak: str = "",
    tiebreak_label: str = "",
    tie_break_values: dict[str, int] | None = None,
    penalty: tuple[int, int] = (0, 0),
) -> dict[str, Any]:
    """One entry of an example ranking (PairPlaceSerializer's fields, none shared)."""
    return {
        "place": place,
        "shared": False,
        "pair": pair,
        "players": players,
        "player_id": player_id,
        "vp": vp,
        "mp_difference": mp_difference,
        "turns": turns,
        "byes": byes,
        "tiebreak": tiebreak,
        "tiebreak_label": tiebreak_label,
        "tie_break_values": tie_break_values or {},
        "penalty": {"vp": penalty[0], "mp": penalty[1]},
        "unconfirmed": 0,
        "withdrawn_after": None,
        "short_turns": [],
    }


def _ranking_example(
    name: str,
    *,
    event: int,
    status: str,
    individual: bool,
    results: list[dict[str, Any]],
    **texts: str,
) -> OpenApiExample:
    """An example page of a tournament's ranking (`texts`: its summary, description)."""
    return OpenApiExample(
        name,
        **texts,
        response_only=True,
        value={
            "event": event,
            "status": status,
            "game": "burraco",
            "individual": individual,
            "tie_breaks": ["mp_difference", "head_to_head"],
            "count": len(results),
            "next": None,
            "previous": None,
            "results": results,
        },
    )


EXAMPLE = _ranking_example(
    "Burraco tournament",
    summary="A Burraco tournament: its pair ranking",
    event=7,
    status="running",
    individual=False,
    results=[
        _example_place(1, 4, ["Anna Rossi", "Bruno Neri"], None, 34, 1120, 2, 0),
        _example_place(
            2,
            2,
            ["Carla Bianchi", "Dario Verdi"],
            None,
            34,
            640,
            2,
            1,
            tiebreak="mp_difference",
            tiebreak_label="MP difference",
            tie_break_values={"mp_difference": 640},
            penalty=(1, 50),
        ),
    ],
)


def free_season_page_schema(paged: Any) -> Any:
    return paged(
        "FreeMatchSeasonPage",
        FreeSeasonPlaceSerializer,
        league=serializers.IntegerField(),
        game=serializers.ChoiceField(choices=["burraco"]),
        format=serializers.ChoiceField(choices=["free"]),
        evenings=serializers.IntegerField(),
    )


FREE_SEASON_EXAMPLE = OpenApiExample(
    "Season of free-match evenings",
    summary="A league of Burraco evenings of free matches: its season ranking",
    response_only=True,
    value={
        "league": 3,
        "game": "burraco",
        "format": "free",
        "evenings": 2,
        "count": 2,
        "next": None,
        "previous": None,
        "results": [
            {
                "place": 1,
                "player_ids": [11, 12],
                "players": ["Anna Rossi", "Bruno Neri"],
                "evenings": 2,
                "played": 4,
                "won": 3,
                "lost": 1,
                "difference": 1340,
            },
            {
                "place": 2,
                "player_ids": [13, 14],
                "players": ["Carla Bianchi", "Dario Verdi"],
                "evenings": 2,
                "played": 4,
                "won": 1,
                "lost": 3,
                "difference": -1340,
            },
        ],
    },
)


def free_season(league: League) -> tuple[int, list[dict[str, Any]]]:
    """A league's season of free-match evenings as the API answers it: how many evenings
    counted and the rows (one query)."""
    season = burraco_selectors.free_season(league)
    names = season["names"]
    return (
        season["evenings"],
        [
            {
                "place": row.place,
                "player_ids": list(row.entry),
                "players": names.get(row.entry, []),
                "evenings": row.evenings,
                "played": row.played,
                "won": row.won,
                "lost": row.lost,
                "difference": row.difference,
            }
            for row in season["rows"]
        ],
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


INDIVIDUAL_EXAMPLE = _ranking_example(
    "Burraco individual tournament",
    summary="An individual Burraco tournament: its players' ranking",
    description="`individual` is true: each entry of `results` is one player; `pair` is "
    "the player's number for the evening, `players` the one name, `player_id` the "
    "player's id.",
    event=9,
    status="closed",
    individual=True,
    results=[
        _example_place(1, 5, ["Elena Conti"], 41, 47, 980, 3, 1),
        _example_place(2, 2, ["Franco Galli"], 38, 44, 615, 3, 0),
    ],
)


NO_MARKS = Marks()


def rows(event: Event) -> list[dict[str, Any]]:
    """The tournament's ranking as the API answers it, with each entry's marks (three
    queries, whatever the number of entries)."""
    marks = entry_marks(event)
    return [
        {
            "place": row["rank"],
            "shared": row["shared"],
            "pair": row["pair"],
            "players": row["players"],
            "player_id": row["player_id"],
            "vp": row["vp"],
            "mp_difference": row["mp_difference"],
            "turns": row["turns"],
            "byes": row["byes"],
            "tiebreak": row["tiebreak"],
            "tiebreak_label": row["decided_by"],
            "tie_break_values": row["tie_break_values"],
            "penalty": {"vp": row["penalty_vp"], "mp": row["penalty_mp"]},
            "unconfirmed": row["unconfirmed"],
            "withdrawn_after": marks.get(row["pair"], NO_MARKS).withdrawn_after,
            "short_turns": marks.get(row["pair"], NO_MARKS).short,
        }
        for row in selectors.pair_standings(event.pk)
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

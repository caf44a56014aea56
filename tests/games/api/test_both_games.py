"""Every endpoint answers both games, or says clearly that a game has no such thing (404
`wrong_game` in the one error shape): a second game can never again break an endpoint
unseen (issue 32)."""

from __future__ import annotations

import pytest

from games.burraco import scorecards
from tests.games.api.world import Side, burraco_side

pytestmark = pytest.mark.django_db

PROBLEM_KEYS = {"deal", "field", "code", "params", "message"}


def test_a_game_of_either_kind_reads_through_the_game_endpoint(side: Side) -> None:
    for role in ("anonymous", "table_key", "organiser"):
        answer = side.client(role).get(f"/api/v1/games/{side.game.pk}/")
        assert answer.status_code == 200, (role, answer.content[:300])
        body = answer.json()
        assert body["id"] == side.game.pk and body["game"] == side.kind
        if side.kind == "barbu":
            assert len(body["record"]["deals"]) == 2 and body["next"]["number"] == 3
        else:
            assert [h["hand"] for h in body["card"]["hands"]] == [{"mp": {"NS": 300, "EW": 100}}]
            assert body["card"]["totals"] == {"NS": 300, "EW": 100}


def test_a_burraco_game_read_again_unchanged_is_a_304_until_the_next_hand(
    django_capture_on_commit_callbacks,
) -> None:

    side = burraco_side()
    path = f"/api/v1/games/{side.game.pk}/"
    client = side.client()
    tag = client.get(path)["ETag"]
    assert tag and client.get(path, HTTP_IF_NONE_MATCH=tag).status_code == 304
    with django_capture_on_commit_callbacks(execute=True):
        scorecards.hand_submit(game_id=side.game.pk, hand={"mp": {"NS": 100, "EW": 200}}, line="NS")
    after = client.get(path, HTTP_IF_NONE_MATCH=tag)
    assert after.status_code == 200 and len(after.json()["card"]["hands"]) == 2


def test_the_game_list_says_which_game_each_item_is(side: Side) -> None:
    answer = side.client().get(f"/api/v1/games/?event={side.event.pk}")
    assert answer.status_code == 200
    games = answer.json()["results"]
    assert games and {g["game"] for g in games} == {side.kind}


def _other_game_requests(side: Side) -> list[tuple[str, str]]:
    g, e = side.game.pk, side.event.pk
    if side.kind == "barbu":  # what only Burraco has
        return [
            ("get", f"/api/v1/games/{g}/card/"),
            ("put", f"/api/v1/games/{g}/card/"),
            ("post", f"/api/v1/games/{g}/hands/"),
            ("post", f"/api/v1/games/{g}/card/confirm/"),
            ("get", f"/api/v1/tournaments/{e}/"),
            ("get", f"/api/v1/tournaments/{e}/standings/"),
            ("post", f"/api/v1/tournaments/{e}/turns/"),
            ("post", f"/api/v1/tournaments/{e}/matches/"),
        ]
    return [  # what only Barbu has
        ("get", f"/api/v1/games/{g}/deals/"),
        ("post", f"/api/v1/games/{g}/deals/"),
        ("get", f"/api/v1/games/{g}/deals/1/"),
        ("put", f"/api/v1/games/{g}/deals/1/"),
        ("patch", f"/api/v1/games/{g}/deals/1/"),
        ("post", f"/api/v1/games/{g}/deals/1/confirm/"),
    ]


def test_what_a_game_does_not_have_is_a_404_that_says_so(side: Side) -> None:
    client = side.client("organiser")
    for method, path in _other_game_requests(side):
        answer = getattr(client, method)(path, {}, format="json")
        body = answer.json()
        assert answer.status_code == 404, (method, path, body)
        assert body["code"] == "wrong_game", (method, path, body)
        assert body["params"]["game"] == side.kind, (method, path, body)
        assert set(body) == {"status", "code", "message", "errors", "params"}
        other = "Burraco" if side.kind == "barbu" else "Barbu"
        assert other in body["message"] or side.kind.title() in body["message"]


def test_a_hidden_game_stays_a_plain_404_to_whoever_may_not_see_it(side: Side) -> None:
    """Saying which game it is must not tell a stranger that an unpublished one exists."""
    side.event.published = False
    side.event.save()
    for method, path in _other_game_requests(side):
        answer = getattr(side.client(), method)(path, {}, format="json")
        assert answer.status_code in (401, 404), (method, path)
        assert answer.json()["code"] != "wrong_game", (method, path)


def test_a_refused_burraco_hand_lists_its_problems_in_the_one_shape() -> None:

    side = burraco_side()
    client = side.client("table_key")
    path = f"/api/v1/games/{side.game.pk}/hands/"
    for hand in (
        {"line": "NS", "mp": {"NS": 3, "EW": 100}},  # the API's own check
        {"line": "NS", "closed": "NS", "NS": {"melded": 3, "in_hand": 0}, "EW": {}},  # the engine's
    ):
        answer = client.post(path, hand, format="json")
        assert answer.status_code == 400, answer.json()
        problems = answer.json()["errors"]
        assert problems and all(set(p) == PROBLEM_KEYS for p in problems), problems
        assert all(p["deal"] in (None, 2) for p in problems), problems


def test_a_hand_conflict_gives_the_stored_hand_as_the_card_lists_it() -> None:

    side = burraco_side()
    answer = side.client("table_key").post(
        f"/api/v1/games/{side.game.pk}/hands/",
        {"number": 1, "line": "NS", "mp": {"NS": 100, "EW": 300}},
        format="json",
    )
    assert answer.status_code == 409
    stored = answer.json()["stored"]
    assert stored["number"] == 1 and stored["hand"] == {"mp": {"NS": 300, "EW": 100}}
    assert stored["version"] == 1 and stored["mode"] == "mp"
    assert stored["NS"] == {"score": 300} and stored["EW"] == {"score": 100}


def _reads(side: Side) -> list[str]:
    g, e, t, r = side.game.pk, side.event.pk, side.table.pk, side.table.round_id
    player = side.table.seats.values_list("player_id", flat=True).first()
    if player is None:  # a Burraco table seats pairs
        player = side.table.ns_pair.player_a_id
    return [
        "/api/v1/games/",
        f"/api/v1/games/?event={e}",
        f"/api/v1/games/{g}/",
        f"/api/v1/events/{e}/",
        f"/api/v1/events/?club={side.event.club_id}",
        f"/api/v1/events/{e}/standings/",
        f"/api/v1/rounds/{r}/",
        f"/api/v1/rounds/?event={e}",
        f"/api/v1/tables/{t}/",
        f"/api/v1/tables/?event={e}",
        f"/api/v1/deals/?event={e}",
        f"/api/v1/clubs/{side.event.club_id}/",
        f"/api/v1/players/{player}/",
        f"/api/v1/players/{player}/history/",
        f"/api/v1/players/{player}/rating/",
        f"/api/v1/players/{player}/burraco/",
    ]


def test_every_read_of_both_games_answers(side: Side) -> None:
    for role in ("anonymous", "table_key", "organiser"):
        client = side.client(role)
        for path in _reads(side):
            answer = client.get(path)
            assert answer.status_code == 200, (role, path, answer.content[:300])

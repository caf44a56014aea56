"""Every endpoint × every role: allowed or refused, as the issue says (table-driven)."""

from __future__ import annotations

import pytest

from clubs.models import Player
from games.models import Deal
from tests.games.api.world import ROLES, World, build_world

pytestmark = pytest.mark.django_db

A, OO, M, OK, K, ORG = ROLES  # anonymous, other organiser, member, other table key, key, organiser


def everyone(code: int) -> dict[str, int]:
    return dict.fromkeys(ROLES, code)


def only(allowed: dict[str, int], refused: dict[str, int]) -> dict[str, int]:
    return {**refused, **allowed}


PUBLIC_READ = everyone(200)
HIDDEN_READ = {A: 404, OO: 404, M: 404, OK: 404, K: 404, ORG: 200}
ENTER = {A: 401, OO: 403, M: 403, OK: 403, K: 201, ORG: 201}
CORRECT = {A: 401, OO: 403, M: 403, OK: 403, K: 403, ORG: 200}
CONFIRM = {A: 401, OO: 403, M: 403, OK: 403, K: 200, ORG: 200}


def next_deal(world: World, game: str = "game") -> dict:
    number = getattr(world, game).deals.count() + 1
    return {**world.deals[number - 1], "number": number}


# (name, method, path (formatted with the world), body, expected status per role)
CASES = [
    ("clubs", "get", "/api/v1/clubs/", None, PUBLIC_READ),
    ("club", "get", "/api/v1/clubs/{club}/", None, PUBLIC_READ),
    ("players", "get", "/api/v1/players/", None, PUBLIC_READ),
    ("leagues", "get", "/api/v1/leagues/", None, PUBLIC_READ),
    ("events", "get", "/api/v1/events/", None, PUBLIC_READ),
    ("event", "get", "/api/v1/events/{event}/", None, PUBLIC_READ),
    ("hidden event", "get", "/api/v1/events/{hidden_event}/", None, HIDDEN_READ),
    ("rounds", "get", "/api/v1/rounds/", None, PUBLIC_READ),
    ("round", "get", "/api/v1/rounds/{round}/", None, PUBLIC_READ),
    ("hidden round", "get", "/api/v1/rounds/{hidden_round}/", None, HIDDEN_READ),
    ("tables", "get", "/api/v1/tables/", None, PUBLIC_READ),
    ("table", "get", "/api/v1/tables/{table}/", None, PUBLIC_READ),
    ("hidden table", "get", "/api/v1/tables/{hidden_table}/", None, HIDDEN_READ),
    ("games", "get", "/api/v1/games/", None, PUBLIC_READ),
    ("game", "get", "/api/v1/games/{game}/", None, PUBLIC_READ),
    ("hidden game", "get", "/api/v1/games/{hidden_game}/", None, HIDDEN_READ),
    ("deals", "get", "/api/v1/deals/", None, PUBLIC_READ),
    ("deal", "get", "/api/v1/deals/{deal}/", None, PUBLIC_READ),
    ("hidden deal", "get", "/api/v1/deals/{hidden_deal}/", None, HIDDEN_READ),
    ("game deals", "get", "/api/v1/games/{game}/deals/", None, PUBLIC_READ),
    ("hidden game deals", "get", "/api/v1/games/{hidden_game}/deals/", None, HIDDEN_READ),
    ("game deal", "get", "/api/v1/games/{game}/deals/1/", None, PUBLIC_READ),
    ("hidden game deal", "get", "/api/v1/games/{hidden_game}/deals/1/", None, HIDDEN_READ),
    ("submit", "post", "/api/v1/games/{game}/deals/", next_deal, ENTER),
    (
        "submit hidden",
        "post",
        "/api/v1/games/{hidden_game}/deals/",
        lambda w: {"dealer": "Anna", "contract": "barbu"},
        # Anonymous writes are refused before the game is looked up.
        {A: 401, OO: 404, M: 404, OK: 404, K: 404, ORG: 400},
    ),
    ("correct", "put", "/api/v1/games/{game}/deals/1/", lambda w: w.deals[0], CORRECT),
    ("patch", "patch", "/api/v1/games/{game}/deals/1/", lambda w: {"doubles": []}, CORRECT),
    (
        "confirm",
        "post",
        "/api/v1/games/{game}/deals/2/confirm/",
        lambda w: {"agree": True, "seat": 1},
        CONFIRM,
    ),
]


def _ids(world: World) -> dict[str, int]:
    hidden_table = world.hidden_game.table
    return {
        "club": world.club.pk,
        "event": world.table.round.event_id,
        "hidden_event": hidden_table.round.event_id,
        "round": world.table.round_id,
        "hidden_round": hidden_table.round_id,
        "table": world.table.pk,
        "hidden_table": hidden_table.pk,
        "game": world.game.pk,
        "hidden_game": world.hidden_game.pk,
        "deal": world.game.deals.get(number=1).pk,
        "hidden_deal": world.hidden_game.deals.get(number=1).pk,
    }


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize(
    ("name", "method", "path", "body", "expected"), CASES, ids=[c[0] for c in CASES]
)
def test_endpoint_by_role(name, method, path, body, expected, role):
    world = build_world()
    # Deal 2 waits for confirmation, so confirming it is meaningful.
    Deal.objects.filter(game=world.game, number=2).update(status=Deal.Status.PENDING)
    client = world.client(role)
    url = path.format(**_ids(world))
    kwargs = {"format": "json"}
    if body is not None:
        kwargs["data"] = body(world)
    headers = {}
    if method in ("put", "patch"):
        headers["HTTP_IF_MATCH"] = '"1"'
    before = Deal.objects.count()
    response = getattr(client, method)(url, **kwargs, **headers)
    assert response.status_code == expected[role], response.json()
    if response.status_code >= 400:
        body_json = response.json()
        assert body_json["status"] == response.status_code
        assert body_json["message"]
        assert Deal.objects.count() == before
    if response.status_code == 401:
        assert response.has_header("WWW-Authenticate")


def test_public_lists_hide_unpublished_events_and_clubs(world):
    hidden_event = world.hidden_game.table.round.event_id
    anonymous = world.client("anonymous")
    organiser = world.client("organiser")
    for url, key in (("/api/v1/events/", "id"), ("/api/v1/games/", "event")):
        public = {row[key] for row in anonymous.get(url).json()["results"]}
        own = {row[key] for row in organiser.get(url).json()["results"]}
        assert hidden_event not in public
        assert hidden_event in own
    world.club.published = False
    world.club.save()
    assert anonymous.get(f"/api/v1/games/{world.game.pk}/").status_code == 404
    assert anonymous.get("/api/v1/clubs/").json()["count"] == 1  # the other club
    assert organiser.get(f"/api/v1/games/{world.game.pk}/").status_code == 200


def test_table_key_reads_its_own_game_even_when_unpublished(world):
    event = world.table.round.event
    event.published = False
    event.save()
    key = world.client("table_key")
    assert key.get(f"/api/v1/games/{world.game.pk}/").status_code == 200
    assert key.get(f"/api/v1/games/{world.other_game.pk}/").status_code == 404


@pytest.mark.parametrize("role", ROLES)
def test_email_only_for_organisers_of_the_club(world, role):
    rows = world.client(role).get("/api/v1/players/?page_size=200").json()["results"]
    assert rows and all(set(row) == {"id", "name", "email"} for row in rows)
    own_club = {"organiser": "Circolo Uno", "other_organiser": "Circolo Due"}.get(role)
    for row in rows:
        player = Player.objects.get(pk=row["id"])
        managed = player.memberships.filter(club__name=own_club).exists()
        assert row["email"] == (player.email if managed else None), (role, row)


def test_no_user_ids_in_public_answers(world):
    client = world.client("anonymous")
    for url in ("/api/v1/deals/", "/api/v1/players/", f"/api/v1/games/{world.game.pk}/deals/"):
        text = client.get(url).content.decode()
        assert "entered_by" not in text and '"user"' not in text


def test_bad_table_key_is_401(world):
    client = world.client("anonymous")
    client.credentials(HTTP_X_TABLE_KEY="not-a-key")
    response = client.post(f"/api/v1/games/{world.game.pk}/deals/", next_deal(world), format="json")
    assert response.status_code == 401
    assert response.json()["code"] == "authentication_failed"


@pytest.mark.parametrize("body", [[1, 2], {"seat": 9}, {"dealer": "Anna", "contract": "barbu"}])
def test_a_write_refused_before_its_body_is_judged(body):
    """403 / 404 come before any 400 about the body (on PostgreSQL the right to write is
    decided with the locked game, after the body is read: games/api/deals.py)."""
    world = build_world()
    before = Deal.objects.count()
    member = world.client(M)
    response = member.post(f"/api/v1/games/{world.game.pk}/deals/", body, format="json")
    assert response.status_code == 403, response.json()
    response = member.post(f"/api/v1/games/{world.hidden_game.pk}/deals/", body, format="json")
    assert response.status_code == 404, response.json()
    organiser = world.client(ORG)
    response = organiser.post("/api/v1/games/987654/deals/", body, format="json")
    assert response.status_code == 404, response.json()
    key = world.client(K)
    response = key.post(f"/api/v1/games/{world.hidden_game.pk}/deals/", body, format="json")
    assert response.status_code == 404, response.json()
    assert Deal.objects.count() == before

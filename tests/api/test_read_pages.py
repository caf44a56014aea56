"""The API's long reads answered from the cache until the next write
(games/api/read_cache.py, issue 20): a page read twice is read once, whoever reads it
sees only what they may, and every kind of write to club data is seen at the next read."""

from __future__ import annotations

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from clubs.models import Club, Player
from games.api import read_cache
from games.models import Deal, Event, Game
from scoring.models import PlayerRating, RatingHistory

from .conftest import build_world

LISTS = [
    "/api/v1/deals/",
    "/api/v1/games/",
    "/api/v1/tables/",
    "/api/v1/rounds/",
    "/api/v1/players/",
]
# Lists made by their serializers (not lean, nothing prepared), cached as well.
SERIALIZED_LISTS = ["/api/v1/events/", "/api/v1/leagues/"]


def _read(client, path: str, **extra) -> tuple[int, bytes, int]:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path, **extra)
    return response.status_code, response.content, len(queries)


def _pages(world) -> list[str]:
    player = world.game.table.seats.get(position=0).player_id
    return [
        *LISTS,
        *SERIALIZED_LISTS,
        f"/api/v1/games/{world.game.pk}/deals/",
        f"/api/v1/players/{player}/history/",
        f"/api/v1/players/{player}/rating/",
        f"/api/v1/games/{world.game.pk}/deals/1/",
    ]


@pytest.mark.parametrize("role", ["anonymous", "organiser", "table_key"])
def test_a_page_read_again_comes_from_the_cache(world, role):
    client = world.client(role)
    for path in _pages(world):
        status, body, statements = _read(client, path)
        assert status == 200, (path, body)
        again = _read(client, path)
        assert again[:2] == (200, body), path
        # Nothing but the authentication (a token or table key reads one row).
        assert again[2] == (0 if role == "anonymous" else 1) < statements, path


def test_each_viewer_sees_its_own_page(world):
    """The organiser sees the private evening's deal, the anonymous visitor does not, even
    right after the organiser's page was cached; the table key sees its own game."""
    hidden = Deal.objects.get(game=world.hidden_game).pk
    organiser = world.client("organiser").get("/api/v1/deals/").json()
    anonymous = world.client("anonymous").get("/api/v1/deals/").json()
    assert hidden in {d["id"] for d in organiser["results"]}
    assert hidden not in {d["id"] for d in anonymous["results"]}
    assert organiser["count"] == anonymous["count"] + 1


def test_the_links_follow_the_host(world, settings):
    settings.ALLOWED_HOSTS = ["one.example", "two.example"]
    client = world.client("organiser")
    one = client.get("/api/v1/deals/?page_size=1", HTTP_HOST="one.example").json()
    two = client.get("/api/v1/deals/?page_size=1", HTTP_HOST="two.example").json()
    assert one["next"].startswith("http://one.example/")
    assert two["next"].startswith("http://two.example/")


def test_a_refusal_is_never_kept(world):
    client = world.client("anonymous")
    refused = _read(client, "/api/v1/deals/?page_size=0")
    assert refused[0] == 400 and b"page_size" in refused[1]
    hidden = f"/api/v1/games/{world.hidden_game.pk}/deals/"
    first = _read(client, hidden)
    assert first[0] == 404 and first[2] >= 1
    assert _read(client, hidden) == first  # read again: the same statements
    assert _read(client, "/api/v1/deals/?page_size=0") == refused


@pytest.mark.parametrize(
    "write",
    ["save", "update", "bulk_create", "delete", "raw_sql", "club_unpublished"],
)
def test_every_kind_of_write_is_seen_at_the_next_read(world, write):
    client = world.client("anonymous")
    before = client.get("/api/v1/games/").json()
    assert client.get("/api/v1/games/").json() == before  # now cached
    game = world.game
    if write == "save":
        game.status = Game.Status.COMPLETE
        game.save()
    elif write == "update":
        Game.objects.filter(pk=game.pk).update(status=Game.Status.COMPLETE)
    elif write == "bulk_create":
        Player.objects.bulk_create([Player(name="Bulk")])
        before = client.get("/api/v1/games/").json()  # players are not in it: re-read
        Game.objects.filter(pk=game.pk).update(status=Game.Status.COMPLETE)
    elif write == "delete":
        Deal.objects.filter(game=game).delete()
        game.delete()
    elif write == "raw_sql":
        with connection.cursor() as cursor:
            cursor.execute(
                f'UPDATE "{Game._meta.db_table}" SET "status" = %s WHERE "id" = %s',
                [Game.Status.COMPLETE, game.pk],
            )
    elif write == "club_unpublished":
        Club.objects.filter(pk=world.club.pk).update(published=False)
    after = client.get("/api/v1/games/").json()
    assert after != before
    statuses = {g["id"]: g["status"] for g in after["results"]}
    if write in ("delete", "club_unpublished"):
        assert game.pk not in statuses
    else:
        assert statuses[game.pk] == Game.Status.COMPLETE


def test_a_deal_read_from_the_cache_keeps_its_etag_until_corrected(world):
    """A deal's page is kept with its ETag (its version); a correction is a write, so the
    next read has the new version and its ETag."""
    path = f"/api/v1/games/{world.game.pk}/deals/1/"
    client = world.client("organiser")
    first = client.get(path)
    again = client.get(path)
    assert again.content == first.content and again["ETag"] == first["ETag"] == '"1"'
    Deal.objects.filter(game=world.game, number=1).update(version=2)
    after = client.get(path)
    assert after["ETag"] == '"2"' and after.json()["version"] == 2


def test_an_evening_renamed_is_seen_in_the_event_list(world):
    client = world.client("anonymous")
    before = client.get("/api/v1/events/").json()
    assert client.get("/api/v1/events/").json() == before  # now cached
    event = world.game.table.round.event
    Event.objects.filter(pk=event.pk).update(name="Renamed evening")
    names = {e["id"]: e["name"] for e in client.get("/api/v1/events/").json()["results"]}
    assert names[event.pk] == "Renamed evening"


def test_a_rating_written_by_the_sync_is_seen_at_the_next_read(world):
    """Ratings live in scoring's tables, written by the ratings sync after a game: their
    writes drop the pages too, or a player's rating page would stay as it was."""
    player = world.game.table.seats.get(position=0).player_id
    path = f"/api/v1/players/{player}/rating/"
    client = world.client("anonymous")
    before = client.get(path).json()
    assert before["mu"] is None and client.get(path).json() == before  # now cached
    PlayerRating.objects.create(player_id=player, mu=27.5, sigma=7.25, ordinal=5.75, games=1)
    assert client.get(path).json()["mu"] == 27.5
    RatingHistory.objects.create(
        player_id=player,
        game=world.game,
        event=world.game.table.round.event,
        order_key="1",
        place=1,
        mu=27.5,
        sigma=7.25,
        ordinal=5.75,
    )
    assert [h["game_id"] for h in client.get(path).json()["history"]] == [world.game.pk]


@pytest.mark.parametrize("prepared", [True, False])
@pytest.mark.parametrize("role", ["table_key", "organiser"])
def test_a_submitted_deal_is_seen_at_the_next_read(world, settings, prepared, role):
    """A deal stored through the API drops the pages like any other write: on PostgreSQL
    its rows are written by games/sql.py's prepared statement, sent as EXECUTE (no
    INSERT in the statement's text)."""
    settings.TAVOLO_DEAL_SQL_PREPARED = prepared
    reader = world.client("organiser")
    pages = [f"/api/v1/games/{world.game.pk}/deals/", "/api/v1/deals/"]
    before = [reader.get(path).json()["count"] for path in pages]
    assert [reader.get(path).json()["count"] for path in pages] == before  # now cached
    path = f"/api/v1/games/{world.game.pk}/deals/"
    assert world.client(role).post(path, world.deals[2], format="json").status_code == 201
    assert [reader.get(path).json()["count"] for path in pages] == [n + 1 for n in before]


@pytest.mark.django_db(transaction=True)
def test_a_write_committed_elsewhere_drops_the_pages_at_its_commit():
    """Another request's write (its own transaction, not this thread's reads): the pages
    cached before it are dropped when it commits, not before."""
    world = build_world()
    client = world.client("organiser")
    first = client.get("/api/v1/games/").content
    with transaction.atomic():
        Game.objects.filter(pk=world.game.pk).update(status=Game.Status.COMPLETE)
        # Not committed yet: a reader elsewhere still gets the page as it was.
        assert client.get("/api/v1/games/").content == first
    assert client.get("/api/v1/games/").content != first


def test_without_a_cache_every_read_is_made(world, monkeypatch):
    monkeypatch.setattr(read_cache.live, "version", lambda kind, ident: None)
    client = world.client("organiser")
    one = _read(client, "/api/v1/deals/")
    two = _read(client, "/api/v1/deals/")
    assert one == two and one[0] == 200


@pytest.mark.parametrize(
    ("sql", "writes"),
    [
        ('SELECT "id" FROM "games_deal"', False),
        ('INSERT INTO "games_deal" ("id") VALUES (1)', True),
        ('UPDATE "clubs_club" SET "published" = false', True),
        ('DELETE FROM "games_seat" WHERE "id" = 1', True),
        ('  delete from "games_seat"', True),
        ("WITH ev AS (SELECT * FROM games_gamescore) SELECT 1", False),
        ("WITH gone AS (DELETE FROM games_deal RETURNING id) SELECT 1", True),
        ('INSERT INTO "scoring_eventstanding" ("id") VALUES (1)', False),
        ('INSERT INTO "scoring_ratinghistory" ("id") VALUES (1)', True),
        ('UPDATE "scoring_playerrating" SET "mu" = 25', True),
        ('UPDATE "django_session" SET "expire_date" = now()', False),
        ('SAVEPOINT "s1_x1"', False),
        ('SET LOCAL work_mem = "64MB"', False),
        ('ALTER TABLE "games_deal" ADD COLUMN "x" int', True),
        # games/sql.py's prepared statements, by what their text does
        ("EXECUTE tavolo_deal_write_idempotent(1, 2)", True),
        ("EXECUTE tavolo_deal_write(1, 2)", True),
        ("EXECUTE tavolo_deal_lock(1); EXECUTE tavolo_deal_read(1, 'k')", False),
        ("execute tavolo_deal_read(1, 'k')", False),
        ("EXECUTE tavolo_deal_read(1); EXECUTE tavolo_deal_write(1)", True),
        ("EXECUTE someone_elses(1)", True),  # not known: taken as a write
    ],
)
def test_which_statements_drop_the_pages(sql, writes):
    assert read_cache.writes_club_data(sql) is writes


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_list_pages_run_prepared_on_postgresql_and_answer_the_same(settings):
    """A list page's statement is prepared once per session (lean.prepared_reads) and
    answers what the plain statement answers; with DB_PREPARED_STATEMENTS=0 (a pooler)
    nothing is prepared."""
    from django.db import connection as db

    world = build_world()
    client = world.client("organiser")

    def prepared_count() -> int:
        with db.cursor() as cursor:
            cursor.execute("SELECT COUNT(*) FROM pg_prepared_statements WHERE NOT from_sql")
            return cursor.fetchone()[0]

    paths = [*LISTS, f"/api/v1/games/{world.game.pk}/deals/"]
    settings.TAVOLO_DEAL_SQL_PREPARED = False
    plain = []
    for path in paths:
        read_cache.forget()
        plain.append(client.get(path).content)
    assert prepared_count() == 0
    settings.TAVOLO_DEAL_SQL_PREPARED = True
    for _ in range(2):  # prepared, then run prepared
        for path, expected in zip(paths, plain, strict=True):
            read_cache.forget()
            assert client.get(path).content == expected, path
    assert prepared_count() >= len(paths)
    # The rest of the site still binds on the client (the deal submission needs it).
    with db.cursor() as cursor:
        assert type(cursor.cursor).__name__ == "Cursor"

"""games/sql.py, deal_submit's plain-SQL path on PostgreSQL: the same rows as the ORM's.

Each test plays the same deals into two games, one through the SQL path and one through
the ORM path (settings.TAVOLO_DEAL_SQL = False), and compares every row they wrote,
with ids replaced by seat positions and timestamps left out.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.forms.models import model_to_dict
from django.test.utils import CaptureQueriesContext

from games import sql
from games.errors import DealConflict, DealRejected, IdempotencyMismatch
from games.models import Deal, DealRevision, DealScore, Game, GameScore, IdempotencyRecord
from games.submission import deal_submit
from tests.factories import make_club, make_event, make_game
from tests.services.test_deals import full_game

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]


def snapshot(game: Game) -> dict:
    """Every row a submission writes for this game, comparable across games."""
    game.refresh_from_db()
    seats = {s.player_id: s.position for s in game.table.seats.all()}

    def rows(queryset, drop=(), players=()):
        out = []
        for row in queryset:
            values = model_to_dict(row)
            for name in ("id", "game", "deal", *drop):
                values.pop(name, None)
            for name in players:
                values[name] = seats.get(values[name], values[name])
            out.append(values)
        return out

    deals = Deal.objects.filter(game=game).order_by("number")
    return {
        "game": {k: getattr(game, k) for k in ("status", "deals_count", "totals", "ruleset")},
        "deals": rows(deals, players=["dealer"]),
        "deal_ids_match": [
            list(DealScore.objects.filter(deal=d).values_list("game_id", flat=True))
            == [game.pk] * 4
            for d in deals
        ],
        "deal_scores": rows(
            DealScore.objects.filter(game=game).order_by("deal__number", "player_id"),
            players=["player"],
        ),
        "game_scores": rows(GameScore.objects.filter(game=game).order_by("seat"), ["player"]),
        "revisions": rows(
            DealRevision.objects.filter(game=game).order_by("number", "version"),
            drop=("at",),
        ),
        "revision_deals": list(
            DealRevision.objects.filter(game=game).values_list("deal__number", flat=True)
        ),
        "idempotency": [
            (r.key, r.request_hash, r.status_code, r.body)
            for r in IdempotencyRecord.objects.filter(scope=f"game:{game.pk}:deals")
        ],
    }


def play(game: Game, deals: list[dict], user, **kw) -> list:
    answers = []
    for i, deal in enumerate(deals):
        key = f"key-{i}" if i % 2 else None
        submission = deal_submit(
            game_id=game.pk,
            deal={**deal, "number": i + 1},
            by_user=user,
            by_label="table 1, seat 2",
            idempotency_key=key,
            needs_confirmation=i % 3 == 0,
        )
        body = dict(submission.body)
        body.pop("game")
        answers.append((submission.status_code, submission.created, body))
    return answers


@pytest.fixture
def pair(settings):
    club = make_club()
    event = make_event(club)
    user = get_user_model().objects.create_user("organiser", password="x")
    return make_game(club, event=event), make_game(club, event=event), user


def test_sql_path_stores_exactly_what_the_orm_path_stores(pair, settings):
    fast, slow, user = pair
    deals = full_game()["deals"]
    assert sql.available()
    fast_answers = play(fast, deals, user)
    settings.TAVOLO_DEAL_SQL = False
    assert not sql.available()
    slow_answers = play(slow, deals, user)
    assert fast_answers == slow_answers
    a, b = snapshot(fast), snapshot(slow)
    assert a["game"]["status"] == Game.Status.COMPLETE
    # the idempotency bodies name their own game
    for record in a["idempotency"] + b["idempotency"]:
        record[3].pop("game")
    assert a == b
    assert len(a["deal_scores"]) == 4 * len(deals) and all(a["deal_ids_match"])
    assert {"place", "above"} <= set(a["game_scores"][0])


def test_sql_path_stores_above_and_place_as_the_window_functions_see_them(settings):
    """Random italian6 games with tied totals, deal by deal: the GameScore rows (total,
    place, above) of the SQL path equal the ORM path's and the window functions'."""
    from tests.standings.test_stored_place import _named, _records, assert_stored_equal_window

    club = make_club(ruleset="italian6")
    event = make_event(club)
    for record in _records("italian6", range(3000), ties=2, others=1):
        deals = _named(record)["deals"]
        fast, slow = make_game(club, event=event), make_game(club, event=event)
        for deal in deals:
            for game, use_sql in ((fast, True), (slow, False)):
                settings.TAVOLO_DEAL_SQL = use_sql
                assert deal_submit(game_id=game.pk, deal=deal).status_code == 201

            def rows(game):
                return list(
                    GameScore.objects.filter(game=game)
                    .order_by("seat")
                    .values_list("seat", "total", "place", "above", "deals")
                )

            assert rows(fast) == rows(slow)
        assert_stored_equal_window()
    assert GameScore.objects.filter(above__gt=0, place__in=["1.5", "2.5", "3.5"]).exists()


def test_sql_path_answers_retries_and_conflicts_like_the_orm_path(pair, settings):
    fast, slow, _user = pair
    deals = full_game()["deals"]
    for game, use_sql in ((fast, True), (slow, False)):
        settings.TAVOLO_DEAL_SQL = use_sql
        first = deal_submit(game_id=game.pk, deal=deals[0], idempotency_key="k")
        again = deal_submit(game_id=game.pk, deal=deals[0], idempotency_key="k")
        assert again.status_code == 201 and not again.created and again.body == first.body
        with pytest.raises(IdempotencyMismatch):
            deal_submit(game_id=game.pk, deal=deals[1], idempotency_key="k")
        with pytest.raises(DealConflict):
            deal_submit(game_id=game.pk, deal=deals[0])
        same = deal_submit(game_id=game.pk, deal={**deals[0], "number": 1})
        assert same.status_code == 200 and same.deal.number == 1
        with pytest.raises(DealRejected):
            deal_submit(game_id=game.pk, deal={**deals[1], "contract": "nonsense"})
    settings.TAVOLO_DEAL_SQL = True
    a, b = snapshot(fast), snapshot(slow)
    for record in a["idempotency"] + b["idempotency"]:
        record[3].pop("game")
    assert a == b


def test_a_failing_write_leaves_nothing_half_written(pair, monkeypatch):
    game, _other, user = pair
    deals = full_game()["deals"]
    deal_submit(game_id=game.pk, deal=deals[0], by_user=user)
    before = snapshot(game)
    write = sql.write

    def broken(new):
        # the last DealScore row breaks a CHECK constraint, after the deal's INSERT
        new.deal_scores[-1]["doubles_won"] = -1
        return write(new)

    monkeypatch.setattr(sql, "write", broken)
    with pytest.raises(Exception, match="check"):
        deal_submit(game_id=game.pk, deal=deals[1], by_user=user, idempotency_key="x")
    assert snapshot(game) == before
    assert IdempotencyRecord.objects.count() == 0


def test_sql_path_statements(pair):
    game, _other, user = pair
    deals = full_game()["deals"]
    deal_submit(game_id=game.pk, deal=deals[0])
    with CaptureQueriesContext(connection) as queries:
        deal_submit(game_id=game.pk, deal=deals[1], by_user=user, idempotency_key="y")
    # savepoint, lock and read (one query of two statements), write, release
    assert len(queries) == 4, [q["sql"][:60] for q in queries]
    assert sql.lock_and_read(0, "game:0:deals", None) == (None, None)


def test_server_side_binding_locks_and_reads_in_two_statements(pair, monkeypatch):
    """One statement per query with server-side binding: lock_and_read sends two."""
    game, _other, user = pair
    deals = full_game()["deals"]
    deal_submit(game_id=game.pk, deal=deals[0])
    monkeypatch.setattr(sql.psycopg, "ClientCursor", type("NotThisCursor", (), {}))
    with CaptureQueriesContext(connection) as queries:
        submission = deal_submit(game_id=game.pk, deal=deals[1], by_user=user)
    assert submission.created and submission.deal.number == 2
    assert len(queries) == 5, [q["sql"][:60] for q in queries]
    assert sql.lock_and_read(0, "game:0:deals", None) == (None, None)


def _prepared_names() -> set[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT name FROM pg_prepared_statements WHERE name LIKE 'tavolo_%'")
        return {row[0] for row in cursor.fetchall()}


def test_the_statements_are_prepared_once_per_session_and_then_executed(pair):
    game, _other, user = pair
    deals = full_game()["deals"]
    deal_submit(game_id=game.pk, deal=deals[0])
    assert _prepared_names() == {s.name for s in sql.STATEMENTS.values()}
    with CaptureQueriesContext(connection) as queries:
        deal_submit(game_id=game.pk, deal=deals[1], by_user=user, idempotency_key="p")
    sent = [q["sql"] for q in queries]
    assert not any("PREPARE" in q or "pg_prepared_statements" in q for q in sent), sent
    assert sent[1].startswith("EXECUTE tavolo_deal_lock(")
    assert "; EXECUTE tavolo_deal_read(" in sent[1]
    assert sent[2].startswith("EXECUTE tavolo_deal_write_idempotent(")
    assert Deal.objects.filter(game=game).count() == 2


def test_a_session_that_lost_its_statements_runs_the_submission_again(pair, monkeypatch):
    """DEALLOCATE ALL (as a connection pooler may send) between two submissions: the
    EXECUTE fails, the transaction is rolled back and run again once prepared anew."""
    game, _other, user = pair
    runs = []
    lock_and_read = sql.lock_and_read
    monkeypatch.setattr(sql, "lock_and_read", lambda *a: runs.append(1) or lock_and_read(*a))
    deals = full_game()["deals"]
    deal_submit(game_id=game.pk, deal=deals[0], by_user=user)
    with connection.cursor() as cursor:
        cursor.execute("DEALLOCATE ALL")
    assert _prepared_names() == set()
    submission = deal_submit(game_id=game.pk, deal=deals[1], by_user=user, idempotency_key="z")
    assert submission.status_code == 201 and submission.deal.number == 2
    assert len(runs) == 3  # the first deal, then the second one twice
    assert _prepared_names() == {s.name for s in sql.STATEMENTS.values()}
    assert list(Deal.objects.filter(game=game).values_list("number", flat=True)) == [1, 2]
    assert DealRevision.objects.filter(game=game).count() == 2
    assert IdempotencyRecord.objects.filter(key="z").count() == 1


def test_a_session_with_the_statements_but_not_known_to_have_them(pair, monkeypatch):
    """A new psycopg connection object over a session that already prepared them: they
    are found in pg_prepared_statements, not prepared twice (which would be an error)."""
    game, _other, user = pair
    deals = full_game()["deals"]
    deal_submit(game_id=game.pk, deal=deals[0])
    monkeypatch.setattr(sql, "_ready", type(sql._ready)())
    with CaptureQueriesContext(connection) as queries:
        deal_submit(game_id=game.pk, deal=deals[1], by_user=user)
    sent = [q["sql"] for q in queries]
    assert any("pg_prepared_statements" in q for q in sent)
    assert not any(q.startswith("PREPARE") for q in sent), sent
    assert Deal.objects.filter(game=game).count() == 2


def test_prepared_statements_can_be_turned_off(pair, settings):
    game, other, user = pair
    deals = full_game()["deals"][:4]
    settings.TAVOLO_DEAL_SQL_PREPARED = False
    with CaptureQueriesContext(connection) as queries:
        plain = play(game, deals, user)
    assert not any("EXECUTE tavolo" in q["sql"] or "PREPARE" in q["sql"] for q in queries)
    settings.TAVOLO_DEAL_SQL_PREPARED = True
    assert play(other, deals, user) == plain
    assert snapshot(game) | {"idempotency": []} == snapshot(other) | {"idempotency": []}


@pytest.mark.parametrize(
    "value",
    [
        {"dealer": "Zoë", "result": {"hearts": {"Zoë": ["AH"], "Łukasz": []}}},
        {"Anna": 12.5, "Bruno": -0.125, "Carla": 1e16, "Dario": 0},
        [{"seat": 0, "total": "-12.50"}, {"note": '\u2028 \\ " \t'}],
        {"big": 2**70, "list": [None, True, False]},
    ],
)
def test_the_write_s_json_text_is_the_value_json_dumps_gives(value):
    """orjson writes the write's jsonb parameters (json.dumps where it cannot): the same
    values, read back by PostgreSQL as by json.loads."""
    import json

    text = sql._json(value)
    assert json.loads(text) == value
    with connection.cursor() as cursor:
        cursor.execute("SELECT %s::jsonb = %s::jsonb", [text, json.dumps(value)])
        assert cursor.fetchone()[0] is True

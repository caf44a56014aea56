"""Upgrades and downgrades on a database holding both games: every migration goes back
and forth without losing a row, or refuses before anything changed (clubs/downgrades.py),
and the standings come back equal to a rebuild (scoring/receivers.py)."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from clubs.downgrades import DowngradeRefused
from scoring.rebuild import rebuild_all
from tests.config.databases import applied_migrations, load_both_games, standings, stored_rows

# Slow: the demo clubs are loaded (about 10 s) and migrated back and forth.
pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

# The earliest state that holds the demo's rows: every game of both kinds needs clubs'
# Burraco columns (0002), the free-match format (games 0010); scoring's tables are all
# derived, so scoring goes back to its first migration.
EARLIEST_SAFE = (
    ("clubs", "0002_burraco_game"),
    ("games", "0010_event_burraco_format"),
    ("scoring", "0001_initial"),
)


@pytest.fixture
def latest_after():
    """Whatever a test did, the database ends at the latest migrations (the next test's
    flush needs every table)."""
    yield
    call_command("migrate", verbosity=0)


def migrate(*target: str) -> str:
    out = io.StringIO()
    call_command("migrate", *target, stdout=out, verbosity=1)
    return out.getvalue()


def test_a_loaded_database_goes_back_to_its_earliest_safe_state_and_forward_intact(latest_after):
    load_both_games()
    rows, ranked, applied = stored_rows(), standings(), applied_migrations()
    assert ranked["scoring.PairStanding"] and ranked["scoring.EventStanding"]

    for app, name in EARLIEST_SAFE:
        migrate(app, name)
    assert ("scoring", "0002_standingssource") not in applied_migrations()
    assert ("games", "0011_gamescore_total_cents") not in applied_migrations()
    said = migrate()

    assert applied_migrations() == applied
    assert stored_rows() == rows
    # The tables scoring made anew are filled by the migrate itself, as a rebuild fills them.
    assert "Rebuilding the standings" in said
    assert standings() == ranked
    rebuild_all()
    assert standings() == ranked


# Each downgrade refused, with words its message must hold.
REFUSED = (
    (("games", "0001_initial"), ["games.0010_event_burraco_format", "games.0006_evening_log"]),
    (("games", "0008"), ["1 individual Burraco tournament", "Burraco entries of one player"]),
    (("clubs", "zero"), ["clubs.0002_burraco_game", "2 clubs (clubs.Club)"]),
)


def test_a_downgrade_that_would_lose_rows_is_refused_before_anything_changes(latest_after):
    load_both_games()
    rows, ranked, applied = stored_rows(), standings(), applied_migrations()

    for target, named in REFUSED:
        with pytest.raises(DowngradeRefused) as refused:
            migrate(*target)

        message = str(refused.value)
        assert "nothing was changed" in message
        assert "restore the backup taken before the upgrade" in message
        farthest = (
            "The farthest back this database can go: `migrate games 0010_event_burraco_format`"
        )
        assert farthest in message
        for words in named:
            assert words in message
        assert applied_migrations() == applied
        assert stored_rows() == rows
        assert standings() == ranked


def test_without_the_command_each_migration_refuses_at_its_turn_and_loses_nothing(latest_after):
    """The issue's case: the executor alone (no pre_migrate) takes back games 0013-0011,
    which lose nothing here, then 0010 refuses before it drops a column; migrated forward,
    every row is there."""
    load_both_games()
    rows, ranked = stored_rows(), standings()
    executor = MigrationExecutor(connection)

    with pytest.raises(DowngradeRefused, match="1 evening of Burraco free matches"):
        executor.migrate([("games", "0008_merge_0007_burraco_tournaments_0007_substitution")])

    assert ("games", "0010_event_burraco_format") in applied_migrations()
    assert ("games", "0013_burracohand_client") not in applied_migrations()
    migrate()
    assert stored_rows() == rows
    assert standings() == ranked


def test_an_empty_database_goes_back_to_nothing_and_forward_again(latest_after):
    applied = applied_migrations()

    migrate("clubs", "zero")  # and games and scoring, which depend on it

    assert not {app for app, _name in applied_migrations()} & {"clubs", "games", "scoring"}
    migrate()
    assert applied_migrations() == applied

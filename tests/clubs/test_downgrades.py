"""Which downgrades lose rows (clubs/downgrades.py): each migration's `KeepRows` finds
the rows the older schema cannot hold, and only those (the whole walk back and forth of a
loaded database is tests/config/test_migrations.py)."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.core.management import CommandError
from django.db import connection
from django.db.migrations.exceptions import IrreversibleError
from django.db.migrations.executor import MigrationExecutor

from clubs.downgrades import DowngradeRefused, refuse_lossy_downgrade
from clubs.models import Membership
from games.burraco import event_tables, scorecards, tournaments
from games.models import BurracoHand, Event, Game, GameScore
from tests.downgrade_plans import refused_by
from tests.factories import make_game
from tests.games.burraco.builders import play_table, tournament

pytestmark = pytest.mark.django_db


def test_a_barbu_game_goes_back_past_every_burraco_migration():
    make_game()
    assert refused_by("games", "0006_evening_log_and_unfinished") == {}


@pytest.mark.parametrize(
    ("change", "migration", "lost"),
    [
        (
            lambda game: GameScore.objects.filter(game=game, seat=0).update(total=Decimal("10.75")),
            "games.0003_gamescore_total_hundredths",
            "1 game total in hundredths of a point (games.GameScore)",
        ),
        (
            lambda game: Game.objects.filter(pk=game.pk).update(substituted=True),
            "games.0007_substitution",
            "1 game with a substitute (games.Game)",
        ),
        (
            lambda game: Event.objects.update(unfinished="exclude"),
            "games.0006_evening_log_and_unfinished",
            "1 event that leaves its unfinished games out (games.Event)",
        ),
    ],
)
def test_what_an_older_barbu_schema_cannot_hold_is_found(change, migration, lost):
    game = make_game()
    for seat in game.table.seats.all():  # one decimal fits
        GameScore.objects.create(game=game, seat=seat.position, player=seat.player, total="10.5")
    assert refused_by("games", "0002_alter_dealrevision_action") == {}

    change(game)

    assert refused_by("games", "0002_alter_dealrevision_action") == {migration: lost}


def test_a_card_awaiting_confirmation_keeps_who_entered_its_hands():
    event = tournament(5)
    table = tournaments.turn_seat(event=event, movement="first").round.tables.get(number=1)
    play_table(table.game, [(300, 100)] * 3, confirm=False)
    BurracoHand.objects.update(client="phone:1")

    refused = refused_by("games", "0012_remove_gamescore_total_cents")

    assert refused == {
        "games.0013_burracohand_client": "3 hands of score cards awaiting confirmation "
        "that record who entered them (games.BurracoHand)"
    }
    scorecards.card_confirm(game_id=table.game.pk, line="EW", agree=True)
    # Confirmed, who entered its hands no longer decides anything.
    assert refused_by("games", "0012_remove_gamescore_total_cents") == {}
    assert set(refused_by("games", "0006_evening_log_and_unfinished")) == {
        "games.0007_burraco_tournaments"
    }


def test_the_refusal_is_a_command_error_and_an_irreversible_one():
    make_game()
    executor = MigrationExecutor(connection)
    plan = executor.migration_plan([("clubs", None)])

    with pytest.raises(DowngradeRefused) as refused:
        refuse_lossy_downgrade(
            None, apps=executor.loader.project_state().apps, using="default", plan=plan
        )

    assert isinstance(refused.value, CommandError) and refused.value.returncode == 1
    assert isinstance(refused.value, IrreversibleError)
    assert "- clubs.0001_initial: 1 club (clubs.Club); 4 players (clubs.Player)" in str(
        refused.value
    )


def test_membership_numbers_and_the_days_table_keys_are_kept():
    """A membership number (clubs 0004) and a table key printed for the day (games 0014)
    would be dropped by their migration's reversal: the downgrade is refused while any is
    stored."""
    event = tournament(5)
    assert refused_by("games", "0013_burracohand_client") == {}
    assert refused_by("clubs", "0003_burraco_league_average_to_total") == {}

    event_tables.table_keys(event, 2)
    Membership.objects.filter(pk=Membership.objects.first().pk).update(federation_number="IT-1")

    assert refused_by("games", "0013_burracohand_client") == {
        "games.0014_burracotablekey": "2 table keys printed for the day (games.BurracoTableKey)"
    }
    assert refused_by("clubs", "0003_burraco_league_average_to_total") == {
        "clubs.0004_membership_federation_number": "1 membership number (clubs.Membership)"
    }

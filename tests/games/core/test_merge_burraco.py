"""A player merge (clubs.services.player_merge) with Burraco pairs: the duplicate's pairs
become the kept player's; two players of the same tournament are two people."""

from __future__ import annotations

import pytest

from clubs.services import ClubError, player_merge
from games.burraco import tournaments
from games.models import BurracoPair
from tests.factories import make_player
from tests.games.burraco.builders import play_turn, tournament

pytestmark = pytest.mark.django_db


def test_merge_gives_the_duplicates_pairs_to_the_kept_player(django_capture_on_commit_callbacks):
    event = tournament(4)
    club = event.club
    pair = event.pairs.get(number=2)
    duplicate = pair.player_b
    keep = make_player(club, "Player 2b (again)")
    rnd = tournaments.turn_seat(event=event, movement="first").round
    with django_capture_on_commit_callbacks(execute=True):
        play_turn(rnd)
    with django_capture_on_commit_callbacks(execute=True):
        player_merge(club=club, keep=keep, duplicate=duplicate)
    pair.refresh_from_db()
    assert pair.player_b == keep
    assert not BurracoPair.objects.filter(player_a=duplicate).exists()
    assert not BurracoPair.objects.filter(player_b=duplicate).exists()


def test_merge_refuses_two_players_of_the_same_tournament():
    event = tournament(4)
    club = event.club
    partner = event.pairs.get(number=1)
    other = event.pairs.get(number=3)
    for keep, duplicate in (
        (partner.player_a, partner.player_b),
        (partner.player_a, other.player_a),
    ):
        with pytest.raises(ClubError) as error:
            player_merge(club=club, keep=keep, duplicate=duplicate)
        assert error.value.code == "played_together"
        duplicate.refresh_from_db()
        assert duplicate.merged_into is None
    assert event.pairs.get(number=1).player_b == partner.player_b

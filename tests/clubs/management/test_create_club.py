"""manage.py create_club: a site's first club and its organisers, all or nothing."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.urls import reverse

from clubs.models import Club, Membership, Player
from tests.factories import make_club, make_player

pytestmark = pytest.mark.django_db


def create_club(*args: str) -> str:
    out = StringIO()
    call_command("create_club", *args, stdout=out)
    return out.getvalue()


def login(username: str, **fields: str):
    return get_user_model().objects.create_user(username=username, password="x", **fields)


def test_the_first_club_is_created_with_its_organiser_who_can_manage_it(client) -> None:
    user = login("giulia", first_name="Giulia", last_name="Ferri", email="giulia@example.org")
    said = create_club("Circolo del Barbu", "--organiser", "giulia")
    club = Club.objects.get()
    assert (club.name, club.slug, club.game, club.language) == (
        "Circolo del Barbu",
        "circolo-del-barbu",
        "barbu",
        "it",
    )
    player = Player.objects.get(user=user)
    assert (player.name, player.email) == ("Giulia Ferri", "giulia@example.org")
    assert Membership.objects.get(club=club, player=player).role == Membership.Role.ORGANISER
    assert "/manage/circolo-del-barbu/" in said and "giulia" in said
    # The organiser's pages open for that login (and the club is on the home page).
    client.force_login(user)
    assert client.get(reverse("club-manage", args=[club.slug])).status_code == 200


def test_several_organisers_a_slug_a_game_and_a_language() -> None:
    login("anna")
    marco = login("marco")
    existing = make_player(make_club("Other club"), "Marco Bianchi", user=marco)
    create_club(
        "Burraco Roma",
        "--slug=roma",
        "--game=burraco",
        "--language=en",
        "--organiser=anna",
        "--organiser=marco",
        "--organiser=anna",
    )
    club = Club.objects.get(slug="roma")
    assert (club.game, club.language) == ("burraco", "en")
    organisers = Membership.objects.filter(club=club, role=Membership.Role.ORGANISER)
    assert sorted(m.player.name for m in organisers) == ["Marco Bianchi", "anna"]
    # A login that already plays in another club keeps its one player.
    assert Player.objects.filter(user=marco).get() == existing


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["Club", "--organiser=nobody"], "No login named 'nobody'"),
        (["Club", "--organiser=giulia", "--organiser=ghost"], "No login named 'ghost'"),
        (["Taken", "--slug=taken", "--organiser=giulia"], "short name 'taken' exists already"),
        (["!!!", "--organiser=giulia"], "give one with --slug"),
        (["Club", "--slug=not a slug", "--organiser=giulia"], "slug:"),
        (["x" * 121, "--organiser=giulia"], "name:"),
    ],
)
def test_bad_input_is_refused_saying_what_and_nothing_is_stored(args, message) -> None:
    login("giulia")
    make_club("Taken", slug="taken")
    with pytest.raises(CommandError, match=message):
        create_club(*args)
    assert list(Club.objects.values_list("slug", flat=True)) == ["taken"]
    assert not Player.objects.exists() and not Membership.objects.exists()


def test_an_organiser_is_required() -> None:
    with pytest.raises(CommandError, match="--organiser"):
        create_club("Club")

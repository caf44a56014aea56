"""Who may see what: the one rule of visibility, as querysets of clubs, leagues, players and
events (published rows of published clubs, everything of the clubs a user organises, all
for a superuser), checked for every kind of visitor."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser

from clubs.models import Club, League, Player
from games.models import Event
from tests.factories import make_club, make_event, make_league, make_organiser, make_player

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    """A public club and a private one, each with a public and a hidden league and event,
    and a member each."""
    rows = {}
    for name, published in (("open", True), ("closed", False)):
        club = make_club(name.title(), published=published)
        rows[name] = club
        rows[f"{name}-member"] = make_player(club, f"{name} member")
        for shown in (True, False):
            suffix = "shown" if shown else "hidden"
            label = f"{name} {suffix}"
            rows[f"{name}-league-{suffix}"] = make_league(club, label, published=shown)
            rows[f"{name}-event-{suffix}"] = make_event(club, name=label, published=shown)
    return rows


def _visitor(kind: str, world):
    if kind == "anonymous":
        return AnonymousUser()
    if kind == "nobody":
        return None
    if kind == "superuser":
        return get_user_model().objects.create_superuser("root", password="x")
    if kind == "member":  # a login with a player, organising nothing
        user = get_user_model().objects.create_user("member", password="x")
        make_player(world["closed"], "Member with login", user=user)
        return user
    return make_organiser(world["closed"], "boss")  # organises the private club


# What each visitor sees, by the world's names (the organiser organises the private club).
PUBLIC = {"open", "open-league-shown", "open-event-shown", "open-member"}
PRIVATE_CLUB = {
    "closed",
    "closed-league-shown",
    "closed-league-hidden",
    "closed-event-shown",
    "closed-event-hidden",
    "closed-member",
}
EVERYTHING = PUBLIC | PRIVATE_CLUB | {"open-league-hidden", "open-event-hidden"}
SEES = {
    "anonymous": PUBLIC,
    "nobody": PUBLIC,
    "member": PUBLIC,
    "organiser": PUBLIC | PRIVATE_CLUB,
    "superuser": EVERYTHING,
}


@pytest.mark.parametrize("kind", sorted(SEES))
def test_each_visitor_sees_the_public_rows_and_the_clubs_they_organise(world, kind):
    user = _visitor(kind, world)
    expected = SEES[kind]
    named = {v.pk: k for k, v in world.items() if isinstance(v, Club)}
    assert {named[c.pk] for c in Club.objects.visible_to(user)} == {
        k for k in expected if k in ("open", "closed")
    }
    for model, word in ((League, "league"), (Event, "event")):
        ids = {v.pk: k for k, v in world.items() if isinstance(v, model)}
        seen = {ids[row.pk] for row in model.objects.visible_to(user)}
        assert seen == {k for k in expected if f"-{word}-" in k}, model.__name__
    members = {world["open-member"].pk: "open-member", world["closed-member"].pk: "closed-member"}
    seen = {members[p.pk] for p in Player.objects.visible_to(user) if p.pk in members}
    assert seen == {k for k in expected if k.endswith("-member")}


def test_a_visible_event_is_one_query_and_chains_as_a_subquery(world, django_assert_num_queries):
    user = make_organiser(world["closed"], "boss")
    with django_assert_num_queries(1):
        names = sorted(e.name for e in Event.objects.visible_to(user))
    assert names == ["closed hidden", "closed shown", "open shown"]

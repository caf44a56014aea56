"""The organiser's correction page: the table's deal form pre-filled, refusals, audit, access."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from clubs.models import Club
from games.models import Deal, DealRevision, DealScore, Game
from games.services import deal_submit
from tests.deal_forms import form_data
from tests.factories import make_game

pytestmark = pytest.mark.django_db

BARBU = {
    "dealer": "Anna",
    "contract": "barbu",
    "doubles": [{"by": "Bruno", "against": "Anna"}],
    "result": {"king_of_hearts": "Carla"},
}
HEARTS = {
    "dealer": "Anna",
    "contract": "hearts",
    "result": {
        "hearts": {
            "Anna": ["AH", "KH", "QH"],
            "Bruno": ["JH", "TH", "9H", "8H"],
            "Carla": ["7H", "6H", "5H"],
            "Dario": ["4H", "3H", "2H"],
        }
    },
}
TRUMPS = {
    "dealer": "Anna",
    "contract": "trumps",
    "trump": "S",
    "doubles": [{"by": "Carla", "against": "Anna", "redoubled": True}],
    "result": {"tricks": {"Anna": 5, "Bruno": 3, "Carla": 3, "Dario": 2}},
}


@pytest.fixture
def game(club) -> Game:
    game = make_game(club)
    for deal in (BARBU, HEARTS, TRUMPS):
        deal_submit(game_id=game.pk, deal=deal)
    return game


def correct_url(club: Club, deal: Deal, language: str = "en") -> str:
    with translation.override(language):
        return reverse("deal-correct", args=[club.slug, deal.pk])


def post(client, club: Club, deal: Deal, content: dict, *, version: int = 1, reason: str = ""):
    data = form_data(content, deal.game.player_names, deal.number)
    data.update(version=str(version), reason=reason)
    return client.post(correct_url(club, deal), data)


def snapshot(game: Game) -> tuple:
    """Everything a refused correction must leave as it was."""
    return (
        list(Deal.objects.filter(game=game).values_list("number", "version", "data", "scores")),
        list(DealScore.objects.filter(game=game).values_list("deal__number", "player", "score")),
        DealRevision.objects.filter(game=game).count(),
        Game.objects.get(pk=game.pk).totals,
    )


def test_the_form_is_the_stored_deal_with_the_dealers_legal_contracts(organiser_client, club, game):
    deal = game.deals.get(number=1)
    page = organiser_client.get(correct_url(club, deal)).content.decode()
    assert 'id="deal-correct-form"' in page
    assert "Deal 1 · dealer Anna" in page
    # Pre-filled: the contract, Bruno's double of Anna, Carla (seat 2) took the king.
    assert 'id="contract-barbu" name="contract" value="barbu" checked' in page
    assert 'id="double-1-0" name="double" value="1-0" checked' in page
    assert 'id="king_of_hearts-2" name="king_of_hearts" value="2" checked' in page
    # Anna chose hearts and trumps in deals 2 and 3: not offered here.
    assert 'id="contract-queens"' in page
    assert 'id="contract-hearts"' not in page and 'id="contract-trumps"' not in page
    assert 'id="id_data"' not in page  # no JSON to edit by hand

    trumps = organiser_client.get(correct_url(club, game.deals.get(number=3))).content.decode()
    assert 'id="trump-S" name="trump" value="S" checked' in trumps
    assert 'id="redouble-2-0" name="redouble" value="2-0" checked' in trumps
    assert 'id="tricks_0" name="tricks_0" value="5"' in trumps


def test_a_correction_through_the_form_is_a_new_version_with_who_before_after(
    organiser_client, club, game, organiser
):
    deal = game.deals.get(number=1)
    corrected = {**BARBU, "result": {"king_of_hearts": "Dario"}}
    response = post(organiser_client, club, deal, corrected, reason="K♥ went to Dario")
    assert response.status_code == 302
    assert response["Location"] == reverse("game-deals", args=[club.slug, game.pk])

    deal.refresh_from_db()
    assert deal.version == 2
    assert deal.data["result"] == {"king_of_hearts": "Dario"}
    assert deal.scores["score"]["Dario"] < 0 == deal.scores["score"]["Carla"]
    revision = DealRevision.objects.get(deal=deal, action=DealRevision.Action.CORRECTED)
    assert revision.by_user == organiser
    assert revision.version == 2
    assert revision.reason == "K♥ went to Dario"
    assert revision.before["result"] == {"king_of_hearts": "Carla"}
    assert revision.after["result"] == {"king_of_hearts": "Dario"}
    assert revision.before["doubles"] == revision.after["doubles"]

    # The history says it in words: only what changed, before → after.
    page = organiser_client.get(correct_url(club, deal)).content.decode()
    assert "Deal 1, version 2" in page and "corrected" in page and organiser.username in page
    assert "<del>king of hearts: Carla</del>" in page
    assert "<ins>king of hearts: Dario</ins>" in page
    assert "K♥ went to Dario" in page
    assert "Deal 1, version 1" in page and "Bruno doubled Anna" in page  # as entered
    game_page = organiser_client.get(reverse("game-deals", args=[club.slug, game.pk]))
    assert "<ins>king of hearts: Dario</ins>" in game_page.content.decode()


def test_a_deal_posted_back_unchanged_is_no_new_version(organiser_client, club, game):
    before = snapshot(game)
    deal = game.deals.get(number=1)
    response = post(organiser_client, club, deal, BARBU)
    assert response.status_code == 302
    page = organiser_client.get(response["Location"]).content.decode()
    assert "Nothing to correct: deal 1 is unchanged." in page
    assert snapshot(game) == before


def test_doubles_and_redoubles_are_corrected_too(organiser_client, club, game):
    deal = game.deals.get(number=3)
    corrected = {**TRUMPS, "doubles": [{"by": "Bruno", "against": "Anna"}]}
    assert post(organiser_client, club, deal, corrected).status_code == 302
    deal.refresh_from_db()
    assert deal.data["doubles"] == [{"by": "Bruno", "against": "Anna", "redoubled": False}]
    page = organiser_client.get(correct_url(club, deal)).content.decode()
    assert "<del>Carla doubled Anna, redoubled</del>" in page
    assert "<ins>Bruno doubled Anna</ins>" in page


def test_a_refused_correction_shows_the_engines_words_and_changes_nothing(
    organiser_client, club, game
):
    before = snapshot(game)
    deal = game.deals.get(number=3)
    twelve = {**TRUMPS, "result": {"tricks": {"Anna": 4, "Bruno": 3, "Carla": 3, "Dario": 2}}}
    response = post(organiser_client, club, deal, twelve, reason="recount")
    assert response.status_code == 200
    page = response.content.decode()
    assert 'id="deal-problems"' in page
    assert "tricks add up to 12, not 13" in page
    # The form keeps what was posted, so only the mistake is fixed.
    assert 'id="tricks_0" name="tricks_0" value="4"' in page
    assert 'value="recount"' in page
    assert snapshot(game) == before


def test_a_correction_that_breaks_a_later_deal_is_refused(organiser_client, club, game):
    before = snapshot(game)
    deal = game.deals.get(number=1)
    # Hearts is not offered (Anna chose it in deal 2); sent anyway, deal 2 would be wrong.
    response = post(organiser_client, club, deal, {**HEARTS, "doubles": []})
    page = response.content.decode()
    assert "Deal 2: Anna already chose Hearts in deal 1" in page
    assert snapshot(game) == before


def test_a_correction_of_an_older_version_is_refused(organiser_client, club, game):
    deal = game.deals.get(number=1)
    assert post(organiser_client, club, deal, {**BARBU, "doubles": []}).status_code == 302
    before = snapshot(game)
    response = post(organiser_client, club, deal, BARBU, version=1)
    assert "was changed meanwhile (now version 2)" in response.content.decode()
    assert snapshot(game) == before


def test_refusals_and_contracts_in_italian(organiser_client, club, game):
    deal = game.deals.get(number=3)
    url = correct_url(club, deal, "it")
    assert url.startswith("/it/")
    page = organiser_client.get(url).content.decode()
    assert "Smazzata 3" in page or "smazzata 3" in page
    assert ">Donne<" in page and ">Atout<" in page and ">Cuori<" not in page
    data = form_data(
        {**TRUMPS, "result": {"tricks": {"Anna": 4, "Bruno": 3, "Carla": 3, "Dario": 2}}},
        game.player_names,
        3,
    )
    data.update(version="1", reason="")
    page = organiser_client.post(url, data).content.decode()
    assert "le prese sommano a 12, non a 13" in page


def test_only_the_clubs_organisers_may_correct(client, club, game, member_user, other_organiser):
    deal = game.deals.get(number=1)
    before = snapshot(game)
    corrected = {**BARBU, "result": {"king_of_hearts": "Dario"}}
    url = correct_url(club, deal)
    # Anonymous: to the login page.
    for response in (client.get(url), post(client, club, deal, corrected)):
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))
    # A member, and another club's organiser: refused.
    for user in (member_user, other_organiser):
        client.force_login(user)
        assert client.get(url).status_code == 403
        assert post(client, club, deal, corrected).status_code == 403
    # Another club's organiser through their own club's address: no such deal there.
    other = Club.objects.get(slug="other-club")
    client.force_login(other_organiser)
    with translation.override("en"):
        elsewhere = reverse("deal-correct", args=[other.slug, deal.pk])
    assert client.get(elsewhere).status_code == 404
    data = form_data(corrected, game.player_names, 1) | {"version": "1"}
    assert client.post(elsewhere, data).status_code == 404
    assert snapshot(game) == before

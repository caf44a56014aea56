"""The organiser's correction page: the table's deal form pre-filled, refusals, audit, access."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import translation

from clubs.models import Club
from games.barbu.selectors import game_record
from games.barbu.submission import deal_submit
from games.models import Deal, DealRevision, DealScore, Game
from scoring.engine import barbu
from tests.factories import make_game
from tests.games.barbu.deal_forms import BARBU, HEARTS, TRUMPS, form_data

pytestmark = pytest.mark.django_db


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
    # Anna chose hearts and trumps in deals 2 and 3: offered only as a swap with that deal.
    assert "<span>Queens</span>" in page
    assert "<span>Hearts · deal 2</span>" in page and "<span>Trumps · deal 3</span>" in page
    assert "choosing it swaps the two deals' contracts" in page
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
    # Hearts for deal 1 with deal 2 sent as it is (Hearts too): deal 2 would be wrong.
    data = form_data({**HEARTS, "doubles": []}, game.player_names, 1)
    data |= swap_fields(HEARTS, game.player_names, 2) | {"version": "1", "swap_version": "1"}
    page = organiser_client.post(correct_url(club, deal), data).content.decode()
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


def swap_fields(content: dict, names: list[str], number: int) -> dict:
    """The second deal of a swap as the correction page posts it."""
    data = form_data(content, names, number)
    del data["number"]
    return {f"swap-{key}": value for key, value in data.items()} | {"swap": str(number)}


def test_a_contract_of_another_deal_offers_that_deals_form_and_stores_nothing(
    organiser_client, club, game
):
    before = snapshot(game)
    deal = game.deals.get(number=1)
    # The table wrote Barbu for deal 1 and Hearts for deal 2: it was the other way round.
    response = post(organiser_client, club, deal, HEARTS, reason="swapped at the table")
    assert response.status_code == 200
    page = response.content.decode()
    assert 'id="deal-problems"' not in page
    assert (
        "Anna chose Hearts in deal 2. To swap the two deals&#x27; contracts, enter deal 2 as "
        "Barbu (king of hearts) below: both deals are saved together, or neither."
    ) in page
    # Deal 1 as posted, deal 2 below it: its stored deal with the freed contract, no result.
    assert 'id="contract-hearts" name="contract" value="hearts" checked' in page
    assert 'id="hearts_AH-0" name="hearts_AH" value="0" checked' in page
    assert 'id="swap-deal"' in page and "Deal 2 · dealer Anna" in page
    assert 'name="swap" value="2"' in page and 'name="swap_version" value="1"' in page
    assert 'id="swap-contract-barbu" name="swap-contract" value="barbu" checked' in page
    assert 'id="swap-king_of_hearts-2" name="swap-king_of_hearts" value="2">' in page
    assert not re.search(r'name="swap-(king_of_hearts|hearts_\w+)" value="\d" checked', page)
    assert 'id="swap-checks"' in page and 'id="swap-deal-form-data"' in page
    assert "Save both deals" in page and 'id="swap-cancel"' in page
    assert 'value="swapped at the table"' in page
    assert snapshot(game) == before


def test_both_deals_of_a_swap_are_stored_together(organiser_client, club, game, organiser):
    deal = game.deals.get(number=1)
    barbu_deal = {**BARBU, "doubles": []}
    data = form_data(HEARTS, game.player_names, 1) | swap_fields(barbu_deal, game.player_names, 2)
    data |= {"version": "1", "swap_version": "1", "reason": "swapped at the table"}
    response = organiser_client.post(correct_url(club, deal), data)
    assert response.status_code == 302
    assert response["Location"] == reverse("game-deals", args=[club.slug, game.pk])
    page = organiser_client.get(response["Location"]).content.decode()
    assert "Deals 1 and 2 corrected together." in page

    first, second = game.deals.get(number=1), game.deals.get(number=2)
    assert (first.version, first.contract, second.version, second.contract) == (
        2,
        "hearts",
        2,
        "barbu",
    )
    for stored, was in ((first, "barbu"), (second, "hearts")):
        revision = DealRevision.objects.get(deal=stored, action=DealRevision.Action.CORRECTED)
        assert revision.by_user == organiser and revision.reason == "swapped at the table"
        assert revision.before["contract"] == was and revision.after == stored.data
    game.refresh_from_db()
    scores = barbu.score_game(game_record(game))
    assert game.totals == scores["totals"]
    assert second.scores["score"] == scores["deals"][1]["score"]
    assert second.scores["score"]["Carla"] == -20
    # Each deal's history shows its new version.
    history = organiser_client.get(correct_url(club, second)).content.decode()
    assert "Deal 2, version 2" in history and "<ins>Barbu (king of hearts)</ins>" in history


def test_a_refused_swap_shows_why_keeps_both_forms_and_changes_nothing(
    organiser_client, club, game
):
    before = snapshot(game)
    deal = game.deals.get(number=1)
    # Deal 2's result left out: the king of hearts has no taker.
    data = form_data(HEARTS, game.player_names, 1) | swap_fields(BARBU, game.player_names, 2)
    del data["swap-king_of_hearts"]
    data |= {"version": "1", "swap_version": "1"}
    page = organiser_client.post(correct_url(club, deal), data).content.decode()
    assert 'id="deal-problems"' in page and "Deal 2: " in page
    assert 'id="swap-deal"' in page and 'name="swap" value="2"' in page
    assert 'id="swap-contract-barbu" name="swap-contract" value="barbu" checked' in page
    assert 'id="contract-hearts" name="contract" value="hearts" checked' in page
    assert snapshot(game) == before


def test_a_swap_with_a_deal_changed_meanwhile_is_refused(organiser_client, club, game):
    second = game.deals.get(number=2)
    assert (
        post(
            organiser_client,
            club,
            second,
            {**HEARTS, "doubles": [{"by": "Carla", "against": "Anna"}]},
        ).status_code
        == 302
    )
    before = snapshot(game)
    data = form_data(HEARTS, game.player_names, 1) | swap_fields(BARBU, game.player_names, 2)
    data |= {"version": "1", "swap_version": "1"}
    page = organiser_client.post(correct_url(club, game.deals.get(number=1)), data)
    assert "Deal 2 was changed meanwhile (now version 2)" in page.content.decode()
    assert snapshot(game) == before


def test_the_swap_in_italian(organiser_client, club, game):
    deal = game.deals.get(number=1)
    data = form_data(HEARTS, game.player_names, 1) | {"version": "1"}
    page = organiser_client.post(correct_url(club, deal, "it"), data).content.decode()
    assert "Anna ha scelto Cuori nella smazzata 2." in page
    assert "Salva le due smazzate" in page and "Annulla lo scambio" in page


def test_only_the_clubs_organisers_may_swap(client, club, game, member_user, other_organiser):
    before = snapshot(game)
    deal = game.deals.get(number=1)
    data = form_data(HEARTS, game.player_names, 1) | swap_fields(BARBU, game.player_names, 2)
    data |= {"version": "1", "swap_version": "1"}
    url = correct_url(club, deal)
    response = client.post(url, data)
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    for user in (member_user, other_organiser):
        client.force_login(user)
        assert client.post(url, data).status_code == 403
    assert snapshot(game) == before

"""The table-side entry page: keys, every contract through the form, refusals, two phones."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.barbu.corrections import rename_in_deal
from games.barbu.submission import deal_confirm, deal_submit
from games.models import Deal, DealRevision, Game
from scoring.engine import barbu
from tests.factories import make_game
from tests.games.barbu.deal_forms import form_data
from tests.games.barbu.table.pages import HEARTS_DEAL, entry_url, post_deal

pytestmark = pytest.mark.django_db


def test_page_shows_dealer_contracts_and_owed_doubles(client, game):
    page = client.get(entry_url(game))
    assert page.status_code == 200
    html = page.content.decode()
    assert "Deal 1 · dealer Anna" in html
    for name in ("Barbu (king of hearts)", "Hearts", "Queens", "Last two tricks", "Domino"):
        assert name in html
    assert "Bruno must still double Anna 2 times (7 deals left)" in html

    assert post_deal(client, game, HEARTS_DEAL, 1).status_code == 302
    html = client.get(entry_url(game)).content.decode()
    assert "Deal 2 · dealer Anna" in html
    assert 'value="hearts"' not in html  # Anna has chosen hearts already
    assert 'value="barbu"' in html
    # Bruno doubled Anna once: one more is owed; Carla and Dario still owe two.
    assert "Bruno must still double Anna 1 time (6 deals left)" in html
    assert "Carla must still double Anna 2 times (6 deals left)" in html


def test_unknown_key_is_a_404_with_a_clear_message(client, game):
    page = client.get("/t/not-a-key/")
    assert page.status_code == 404
    assert "No table has this link" in page.content.decode()
    assert client.get("/it/t/" + "x" * 24 + "/").status_code == 404
    answer = client.post("/t/not-a-key/deal/", form_data(HEARTS_DEAL, game.player_names, 1))
    assert answer.status_code == 404
    assert client.get("/t/not-a-key/state/").status_code == 404
    assert not Deal.objects.exists()


def test_another_tables_key_writes_its_own_game_only(client, game):
    other = make_game(
        game.table.round.event.club,
        event=game.table.round.event,
        names=("Elena", "Fabio", "Gina", "Ugo"),
    )
    # The form names players by seat: sent with table 2's key it is table 2's deal.
    answer = client.post(
        entry_url(other, "table-deal"), form_data(HEARTS_DEAL, game.player_names, 1)
    )
    assert answer.status_code == 302
    stored = Deal.objects.get()
    assert stored.game_id == other.pk
    assert stored.data["dealer"] == "Elena"
    assert stored.data["doubles"] == [{"by": "Fabio", "against": "Elena", "redoubled": True}]
    assert not Deal.objects.filter(game=game).exists()
    # Its confirm URL reaches only its own deals: table 1's deal 2 is out of its reach.
    assert post_deal(client, game, HEARTS_DEAL, 1).status_code == 302
    second = {"dealer": "Anna", "contract": "barbu", "result": {"king_of_hearts": "Carla"}}
    deal_submit(game_id=game.pk, deal=second, needs_confirmation=True)
    client.post(entry_url(other, "table-seat"), {"seat": "2"})
    answer = client.post(entry_url(other, "table-confirm", number=2), {"agree": "0"})
    assert answer.status_code == 404
    assert Deal.objects.get(game=game, number=2).status == Deal.Status.PENDING


def test_anonymous_with_the_key_writes_and_sees_the_scores(client, game):
    answer = post_deal(client, game, HEARTS_DEAL, 1)
    assert answer.status_code == 302
    deal = Deal.objects.get(game=game)
    assert deal.entered_by is None
    assert deal.entered_from == "Table 1"
    assert deal.data["doubles"] == [{"by": "Bruno", "against": "Anna", "redoubled": True}]
    page = client.get(entry_url(game)).content.decode()
    assert "Deal 1 saved." in page
    expected = barbu.score_game(
        {"ruleset": "italian7", "players": game.player_names, "deals": [HEARTS_DEAL]}
    )["totals"]
    for name, total in expected.items():
        assert f'data-player="{name}">{total}<' in page
    revision = DealRevision.objects.get()
    assert (revision.action, revision.by_label) == ("entered", "Table 1")


@pytest.mark.parametrize("contract", barbu.CONTRACTS)
def test_each_contract_through_the_form(client, game, full_game, contract):
    """Anna's deal of this contract in a random game (she deals 1-7), posted as deal 1."""
    deal = next(d for d in full_game["deals"][:7] if d["contract"] == contract)
    names = game.player_names
    answer = post_deal(client, game, deal, 1)
    assert answer.status_code == 302, answer.content.decode()[:3000]
    stored = Deal.objects.get(game=game)
    assert stored.data == barbu.normalise_deal(deal, names)
    assert (
        stored.scores["score"]
        == barbu.score_game({"ruleset": "italian7", "players": names, "deals": [deal]})["deals"][0][
            "score"
        ]
    )


def test_a_whole_game_through_the_form_matches_the_engine(client, game, full_game):
    for number, deal in enumerate(full_game["deals"], start=1):
        answer = post_deal(client, game, deal, number)
        assert answer.status_code == 302, (number, answer.content.decode()[:2000])
    game.refresh_from_db()
    assert game.status == Game.Status.COMPLETE
    scores = barbu.score_game(full_game)
    page = client.get(entry_url(game)).content.decode()
    assert "The game is complete" in page
    assert 'id="entry-form"' not in page
    for name, total in scores["totals"].items():
        assert f'data-player="{name}">{total}<' in page
    # A 29th deal is refused with a clear message; the 28th sent again is the same deal.
    answer = post_deal(client, game, full_game["deals"][0], 29)
    assert answer.status_code == 409
    assert "This game is complete" in answer.content.decode()
    answer = post_deal(client, game, full_game["deals"][27], 28)
    assert answer.status_code == 302
    assert Deal.objects.filter(game=game).count() == 28


def test_an_earlier_deal_sent_again_across_a_dealer_change(client, game, full_game):
    """Deal 7 (dealer Anna) resent after deal 8 (dealer Bruno) is recognised, not a conflict."""
    for number, deal in enumerate(full_game["deals"][:8], start=1):
        assert post_deal(client, game, deal, number).status_code == 302
    answer = post_deal(client, game, full_game["deals"][6], 7)
    assert answer.status_code == 302
    assert "Deal 7 was already saved" in client.get(entry_url(game)).content.decode()
    assert Deal.objects.filter(game=game).count() == 8


def test_refused_entry_shows_the_engine_message_and_stores_nothing(client, game):
    deal = {
        "dealer": "Anna",
        "contract": "hearts",
        "result": {
            "hearts": {
                "Anna": ["AH", "KH"],
                "Bruno": ["QH", "JH", "TH", "9H", "8H"],
                "Carla": ["7H", "6H", "5H"],
            }
        },
    }
    answer = post_deal(client, game, deal, 1)
    assert answer.status_code == 400
    html = answer.content.decode()
    assert "nobody took 4H, 3H, 2H" in html
    # The form keeps what was tapped, so only the missing hearts need tapping.
    assert 'id="hearts_AH-0" name="hearts_AH" value="0" checked' in html
    assert not Deal.objects.exists()
    assert not DealRevision.objects.exists()
    game.refresh_from_db()
    assert game.deals_count == 0


def test_refused_entry_in_italian(client, game):
    deal = {
        "dealer": "Anna",
        "contract": "no_tricks",
        "result": {"tricks": {"Anna": 3, "Bruno": 4, "Carla": 5}},
    }
    url = "/it" + entry_url(game, "table-deal")
    answer = client.post(url, form_data(deal, game.player_names, 1))
    assert answer.status_code == 400
    html = answer.content.decode()
    assert "le prese sommano a 12, non a 13" in html
    assert "Cuori" in html and "Donne" in html
    assert not Deal.objects.exists()


def test_the_table_page_offers_the_clubs_language(client, game):
    """The phone's language is kept; an Italian club's language is offered, not forced."""
    club = game.table.round.event.club
    club.language = "it"
    club.save()
    html = client.get(entry_url(game)).content.decode()
    assert "Last two tricks" in html and 'id="language-offer"' in html
    html = client.get(entry_url(game), HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "Ultime due" in html and 'id="language-offer"' not in html
    client.cookies["django_language"] = "en"
    html = client.get(entry_url(game)).content.decode()
    assert "Last two tricks" in html and 'id="language-offer"' not in html


def test_domino_gap_is_refused_with_a_clear_message(client, game):
    data = {"number": "1", "contract": "domino", "place_0": "1", "place_2": "2"}
    answer = client.post(entry_url(game, "table-deal"), data)
    assert answer.status_code == 400
    assert "Choose who went out in the place “2nd out”." in answer.content.decode()
    assert not Deal.objects.exists()


def test_two_phones_same_deal_number(client, game):
    from django.test import Client

    other_phone = Client()
    assert post_deal(client, game, HEARTS_DEAL, 1).status_code == 302
    # The second phone entered deal 1 differently, from the page it loaded before.
    different = {"dealer": "Anna", "contract": "barbu", "result": {"king_of_hearts": "Carla"}}
    answer = post_deal(other_phone, game, different, 1)
    assert answer.status_code == 409
    html = answer.content.decode()
    assert "Deal 1 was already entered from another phone: Hearts, dealer Anna" in html
    assert "Deal 2 · dealer Anna" in html  # the page shows the new state
    assert 'name="number" value="2"' in html
    assert Deal.objects.get(game=game).contract == "hearts"
    # The same deal sent twice (a double tap, a second phone agreeing) is stored once.
    answer = post_deal(other_phone, game, HEARTS_DEAL, 1)
    assert answer.status_code == 302
    assert (
        "Deal 1 was already saved; nothing changed."
        in other_phone.get(entry_url(game)).content.decode()
    )
    assert Deal.objects.filter(game=game).count() == 1
    assert DealRevision.objects.count() == 1


def test_state_stamp_follows_the_game(client, game):
    def page_stamp() -> str:
        html = client.get(entry_url(game)).content.decode()
        return html.split('data-stamp="', 1)[1].split('"', 1)[0]

    def polled() -> str:
        return client.get(entry_url(game, "table-state")).json()["stamp"]

    # The page and the poll agree while nothing changes (else the page would reload forever).
    before = polled()
    assert page_stamp() == before
    stored = deal_submit(game_id=game.pk, deal=HEARTS_DEAL, needs_confirmation=True).deal
    after_entry = polled()
    assert after_entry != before
    assert page_stamp() == after_entry
    deal_confirm(deal_id=stored.pk, agree=True, by_label="Table 1, seat 3 (Carla)")
    assert polled() not in (before, after_entry)
    assert page_stamp() == polled()


def test_page_queries_do_not_grow_with_deals(client, club, full_game):
    few = make_game(club)
    many = make_game(club, event=few.table.round.event, names=("Elena", "Fabio", "Gina", "Ugo"))
    for game, count in ((few, 1), (many, 20)):
        mapping = dict(zip(full_game["players"], game.player_names, strict=True))
        for deal in full_game["deals"][:count]:
            deal_submit(game_id=game.pk, deal=rename_in_deal(deal, mapping))
    counts = []
    for game in (few, many):
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(entry_url(game)).status_code == 200
        counts.append(len(ctx))
    assert counts[0] == counts[1]

"""The organiser's pages: who may open them, the evening's flow through forms, query counts."""

from __future__ import annotations

import random
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from clubs.models import Club, League, Membership, Player
from games.barbu import evenings
from games.barbu.corrections import rename_in_deal
from games.barbu.submission import deal_submit
from games.core import closing
from games.models import Deal, DealRevision, Event, EventPlayer, Game, Round, Seat
from scoring.engine.barbu.randomgame import random_game
from tests.factories import make_event, make_league, make_player, seated_event

pytestmark = pytest.mark.django_db


def enter_deals(game: Game, count: int, seed: int = 2) -> None:
    record = random_game(random.Random(seed), "italian7")
    mapping = dict(zip(record["players"], game.player_names, strict=True))
    for deal in record["deals"][:count]:
        deal_submit(game_id=game.pk, deal=rename_in_deal(deal, mapping))


def page_urls(club: Club) -> list[tuple[str, str]]:
    """Every organiser page of the club, with the method that uses it."""
    event = seated_event(club)
    game = Game.objects.filter(table__round__event=event).first()
    enter_deals(game, 1)
    deal = game.deals.get()
    player = Player.objects.filter(memberships__club=club).first()
    league = make_league(club)
    s, e = club.slug, event.pk
    return [
        ("get", reverse("club-manage", args=[s])),
        ("get", reverse("club-settings", args=[s])),
        ("get", reverse("club-rules", args=[s])),
        ("get", reverse("club-players", args=[s])),
        ("get", reverse("club-player-edit", args=[s, player.pk])),
        ("get", reverse("club-players-merge", args=[s])),
        ("get", reverse("club-players-import", args=[s])),
        ("get", reverse("club-leagues", args=[s])),
        ("get", reverse("club-league-create", args=[s])),
        ("get", reverse("club-league-edit", args=[s, league.pk])),
        ("get", reverse("event-create", args=[s])),
        ("get", reverse("event-dashboard", args=[s, e])),
        ("get", reverse("event-checkin", args=[s, e])),
        ("post", reverse("event-guest", args=[s, e])),
        ("post", reverse("round-seat", args=[s, e])),
        ("post", reverse("event-close", args=[s, e])),
        ("post", reverse("event-reopen", args=[s, e])),
        ("get", reverse("round-detail", args=[s, e, 1])),
        ("post", reverse("seat-swap", args=[s, e, 1])),
        ("get", reverse("table-cards", args=[s, e, 1])),
        ("post", reverse("round-close", args=[s, e, 1])),
        ("post", reverse("round-reopen", args=[s, e, 1])),
        ("get", reverse("game-deals", args=[s, game.pk])),
        ("get", reverse("deal-correct", args=[s, deal.pk])),
    ]


def test_every_page_is_for_the_clubs_organisers_only(
    client, club, organiser, member_user, other_organiser
):
    urls = page_urls(club)
    # Anonymous: to the login page, nothing done.
    for method, url in urls:
        response = getattr(client, method)(url)
        assert response.status_code == 302, url
        assert response["Location"].startswith(reverse("login")), url
    # A plain member of the club, and an organiser of another club: 403.
    for user in (member_user, other_organiser):
        client.force_login(user)
        for method, url in urls:
            assert getattr(client, method)(url).status_code == 403, (user, url)
    assert Round.objects.count() == 1
    assert Event.objects.get().status == Event.Status.RUNNING
    # The organiser: every page opens.
    client.force_login(organiser)
    for method, url in urls:
        if method == "get":
            assert client.get(url).status_code == 200, url


def test_other_clubs_objects_are_not_found_from_my_club(client, club, organiser, other_organiser):
    other = Club.objects.get(slug="other-club")
    event = seated_event(other, 4)
    game = Game.objects.get(table__round__event=event)
    client.force_login(organiser)
    s = club.slug
    assert client.get(reverse("event-dashboard", args=[s, event.pk])).status_code == 404
    assert client.get(reverse("game-deals", args=[s, game.pk])).status_code == 404
    assert client.get(reverse("table-cards", args=[s, event.pk, 1])).status_code == 404


def test_evening_flow_through_the_forms(organiser_client, club, nine):
    client = organiser_client
    response = client.post(
        reverse("event-create", args=[club.slug]),
        {
            "name": "Tuesday",
            "kind": "evening",
            "starts_at": "2026-11-24T20:30",
            "league": "",
            "seating_method": "mix",
            "turns_per_round": "",
            "planned_rounds": "2",
            "published": "on",
        },
    )
    event = Event.objects.get(name="Tuesday")
    assert response["Location"] == reverse("event-checkin", args=[club.slug, event.pk])
    assert event.ruleset["preset"] == "italian7"

    page = client.get(response["Location"]).content.decode()
    assert 'id="checkin-form"' in page and 'name="players"' in page
    response = client.post(
        reverse("event-checkin", args=[club.slug, event.pk]),
        {"players": [p.pk for p in nine[:8]]},
    )
    assert response.status_code == 302
    client.post(reverse("event-guest", args=[club.slug, event.pk]), {"name": "Walter"})
    assert EventPlayer.objects.filter(event=event, active=True).count() == 9

    response = client.post(reverse("round-seat", args=[club.slug, event.pk]), {"method": "mix"})
    assert response["Location"] == reverse("round-detail", args=[club.slug, event.pk, 1])
    page = client.get(response["Location"]).content.decode()
    assert 'id="table-1"' in page and 'id="table-2"' in page
    assert "Walter" in page or "Walter" in str(Round.objects.get().byes.all())

    cards = client.get(reverse("table-cards", args=[club.slug, event.pk, 1])).content.decode()
    links = re.findall(r'class="entry-link" href="([^"]+)"', cards)
    keys = {t.key for t in Round.objects.get().tables.all()}
    assert sorted(links) == sorted(f"http://testserver/t/{key}/" for key in keys)
    assert cards.count("<svg") == 2

    # A second round is refused while the first is open; the message says why.
    response = client.post(
        reverse("round-seat", args=[club.slug, event.pk]), {"method": "mix"}, follow=True
    )
    assert "still open" in response.content.decode()
    assert Round.objects.count() == 1


def test_checkin_form_adds_a_guest_without_losing_ticks(organiser_client, club, nine, event):
    url = reverse("event-checkin", args=[club.slug, event.pk])
    response = organiser_client.post(
        url, {"players": [nine[0].pk, nine[1].pk], "guest": "Walter", "add_guest": ""}
    )
    assert response["Location"] == url
    present = set(
        EventPlayer.objects.filter(event=event, active=True).values_list("player__name", flat=True)
    )
    assert present == {nine[0].name, nine[1].name, "Walter"}
    walter = Player.objects.get(name="Walter")
    assert Membership.objects.get(player=walter).role == Membership.Role.GUEST
    page = organiser_client.get(url).content.decode()
    assert re.search(rf'value="{walter.pk}"[^>]*checked', page)


def test_seat_swap_page_moves_a_player(organiser_client, club):
    event = seated_event(club, 9)
    rnd = event.rounds.get()
    a = Seat.objects.get(table__round=rnd, table__number=1, position=0)
    bye = rnd.byes.get()
    response = organiser_client.post(
        reverse("seat-swap", args=[club.slug, event.pk, 1]),
        {"seat": a.pk, "target": f"player:{bye.pk}"},
    )
    assert response.status_code == 302
    assert Seat.objects.get(table=a.table, position=0).player == bye
    assert list(rnd.byes.all()) == [a.player]
    # Nonsense is an error message, not a crash.
    response = organiser_client.post(
        reverse("seat-swap", args=[club.slug, event.pk, 1]),
        {"seat": a.pk, "target": "bogus"},
        follow=True,
    )
    assert "Choose a seat" in response.content.decode()


def test_seat_swap_page_after_deals_asks_if_the_wrong_person_was_seated(organiser_client, club):
    event = seated_event(club, 9)
    rnd = event.rounds.get()
    a = Seat.objects.get(table__round=rnd, table__number=1, position=0)
    leaving, bye = a.player, rnd.byes.get()
    game = Game.objects.get(table=a.table)
    enter_deals(game, 2)
    url = reverse("round-detail", args=[club.slug, event.pk, 1])
    assert "The wrong person was seated" in organiser_client.get(url).content.decode()
    swap = reverse("seat-swap", args=[club.slug, event.pk, 1])
    page = organiser_client.post(
        swap, {"seat": a.pk, "target": f"player:{bye.pk}"}, follow=True
    ).content.decode()
    assert "Table 1 has played 2 deals: swapping now would give them" in page
    assert Seat.objects.get(table=a.table, position=0).player == leaving
    assert Deal.objects.filter(game=game, dealer=leaving).count() == 2
    # Said so: the deals were the newcomer's all along, renamed throughout and audited.
    answer = organiser_client.post(
        swap, {"seat": a.pk, "target": f"player:{bye.pk}", "wrong_person": "1"}
    )
    assert answer.status_code == 302
    assert Seat.objects.get(table=a.table, position=0).player == bye
    assert Deal.objects.filter(game=game, dealer=bye).count() == 2
    revisions = DealRevision.objects.filter(game=game, action="reseated")
    assert revisions.count() == 2
    assert all(r.by_user is not None and r.reason.startswith("wrong person") for r in revisions)


def test_one_unfinished_table_is_said_in_the_singular(organiser_client, club):
    event = seated_event(club, 4)
    url = reverse("round-close", args=[club.slug, event.pk, 1])
    page = organiser_client.post(url, follow=True).content.decode()
    assert "1 table has not finished (table 1)." in page
    assert "(s)" not in page


def test_close_round_page_asks_for_confirmation(organiser_client, club):
    event = seated_event(club, 8)
    url = reverse("round-close", args=[club.slug, event.pk, 1])
    page = organiser_client.post(url, follow=True).content.decode()
    assert "2 tables have not finished (tables 1, 2)." in page
    assert event.rounds.get().status == Round.Status.OPEN
    organiser_client.post(url, {"force": "on"})
    assert event.rounds.get().status == Round.Status.CLOSED
    organiser_client.post(reverse("event-close", args=[club.slug, event.pk]), {"force": "on"})
    event.refresh_from_db()
    assert event.status != Event.Status.CLOSED  # unfinished games: how do they count?
    close = reverse("event-close", args=[club.slug, event.pk])
    organiser_client.post(close, {"unfinished": "count"})
    event.refresh_from_db()
    assert event.status == Event.Status.CLOSED


def test_pending_and_disputed_deals_are_highlighted(organiser_client, club):
    from games.barbu.submission import deal_confirm

    event = seated_event(club, 4)
    game = Game.objects.get(table__round__event=event)
    record = random_game(random.Random(2), "italian7")
    mapping = dict(zip(record["players"], game.player_names, strict=True))
    result = deal_submit(
        game_id=game.pk,
        deal=rename_in_deal(record["deals"][0], mapping),
        by_label="seat 1",
        needs_confirmation=True,
    )
    deal_confirm(deal_id=result.deal.pk, agree=False, by_label="seat 2")
    page = organiser_client.get(reverse("event-dashboard", args=[club.slug, event.pk])).content
    assert b"1 deal to check" in page
    page = organiser_client.get(reverse("game-deals", args=[club.slug, game.pk])).content.decode()
    assert 'id="deal-1" class="attention"' in page


def test_rules_form_validates_with_the_engine(organiser_client, club):
    url = reverse("club-rules", args=[club.slug])
    response = organiser_client.post(url, {"preset": "italian7", "domino_points": "1,2,3"})
    assert response.status_code == 200
    assert "four whole numbers" in response.content.decode()
    response = organiser_client.post(
        url, {"preset": "german", "contracts": ["barbu", "hearts"], "mandatory_doubles": "no"}
    )
    assert response.status_code == 302
    club.refresh_from_db()
    assert club.ruleset == {
        "preset": "german",
        "options": {"contracts": ["barbu", "hearts"], "mandatory_doubles": False},
    }
    page = organiser_client.get(url).content.decode()
    assert "Contracts: Barbu (king of hearts), Hearts." in page


def test_rules_form_takes_points_in_words_and_numbers_not_json(organiser_client, club):
    url = reverse("club-rules", args=[club.slug])
    page = organiser_client.get(url).content.decode()
    assert "JSON" not in page
    assert "Points for each queen" in page
    response = organiser_client.post(
        url, {"preset": "italian7", "points_hearts": "-2,x", "points_last_two": "-10"}
    )
    assert response.status_code == 200
    page = response.content.decode()
    assert "Write one whole number, or thirteen separated by commas." in page
    assert "Write two whole numbers separated by a comma." in page
    hearts = "-6,-5,-4,-3,-2,-2,-2,-2,-2,-2,-2,-2,-1"
    response = organiser_client.post(
        url,
        {
            "preset": "italian7",
            "points_barbu": "-40",
            "points_hearts": hearts,
            "points_queens": "-8",
            "points_last_two": "-10,-20",
        },
    )
    assert response.status_code == 302
    club.refresh_from_db()
    points = club.ruleset["options"]["points"]
    assert points["barbu"] == -40 and points["queens"] == -8
    assert points["last_two"] == [-10, -20]
    assert points["hearts"]["A"] == -6 and points["hearts"]["2"] == -1
    page = organiser_client.get(url).content.decode()
    assert f'value="{hearts}"' in page and 'value="-10,-20"' in page
    response = organiser_client.post(url, {"preset": "italian7", "points_hearts": "-3"})
    club.refresh_from_db()
    assert club.ruleset["options"] == {"points": {"hearts": -3}}


def test_rules_form_refuses_mandatory_doubles_with_one_contract(organiser_client, club):
    url = reverse("club-rules", args=[club.slug])
    response = organiser_client.post(url, {"preset": "italian7", "contracts": ["barbu"]})
    assert response.status_code == 200
    assert "mandatory doubles need at least 2 contracts" in response.content.decode()
    response = organiser_client.post(
        url, {"preset": "italian7", "contracts": ["barbu"], "mandatory_doubles": "no"}
    )
    assert response.status_code == 302


def test_league_form_saves_ruleset_and_ranking(organiser_client, club):
    url = reverse("club-league-create", args=[club.slug])
    data = {
        "league-name": "Winter",
        "league-season": "2026",
        "league-published": "on",
        "rules-preset": "",
        "ranking-method": "placement",
        "ranking-placement_points": "5,3,1,0",
        "ranking-min_games": "2",
        "ranking-best_evenings": "",
        "ranking-tiebreaks": "wins,nonsense",
    }
    response = organiser_client.post(url, data)
    assert response.status_code == 200
    assert "nonsense" in response.content.decode()
    assert not League.objects.exists()
    data["ranking-tiebreaks"] = "head_to_head,wins"
    response = organiser_client.post(url, data)
    assert response.status_code == 302
    league = League.objects.get()
    assert league.ruleset is None
    assert league.ranking == {
        "method": "placement",
        "placement_points": [5, 3, 1, 0],
        "min_games": 2,
        "best_evenings": None,
        "tiebreaks": ["head_to_head", "wins"],
    }


def test_import_page_previews_then_imports(organiser_client, club):
    url = reverse("club-players-import", args=[club.slug])
    text = "name,email,role\nBruno,b@example.org,member\nCarla,bad,member\n"
    page = organiser_client.post(url, {"text": text, "preview": "1"}).content.decode()
    assert 'data-line="3"' in page and "not an e-mail" in page
    response = organiser_client.post(url, {"text": text, "confirm": "1"})
    assert "nothing was imported" in response.content.decode()
    assert not Player.objects.filter(name="Bruno").exists()
    response = organiser_client.post(url, {"text": text, "confirm": "1", "skip_bad_lines": "on"})
    assert response.status_code == 302
    assert Player.objects.filter(name="Bruno", memberships__club=club).exists()
    assert not Player.objects.filter(name="Carla").exists()


def test_merge_page(organiser_client, club):
    a = make_player(club, "Anna")
    b = make_player(club, "Anna B")
    response = organiser_client.post(
        reverse("club-players-merge", args=[club.slug]), {"keep": a.pk, "duplicate": b.pk}
    )
    assert response.status_code == 302
    b.refresh_from_db()
    assert b.merged_into == a
    page = organiser_client.get(reverse("club-players", args=[club.slug])).content.decode()
    assert ">Anna B</a>" not in page and ">Anna</a>" in page


def test_player_edit_keeps_one_organiser(organiser_client, club, organiser):
    me = organiser.player
    url = reverse("club-player-edit", args=[club.slug, me.pk])
    response = organiser_client.post(url, {"name": me.name, "email": "", "role": "member"})
    assert response.status_code == 200
    assert "at least one organiser" in response.content.decode()
    assert Membership.objects.get(player=me).role == Membership.Role.ORGANISER


# --- query counts ------------------------------------------------------------


def count_queries(client, url: str) -> int:
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx.captured_queries)


def test_list_pages_make_the_same_queries_for_few_and_many_rows(organiser_client, club):
    small = seated_event(club, 4)
    big = make_event(club, name="Big")
    players = [make_player(club, f"Many {i}") for i in range(33)]
    evenings.checkin_set(event=big, player_ids=[p.pk for p in players])
    evenings.round_seat(event=big, seed=1)
    closing.round_close(rnd=big.rounds.get(), force=True)
    evenings.round_seat(event=big, seed=2)
    small_game = Game.objects.get(table__round__event=small)
    # A table of the open round: the closed round takes no more deals.
    big_game = Game.objects.filter(table__round__event=big, table__round__number=2).first()
    enter_deals(small_game, 1)
    enter_deals(big_game, 12)
    s = club.slug
    pairs = [
        ("event-dashboard", [s, small.pk], [s, big.pk]),
        ("round-detail", [s, small.pk, 1], [s, big.pk, 2]),
        ("table-cards", [s, small.pk, 1], [s, big.pk, 2]),
        ("event-checkin", [s, small.pk], [s, big.pk]),
        ("game-deals", [s, small_game.pk], [s, big_game.pk]),
    ]
    for name, few, many in pairs:
        assert count_queries(organiser_client, reverse(name, args=few)) == count_queries(
            organiser_client, reverse(name, args=many)
        ), name
    # Club-wide lists: measured with few rows, then again after many more were added.
    lists = ["club-players", "club-manage", "club-leagues"]
    before = {n: count_queries(organiser_client, reverse(n, args=[s])) for n in lists}
    for i in range(5):
        make_event(club, name=f"Extra {i}", league=make_league(club, name=f"L{i}"))
    after = {n: count_queries(organiser_client, reverse(n, args=[s])) for n in lists}
    assert before == after
    assert Deal.objects.count() == 13


def test_evening_page_links_to_the_public_page_and_each_tables_entry(organiser_client, club):
    event = seated_event(club, count=8)
    event.status = Event.Status.RUNNING
    event.save(update_fields=["status"])
    page = organiser_client.get(reverse("event-dashboard", args=[club.slug, event.pk])).content
    page = page.decode()
    assert f'href="{reverse("scoring:event", args=[event.pk])}"' in page
    tables = list(event.rounds.get(number=1).tables.all())
    assert len(tables) == 2
    for table in tables:
        assert f'href="{reverse("table-entry", args=[table.key])}"' in page
    # A running evening's main action is following it; closing is a secondary button.
    link = re.search(r'<a class="([^"]*)"[^>]*id="public-page-link"', page)
    assert link and link.group(1) == "button"
    close = re.search(r'<button type="submit" class="([^"]*)" id="event-close-submit"', page)
    assert close and "secondary" in close.group(1)

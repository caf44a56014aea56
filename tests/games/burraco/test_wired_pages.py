"""What was built for Burraco and is now reachable from the pages: the rules form on the
club's rules page, the pairing import and the blank score cards from the referee's desk,
the ranking exports from the public tournament page and the season ranking on the
league page."""

from __future__ import annotations

import csv
import io
import re
from decimal import Decimal

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from clubs.models import Club
from games.burraco import scorecards, tournaments
from games.burraco.results import ranking_so_far
from games.core.closing import event_close
from games.models import Round, Table
from scoring.burraco.exports import ranking_rows
from scoring.engine.burraco.ranking import season_ranking
from scoring.rebuild import rebuild_event_standings
from tests.factories import make_club, make_league, make_organiser, make_player
from tests.games.burraco.builders import burraco_club, play_turn, tournament

pytestmark = pytest.mark.django_db


def _organiser(client: Client, club: Club, name: str = "referee") -> None:
    make_organiser(club, name)
    client.login(username=name, password="tavolo-test")


# --- the club's rules page -----------------------------------------------------------------


def test_a_burraco_club_edits_its_burraco_rules_on_the_rules_page(client: Client) -> None:
    club = burraco_club()
    _organiser(client, club)
    url = reverse("club-rules", args=[club.slug])
    page = client.get(url).content.decode()
    assert 'id="burraco-rules-form"' in page and 'id="vp-table-3"' in page
    assert 'id="rules-form"' not in page  # no Barbu rules for a Burraco club
    saved = client.post(
        url, {"rules": "burraco", "burraco-preset": "fibur", "burraco-bonus_clean": "250"}
    )
    assert saved.status_code == 302
    club.refresh_from_db()
    assert club.burraco_ruleset == {"preset": "fibur", "options": {"bonus": {"clean": 250}}}
    refused = client.post(
        url, {"rules": "burraco", "burraco-preset": "fibur", "burraco-bonus_clean": "252"}
    )
    assert refused.status_code == 200
    assert "252 is not a multiple of 5" in refused.content.decode()
    club.refresh_from_db()
    assert club.burraco_ruleset["options"] == {"bonus": {"clean": 250}}


def test_a_club_playing_both_games_has_both_forms(client: Client) -> None:
    club = make_club("Circolo Misto", slug="misto", game=Club.Games.BOTH, language="en")
    _organiser(client, club)
    url = reverse("club-rules", args=[club.slug])
    page = client.get(url).content.decode()
    assert 'id="rules-form"' in page and 'id="burraco-rules-form"' in page
    ids = re.findall(r' id="([^"]+)"', page)
    assert len(ids) == len(set(ids))  # the two forms' fields never share an id
    # Saving one form leaves the other game's rules alone.
    before = club.ruleset
    client.post(url, {"rules": "burraco", "burraco-preset": "international"})
    club.refresh_from_db()
    assert club.burraco_ruleset == {"preset": "international", "options": {}}
    assert club.ruleset == before


def test_a_barbu_club_has_no_burraco_rules_form(client: Client) -> None:
    club = make_club("Solo Barbu", slug="solo", language="en")
    _organiser(client, club)
    page = client.get(reverse("club-rules", args=[club.slug])).content.decode()
    assert 'id="rules-form"' in page and "burraco-rules-form" not in page


# --- the referee's desk: pairing import and blank score cards -------------------------------


def test_a_pasted_pairing_seats_the_turn_at_its_tables(client: Client) -> None:
    event = tournament(5)
    _organiser(client, event.club)
    desk = reverse("burraco-desk", args=[event.club.slug, event.pk])
    assert "table, NS pair, EW pair" in client.get(desk).content.decode()
    url = reverse("burraco-turn-seat", args=[event.club.slug, event.pk])
    pasted = "Tavolo;NS;EW\n3; 1; 4\n5; 2; 3\nriposo; 5\n"
    answer = client.post(url, {"movement": "pairing", "hands_per_turn": 3, "pairing": pasted})
    assert answer.status_code == 302
    seated = {
        t.number: (t.ns_pair.number, t.ew_pair.number)
        for t in Table.objects.filter(round__event=event).select_related("ns_pair", "ew_pair")
    }
    assert seated == {3: (1, 4), 5: (2, 3)}
    rnd = event.rounds.get()
    assert rnd.movement == "hand"
    assert list(rnd.pair_results.filter(bye=True).values_list("pair__number", flat=True)) == [5]


def test_a_wrong_pairing_is_refused_line_by_line_and_seats_nothing(client: Client) -> None:
    event = tournament(5)
    _organiser(client, event.club)
    url = reverse("burraco-turn-seat", args=[event.club.slug, event.pk])
    pasted = "1, 1, 4\n2, 1, 3\n3, 2, 9\n"
    answer = client.post(url, {"movement": "pairing", "hands_per_turn": 3, "pairing": pasted})
    assert answer.status_code == 400
    text = answer.content.decode()
    assert "Line 2: pair 1 is already seated on line 1." in text
    assert "Line 3: there is no pair 9 in this tournament." in text
    assert not Round.objects.filter(event=event).exists()


def test_the_desk_prints_the_turns_blank_score_cards(client: Client) -> None:
    event = tournament(5)
    rnd = tournaments.turn_seat(event=event, movement="first").round
    _organiser(client, event.club)
    desk = client.get(reverse("burraco-desk", args=[event.club.slug, event.pk])).content.decode()
    url = reverse("burraco-score-cards", args=[event.club.slug, event.pk, rnd.number])
    assert f'href="{url}"' in desk and f'href="{url}?per_page=4"' in desk
    pdf = client.get(url)
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    assert pdf.content.startswith(b"%PDF") and int(pdf["Content-Length"]) == len(pdf.content)
    head = client.head(url)
    assert head.status_code == 200 and head.content == b""
    assert head["Content-Length"] == pdf["Content-Length"]
    assert client.get(url + "?per_page=4").content.startswith(b"%PDF")
    # Another club's referee gets nothing.
    other = Client()
    _organiser(other, burraco_club("Altro circolo", slug="altro"), "stranger")
    assert other.get(url).status_code in (403, 404)


# --- the public tournament page's exports ----------------------------------------------------


@pytest.fixture
def played():
    event = tournament(5)
    for movement in ("first", "mitchell"):
        rnd = tournaments.turn_seat(event=event, movement=movement).round
        play_turn(rnd, {1: [(300, 100)] * 3, 2: [(150, 200)] * 3})
    rebuild_event_standings(event_id=event.pk)
    return event


def test_the_tournament_page_links_its_ranking_exports(client: Client, played) -> None:
    page = client.get(reverse("scoring:event", args=[played.pk])).content.decode()
    csv_url = reverse("scoring:event-csv", args=[played.pk])
    pdf_url = reverse("scoring:event-pdf", args=[played.pk])
    assert f'href="{csv_url}"' in page and f'href="{pdf_url}"' in page

    response = client.get(csv_url)
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    lines = list(csv.reader(io.StringIO(response.content.decode().lstrip("\ufeff"))))
    expected = ranking_rows(ranking_so_far(played), marks={})
    assert lines[0] == [str(c) for c in expected[0]]
    assert [(line[0], line[1], line[3]) for line in lines[1:]] == [
        (str(row[0]), str(row[1]), row[3]) for row in expected[1:]
    ]
    names = {p.number: p.names.replace(" – ", " / ") for p in played.pairs.all()}
    assert all(line[2] == f"{line[1]} – {names[int(line[1])]}" for line in lines[1:])

    pdf = client.get(pdf_url)
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    for url, got in ((csv_url, response), (pdf_url, pdf)):
        head = client.head(url)
        assert head.status_code == 200 and head.content == b""
        assert head["Content-Length"] == str(len(got.content))


# --- the league page's season ranking ---------------------------------------------------------


def _season(club: Club, tournaments_played: int, pairs: int, ranking: dict | None = None):
    """A Burraco league of closed tournaments (the same players each time, a different
    winner each time), plus one still running."""
    league = make_league(club, "Campionato", game="burraco", ranking=ranking or {})
    players = [make_player(club, f"Giocatore {n}") for n in range(2 * pairs)]
    for index in range(tournaments_played + 1):
        event = tournaments.tournament_create(
            club=club, league=league, name=f"Torneo {index + 1}", starts_at=timezone.now()
        )
        for n in range(pairs):
            tournaments.pair_enter(
                event=event, player_a=players[2 * n], player_b=players[2 * n + 1]
            )
        rnd = tournaments.turn_seat(event=event, movement="first").round
        play_turn(rnd, {t: [(100 + 50 * ((t + index) % 3), 100)] * 3 for t in range(1, 9)})
        rebuild_event_standings(event_id=event.pk)
        if index < tournaments_played:
            event_close(event=event)
    return league


def _expected(league, method="vp", best=None, points=None):
    from scoring.models import PairStanding

    events: dict[int, list] = {}
    for s in PairStanding.objects.filter(event__league=league, event__status="closed"):
        key = tuple(sorted((s.pair.player_a_id, s.pair.player_b_id)))
        row = type("Row", (), {"pair": key, "place": s.rank, "vp": Decimal(s.vp)})()
        row.mp_difference = s.mp_difference
        events.setdefault(s.event_id, []).append(row)
    return season_ranking(list(events.values()), method, best, points)


def _shown(client: Client, league) -> list[tuple[str, str]]:
    page = client.get(reverse("scoring:league", args=[league.pk]))
    assert page.status_code == 200
    body = page.content.decode()
    assert 'id="season-ranking"' in body
    return re.findall(
        r'id="season-row-\d+"[^>]*><td[^>]*>(\d+=?)</td>\s*<td[^>]*>([^<]+)</td>\s*'
        r"<td[^>]*>([^<]+)<",
        body,
    )


def test_the_league_page_shows_the_season_ranking_by_vp(client: Client) -> None:
    club = burraco_club()
    league = _season(club, 3, 5)
    rows = _shown(client, league)
    expected = _expected(league)
    assert len(rows) == 5 and len(expected) == 5
    assert [r[2] for r in rows] == [f"{row.points.normalize():f}" for row in expected]
    body = client.get(reverse("scoring:league", args=[league.pk])).content.decode()
    assert "Torneo 4" in body  # the running one is listed, and counts once closed
    assert "victory points (VP) it made in each closed tournament" in body
    csv_url = reverse("scoring:league-csv", args=[league.pk])
    assert f'href="{csv_url}"' in body
    lines = list(csv.reader(io.StringIO(client.get(csv_url).content.decode().lstrip("\ufeff"))))
    assert [line[2] for line in lines[1:]] == [r[2] for r in rows]


def test_the_league_page_follows_the_leagues_placement_and_best_n(client: Client) -> None:
    club = burraco_club()
    ranking = {"method": "placement", "season_points": [10, 6, 4], "best_evenings": 2}
    league = _season(club, 3, 5, ranking)
    rows = _shown(client, league)
    expected = _expected(league, "placement", 2, [10, 6, 4])
    assert [r[2] for r in rows] == [f"{row.points.normalize():f}" for row in expected]
    body = client.get(reverse("scoring:league", args=[league.pk])).content.decode()
    assert "10, 6, 4 from 1st place down" in body
    assert "best 2 tournaments count" in body
    assert "2 of 3" in body  # tournaments counted of those played


def test_the_league_page_reads_a_fixed_number_of_queries(client: Client) -> None:
    club = burraco_club()
    small = _season(club, 1, 3)
    big = _season(burraco_club("Grande", slug="grande"), 4, 9)
    counts = []
    for league in (small, big):
        url = reverse("scoring:league", args=[league.pk])
        client.get(url)  # the session and the language settle
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1], counts


def test_the_tournament_page_says_each_tables_state_and_who_rests(client: Client, played):
    rnd = tournaments.turn_seat(event=played, movement="mitchell").round
    first = rnd.tables.order_by("number").first()
    scorecards.hand_submit(game_id=first.game.pk, hand={"mp": {"NS": 300, "EW": 100}}, line="NS")
    page = client.get(reverse("scoring:event", args=[played.pk])).content.decode()
    turn3 = page[page.index("Turn 3") :]
    items = re.findall(r"<li>(.*?)</li>", turn3, re.S)
    texts = [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", item)).strip() for item in items]
    assert texts[0].startswith(f"Table 1: pair {first.ns_pair.number} v pair")
    assert "300 – 100 MP" in texts[0] and "1 of 3 hands" in texts[0]
    # A table that has entered nothing shows no score nor VP, only that it has not started.
    assert texts[1].endswith("not started") and "VP" not in texts[1]
    byes = played.pairs.exclude(pk__in=[t.ns_pair_id for t in rnd.tables.all()])
    byes = byes.exclude(pk__in=[t.ew_pair_id for t in rnd.tables.all()])
    assert f"Bye: pair {byes.get().number}" in turn3
    turn1 = page[page.index("Turn 1") : page.index("Turn 2")]
    assert "confirmed" in turn1 and "Bye: pair" in turn1

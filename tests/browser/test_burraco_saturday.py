"""A Burraco Saturday in a real browser, from the referee's phone and the players' phones
at 390 px (issue 31): what a real day runs into, in one run.

Ten pairs entered at the desk, turn 1 seated by entry order (a Mitchell); a late pair
enters while it is played and the desk warns that the Mitchell cannot go on as it was
(an odd field of 11); turn 2 by Mitchell at another step, with a bye; a pair withdrawn
(confirmed) after it; turn 3 by Danese (no rematch). Every table's phones open the day's
table card (/t/e/<key>/, one QR per table for the day). At one table two phones of NS
and one of EW: a double tap on "Save" stores one hand, the second NS phone (still
showing hand 1) is refused with nothing stored, the EW phone follows the card without a
reload and confirms it. One card is disputed and corrected by the referee, one is short
(time ran out: the referee confirms it with the hands played), a pair is penalised for
an infraction of turn 1 during turn 3, and the tournament is closed (a penalty and a
correction sent afterwards from an older desk tab are refused). Phones left open follow
each change: the other line's hand, the dispute, the correction, the next turn, the
close. The final public ranking (and its spreadsheet) equals the engine's ranking
(rank_pairs) of the results the test works out itself from the hands it entered, with
the withdrawn and short-card marks.

Every page opened is checked at 390 px (no sideways scroll, the walk's checks; axe on
the first of each kind), in Italian, and the key ones read again in English.
"""

from __future__ import annotations

import csv
import random
import re
import time
from decimal import Decimal

import pytest

from clubs.models import Club
from games.models import (
    BurracoHand,
    BurracoTableKey,
    Event,
    PairTurnResult,
    Round,
    ScoreCard,
)
from tests.browser.saturday import (
    FOLLOW_MS,
    PHONE,
    Penalty,
    Turn,
    enter_hand,
    expected_ranking,
    go,
    open_line,
    play,
    seat,
    shown_ranking,
    type_hand,
)
from tests.browser.score_cards import PASSWORD
from tests.browser.walk import Walk, localised
from tests.factories import make_club, make_organiser, make_player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PAIRS = 10  # entered before the day starts; pair 11 comes late
LATE = PAIRS + 1
HANDS = 2
DISPUTED = (2, 2)  # turn 2, table 2: EW disputes, the referee rewrites hand 2
SHORT = (3, 3)  # turn 3, table 3: time runs out after hand 1
WITHDRAWN = 4  # after turn 2
PENALTY = Penalty(turn=1, pair=6, vp=Decimal(1), mp=50)  # given during turn 3


def turn_played(event: Event, number: int) -> Turn:
    rnd = Round.objects.get(event=event, number=number)
    tables = {
        t.number: (t.ns_pair.number, t.ew_pair.number)
        for t in rnd.tables.select_related("ns_pair", "ew_pair")
    }
    seated = {p for pair in tables.values() for p in pair}
    playing = set(event.pairs.filter(active=True).values_list("number", flat=True))
    return Turn(tables, playing - seated)


def day_urls(base: str, event: Event, language: str = "it") -> dict[int, str]:
    """The day's table cards' addresses (their QR codes, /t/e/<key>/), by table number."""
    keys = BurracoTableKey.objects.filter(event=event).values_list("number", "key")
    return {n: base + localised("burraco-table-of-day", language, key) for n, key in keys}


def csv_notes(text: str) -> dict[int, str]:
    """The ranking's spreadsheet: each pair's notes (withdrawn, short cards), by place."""
    lines = text.lstrip("\ufeff").splitlines()
    rows = list(csv.reader(lines, csv.Sniffer().sniff(lines[0])))
    return {int(row[1]): row[-1] for row in rows[1:]}


def closed_final(event: Event, desk, correct) -> None:
    """A closed tournament's ranking is final: a penalty or a correction sent from a desk
    tab opened before the close is refused, and nothing changes."""
    results = list(PairTurnResult.objects.filter(round__event=event).values().order_by("pk"))
    hands = list(BurracoHand.objects.filter(game__table__round__event=event).values("ns_mp"))
    desk.select_option("#id_pair", str(event.pairs.get(number=1).pk))
    desk.fill("#id_vp", "2")
    desk.fill("#id_mp", "0")
    desk.fill("#id_reason", "dopo la chiusura")
    go(desk, "#penalty-submit")
    assert desk.locator('.flash.error[role="alert"]').count() == 1
    assert desk.locator("#penalty-form").count() == 0
    correct.fill('input[name="h1-NS"]', "1000")
    correct.fill("#id_reason", "dopo la chiusura")
    go(correct, "#correct-submit")
    assert correct.locator("#server-problems").count() == 1
    assert list(PairTurnResult.objects.filter(round__event=event).values().order_by("pk")) == (
        results
    )
    after = list(BurracoHand.objects.filter(game__table__round__event=event).values("ns_mp"))
    assert after == hands


def test_a_burraco_saturday(live_server, browser, axe, eager_tasks) -> None:
    started = time.monotonic()
    club = make_club("Circolo Burraco", slug="burraco", language="it", game=Club.Games.BURRACO)
    make_organiser(club, "referee", PASSWORD)
    players = [make_player(club, f"Giocatore {n:02}") for n in range(1, 2 * LATE + 1)]
    base = live_server.url
    rng = random.Random(31)
    contexts = [
        browser.new_context(viewport=PHONE, is_mobile=True, locale=language)
        for language in ("it", "it", "it", "it", "en")
    ]
    referee, ns, ns_second, ew, reader = contexts
    walks: list[Walk] = []
    audited: set[str] = set()

    def look(walk: Walk, name: str) -> None:
        """The walk's checks of what the page shows now; axe on the first of its kind."""
        walk.page.wait_for_load_state()
        walk.check(name, axe, audit=name not in audited)
        audited.add(name)
        if "/it/" in walk.page.url:  # Italian lines are NS and EO (docs/glossary/it.md)
            words = walk.page.locator("body").inner_text()
            assert not re.search(r"\bEW\b", words), f"{name}: EW in Italian: {words}"

    try:
        desk = referee.new_page()
        desk_walk = Walk(desk, base, "it", "390")
        walks.append(desk_walk)
        desk.goto(f"{base}{localised('login', 'it')}?next={localised('home', 'it')}")
        desk.fill("#id_username", "referee")
        desk.fill("#id_password", PASSWORD)
        go(desk, "main form button[type=submit]")
        desk.goto(base + localised("event-create", "it", club.slug))
        look(desk_walk, "event-new")
        desk.fill("#id_name", "Torneo del sabato")
        desk.fill("#id_planned_rounds", "3")
        desk.select_option("#id_hands_per_turn", str(HANDS))
        go(desk, "#event-create-submit")
        event = Event.objects.get(club=club)
        desk_url = desk.url
        for n in range(PAIRS):
            desk.select_option("#id_player_a", str(players[2 * n].pk))
            desk.select_option("#id_player_b", str(players[2 * n + 1].pk))
            go(desk, "#pair-add-submit")
        assert desk.locator("#pairs tbody tr").count() == PAIRS
        look(desk_walk, "desk-entries")

        phones = {"ns": ns.new_page(), "ns2": ns_second.new_page(), "ew": ew.new_page()}
        phone_walks = {k: Walk(p, base, "it", "390") for k, p in phones.items()}
        walks.extend(phone_walks.values())
        turns: list[Turn] = []

        # Turn 1, by entry order; the day's table cards printed once.
        seat(desk, "first", HANDS, first_order="entry")
        turn = turn_played(event, 1)
        turns.append(turn)
        assert not turn.rest
        assert desk.request.get(base + desk.locator("#day-cards").get_attribute("href")).ok
        urls = day_urls(base, event)
        assert len(urls) == PAIRS // 2
        # The late pair, while turn 1 is played: the desk says the Mitchell cannot go on.
        desk.select_option("#id_player_a", str(players[-2].pk))
        desk.select_option("#id_player_b", str(players[-1].pk))
        go(desk, "#pair-add-submit")
        warning = desk.locator("#mitchell-warning").inner_text()
        assert "11" in warning and "2" in warning, warning
        assert event.pairs.get(number=LATE).late
        look(desk_walk, "desk-late-entry")

        # It plays from the next turn: no result, no bye in turn 1 (docs/referees.md).
        assert LATE not in {p for t in turn.tables.values() for p in t}
        # Table 1: two NS phones and the EW phone open the day's table card.
        first = [(5 * rng.randint(-20, 200), 5 * rng.randint(-20, 200)) for _ in range(HANDS)]
        turn.hands[1] = first
        open_line(phones["ew"], urls[1], "EW")
        marker = phones["ew"].evaluate("() => (window.stayed = true)")  # gone on a reload
        open_line(phones["ns2"], urls[1], "NS")
        type_hand(phones["ns2"], (400, 200))  # the second NS phone is typing hand 1 too
        open_line(phones["ns"], urls[1], "NS")
        look(phone_walks["ns"], "table-card-entry")
        type_hand(phones["ns"], first[0])
        phones["ns"].locator("#save-hand").dblclick()
        phones["ns"].locator("#card-hands #hand-1").wait_for()
        phones["ew"].locator("#card-hands #hand-1").wait_for(timeout=FOLLOW_MS)
        # The phone that entered is bound to its line: it cannot turn EW and confirm.
        assert phones["ns"].locator('button[name="line"][value=""]').count() == 0
        game = event.rounds.get(number=1).tables.get(number=1).game
        assert BurracoHand.objects.filter(game=game).count() == 1
        # The stale phone: refused, told what hand 1 holds, nothing stored.
        go(phones["ns2"], "#save-hand")
        # The refusal answers 409, which Chromium reports on the console: expected here.
        walk = phone_walks["ns2"]
        walk.problems = [p for p in walk.problems if "409 (Conflict)" not in p]
        problems = phones["ns2"].locator("#server-problems").inner_text()
        assert f"{first[0][0]}–{first[0][1]}" in problems, problems
        assert BurracoHand.objects.filter(game=game).count() == 1
        assert phones["ns2"].locator("#card-hands #hand-1").count() == 1
        look(phone_walks["ns2"], "table-card-refused")
        enter_hand(phones["ns"], 2, first[1])
        phones["ew"].locator("#confirm-card").wait_for(timeout=FOLLOW_MS)
        # The refused phone, left open where the refusal put it, follows the card too.
        phones["ns2"].locator("#card-hands #hand-2").wait_for(timeout=FOLLOW_MS)
        assert phones["ew"].evaluate("() => window.stayed") is marker is True
        look(phone_walks["ew"], "table-card-confirm")
        go(phones["ew"], "#confirm-card")
        phones["ns"].locator("#card-done").wait_for(timeout=FOLLOW_MS)
        look(phone_walks["ns"], "table-card-done")

        def play_turn(number: int, turn: Turn) -> None:
            for t in sorted(turn.tables):
                if t in turn.hands:
                    continue
                hands = [
                    (5 * rng.randint(-20, 200), 5 * rng.randint(-20, 200)) for _ in range(HANDS)
                ]
                turn.hands[t] = hands
                if (number, t) == DISPUTED:
                    open_line(phones["ns"], urls[t], "NS")
                    for h, mp in enumerate(hands, 1):
                        enter_hand(phones["ns"], h, mp)
                    open_line(phones["ew"], urls[t], "EW")
                    phones["ew"].fill("#note", "smazzata 2: 100 punti in meno")
                    go(phones["ew"], "#dispute-card")
                    assert phones["ew"].locator("#card-disputed").count() == 1
                    look(phone_walks["ew"], "table-card-disputed")
                    phones["ns"].locator("#card-disputed").wait_for(timeout=FOLLOW_MS)
                    # A phone left open on the disputed card, to see the correction.
                    phones["ns2"].goto(urls[t])
                    assert phones["ns2"].locator("#card-disputed").count() == 1
                elif (number, t) == SHORT:
                    open_line(phones["ns"], urls[t], "NS")
                    enter_hand(phones["ns"], 1, hands[0])
                    turn.hands[t] = hands[:1]
                else:
                    play(phones["ns"], phones["ew"], urls[t], hands)

        play_turn(1, turn)
        desk.goto(desk_url)
        assert desk.locator("#mitchell-warning").count() == 1  # said again above the form
        assert (
            not event.rounds.get(number=1)
            .tables.exclude(game__card__status=ScoreCard.Status.CONFIRMED)
            .exists()
        )

        # Turn 2: the Mitchell at step 2 seats the odd field of 11 (a bye).
        seat(desk, "mitchell", HANDS, step="2")
        assert day_urls(base, event) == urls  # one QR per table for the whole day
        # The EW phone, left open on its turn-1 card, says where its pair plays now.
        phones["ew"].locator("#newer-turn").wait_for(timeout=FOLLOW_MS)
        turn = turn_played(event, 2)
        turns.append(turn)
        assert len(turn.rest) == 1 and desk.locator("#byes").count() == 1
        urls = day_urls(base, event)
        play_turn(2, turn)
        # The dispute: the desk points at it, the referee rewrites hand 2 with a reason.
        desk.goto(desk_url)
        assert desk.locator("#disputed a").count() == 1
        look(desk_walk, "desk-disputed")
        go(desk, "#disputed a")
        look(desk_walk, "desk-correct")
        desk_correct = desk.url.removeprefix(base).removeprefix("/it")
        fixed = (turn.hands[DISPUTED[1]][1][0] - 100, turn.hands[DISPUTED[1]][1][1])
        desk.fill('input[name="h2-NS"]', str(fixed[0]))
        desk.fill("#id_reason", "smazzata 2 contata male")
        go(desk, "#correct-submit")
        turn.hands[DISPUTED[1]][1] = fixed
        phones["ns2"].locator("#card-done").wait_for(timeout=FOLLOW_MS)
        assert str(fixed[0]) in phones["ns2"].locator("#card-hands #hand-2").inner_text()
        card = event.rounds.get(number=2).tables.get(number=DISPUTED[1]).game.card
        assert card.status == ScoreCard.Status.CONFIRMED
        assert "smazzata 2 contata male" in desk.locator("#history").inner_text()

        # Pair 4 withdraws after turn 2: a confirmation first, never one stray click.
        row = desk.locator(f"#pair-{WITHDRAWN}")
        row.locator("details.withdraw summary").click()
        look(desk_walk, "desk-withdraw")
        for _again in range(2):  # withdrawn, undone, withdrawn again
            with desk.expect_navigation():
                row.locator("details.withdraw button[type=submit]").click()
            assert not event.pairs.get(number=WITHDRAWN).active
            if not _again:
                go(desk, f'#pair-{WITHDRAWN} input[value="reinstate"] + button')
                assert event.pairs.get(number=WITHDRAWN).active
                row.locator("details.withdraw summary").click()

        # Turn 3 by Danese, no rematch: ten pairs, no bye.
        seat(desk, "danese", HANDS, variant="no_rematch")
        turn = turn_played(event, 3)
        turns.append(turn)
        assert not turn.rest and WITHDRAWN not in {p for t in turn.tables.values() for p in t}
        met = [set(t) for done in turns[:-1] for t in done.tables.values()]
        assert not any(set(t) in met for t in turn.tables.values())
        urls = day_urls(base, event)
        play_turn(3, turn)
        # A penalty for an infraction of turn 1, given now.
        desk.goto(desk_url)
        desk.select_option("#id_pair", str(event.pairs.get(number=PENALTY.pair).pk))
        desk.select_option("#id_turn", str(PENALTY.turn))
        desk.fill("#id_vp", str(PENALTY.vp))
        desk.fill("#id_mp", str(PENALTY.mp))
        desk.fill("#id_reason", "gioco lento")
        go(desk, "#penalty-submit")
        assert "gioco lento" in desk.locator("#penalties").inner_text()
        penalised = PairTurnResult.objects.get(
            round__event=event, round__number=PENALTY.turn, pair__number=PENALTY.pair
        )
        assert (penalised.penalty_vp, penalised.penalty_mp) == (PENALTY.vp, PENALTY.mp)
        # The short card: time ran out, the referee confirms it with the hand played.
        go(desk, f"#desk-table-{SHORT[1]} a")
        desk.check("#id_time_out")
        desk.fill("#id_reason", "tempo scaduto")
        go(desk, "#correct-submit")
        card = event.rounds.get(number=3).tables.get(number=SHORT[1]).game.card
        assert card.status == ScoreCard.Status.CONFIRMED
        assert desk.locator("#turn-seat-form").count() == 0  # nothing past the last turn
        look(desk_walk, "desk-last-turn")

        # Close, while another tab of the desk still shows the penalty and correction forms.
        stale = referee.new_page()
        stale.goto(desk_url)
        stale_correct = referee.new_page()
        stale_correct.goto(desk_url)
        go(stale_correct, "#desk-table-1 a")
        waiting = phones["ew"].locator("#card-done").inner_text()  # the last card confirmed
        desk.check("#close-confirm")
        go(desk, "#close-tournament-submit")
        # The phone left open on it no longer says to wait for the next turn.
        phones["ew"].wait_for_function(
            "w => document.querySelector('#card-done').textContent !== w",
            arg=waiting,
            timeout=FOLLOW_MS,
        )
        event.refresh_from_db()
        assert event.status == Event.Status.CLOSED
        assert desk.locator("#reopen-tournament").count() == 1
        assert desk.locator("#penalty-form").count() == 0  # nothing to change once closed
        look(desk_walk, "desk-closed")
        # Every desk action in its history: 3 seatings, the late entry, 2 withdrawals and
        # their undoing, the correction, the short card, the penalty, the close.
        assert desk.locator("#history li").count() >= 10
        closed_final(event, stale, stale_correct)

        go(desk, "#public-ranking")
        look(desk_walk, "public-ranking")
        expected = expected_ranking(event, turns, HANDS, PENALTY, range(1, LATE + 1))
        shown = shown_ranking(desk)
        assert shown == expected, f"shown {shown}\nexpected {expected}"
        assert desk.locator(f"#pair-row-{WITHDRAWN} .mark.withdrawn").count() == 1
        for pair in turns[2].tables[SHORT[1]]:
            assert desk.locator(f"#pair-row-{pair} .mark.short").count() == 1
        assert desk.locator(".mark.short").count() == 2
        assert desk.locator(f"#pair-row-{PENALTY.pair} .penalty").count() == 1

        # The withdrawn pair's own page and the room's screen, in Italian.
        pair_page = localised("scoring:burraco-entry", "it", event.pk, WITHDRAWN)
        desk.goto(base + pair_page)
        assert desk.locator(".mark.withdrawn").count() == 1
        look(desk_walk, "pair-page")
        desk.goto(base + localised("scoring:burraco-screen", "it", event.pk))
        look(desk_walk, "room-screen")

        # The key pages read again in English at 390 px: the referee's and the public's.
        english = Walk(reader.new_page(), base, "en", "390")
        walks.append(english)
        page = english.page
        page.goto(f"{base}{localised('login', 'en')}?next={localised('home', 'en')}")
        page.fill("#id_username", "referee")
        page.fill("#id_password", PASSWORD)
        go(page, "main form button[type=submit]")
        for name, path in (
            ("en-desk", localised("burraco-desk", "en", club.slug, event.pk)),
            ("en-correct", desk_correct),
            ("en-public-ranking", localised("scoring:event", "en", event.pk)),
            ("en-pair-page", localised("scoring:burraco-entry", "en", event.pk, WITHDRAWN)),
            ("en-room-screen", localised("scoring:burraco-screen", "en", event.pk)),
            ("table-en-card", day_urls("", event, "en")[1]),
        ):
            english.open(name, path, axe)
            assert page.locator("html").get_attribute("lang") == "en", name
            if name == "en-public-ranking":
                assert shown_ranking(page) == shown
                csv_url = base + page.locator("#ranking-csv").get_attribute("href")
                notes = csv_notes(page.request.get(csv_url).text())
                short = set(turns[2].tables[SHORT[1]])
                assert {pair for pair, note in notes.items() if note} == {WITHDRAWN, *short}
                assert list(notes) == [pair for _place, pair, _vp, _mp in shown]
        print(f"Burraco Saturday of 11 pairs, 3 turns, in {time.monotonic() - started:.1f} s")
    finally:
        for context in contexts:
            context.close()
    problems = [p for walk in walks for p in walk.problems]
    assert not problems, "\n".join(problems)

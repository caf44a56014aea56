"""The Burraco Saturday's tools (tests/browser/test_burraco_saturday.py): phones at a
table found by stable ids and names only (the score card's layout and words change), the
desk's steps, and the ranking the test works out itself from the hands it entered."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from games.models import Event
from scoring.engine import burraco
from scoring.engine.burraco.presets import vp_of
from scoring.engine.burraco.ranking import TurnScore, bye_score, rank_pairs

PHONE = {"width": 390, "height": 844}
# How long a phone left open may take to show a change (the issue: within two seconds;
# the page asks every second).
FOLLOW_MS = 2_500


def go(page, selector: str) -> None:
    with page.expect_navigation():
        page.locator(selector).click()


def open_line(phone, url: str, line: str) -> None:
    """The table's card (a day's QR address redirects to it), as `line`."""
    phone.goto(url)
    assert "/card/" in phone.url, phone.url
    go(phone, f'#line-choice button[value="{line}"]')
    phone.locator("#my-line").wait_for()


def type_hand(phone, mp: tuple[int, int]) -> None:
    phone.check('#hand-entry input[name="mode"][value="mp"]')
    phone.fill("#NS-mp", str(mp[0]))
    phone.fill("#EW-mp", str(mp[1]))


def enter_hand(phone, number: int, mp: tuple[int, int]) -> None:
    """Hand `number` by each line's MP: the form names the hand it enters."""
    assert phone.locator('#hand-entry input[name="number"]').get_attribute("value") == str(number)
    type_hand(phone, mp)
    go(phone, "#save-hand")
    phone.locator(f"#card-hands #hand-{number}").wait_for()


def play(ns, ew, url: str, hands: list[tuple[int, int]]) -> None:
    """NS's phone enters the hands, EW's phone (another session) confirms the card."""
    open_line(ns, url, "NS")
    for number, mp in enumerate(hands, 1):
        enter_hand(ns, number, mp)
    assert ns.locator("#wait-confirm").count() == 1
    assert ns.locator("#confirm-card").count() == 0  # never the entering pair
    open_line(ew, url, "EW")
    assert ew.locator("#hand-entry").count() == 0
    go(ew, "#confirm-card")
    assert ew.locator("#card-done").count() == 1


def seat(desk, movement: str, hands: int, **fields: str) -> None:
    """Seat the next turn from the desk's form (`fields`: its other fields by id)."""
    desk.select_option("#id_movement", movement)
    for name, value in fields.items():
        selector = f"#id_{name}"
        if desk.locator(selector).evaluate("e => e.tagName") == "SELECT":
            desk.select_option(selector, value)
        else:
            desk.fill(selector, value)
    desk.select_option("#id_hands_per_turn", str(hands))
    go(desk, "#turn-seat-submit")
    assert desk.locator("#turn-seat-form .errorlist").count() == 0, desk.content()


@dataclass
class Turn:
    """A turn as played: {table: (NS pair, EW pair)}, {table: hands as MP}, the byes."""

    tables: dict[int, tuple[int, int]]
    rest: set[int]
    hands: dict[int, list[tuple[int, int]]] = field(default_factory=dict)


@dataclass
class Penalty:
    turn: int
    pair: int
    vp: Decimal
    mp: int


def expected_ranking(
    event: Event, turns: list[Turn], hands: int, penalty: Penalty, entries: range
) -> list[tuple[int, int, Decimal, int]]:
    """(place, pair, VP, MP difference) best first: the engine's ranking of the results
    worked out here from the hands entered by the VP table of the turn's planned hands (a
    short card's too), the bye score and the penalty."""
    ruleset = burraco.ruleset_from_json(event.ruleset)
    table = ruleset.vp_tables[hands]
    bye_vp, bye_mp = bye_score(ruleset, hands)
    scores = []
    for number, turn in enumerate(turns, 1):
        for t, (ns, ew) in turn.tables.items():
            ns_mp = sum(h[0] for h in turn.hands[t])
            ew_mp = sum(h[1] for h in turn.hands[t])
            winner_vp = vp_of(table, abs(ns_mp - ew_mp))
            ns_vp = winner_vp if ns_mp >= ew_mp else 20 - winner_vp
            for pair, opp, vp, mine, theirs in (
                (ns, ew, ns_vp, ns_mp, ew_mp),
                (ew, ns, 20 - ns_vp, ew_mp, ns_mp),
            ):
                taken = (
                    (penalty.vp, penalty.mp)
                    if (number, pair) == (penalty.turn, penalty.pair)
                    else (0, 0)
                )
                scores.append(TurnScore(number, pair, opp, Decimal(vp), mine, theirs, *taken))
        for pair in turn.rest:
            scores.append(TurnScore(number, pair, None, bye_vp, bye_mp, 0))
    rows = rank_pairs(scores, event.ranking["tie_breaks"], None, entries)
    return [(r.place, r.pair, r.vp, r.mp_difference) for r in rows]


def shown_ranking(page) -> list[tuple[int, int, Decimal, int]]:
    """The public page's ranking: (place, pair, VP, MP difference) by row."""
    shown = []
    for row in page.locator("#pair-ranking tbody tr").all():
        cells = row.locator("td").all_inner_texts()
        shown.append(
            (
                int(cells[0].rstrip("=")),
                int(cells[1].split(".")[0]),
                Decimal(cells[2].replace(",", ".")),
                int(cells[3].replace("−", "-")),
            )
        )
    return shown

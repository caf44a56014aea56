"""Rejections of one Burraco hand: its shape, its numbers, its close, melds, the two decks."""

from __future__ import annotations

from typing import Any

from tests.scoring.engine.burraco.changed import INTERNATIONAL, with_hand, with_value
from tests.scoring.engine.burraco.records import hand, line, record

HAND_CASES: list[tuple[str, dict[str, Any], list[tuple[Any, ...]]]] = [
    # one hand: its shape
    (
        "hand not an object",
        record(["NS closed"]),
        [(1, "hand", "invalid_type", {"field": "hand 1", "expected": "an object"})],
    ),
    (
        "closed missing",
        with_value(["hands", 0, "closed"], ...),
        [(1, "closed", "missing_field", {"field": "closed"})],
    ),
    (
        "closed by north",
        with_value(["hands", 0, "closed"], "North"),
        [(1, "closed", "invalid_type", {"field": "closed", "expected": "NS, EW or null"})],
    ),
    (
        "closed a list",
        with_value(["hands", 0, "closed"], ["NS"]),
        [(1, "closed", "invalid_type", {"field": "closed", "expected": "NS, EW or null"})],
    ),
    (
        "line missing",
        with_value(["hands", 0, "EW"], ...),
        [(1, "EW", "missing_field", {"field": "EW"})],
    ),
    (
        "line not an object",
        with_value(["hands", 0, "EW"], 50),
        [(1, "EW", "invalid_type", {"field": "EW", "expected": "an object"})],
    ),
    (
        "melded missing",
        with_value(["hands", 0, "EW", "melded"], ...),
        [(1, "EW.melded", "missing_field", {"field": "EW.melded"})],
    ),
    (
        "in hand missing",
        with_value(["hands", 0, "NS", "in_hand"], ...),
        [(1, "NS.in_hand", "missing_field", {"field": "NS.in_hand"})],
    ),
    (
        "melded as text",
        with_value(["hands", 0, "EW", "melded"], "235"),
        [
            (
                1,
                "EW.melded",
                "invalid_type",
                {"field": "EW.melded", "expected": "card points or cards"},
            )
        ],
    ),
    (
        "in hand a fraction",
        with_value(["hands", 0, "EW", "in_hand"], 85.0),
        [
            (
                1,
                "EW.in_hand",
                "invalid_type",
                {"field": "EW.in_hand", "expected": "card points or cards"},
            )
        ],
    ),
    (
        "penalty a list",
        with_value(["hands", 0, "EW", "penalty"], [10]),
        [
            (
                1,
                "EW.penalty",
                "invalid_type",
                {"field": "EW.penalty", "expected": "card points or cards"},
            )
        ],
    ),
    (
        "pozzetto as text",
        with_value(["hands", 0, "NS", "pozzetto"], "yes"),
        [(1, "NS.pozzetto", "invalid_type", {"field": "NS.pozzetto", "expected": "true or false"})],
    ),
    (
        "unknown field of a line",
        with_value(["hands", 0, "NS", "clen"], 1),
        [
            (
                1,
                "NS.clen",
                "unknown_hand_field",
                {"line": "NS", "key": "clen", "kinds": "clean, semi, dirty"},
            )
        ],
    ),
    # one hand: its numbers
    (
        "negative points",
        with_value(["hands", 0, "EW", "in_hand"], -5),
        [(1, "EW.in_hand", "invalid_points", {"line": "EW", "item": "in_hand", "value": -5})],
    ),
    (
        "points not a multiple of 5",
        with_value(["hands", 0, "EW", "penalty"], 12),
        [(1, "EW.penalty", "points_step", {"line": "EW", "item": "penalty", "value": 12})],
    ),
    (
        "unknown card kind",
        with_value(["hands", 0, "EW", "in_hand"], {"kings": 2}),
        [(1, "EW.in_hand.kings", "unknown_card_kind", {"card_kind": "kings"})],
    ),
    (
        "negative card count",
        with_value(["hands", 0, "EW", "in_hand"], {"aces": -1}),
        [
            (
                1,
                "EW.in_hand.aces",
                "invalid_card_count",
                {"line": "EW", "item": "in_hand", "card_kind": "aces", "value": -1},
            )
        ],
    ),
    (
        "card count a fraction",
        with_value(["hands", 0, "EW", "in_hand"], {"low": 1.5}),
        [
            (
                1,
                "EW.in_hand.low",
                "invalid_card_count",
                {"line": "EW", "item": "in_hand", "card_kind": "low", "value": "1.5"},
            )
        ],
    ),
    (
        "negative burraco count",
        with_value(["hands", 0, "EW", "dirty"], -1),
        [(1, "EW.dirty", "invalid_burraco_count", {"line": "EW", "kind": "dirty", "value": -1})],
    ),
    (
        "burraco count true",
        with_value(["hands", 0, "EW", "clean"], True),
        [
            (
                1,
                "EW.clean",
                "invalid_burraco_count",
                {"line": "EW", "kind": "clean", "value": "True"},
            )
        ],
    ),
    (
        "semi-clean under international rules",
        with_hand(hand(None, line(200, 0, semi=1, pozzetto=True), line(0, 0)), INTERNATIONAL),
        [(1, "NS.semi", "semi_not_allowed", {"line": "NS", "count": 1})],
    ),
    (
        "semi count as text under international rules",
        with_hand(hand(None, line(200, 0, semi="0"), line(0, 0)), INTERNATIONAL),
        [(1, "NS.semi", "invalid_burraco_count", {"line": "NS", "kind": "semi", "value": "'0'"})],
    ),
    # one hand: its close
    (
        "closed without the pozzetto",
        with_hand(hand("EW", line(0, 0), line(200, 0, clean=1))),
        [(1, "closed", "close_without_pozzetto", {"line": "EW"})],
    ),
    (
        "closed without a burraco",
        with_hand(hand("NS", line(200, 0, pozzetto=True), line(0, 0))),
        [(1, "closed", "close_without_burraco", {"line": "NS"})],
    ),
    (
        "closed with a dirty burraco only, international",
        with_hand(hand("NS", line(200, 0, dirty=1, pozzetto=True), line(0, 0)), INTERNATIONAL),
        [(1, "closed", "close_without_clean", {"line": "NS"})],
    ),
    # one hand: melds against burracos
    (
        "melded too little for two clean burracos",
        with_hand(hand(None, line(65, 0, clean=2), line(0, 0))),
        [(1, "NS.melded", "melded_below_burracos", {"line": "NS", "melded": 65, "minimum": 70})],
    ),
    (
        "melded too little for a dirty one",
        with_hand(hand(None, line(0, 0), line(45, 0, dirty=1))),
        [(1, "EW.melded", "melded_below_burracos", {"line": "EW", "melded": 45, "minimum": 50})],
    ),
    (
        "melded too little for a semi-clean one",
        with_hand(hand(None, line(0, 0), line(50, 0, semi=1))),
        [(1, "EW.melded", "melded_below_burracos", {"line": "EW", "melded": 50, "minimum": 55})],
    ),
    (
        "six cards for a burraco",
        with_hand(hand(None, line({"aces": 6}, 0, clean=1), line(0, 0))),
        [(1, "NS.melded", "too_few_melded_cards", {"line": "NS", "cards": 6, "burracos": 1})],
    ),
    (
        "no wild card for a dirty burraco",
        with_hand(hand(None, line({"high": 7}, 0, dirty=1), line(0, 0))),
        [(1, "NS.melded", "too_few_wild_cards", {"line": "NS", "wild": 0, "burracos": 1})],
    ),
    # one hand: the two decks
    (
        "more points than all the cards",
        with_hand(hand(None, line(1000, 0, pozzetto=True), line(50, 35))),
        [(1, "hand", "cards_over_total", {"total": 1085, "limit": 1080})],
    ),
    (
        "five jokers",
        with_hand(hand(None, line({"jokers": 3}, 0), line(0, {"jokers": 2}))),
        [(1, "hand", "card_kind_over_total", {"count": 5, "card_kind": "jokers", "limit": 4})],
    ),
    (
        "nine aces, table and hand",
        with_hand(hand(None, line({"aces": 5}, {"aces": 2}), line(0, 0, penalty={"aces": 2}))),
        [(1, "hand", "card_kind_over_total", {"count": 9, "card_kind": "aces", "limit": 8})],
    ),
]

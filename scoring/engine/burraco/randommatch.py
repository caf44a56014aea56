"""Random valid Burraco hands and records, for property tests, benchmarks and demo data.

Each hand is dealt from the 108 cards counted by kind: what a line melds, holds and is
penalised for comes out of one pool, so the deck limits and the 1,080 points always hold;
every burraco gets its 7 cards (8 for a semi-clean one, which has 7 naturals) and its wild
card, and only a line that took its pozzetto and has a burraco (a clean one where the rules
say so) may close.
"""

from __future__ import annotations

import random
from typing import Any

from .hand import CARD_VALUES, DECK_COUNTS, LINES
from .presets import PRESETS, Ruleset, ruleset_to_json

DEFAULT_PAIRS = {"NS": ["Anna", "Carla"], "EW": ["Bruno", "Dario"]}
_NATURAL = ("aces", "high", "low")
_WILD = ("jokers", "twos")


def _draw(
    rng: random.Random, pool: dict[str, int], kinds: tuple[str, ...], n: int
) -> dict[str, int]:
    """Take n cards of the given kinds out of the pool, each card at random among those left."""
    taken: dict[str, int] = {}
    for _ in range(n):
        left = [k for k in kinds if pool[k]]
        if not left:
            break
        weights = [pool[k] for k in left]
        kind = rng.choices(left, weights)[0]
        pool[kind] -= 1
        taken[kind] = taken.get(kind, 0) + 1
    return taken


def _add(a: dict[str, int], b: dict[str, int]) -> dict[str, int]:
    out = dict(a)
    for kind, n in b.items():
        out[kind] = out.get(kind, 0) + n
    return out


def _points(cards: dict[str, int]) -> int:
    return sum(CARD_VALUES[k] * n for k, n in cards.items())


def _spell(rng: random.Random, cards: dict[str, int], by_kind: bool) -> Any:
    return dict(cards) if by_kind else _points(cards)


def random_hand(
    rng: random.Random, ruleset: Ruleset | None = None, by_kind: bool | None = None
) -> dict[str, Any]:
    """One valid hand record; `by_kind`: cards by kind (True), points (False), mixed (None)."""
    ruleset = ruleset or PRESETS["fibur"]
    pool = dict(DECK_COUNTS)
    extra = [k for k in ruleset.kinds if k not in ("clean", "semi", "dirty")]
    lines: dict[str, dict[str, Any]] = {}
    can_close = []
    for line in LINES:
        counts = {
            "clean": rng.choice((0, 0, 1, 1, 2)),
            "dirty": rng.choice((0, 0, 1, 1, 2)),
            "semi": rng.choice((0, 0, 0, 1)) if ruleset.semi_clean else 0,
        }
        for kind in extra:
            counts[kind] = rng.choice((0, 0, 0, 1))
        wild = counts["dirty"] + counts["semi"]
        naturals = 7 * (counts["clean"] + sum(counts[k] for k in extra))
        naturals += 6 * counts["dirty"] + 7 * counts["semi"]
        melded = _add(
            _draw(rng, pool, _WILD, wild),
            _draw(rng, pool, _NATURAL, naturals),
        )
        melded = _add(melded, _draw(rng, pool, tuple(DECK_COUNTS), rng.randrange(0, 16)))
        entry: dict[str, Any] = {"melded": melded, "pozzetto": rng.random() < 0.8}
        entry.update({k: n for k, n in counts.items() if n})
        lines[line] = entry
        burracos = sum(counts.values())
        if entry["pozzetto"] and burracos and (counts["clean"] or not ruleset.close_needs_clean):
            can_close.append(line)
    closed = rng.choice(can_close) if can_close and rng.random() < 0.9 else None
    for line in LINES:
        entry = lines[line]
        in_hand = _draw(
            rng, pool, tuple(DECK_COUNTS), rng.randrange(0 if closed == line else 1, 14)
        )
        penalty = _draw(rng, pool, tuple(DECK_COUNTS), 1) if rng.random() < 0.05 else {}
        for item, cards in (
            ("melded", entry["melded"]),
            ("in_hand", in_hand),
            ("penalty", penalty),
        ):
            if item == "penalty" and not cards:
                continue
            spelled = by_kind if by_kind is not None else rng.random() < 0.5
            entry[item] = _spell(rng, cards, spelled)
    return {"closed": closed, "NS": lines["NS"], "EW": lines["EW"]}


def random_turn(
    rng: random.Random,
    preset: str | Ruleset = "fibur",
    hands: int = 3,
    played: int | None = None,
    by_kind: bool | None = None,
) -> dict[str, Any]:
    """A valid tournament turn record of `hands` hands, `played` of them in (all by default)."""
    ruleset = PRESETS[preset] if isinstance(preset, str) else preset
    count = hands if played is None else played
    return {
        "game": "burraco",
        "ruleset": preset if isinstance(preset, str) else ruleset_to_json(ruleset),
        "pairs": {line: list(names) for line, names in DEFAULT_PAIRS.items()},
        "hands_per_turn": hands,
        "hands": [random_hand(rng, ruleset, by_kind) for _ in range(count)],
    }

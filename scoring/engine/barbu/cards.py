"""Cards as the record spells them: ranks, suits and a lookup from any accepted spelling."""

from __future__ import annotations

RANKS = ("A", "K", "Q", "J", "T", "9", "8", "7", "6", "5", "4", "3", "2")
SUITS = ("S", "H", "D", "C")
TRUMPS = ("S", "H", "D", "C", "NT")

HEARTS = tuple(rank + "H" for rank in RANKS)
QUEENS = tuple("Q" + suit for suit in SUITS)
# Position of a card in the canonical sort order (suit by suit, ace high first).
CARD_ORDER = {rank + suit: i for i, (suit, rank) in enumerate((s, r) for s in SUITS for r in RANKS)}


def _spellings() -> dict[str, str]:
    table: dict[str, str] = {}
    for suit in SUITS:
        for rank in RANKS:
            card = rank + suit
            table[card] = card
            table[card.lower()] = card
            table[rank.lower() + suit] = card
            table[rank + suit.lower()] = card
        for ten in ("10" + suit, "10" + suit.lower()):
            table[ten] = "T" + suit
    return table


# Any accepted spelling ("th", "10H", "Th"...) -> canonical "TH". Built once, so
# parsing a card is one dict lookup.
CARD_SPELLINGS: dict[str, str] = _spellings()


def parse_card(text: object) -> str | None:
    """The canonical card for a spelling, or None when it is not a card."""
    if type(text) is not str:
        return None
    card = CARD_SPELLINGS.get(text)
    if card is None:
        card = CARD_SPELLINGS.get(text.strip().upper())
    return card

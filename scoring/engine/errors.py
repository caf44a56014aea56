"""Problems a player can fix in a game record: stable codes, params and English messages."""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field as dataclass_field
from typing import Any

# One English template per code; params fill the {placeholders}. The codes are
# stable: the site translates by code, so never rename one.
MESSAGES: dict[str, str] = {
    # shape of the record
    "invalid_type": "{field} should be {expected}",
    "missing_field": "{field} is missing",
    "invalid_json": "the game record is not valid JSON: {detail}",
    "file_not_found": "cannot read the file {path}: {detail}",
    "usage": "{detail}; usage: python -m scoring score FILE (or - for standard input)",
    # rule set
    "unknown_preset": "there is no rule set called {preset}; choose one of {choices}",
    "unknown_option": "there is no rule option called {option}",
    "invalid_option": "the rule option {option} cannot be {value}: {expected}",
    "mandatory_doubles_impossible": (
        "mandatory doubles need at least {required} contracts, because each player must "
        "double every dealer in {required} of that dealer's deals; these rules have only "
        "{count}: add contracts or turn mandatory doubles off"
    ),
    # players
    "wrong_player_count": "a game needs exactly 4 players, not {count}",
    "empty_player_name": "player {position} has no name",
    "duplicate_player": "{name} is listed twice among the players",
    # deals
    "too_many_deals": "this rule set plays {limit} deals, but the game has {count}",
    "unknown_player": "{name} is not one of this game's players",
    "wrong_dealer": "deal {number} is dealt by {expected}, not {dealer}",
    "unknown_contract": "there is no contract called {contract}",
    "contract_not_in_ruleset": "{contract_name} is not played under these rules",
    "contract_repeated": "{dealer} already chose {contract_name} in deal {first_deal}",
    "unknown_trump": "{trump} is not a trump suit; use S, H, D, C or NT",
    "no_trump_not_allowed": "these rules do not allow no-trump; the dealer must name a suit",
    # results
    "unknown_card": "{card} is not a card",
    "not_a_heart": "{card} is not a heart",
    "not_a_queen": "{card} is not a queen",
    "card_repeated": "{card} is given to more than one player",
    "cards_missing": "nobody took {cards}",
    "tricks_range": "{player} cannot take {value} tricks; a player takes 0 to 13",
    "tricks_total": "tricks add up to {total}, not 13",
    "domino_order_length": "the domino order needs 3 or 4 names, not {count}",
    "domino_order_repeated": "{name} appears more than once in the domino order",
    # doubles
    "double_self": "{player} cannot double themselves",
    "double_repeated": "{by} doubled {against} more than once",
    "dealer_doubles": "{dealer} is the dealer and may not double (only redouble)",
    "positive_double_not_dealer": (
        "in {contract_name} only the dealer may be doubled, but {by} doubled {against}"
    ),
    "double_shape": (
        "{by} may double one player, the two other non-dealers or the whole table, not {against}"
    ),
    "mandatory_doubles_missing": (
        "{by} doubled {dealer} in {count} of {dealer}'s deals; the rules require {required}"
    ),
}


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with a game record, in the FORMAT.md error shape."""

    deal: int | None
    field: str
    code: str
    params: dict[str, Any] = dataclass_field(default_factory=dict)
    message: str = ""

    @classmethod
    def make(cls, deal: int | None, field_: str, code: str, **params: Any) -> Problem:
        return cls(deal, field_, code, params, MESSAGES[code].format(**params))

    def as_dict(self) -> dict[str, Any]:
        return {
            "deal": self.deal,
            "field": self.field,
            "code": self.code,
            "params": dict(self.params),
            "message": self.message,
        }


class InvalidGame(Exception):
    """A game record (or rule set) that breaks the rules; .problems lists every reason."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = list(problems)
        super().__init__("; ".join(p.message for p in self.problems) or "invalid game")

    def as_dict(self) -> dict[str, Any]:
        return {"errors": [p.as_dict() for p in self.problems]}

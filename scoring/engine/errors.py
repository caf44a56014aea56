"""Problems a player can fix in a game record: stable codes, params and English messages."""

from __future__ import annotations

import re
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
    # (mandatory_doubles_missing, said at the dealer's last deal only, is retired: a
    # table could enter deals that could never be completed; mandatory_double_now refuses
    # the first deal that leaves a mandatory double impossible, the last deal included.)
    "mandatory_double_now": (
        "{by} must double {dealer} in this deal: otherwise {by} can no longer double "
        "{dealer} the {required} times the rules require ({count} so far)"
    ),
}

# The shape problems (invalid_type, missing_field) of the fields the engine reads, said
# the way a player would, keyed by (code, field_shape(params["field"])[0]). {n} numbers
# an entry of a list from 1; {name} is a player's name. The params keep the path, so the
# site can say the same in its languages (scoring/messages.py FIELD_MESSAGES).
FIELD_MESSAGES: dict[tuple[str, str], str] = {
    # the record
    ("invalid_type", "the game record"): (
        "this is not a game record: it should give the rules, the players and the deals"
    ),
    ("missing_field", "ruleset"): "the game does not say which rules it is played by",
    ("invalid_type", "ruleset"): "the rules should be a preset name, or a preset with options",
    ("missing_field", "ruleset.preset"): "the rules do not say which preset they start from",
    ("invalid_type", "ruleset.options"): "the rule options should give each option its value",
    ("missing_field", "players"): "the game does not list its players",
    ("invalid_type", "players"): "the players should be a list of four names",
    ("invalid_type", "players[]"): "player {n} has no name",
    ("missing_field", "deals"): "the game does not list its deals",
    ("invalid_type", "deals"): "the deals should be a list, in the order they were played",
    # a deal
    ("invalid_type", "deal <n>"): "deal {n} should give its dealer, contract and result",
    ("missing_field", "dealer"): "the deal does not say who dealt",
    ("missing_field", "contract"): "the deal does not say which contract was played",
    ("missing_field", "trump"): "the deal does not say which suit the dealer named as trumps",
    ("missing_field", "result"): "the deal has no result",
    ("invalid_type", "result"): "the result is not written the right way for this contract",
    # doubles
    ("invalid_type", "doubles"): "the doubles should be a list, one entry per double",
    ("invalid_type", "doubles[]"): "double {n} should say who doubled whom",
    ("missing_field", "doubles[].by"): "double {n} does not say who doubled",
    ("missing_field", "doubles[].against"): "double {n} does not say who was doubled",
    ("invalid_type", "doubles[].redoubled"): (
        "double {n} should say whether it was redoubled: true or false"
    ),
    # results
    ("missing_field", "result.king_of_hearts"): (
        "the result does not say who took the king of hearts"
    ),
    ("missing_field", "result.twelfth"): "the result does not say who took the 12th trick",
    ("missing_field", "result.thirteenth"): "the result does not say who took the 13th trick",
    ("missing_field", "result.hearts"): "the result does not say who took the hearts",
    ("missing_field", "result.queens"): "the result does not say who took the queens",
    ("invalid_type", "result.hearts"): (
        "the result should list, player by player, the hearts each one took"
    ),
    ("invalid_type", "result.queens"): (
        "the result should list, player by player, the queens each one took"
    ),
    ("invalid_type", "result.hearts.<name>"): "the hearts {name} took should be a list of cards",
    ("invalid_type", "result.queens.<name>"): "the queens {name} took should be a list of cards",
    ("missing_field", "result.tricks"): (
        "the result does not say how many tricks each player took"
    ),
    ("invalid_type", "result.tricks"): (
        "the result should give, player by player, how many tricks each one took"
    ),
    ("invalid_type", "tricks of <name>"): "the tricks {name} took should be a whole number",
    ("missing_field", "result.order"): (
        "the result does not say in which order the players went out"
    ),
    ("invalid_type", "result.order"): "the domino order should be a list of names, first out first",
}
FIELD_CODES = frozenset(code for code, _shape in FIELD_MESSAGES)
_INDEX = re.compile(r"\[(\d+)\]")
_NAMED = ("result.hearts.", "result.queens.", "tricks of ")


def field_shape(field: str) -> tuple[str, dict[str, Any]]:
    """A field param as a FIELD_MESSAGES shape and its values.

    "doubles[0].by" -> ("doubles[].by", {"n": 1}); "deal 3" -> ("deal <n>", {"n": 3});
    "result.hearts.Anna" -> ("result.hearts.<name>", {"name": "Anna"}).
    """
    for prefix in _NAMED:
        if field.startswith(prefix) and len(field) > len(prefix):
            return prefix + "<name>", {"name": field[len(prefix) :]}
    if field.startswith("deal ") and field[5:].isdigit():
        return "deal <n>", {"n": int(field[5:])}
    numbers = _INDEX.findall(field)
    if len(numbers) == 1:
        return _INDEX.sub("[]", field), {"n": int(numbers[0]) + 1}
    return field, {}


def message_for(code: str, params: dict[str, Any]) -> str:
    """The English message of a problem: its field's words where known, else MESSAGES."""
    field = params.get("field")
    if code in FIELD_CODES and isinstance(field, str):
        shape, values = field_shape(field)
        template = FIELD_MESSAGES.get((code, shape))
        if template is not None:
            return template.format(**values)
    return MESSAGES[code].format(**params)


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
        return cls(deal, field_, code, params, message_for(code, params))

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

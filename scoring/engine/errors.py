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

# Burraco's problems (docs/rules/burraco.md), and the record's "game" key that came with
# it; they join MESSAGES below (tests/burraco checks that each one is exercised).
BURRACO_MESSAGES: dict[str, str] = {
    # any game: the record's "game" key
    "unknown_game": "there is no game called {game}; choose one of {choices}",
    # Burraco (docs/rules/burraco.md): the match
    "hands_per_turn_range": "a tournament turn has 2, 3 or 4 hands, not {value}",
    "no_vp_table": "these rules have no VP table for turns of {hands} hands",
    "unknown_line": "{line} is not a line; the lines are NS and EW",
    "wrong_pair_size": "the {line} pair needs exactly 2 players, not {count}",
    "empty_pair_name": "player {position} of the {line} pair has no name",
    "too_many_hands": "a turn of {limit} hands cannot have {count}",
    "match_over": "the match was over after hand {last}, won by {winner}: no hand may follow",
    # Burraco: rule set
    "semi_bonus_missing": (
        "these rules allow semi-clean burracos but give them no bonus: add semi to the bonus"
    ),
    "vp_table_band": (
        "VP table for {hands} hands, band {band}: it should be a pair [highest difference, VP]"
    ),
    "vp_table_bound": (
        "VP table for {hands} hands, band {band}: its highest difference {bound} should be "
        "a whole multiple of 5, 0 or more"
    ),
    "vp_table_order": (
        "VP table for {hands} hands, band {band}: its highest difference {bound} should be "
        "above the one of the band before ({previous})"
    ),
    "vp_table_vp": (
        "VP table for {hands} hands, band {band}: the winner's VP {vp} should be a whole "
        "number from 10 to 20"
    ),
    "vp_table_vp_order": (
        "VP table for {hands} hands, band {band}: the winner's VP {vp} should not be below "
        "the band before's ({previous})"
    ),
    "vp_table_last_open": (
        "VP table for {hands} hands: the last band should have no highest difference (null), "
        "so that every difference gets its VP"
    ),
    "vp_table_open_early": (
        "VP table for {hands} hands, band {band}: only the last band may have no highest "
        "difference (null)"
    ),
    # Burraco: one hand
    "unknown_hand_field": (
        "{line}: {key} is not part of a line's points; these rules count melded, in_hand, "
        "penalty, pozzetto and the burracos {kinds}"
    ),
    "invalid_points": "{line}: {item} should be card points, a whole number 0 or more, not {value}",
    "points_step": (
        "{line}: {item} ({value}) should be a multiple of 5, as every card is worth 5, 10, 15, "
        "20 or 30"
    ),
    "unknown_card_kind": (
        "{card_kind} is not a kind of card: use jokers, twos, aces, high (K to 8) or low (7 to 3)"
    ),
    "invalid_card_count": (
        "{line}: the number of {card_kind} in {item} should be a whole number, 0 or more, "
        "not {value}"
    ),
    "invalid_burraco_count": (
        "{line}: the number of {kind} burracos should be a whole number, 0 or more, not {value}"
    ),
    "semi_not_allowed": (
        "{line} counts {count} semi-clean burracos, but these rules have none: count them as dirty"
    ),
    "close_without_pozzetto": "{line} closed without having taken its pozzetto",
    "close_without_burraco": "{line} closed without a burraco",
    "close_without_clean": "{line} closed without a clean burraco, which these rules require",
    "melded_below_burracos": (
        "{line} melded {melded} points, too few for its burracos, which hold at least {minimum}"
    ),
    "too_few_melded_cards": (
        "{line} melded {cards} cards, too few for {burracos} burracos of 7 cards or more"
    ),
    "too_few_wild_cards": (
        "{line} melded {wild} jokers and twos, too few for {burracos} dirty or semi-clean "
        "burracos, which need one wild card each"
    ),
    "cards_over_total": (
        "the cards counted in this hand are worth {total} points, more than the {limit} "
        "of all the cards"
    ),
    "card_kind_over_total": (
        "this hand counts {count} {card_kind}, more than the {limit} two decks hold"
    ),
}
MESSAGES.update(BURRACO_MESSAGES)

# Words the engine puts in Burraco's parameters as keys (the record's own words), said
# the English way in the messages; the site says them in its languages (clubs/engine_words.py
# PARAM_WORDS). A value not listed (a club's own burraco kind) is shown as it is.
PARAM_WORDS: dict[str, dict[str, str]] = {
    "item": {
        "melded": "the cards melded",
        "in_hand": "the cards left in hand",
        "penalty": "the penalised cards",
    },
    "kind": {"clean": "clean", "semi": "semi-clean", "dirty": "dirty"},
    "card_kind": {
        "jokers": "jokers",
        "twos": "twos",
        "aces": "aces",
        "high": "high cards (K to 8)",
        "low": "low cards (7 to 3)",
    },
}

# The shape problems (invalid_type, missing_field) of the fields the engine reads, said
# the way a player would, keyed by (code, field_shape(params["field"])[0]). {n} numbers
# an entry of a list from 1; {name} is a player's name. The params keep the path, so the
# site can say the same in its languages (clubs/engine_words.py FIELD_MESSAGES).
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
# The same for a Burraco record ({line} is NS or EW), and its "game" key.
BURRACO_FIELD_MESSAGES: dict[tuple[str, str], str] = {
    ("invalid_type", "game"): "the game should be named by a word: barbu or burraco",
    ("missing_field", "pairs"): "the match does not say which players form the two pairs",
    ("invalid_type", "pairs"): "the pairs should give the NS and the EW line, two players each",
    ("missing_field", "pairs.<line>"): "the match does not say who plays {line}",
    ("invalid_type", "pairs.<line>"): "the {line} pair should be a list of two names",
    ("invalid_type", "pairs.<line>[]"): "player {n} of the {line} pair has no name",
    ("missing_field", "hands"): "the match does not list its hands",
    ("invalid_type", "hands"): "the hands should be a list, in the order they were played",
    ("invalid_type", "ruleset.options.vp_tables"): (
        "the VP tables should give, for 2, 3 or 4 hands a turn, a list of bands"
    ),
    # a Burraco hand
    ("invalid_type", "hand <n>"): "hand {n} should say who closed and give each line's points",
    ("missing_field", "closed"): "the hand does not say which line closed (null if nobody did)",
    (
        "invalid_type",
        "closed",
    ): "the hand should say which line closed: NS, EW, or null if nobody did",
    ("missing_field", "<line>"): "the hand does not give the points of {line}",
    ("invalid_type", "<line>"): (
        "the points of {line} should give what it melded, what it had left in hand, "
        "its burracos and its pozzetto"
    ),
    ("missing_field", "<line>.melded"): "the hand does not say what {line} melded",
    ("missing_field", "<line>.in_hand"): "the hand does not say what {line} had left in hand",
    ("invalid_type", "<line>.melded"): (
        "what {line} melded should be card points (a whole number) or the cards by kind"
    ),
    ("invalid_type", "<line>.in_hand"): (
        "what {line} had left in hand should be card points (a whole number) or the cards by kind"
    ),
    ("invalid_type", "<line>.penalty"): (
        "the penalised cards of {line} should be card points (a whole number) or the cards by kind"
    ),
    ("invalid_type", "<line>.pozzetto"): "whether {line} took its pozzetto should be true or false",
}
FIELD_MESSAGES.update(BURRACO_FIELD_MESSAGES)
FIELD_CODES = frozenset(code for code, _shape in FIELD_MESSAGES)
_INDEX = re.compile(r"\[(\d+)\]")
_NAMED = ("result.hearts.", "result.queens.", "tricks of ")
# A Burraco line as a segment of a field path: "NS.melded", "pairs.EW[0]".
_LINE = re.compile(r"(?<![^.])(NS|EW)(?![^.\[])")


def field_shape(field: str) -> tuple[str, dict[str, Any]]:
    """A field param as a FIELD_MESSAGES shape and its values.

    "doubles[0].by" -> ("doubles[].by", {"n": 1}); "deal 3" -> ("deal <n>", {"n": 3});
    "result.hearts.Anna" -> ("result.hearts.<name>", {"name": "Anna"});
    "pairs.NS[1]" -> ("pairs.<line>[]", {"line": "NS", "n": 2}).
    """
    for prefix in _NAMED:
        if field.startswith(prefix) and len(field) > len(prefix):
            return prefix + "<name>", {"name": field[len(prefix) :]}
    for prefix in ("deal ", "hand "):
        if field.startswith(prefix) and field[5:].isdigit():
            return prefix + "<n>", {"n": int(field[5:])}
    values: dict[str, Any] = {}
    line = _LINE.search(field)
    if line is not None:
        values["line"] = line.group(1)
        field = _LINE.sub("<line>", field)
    numbers = _INDEX.findall(field)
    if len(numbers) == 1:
        values["n"] = int(numbers[0]) + 1
        field = _INDEX.sub("[]", field)
    return field, values


def message_for(code: str, params: dict[str, Any]) -> str:
    """The English message of a problem: its field's words where known, else MESSAGES."""
    field = params.get("field")
    if code in FIELD_CODES and isinstance(field, str):
        shape, values = field_shape(field)
        template = FIELD_MESSAGES.get((code, shape))
        if template is not None:
            return template.format(**values)
    words = {
        name: PARAM_WORDS[name].get(value, value)
        for name, value in params.items()
        if name in PARAM_WORDS and isinstance(value, str)
    }
    return MESSAGES[code].format(**(params | words if words else params))


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with a game record, in the docs/rules/format.md error shape."""

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


@dataclass(frozen=True, slots=True)
class HandProblem(Problem):
    """A problem of a Burraco record: numbered by hand, "hand" in its JSON
    (docs/rules/format.md)."""

    @property
    def hand(self) -> int | None:
        return self.deal

    def as_dict(self) -> dict[str, Any]:
        return {
            "hand": self.deal,
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

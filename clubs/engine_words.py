"""The site's translations of the engine's words: problem codes, contract names, rule sentences.

The engine (scoring/engine/) stays free of Django and speaks English; its problems carry a
stable code and parameters. This module maps each code to a gettext string with the same
named placeholders (as %(name)s), and translates the parameter values that are words of
the engine too (contract keys, "expected" phrases, field descriptions).

    problem_message(problem)          -> the problem's message in the active language
    contract_name(key)                -> the contract's name as the players of that language say it
    CONTRACT_NAMES, PRESET_NAMES      -> {key: lazy name}, for choices and templates
    describe_ruleset_localised(rs)    -> barbu.describe_ruleset(rs), sentence by sentence
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext, ngettext, pgettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from scoring.engine import barbu
from scoring.engine import errors as engine_errors
from scoring.engine.barbu.cards import RANKS
from scoring.engine.barbu.presets import REQUIRED_DOUBLES

# One entry per engine code (scoring/engine/errors.py MESSAGES), same placeholders.
# tests/i18n checks that no code is missing and that the placeholders match.
MESSAGES: dict[str, Promise] = {
    # shape of the record
    "invalid_type": _("%(field)s should be %(expected)s"),
    "missing_field": _("%(field)s is missing"),
    "invalid_json": _("the game record is not valid JSON: %(detail)s"),
    "file_not_found": _("cannot read the file %(path)s: %(detail)s"),
    "usage": _("%(detail)s; usage: python -m scoring score FILE (or - for standard input)"),
    # rule set
    "unknown_preset": _("there is no rule set called %(preset)s; choose one of %(choices)s"),
    "unknown_option": _("there is no rule option called %(option)s"),
    "invalid_option": _("the rule option %(option)s cannot be %(value)s: %(expected)s"),
    "mandatory_doubles_impossible": _(
        "mandatory doubles need at least %(required)s contracts, because each player must "
        "double every dealer in %(required)s of that dealer's deals; these rules have only "
        "%(count)s: add contracts or turn mandatory doubles off"
    ),
    # players
    "wrong_player_count": _("a game needs exactly 4 players, not %(count)s"),
    "empty_player_name": _("player %(position)s has no name"),
    "duplicate_player": _("%(name)s is listed twice among the players"),
    # deals
    "too_many_deals": _("this rule set plays %(limit)s deals, but the game has %(count)s"),
    "unknown_player": _("%(name)s is not one of this game's players"),
    "wrong_dealer": _("deal %(number)s is dealt by %(expected)s, not %(dealer)s"),
    "unknown_contract": _("there is no contract called %(contract)s"),
    "contract_not_in_ruleset": _("%(contract_name)s is not played under these rules"),
    "contract_repeated": _("%(dealer)s already chose %(contract_name)s in deal %(first_deal)s"),
    "unknown_trump": _("%(trump)s is not a trump suit; use S, H, D, C or NT"),
    "no_trump_not_allowed": _("these rules do not allow no-trump; the dealer must name a suit"),
    # results
    "unknown_card": _("%(card)s is not a card"),
    "not_a_heart": _("%(card)s is not a heart"),
    "not_a_queen": _("%(card)s is not a queen"),
    "card_repeated": _("%(card)s is given to more than one player"),
    "cards_missing": _("nobody took %(cards)s"),
    "tricks_range": _("%(player)s cannot take %(value)s tricks; a player takes 0 to 13"),
    "tricks_total": _("tricks add up to %(total)s, not 13"),
    "domino_order_length": _("the domino order needs 3 or 4 names, not %(count)s"),
    "domino_order_repeated": _("%(name)s appears more than once in the domino order"),
    # doubles
    "double_self": _("%(player)s cannot double themselves"),
    "double_repeated": _("%(by)s doubled %(against)s more than once"),
    "dealer_doubles": _("%(dealer)s is the dealer and may not double (only redouble)"),
    "positive_double_not_dealer": _(
        "in %(contract_name)s only the dealer may be doubled, but %(by)s doubled %(against)s"
    ),
    "double_shape": _(
        "%(by)s may double one player, the two other non-dealers or the whole table, "
        "not %(against)s"
    ),
    "mandatory_double_now": _(
        "%(by)s must double %(dealer)s in this deal: otherwise %(by)s can no longer double "
        "%(dealer)s the %(required)s times the rules require (%(count)s so far)"
    ),
}

# The engine's words for the shape problems of a known field (scoring/engine/errors.py
# FIELD_MESSAGES), keyed by (code, field shape); %(n)s numbers a list entry from 1.
FIELD_MESSAGES: dict[tuple[str, str], Promise] = {
    ("invalid_type", "the game record"): _(
        "this is not a game record: it should give the rules, the players and the deals"
    ),
    ("missing_field", "ruleset"): _("the game does not say which rules it is played by"),
    ("invalid_type", "ruleset"): _("the rules should be a preset name, or a preset with options"),
    ("missing_field", "ruleset.preset"): _("the rules do not say which preset they start from"),
    ("invalid_type", "ruleset.options"): _("the rule options should give each option its value"),
    ("missing_field", "players"): _("the game does not list its players"),
    ("invalid_type", "players"): _("the players should be a list of four names"),
    ("invalid_type", "players[]"): _("player %(n)s has no name"),
    ("missing_field", "deals"): _("the game does not list its deals"),
    ("invalid_type", "deals"): _("the deals should be a list, in the order they were played"),
    ("invalid_type", "deal <n>"): _("deal %(n)s should give its dealer, contract and result"),
    ("missing_field", "dealer"): _("the deal does not say who dealt"),
    ("missing_field", "contract"): _("the deal does not say which contract was played"),
    ("missing_field", "trump"): _("the deal does not say which suit the dealer named as trumps"),
    ("missing_field", "result"): _("the deal has no result"),
    ("invalid_type", "result"): _("the result is not written the right way for this contract"),
    ("invalid_type", "doubles"): _("the doubles should be a list, one entry per double"),
    ("invalid_type", "doubles[]"): _("double %(n)s should say who doubled whom"),
    ("missing_field", "doubles[].by"): _("double %(n)s does not say who doubled"),
    ("missing_field", "doubles[].against"): _("double %(n)s does not say who was doubled"),
    ("invalid_type", "doubles[].redoubled"): _(
        "double %(n)s should say whether it was redoubled: true or false"
    ),
    ("missing_field", "result.king_of_hearts"): _(
        "the result does not say who took the king of hearts"
    ),
    ("missing_field", "result.twelfth"): _("the result does not say who took the 12th trick"),
    ("missing_field", "result.thirteenth"): _("the result does not say who took the 13th trick"),
    ("missing_field", "result.hearts"): _("the result does not say who took the hearts"),
    ("missing_field", "result.queens"): _("the result does not say who took the queens"),
    ("invalid_type", "result.hearts"): _(
        "the result should list, player by player, the hearts each one took"
    ),
    ("invalid_type", "result.queens"): _(
        "the result should list, player by player, the queens each one took"
    ),
    ("invalid_type", "result.hearts.<name>"): _(
        "the hearts %(name)s took should be a list of cards"
    ),
    ("invalid_type", "result.queens.<name>"): _(
        "the queens %(name)s took should be a list of cards"
    ),
    ("missing_field", "result.tricks"): _(
        "the result does not say how many tricks each player took"
    ),
    ("invalid_type", "result.tricks"): _(
        "the result should give, player by player, how many tricks each one took"
    ),
    ("invalid_type", "tricks of <name>"): _("the tricks %(name)s took should be a whole number"),
    ("missing_field", "result.order"): _(
        "the result does not say in which order the players went out"
    ),
    ("invalid_type", "result.order"): _(
        "the domino order should be a list of names, first out first"
    ),
}

# Burraco's problems (scoring/engine/errors.py BURRACO_MESSAGES) and the record's game key.
BURRACO_MESSAGES: dict[str, Promise] = {
    "unknown_game": _("there is no game called %(game)s; choose one of %(choices)s"),
    "hands_per_turn_range": _("a tournament turn has 2, 3 or 4 hands, not %(value)s"),
    "no_vp_table": _("these rules have no VP table for turns of %(hands)s hands"),
    "unknown_line": _("%(line)s is not a line; the lines are NS and EW"),
    "wrong_pair_size": _("the %(line)s pair needs exactly 2 players, not %(count)s"),
    "empty_pair_name": _("player %(position)s of the %(line)s pair has no name"),
    "too_many_hands": _("a turn of %(limit)s hands cannot have %(count)s"),
    "match_over": _(
        "the match was over after hand %(last)s, won by %(winner)s: no hand may follow"
    ),
    "semi_bonus_missing": _(
        "these rules allow semi-clean burracos but give them no bonus: add semi to the bonus"
    ),
    "vp_table_band": _(
        "VP table for %(hands)s hands, band %(band)s: it should be a pair [highest difference, VP]"
    ),
    "vp_table_bound": _(
        "VP table for %(hands)s hands, band %(band)s: its highest difference "
        "%(bound)s should be a whole multiple of 5, 0 or more"
    ),
    "vp_table_order": _(
        "VP table for %(hands)s hands, band %(band)s: its highest difference "
        "%(bound)s should be above the one of the band before (%(previous)s)"
    ),
    "vp_table_vp": _(
        "VP table for %(hands)s hands, band %(band)s: the winner's VP %(vp)s should "
        "be a whole number from 10 to 20"
    ),
    "vp_table_vp_order": _(
        "VP table for %(hands)s hands, band %(band)s: the winner's VP %(vp)s should "
        "not be below the band before's (%(previous)s)"
    ),
    "vp_table_last_open": _(
        "VP table for %(hands)s hands: the last band should have no highest "
        "difference (null), so that every difference gets its VP"
    ),
    "vp_table_open_early": _(
        "VP table for %(hands)s hands, band %(band)s: only the last band may have no "
        "highest difference (null)"
    ),
    "unknown_hand_field": _(
        "%(line)s: %(key)s is not part of a line's points; these rules count melded, "
        "in_hand, penalty, pozzetto and the burracos %(kinds)s"
    ),
    "invalid_points": _(
        "%(line)s: %(item)s should be card points, a whole number 0 or more, not %(value)s"
    ),
    "points_step": _(
        "%(line)s: %(item)s (%(value)s) should be a multiple of 5, as every card is "
        "worth 5, 10, 15, 20 or 30"
    ),
    "unknown_card_kind": _(
        "%(card_kind)s is not a kind of card: use jokers, twos, aces, high (K to 8) or low (7 to 3)"
    ),
    "invalid_card_count": _(
        "%(line)s: the number of %(card_kind)s in %(item)s should be a whole number, "
        "0 or more, not %(value)s"
    ),
    "invalid_burraco_count": _(
        "%(line)s: the number of %(kind)s burracos should be a whole number, 0 or "
        "more, not %(value)s"
    ),
    "semi_not_allowed": _(
        "%(line)s counts %(count)s semi-clean burracos, but these rules have none: "
        "count them as dirty"
    ),
    "close_without_pozzetto": _("%(line)s closed without having taken its pozzetto"),
    "close_without_burraco": _("%(line)s closed without a burraco"),
    "close_without_clean": _("%(line)s closed without a clean burraco, which these rules require"),
    "melded_below_burracos": _(
        "%(line)s melded %(melded)s points, too few for its burracos, which hold at "
        "least %(minimum)s"
    ),
    "too_few_melded_cards": _(
        "%(line)s melded %(cards)s cards, too few for %(burracos)s burracos of 7 cards or more"
    ),
    "too_few_wild_cards": _(
        "%(line)s melded %(wild)s jokers and twos, too few for %(burracos)s dirty or "
        "semi-clean burracos, which need one wild card each"
    ),
    "cards_over_total": _(
        "the cards counted in this hand are worth %(total)s points, more than the "
        "%(limit)s of all the cards"
    ),
    "card_kind_over_total": _(
        "this hand counts %(count)s %(card_kind)s, more than the %(limit)s two decks hold"
    ),
}
MESSAGES.update(BURRACO_MESSAGES)

BURRACO_FIELD_MESSAGES: dict[tuple[str, str], Promise] = {
    ("invalid_type", "game"): _("the game should be named by a word: barbu or burraco"),
    ("missing_field", "pairs"): _("the match does not say which players form the two pairs"),
    ("invalid_type", "pairs"): _("the pairs should give the NS and the EW line, two players each"),
    ("missing_field", "pairs.<line>"): _("the match does not say who plays %(line)s"),
    ("invalid_type", "pairs.<line>"): _("the %(line)s pair should be a list of two names"),
    ("invalid_type", "pairs.<line>[]"): _("player %(n)s of the %(line)s pair has no name"),
    ("missing_field", "hands"): _("the match does not list its hands"),
    ("invalid_type", "hands"): _("the hands should be a list, in the order they were played"),
    ("invalid_type", "ruleset.options.vp_tables"): _(
        "the VP tables should give, for 2, 3 or 4 hands a turn, a list of bands"
    ),
    ("invalid_type", "hand <n>"): _("hand %(n)s should say who closed and give each line's points"),
    ("missing_field", "closed"): _("the hand does not say which line closed (null if nobody did)"),
    ("invalid_type", "closed"): _(
        "the hand should say which line closed: NS, EW, or null if nobody did"
    ),
    ("missing_field", "<line>"): _("the hand does not give the points of %(line)s"),
    ("invalid_type", "<line>"): _(
        "the points of %(line)s should give what it melded, what it had left in "
        "hand, its burracos and its pozzetto"
    ),
    ("missing_field", "<line>.melded"): _("the hand does not say what %(line)s melded"),
    ("missing_field", "<line>.in_hand"): _("the hand does not say what %(line)s had left in hand"),
    ("invalid_type", "<line>.melded"): _(
        "what %(line)s melded should be card points (a whole number) or the cards by kind"
    ),
    ("invalid_type", "<line>.in_hand"): _(
        "what %(line)s had left in hand should be card points (a whole number) or the cards by kind"
    ),
    ("invalid_type", "<line>.penalty"): _(
        "the penalised cards of %(line)s should be card points (a whole number) or "
        "the cards by kind"
    ),
    ("invalid_type", "<line>.pozzetto"): _(
        "whether %(line)s took its pozzetto should be true or false"
    ),
}
FIELD_MESSAGES.update(BURRACO_FIELD_MESSAGES)

# The words the engine gives as keys in Burraco's parameters (errors.PARAM_WORDS).
PARAM_WORDS: dict[str, dict[str, Promise]] = {
    "item": {
        "melded": pgettext_lazy("burraco", "the cards melded"),
        "in_hand": pgettext_lazy("burraco", "the cards left in hand"),
        "penalty": pgettext_lazy("burraco", "the penalised cards"),
    },
    "kind": {
        "clean": pgettext_lazy("burraco", "clean"),
        "semi": pgettext_lazy("burraco", "semi-clean"),
        "dirty": pgettext_lazy("burraco", "dirty"),
    },
    "card_kind": {
        "jokers": pgettext_lazy("burraco", "jokers"),
        "twos": pgettext_lazy("burraco", "twos"),
        "aces": pgettext_lazy("burraco", "aces"),
        "high": pgettext_lazy("burraco", "high cards (K to 8)"),
        "low": pgettext_lazy("burraco", "low cards (7 to 3)"),
    },
}

# Problems the site itself builds in the engine's shape (games/barbu/submission.py).
SITE_MESSAGES: dict[str, Promise] = {
    "invalid_number": _("number must be a positive whole number"),
}

# Contract names as the rule texts of each language name them (see locale/*/django.po).
CONTRACT_NAMES: dict[str, Promise] = {
    "barbu": pgettext_lazy("contract", "Barbu (king of hearts)"),
    "hearts": pgettext_lazy("contract", "Hearts"),
    "queens": pgettext_lazy("contract", "Queens"),
    "last_two": pgettext_lazy("contract", "Last two tricks"),
    "no_tricks": pgettext_lazy("contract", "No tricks"),
    "trumps": pgettext_lazy("contract", "Trumps"),
    "domino": pgettext_lazy("contract", "Domino"),
}

PRESET_NAMES: dict[str, Promise] = {
    "italian7": pgettext_lazy("rule set", "Italian, 7 contracts"),
    "italian6": pgettext_lazy("rule set", "Italian, 6 contracts"),
    "french": pgettext_lazy("rule set", "French"),
    "german": pgettext_lazy("rule set", "German"),
}

_RANK_NAMES: dict[str, Promise] = {
    "A": pgettext_lazy("card rank, one letter", "A"),
    "K": pgettext_lazy("card rank, one letter", "K"),
    "Q": pgettext_lazy("card rank, one letter", "Q"),
    "J": pgettext_lazy("card rank, one letter", "J"),
    "T": pgettext_lazy("card rank, one letter", "T"),
}

# Words the engine puts in parameters ("expected", "field"): translated when known.
_PHRASES: dict[str, Promise] = {
    "a list": _("a list"),
    "a list of cards": _("a list of cards"),
    "a list of names": _("a list of names"),
    "a name": _("a name"),
    "a preset name or an object": _("a preset name or an object"),
    "a whole number": _("a whole number"),
    "an object": _("an object"),
    "true or false": _("true or false"),
    "the game record": _("the game record"),
    "it must map contracts to points": _("it must map contracts to points"),
    "it must be a whole number": _("it must be a whole number"),
    "it must be two whole numbers": _("it must be two whole numbers"),
    "it must be four whole numbers": _("it must be four whole numbers"),
    "it must map ranks A..2 to whole numbers": _("it must map ranks A..2 to whole numbers"),
    "it must be a whole number or ranks to numbers": _(
        "it must be a whole number or ranks to numbers"
    ),
    "it must be true or false": _("it must be true or false"),
    "card points or cards": _("card points or cards"),
    "NS, EW or null": _("NS, EW or null"),
    "a word": _("a word"),
    "it must map burraco kinds and close to points": _(
        "it must map burraco kinds and close to points"
    ),
    "it must be a whole multiple of 5, 0 or more": _("it must be a whole multiple of 5, 0 or more"),
    "it must be a whole multiple of 5, 0 or less": _("it must be a whole multiple of 5, 0 or less"),
    "it must be a whole number above 0": _("it must be a whole number above 0"),
    "it must list bands [highest difference, VP]": _("it must list bands [highest difference, VP]"),
    "turns have 2, 3 or 4 hands": _("turns have 2, 3 or 4 hands"),
}
_PATTERNS: tuple[tuple[re.Pattern[str], Promise], ...] = (
    (re.compile(r"it must be one of (?P<choices>.+)"), _("it must be one of %(choices)s")),
    (
        re.compile(r"it must list some of (?P<choices>.+) once"),
        _("it must list some of %(choices)s once"),
    ),
    (re.compile(r"deal (?P<number>\d+)"), _("deal %(number)s")),
    (re.compile(r"tricks of (?P<name>.+)"), _("tricks of %(name)s")),
)
_CONTRACT_PARAMS = frozenset({"contract", "contract_name"})
_ENGLISH_CONTRACT_NAMES = {name: key for key, name in barbu.presets.CONTRACT_NAMES.items()}


def contract_name(key: str) -> str:
    """The contract's name in the active language ("hearts" -> "Cuori"); unknown keys as given."""
    name = CONTRACT_NAMES.get(key)
    return str(name) if name is not None else key


def _phrase(value: str) -> str:
    known = _PHRASES.get(value)
    if known is not None:
        return str(known)
    for pattern, template in _PATTERNS:
        match = pattern.fullmatch(value)
        if match:
            return str(template) % match.groupdict()
    return value


def _param(name: str, value: Any, params: Mapping[str, Any]) -> Any:
    if name in _CONTRACT_PARAMS:
        key = params.get("contract")
        if isinstance(key, str) and key in CONTRACT_NAMES:
            return contract_name(key)
        if isinstance(value, str) and value in _ENGLISH_CONTRACT_NAMES:
            return contract_name(_ENGLISH_CONTRACT_NAMES[value])
        return value
    if name in ("expected", "field") and isinstance(value, str):
        return _phrase(value)
    if name == "line" and value in ("NS", "EW"):
        # A line as the site's language names it: "EO" in Italian, never the engine's "EW".
        return pgettext("line", value)
    words = PARAM_WORDS.get(name)
    if words is not None and isinstance(value, str) and value in words:
        return str(words[value])
    return value


def _counted(code: str, params: Mapping[str, Any]) -> str | None:
    """The messages whose noun follows its count, in the form the count takes: "1 burraco
    sporco", never "1 burraco sporchi" (MESSAGES keeps the engine's own English form)."""
    count = params.get("burracos")
    if not isinstance(count, int) or isinstance(count, bool):
        return None
    if code == "too_few_melded_cards":
        return ngettext(
            "%(line)s melded %(cards)s cards, too few for %(burracos)s burraco of 7 cards or more",
            "%(line)s melded %(cards)s cards, too few for %(burracos)s burracos of 7 cards or more",
            count,
        )
    if code == "too_few_wild_cards":
        return ngettext(
            "%(line)s melded %(wild)s jokers and twos, too few for %(burracos)s dirty or "
            "semi-clean burraco, which needs a wild card",
            "%(line)s melded %(wild)s jokers and twos, too few for %(burracos)s dirty or "
            "semi-clean burracos, which need one wild card each",
            count,
        )
    return None


def problem_message(problem: Mapping[str, Any] | barbu.Problem) -> str:
    """The problem's message in the active language, from its code and params.

    Accepts an barbu.Problem or its as_dict() form (also the dicts in an API error's
    "errors" list). An unknown code keeps the message it came with.
    """
    if isinstance(problem, barbu.Problem):
        code, params, message = problem.code, problem.params, problem.message
    else:
        code = problem.get("code", "")
        params = problem.get("params") or {}
        message = problem.get("message", "")
    field = params.get("field")
    if code in engine_errors.FIELD_CODES and isinstance(field, str):
        shape, values = engine_errors.field_shape(field)
        field_template = FIELD_MESSAGES.get((code, shape))
        if field_template is not None:
            return str(field_template) % values
    template = _counted(code, params) or MESSAGES.get(code) or SITE_MESSAGES.get(code)
    if template is None:
        return str(message)
    values = {name: _param(name, value, params) for name, value in params.items()}
    try:
        return str(template) % values
    except (KeyError, TypeError, ValueError):
        # A parameter the engine dropped or renamed: better its English than a crash.
        return str(message) or str(template)


def translate_problems(problems: list[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Engine error dicts with "message" replaced by its translation (for API answers)."""
    return [{**problem, "message": problem_message(problem)} for problem in problems]


def _signed(value: int) -> str:
    return f"{value:+d}"


def describe_ruleset_localised(ruleset: barbu.Ruleset) -> list[str]:
    """barbu.describe_ruleset(ruleset) in the active language, sentence by sentence.

    Mirrors the engine's sentences (tests/i18n checks that the English ones are equal,
    the first line aside, which names the preset instead of showing its key).
    """
    r = ruleset
    p = r.points
    preset = PRESET_NAMES.get(r.preset)
    lines = [
        gettext(
            "Rule set: %(preset)s. %(contracts)s contracts per dealer, %(deals)s deals per game."
        )
        % {
            "preset": str(preset) if preset is not None else r.preset,
            "contracts": r.deals_per_turn,
            "deals": r.deals_per_game,
        },
        gettext("Contracts: %(names)s.")
        % {"names": ", ".join(contract_name(c) for c in r.contracts)},
    ]
    if "barbu" in r.contracts:
        lines.append(
            gettext("Barbu: the player who takes the king of hearts scores %(points)s.")
            % {"points": p["barbu"]}
        )
    if "hearts" in r.contracts:
        hearts = ", ".join(
            f"{_rank(rank)} {pts}" for rank, pts in zip(RANKS, p["hearts"], strict=True)
        )
        lines.append(gettext("Hearts: each heart taken scores (%(points)s).") % {"points": hearts})
    if "queens" in r.contracts:
        lines.append(
            gettext("Queens: each queen taken scores %(points)s.") % {"points": p["queens"]}
        )
    if "last_two" in r.contracts:
        twelfth, thirteenth = p["last_two"]
        lines.append(
            gettext("Last two: the 12th trick scores %(twelfth)s, the 13th %(thirteenth)s.")
            % {"twelfth": twelfth, "thirteenth": thirteenth}
        )
    if "no_tricks" in r.contracts:
        lines.append(
            gettext("No tricks: each trick taken scores %(points)s.") % {"points": p["no_tricks"]}
        )
    if "trumps" in r.contracts:
        if r.trumps_allow_no_trump:
            sentence = gettext(
                "Trumps: the dealer names a trump suit or no-trump; each trick scores +%(points)s."
            )
        else:
            sentence = gettext(
                "Trumps: the dealer names a trump suit; each trick scores +%(points)s."
            )
        lines.append(sentence % {"points": p["trumps"]})
    if "domino" in r.contracts:
        first, second, third, fourth = r.domino_points
        lines.append(
            gettext(
                "Domino: first out %(first)s, second %(second)s, third %(third)s, last %(last)s."
            )
            % {
                "first": _signed(first),
                "second": _signed(second),
                "third": _signed(third),
                "last": _signed(fourth),
            }
        )
        lines.append(
            gettext("Domino: a player may pass even when able to play, but not twice in a row.")
            if r.domino_pass_when_able
            else gettext("Domino: a player who can play must play.")
        )
    lines.append(
        ngettext(
            "Each player deals %(count)s deal in a row.",
            "Each player deals %(count)s deals in a row.",
            r.deals_per_turn,
        )
        % {"count": r.deals_per_turn}
        if r.dealer_rotation == "per_turn"
        else gettext("The deal passes to the left after every deal.")
    )
    lines.append(gettext("The dealer may not double, but may redouble."))
    if r.double_shape == "german":
        lines.append(
            gettext(
                "Each player doubles at most once per deal: one player, the two other "
                "non-dealers, or the whole table."
            )
        )
    else:
        lines.append(gettext("A player may double any set of opponents."))
    if r.positive_only_dealer:
        lines.append(
            gettext("In positive contracts (%(contracts)s) only the dealer may be doubled.")
            % {"contracts": _positive_contracts()}
        )
    if r.mandatory_doubles:
        lines.append(
            gettext(
                "Every player must double each dealer in at least %(count)s of that dealer's deals."
            )
            % {"count": REQUIRED_DOUBLES}
        )
    if r.barbu_discard_first_chance:
        lines.append(gettext("Barbu: the king of hearts must be discarded at the first chance."))
    if r.turn_settlement == "italian6":
        lines.append(
            gettext(
                "After each dealer's turn, every player gets +110 and placement points "
                "(+50, +25, −25, −50); a dealer finishing 3rd pays 25 to each opponent, "
                "4th pays 50 to each."
            )
        )
    return lines


def _rank(rank: str) -> str:
    name = _RANK_NAMES.get(rank)
    return str(name) if name is not None else rank


def card_rank(rank: str) -> str:
    """A rank letter as the players of the active language write it ("Q" -> "D" in Italian)."""
    return _rank(rank)


def _positive_contracts() -> str:
    # The engine writes "trumps, domino" in lower case: the keys, not the names.
    return pgettext("positive contracts, in a sentence", "trumps, domino")


def engine_problems(problems: list[barbu.Problem]) -> list[dict]:
    """The engine's problems as the answer lists them, each message in the user's language."""
    # The engine speaks English; its message is shown in the user's language.
    return [{**p.as_dict(), "message": problem_message(p)} for p in problems]

"""Properties over random valid games of every preset."""

from __future__ import annotations

import json
import random
from decimal import Decimal
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine.barbu import PRESETS, game_state, normalise_deal, score_game, validate_game
from scoring.engine.barbu.game import in_cents
from scoring.engine.barbu.presets import parse_ruleset
from scoring.engine.barbu.randomgame import _doubles, _result, random_game

# docs/rules/barbu.md "sum over one dealer turn" of raw points
TURN_SUM = {"italian7": 0, "italian6": -440, "french": 0, "german": 0}

presets = st.sampled_from(sorted(PRESETS))
rngs = st.randoms(use_true_random=False)


@settings(max_examples=60, deadline=None)
@given(rngs, presets, st.booleans())
def test_random_valid_game_scores(rng, preset, messy):
    record = random_game(rng, preset, messy=messy)
    assert validate_game(record) == []
    scores = score_game(record)
    ruleset = PRESETS[preset]
    assert scores["complete"] is True
    assert len(scores["deals"]) == ruleset.deals_per_game
    players = record["players"]
    for deal in scores["deals"]:
        assert list(deal["raw"]) == players
        assert sum(deal["doubles"].values()) == 0
        for p in players:
            assert deal["score"][p] == deal["raw"][p] + deal["doubles"][p]
    assert len(scores["turns"]) == 4
    for turn in scores["turns"]:
        numbers = turn["deals"]
        assert len(numbers) == ruleset.deals_per_turn
        raw_sum = sum(sum(scores["deals"][n - 1]["raw"].values()) for n in numbers)
        assert raw_sum == TURN_SUM[preset]
        assert sum(turn["score"].values()) == TURN_SUM[preset]
        if preset == "italian6":
            # JSON numbers as a reader takes them: exact decimals (cents at most).
            assert sum(Decimal(str(v)) for v in turn["total"].values()) == 0
            assert "settlement" in turn
        else:
            assert "settlement" not in turn
            assert turn["total"] == turn["score"]
    if preset == "italian6" or TURN_SUM[preset] == 0:
        assert sum(Decimal(str(v)) for v in scores["totals"].values()) == 0
    for p in players:  # the game's totals are the sum of its turns' totals, as shown
        shown = sum(Decimal(str(turn["total"][p])) for turn in scores["turns"])
        assert Decimal(str(scores["totals"][p])) == shown
    assert sorted(scores["ranking"]) == sorted(players)
    values = [scores["totals"][p] for p in scores["ranking"]]
    assert values == sorted(values, reverse=True)
    json.dumps(scores)  # JSON-able


@settings(max_examples=40, deadline=None)
@given(rngs, presets)
def test_renaming_players_gives_the_same_scores(rng, preset):
    record = random_game(rng, preset)
    names = ["Zoë", "Yann", "Xiomara", "Walt"]
    mapping = dict(zip(record["players"], names, strict=True))
    renamed = json.loads(json.dumps(record))
    renamed["players"] = names
    for deal in renamed["deals"]:
        deal["dealer"] = mapping[deal["dealer"]]
        for d in deal.get("doubles", []):
            d["by"] = mapping[d["by"]]
            d["against"] = mapping[d["against"]]
        result = deal["result"]
        for key, value in list(result.items()):
            if isinstance(value, str):
                result[key] = mapping[value]
            elif isinstance(value, list):
                result[key] = [mapping[v] for v in value]
            else:
                result[key] = {mapping[k]: v for k, v in value.items()}
    before = score_game(record)
    after = score_game(renamed)
    assert [list(d["score"].values()) for d in before["deals"]] == [
        list(d["score"].values()) for d in after["deals"]
    ]
    assert list(before["totals"].values()) == list(after["totals"].values())
    assert [mapping[p] for p in before["ranking"]] == after["ranking"]


@settings(max_examples=40, deadline=None)
@given(rngs, presets, st.integers(min_value=0, max_value=28))
def test_every_prefix_of_a_valid_game_is_valid(rng, preset, length):
    record = random_game(rng, preset)
    record["deals"] = record["deals"][:length]
    assert validate_game(record) == []
    scores = score_game(record)
    assert scores["complete"] is (len(record["deals"]) == PRESETS[preset].deals_per_game)


def _respell(deal: dict, rng: random.Random) -> dict:
    """The same deal written another accepted way."""
    deal = json.loads(json.dumps(deal))
    doubles = deal.pop("doubles", [])
    for d in doubles:
        if "redoubled" not in d and rng.random() < 0.5:
            d["redoubled"] = False
        elif d.get("redoubled") is False and rng.random() < 0.5:
            del d["redoubled"]
    rng.shuffle(doubles)
    if doubles or rng.random() < 0.5:
        deal["doubles"] = doubles
    if "trump" in deal:
        deal["trump"] = deal["trump"].lower()
    result = deal["result"]
    for key in ("hearts", "queens"):
        if key in result:
            spelled = {}
            for name, cards in result[key].items():
                cards = [("10" + c[1:] if c[0] == "T" else c).lower() for c in cards]
                rng.shuffle(cards)
                if cards or rng.random() < 0.5:
                    spelled[name] = cards
            result[key] = spelled
    if "tricks" in result:
        result["tricks"] = {k: v for k, v in result["tricks"].items() if v or rng.random() < 0.5}
    if "order" in result and len(result["order"]) == 4:
        result["order"] = result["order"][:3]
    return deal


@settings(max_examples=40, deadline=None)
@given(rngs, presets)
def test_normalise_deal_equates_spellings(rng, preset):
    record = random_game(rng, preset, deals=10)
    players = record["players"]
    respelled = dict(record, deals=[_respell(d, rng) for d in record["deals"]])
    for a, b in zip(record["deals"], respelled["deals"], strict=True):
        assert normalise_deal(a, players) == normalise_deal(b, players)
    assert score_game(record) == score_game(respelled)
    changed = json.loads(json.dumps(record["deals"][0]))
    changed["dealer"] = players[1]
    assert normalise_deal(changed, players) != normalise_deal(record["deals"][0], players)


def test_normalise_deal_canonical_form():
    players = ["Anna", "Bruno", "Carla", "Dario"]
    deal = {
        "dealer": "Anna",
        "contract": "hearts",
        "result": {"hearts": {"Carla": ["2h", "10H", "ah"], "Bruno": ["kh", "QH", "JH"]}},
    }
    deal["result"]["hearts"]["Bruno"] += ["9H", "8H", "7H", "6H", "5H", "4H", "3H"]
    out = normalise_deal(deal, players)
    assert out["doubles"] == []
    assert out["result"]["hearts"]["Anna"] == []
    assert out["result"]["hearts"]["Carla"] == ["AH", "TH", "2H"]
    assert list(out["result"]["hearts"]) == players
    doubles = [{"by": "Dario", "against": "Anna"}, {"by": "Bruno", "against": "Anna"}]
    out = normalise_deal(dict(deal, doubles=doubles), players)
    assert out["doubles"] == [
        {"by": "Bruno", "against": "Anna", "redoubled": False},
        {"by": "Dario", "against": "Anna", "redoubled": False},
    ]
    tricks = {
        "dealer": "Anna",
        "contract": "trumps",
        "trump": "nt",
        "result": {"tricks": {"Bruno": 13}},
    }
    out = normalise_deal(tricks, players)
    assert out["trump"] == "NT"
    assert out["result"]["tricks"] == {"Anna": 0, "Bruno": 13, "Carla": 0, "Dario": 0}
    assert normalise_deal("junk", players) == "junk"  # type: ignore[arg-type]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(-100_000, 100_000), min_size=4, max_size=4), st.integers(1, 12))
def test_in_cents_keeps_the_sum_and_moves_each_value_less_than_a_cent(numerators, divisor):
    values = [Fraction(n, divisor) for n in numerators]
    whole = sum(values)
    values[-1] += round(whole) - whole  # an exact sum in whole points, as a turn has
    shown = in_cents(values)
    assert sum(shown) == sum(values)
    for exact, cents in zip(values, shown, strict=True):
        assert (Fraction(cents) * 100).denominator == 1
        assert abs(Fraction(cents) - exact) < Fraction(1, 100)
    halves = [1, Fraction(1, 2), -3, Fraction(3, 2)]
    assert in_cents(halves) == halves


def _rulesets_with_rotations() -> list[dict]:
    """Every preset under both dealer rotations (italian6's settlement needs per_turn)."""
    out = []
    for preset in sorted(PRESETS):
        for rotation in ("per_turn", "per_deal"):
            if preset == "italian6" and rotation == "per_deal":
                continue
            out.append({"preset": preset, "options": {"dealer_rotation": rotation}})
    return out


@settings(max_examples=80, deadline=None)
@given(rngs, st.sampled_from(_rulesets_with_rotations()), st.floats(0.0, 1.0))
def test_a_game_accepted_deal_by_deal_can_always_be_completed(rng, ruleset_json, care):
    """Mandatory doubles never strand a table.

    Deal by deal, players double the dealer at random (`care` is how often they remember
    a double they owe). The engine accepts or refuses each deal; a deal is refused exactly
    when it leaves out a double game_state() says must be made now, and with those doubles
    added it is accepted. So every accepted game reaches its last deal.
    """
    ruleset, _ = parse_ruleset(ruleset_json)
    names = ["Anna", "Bruno", "Carla", "Dario"]
    record: dict = {"ruleset": ruleset_json, "players": names, "deals": []}
    refused = 0
    while True:
        state = game_state(record)
        if state["complete"]:
            break
        nxt = state["next"]
        dealer = names.index(nxt["dealer"])
        contract = rng.choice(nxt["contracts_left"])
        must_pairs = {(m["by"], m["against"]) for m in nxt["must_double_now"]}
        remembered = {names.index(by) for by, _ in must_pairs if rng.random() < care}
        deal = {
            "dealer": nxt["dealer"],
            "contract": contract,
            "doubles": _doubles(rng, ruleset, names, dealer, contract, remembered),
            "result": _result(rng, contract, names, False),
        }
        if contract == "trumps":
            deal["trump"] = "S"
        made = {(d["by"], d["against"]) for d in deal["doubles"]}
        problems = validate_game({**record, "deals": [*record["deals"], deal]})
        missing = must_pairs - made
        assert [(p.code, p.params["by"], p.params["dealer"]) for p in problems] == [
            ("mandatory_double_now", by, against) for by, against in sorted(missing)
        ]
        if problems:
            refused += 1
            # The table adds the doubles the page requires: now the deal is accepted.
            deal["doubles"] = _doubles(
                rng, ruleset, names, dealer, contract, {names.index(b) for b, _ in must_pairs}
            )
            assert validate_game({**record, "deals": [*record["deals"], deal]}) == []
        record["deals"].append(deal)
    assert len(record["deals"]) == ruleset.deals_per_game
    assert score_game(record)["complete"] is True
    if care == 0.0:
        assert refused > 0  # nobody remembers: the engine had to refuse some deal

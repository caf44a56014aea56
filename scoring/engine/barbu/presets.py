"""Rule sets as data: the four presets, their options, and their JSON form."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from ..errors import InvalidGame, Problem
from ..frozen import Frozen
from .cards import RANKS

CONTRACTS: tuple[str, ...] = (
    "barbu",
    "hearts",
    "queens",
    "last_two",
    "no_tricks",
    "trumps",
    "domino",
)
POSITIVE_CONTRACTS = frozenset({"trumps", "domino"})
CONTRACT_NAMES: dict[str, str] = {
    "barbu": "Barbu (king of hearts)",
    "hearts": "Hearts",
    "queens": "Queens",
    "last_two": "Last two tricks",
    "no_tricks": "No tricks",
    "trumps": "Trumps",
    "domino": "Domino",
}
# Contracts whose points live in Ruleset.points (domino has its own option).
POINTED_CONTRACTS = ("barbu", "hearts", "queens", "last_two", "no_tricks", "trumps")

DEALER_ROTATIONS = ("per_turn", "per_deal")
DOUBLE_SHAPES = ("any", "german")
TURN_SETTLEMENTS = ("none", "italian6")
SETTLEMENT_BASE = 110
SETTLEMENT_PLACES = (50, 25, -25, -50)
SETTLEMENT_PENALTY = {3: (-75, 25), 4: (-150, 50)}
REQUIRED_DOUBLES = 2


class Points(Frozen):
    """Contract points, read-only like every part of a rule set."""


def _points(
    barbu: int, hearts: tuple[int, ...], queens: int, last_two: tuple[int, int], no_tricks: int
) -> Mapping[str, Any]:
    return Points(
        {
            "barbu": barbu,
            "hearts": hearts,
            "queens": queens,
            "last_two": last_two,
            "no_tricks": no_tricks,
            "trumps": 5,
        }
    )


@dataclass(frozen=True)
class Ruleset:
    """A preset plus every rule option of docs/rules/barbu.md; immutable, so it can be shared."""

    preset: str
    contracts: tuple[str, ...]
    # barbu/queens/no_tricks/trumps: points per K♥/queen/trick; hearts: 13 values
    # in rank order A..2; last_two: (12th trick, 13th trick).
    points: Mapping[str, Any]
    trumps_allow_no_trump: bool
    domino_points: tuple[int, int, int, int]
    dealer_rotation: str
    double_shape: str
    positive_only_dealer: bool
    mandatory_doubles: bool
    turn_settlement: str
    barbu_discard_first_chance: bool
    domino_pass_when_able: bool

    @property
    def deals_per_turn(self) -> int:
        return len(self.contracts)

    @property
    def deals_per_game(self) -> int:
        return 4 * len(self.contracts)


_CONTINENTAL = _points(-20, (-6,) + (-2,) * 12, -6, (-10, -20), -2)

PRESETS: dict[str, Ruleset] = {
    "italian7": Ruleset(
        preset="italian7",
        contracts=CONTRACTS,
        points=_points(-20, (-4,) * 5 + (-2,) * 8, -6, (-12, -12), -2),
        trumps_allow_no_trump=True,
        domino_points=(45, 20, 10, -10),
        dealer_rotation="per_turn",
        double_shape="any",
        positive_only_dealer=True,
        mandatory_doubles=True,
        turn_settlement="none",
        barbu_discard_first_chance=False,
        domino_pass_when_able=False,
    ),
    "italian6": Ruleset(
        preset="italian6",
        contracts=tuple(c for c in CONTRACTS if c != "trumps"),
        points=_points(-100, (-10,) * 13, -20, (-50, -50), -10),
        trumps_allow_no_trump=True,
        domino_points=(60, 40, 0, 0),
        dealer_rotation="per_turn",
        double_shape="any",
        positive_only_dealer=True,
        mandatory_doubles=True,
        turn_settlement="italian6",
        barbu_discard_first_chance=False,
        domino_pass_when_able=False,
    ),
    "french": Ruleset(
        preset="french",
        contracts=CONTRACTS,
        points=_CONTINENTAL,
        trumps_allow_no_trump=False,
        domino_points=(45, 20, 5, -5),
        dealer_rotation="per_turn",
        # docs/rules/barbu.md: any set of opponents; "mesa" (table) and "familia" (the two other
        # non-dealers) are names for two of those sets. The Spanish source says so
        # too: a player "puede doblar contra uno o más de los otros jugadores".
        double_shape="any",
        positive_only_dealer=True,
        mandatory_doubles=True,
        turn_settlement="none",
        barbu_discard_first_chance=True,
        domino_pass_when_able=False,
    ),
    "german": Ruleset(
        preset="german",
        contracts=CONTRACTS,
        points=_CONTINENTAL,
        trumps_allow_no_trump=False,
        domino_points=(45, 20, 5, -5),
        dealer_rotation="per_deal",
        double_shape="german",
        positive_only_dealer=False,
        mandatory_doubles=True,
        turn_settlement="none",
        barbu_discard_first_chance=False,
        domino_pass_when_able=True,
    ),
}

OPTION_NAMES = (
    "contracts",
    "points",
    "trumps_allow_no_trump",
    "domino_points",
    "dealer_rotation",
    "double_shape",
    "positive_only_dealer",
    "mandatory_doubles",
    "turn_settlement",
    "barbu_discard_first_chance",
    "domino_pass_when_able",
)
_BOOL_OPTIONS = frozenset(
    {
        "trumps_allow_no_trump",
        "positive_only_dealer",
        "mandatory_doubles",
        "barbu_discard_first_chance",
        "domino_pass_when_able",
    }
)
_CHOICE_OPTIONS = {
    "dealer_rotation": DEALER_ROTATIONS,
    "double_shape": DOUBLE_SHAPES,
    "turn_settlement": TURN_SETTLEMENTS,
}


def _is_int(value: object) -> bool:
    return type(value) is int


def _hearts_to_json(values: tuple[int, ...]) -> dict[str, int]:
    return dict(zip(RANKS, values, strict=True))


def _points_to_json(points: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "barbu": points["barbu"],
        "hearts": _hearts_to_json(points["hearts"]),
        "queens": points["queens"],
        "last_two": list(points["last_two"]),
        "no_tricks": points["no_tricks"],
        "trumps": points["trumps"],
    }


def ruleset_to_json(ruleset: Ruleset) -> dict[str, Any]:
    """The JSON form {"preset", "options": {every option}}, e.g. to freeze a copy in the DB."""
    return {
        "preset": ruleset.preset,
        "options": {
            "contracts": list(ruleset.contracts),
            "points": _points_to_json(ruleset.points),
            "trumps_allow_no_trump": ruleset.trumps_allow_no_trump,
            "domino_points": list(ruleset.domino_points),
            "dealer_rotation": ruleset.dealer_rotation,
            "double_shape": ruleset.double_shape,
            "positive_only_dealer": ruleset.positive_only_dealer,
            "mandatory_doubles": ruleset.mandatory_doubles,
            "turn_settlement": ruleset.turn_settlement,
            "barbu_discard_first_chance": ruleset.barbu_discard_first_chance,
            "domino_pass_when_able": ruleset.domino_pass_when_able,
        },
    }


def _bad(option: str, value: object, expected: str) -> Problem:
    shown = repr(value) if not isinstance(value, str) else value
    if len(shown) > 60:
        shown = shown[:57] + "..."
    return Problem.make(
        None,
        f"ruleset.options.{option}",
        "invalid_option",
        option=option,
        value=shown,
        expected=expected,
    )


def _parse_points(
    value: object, base: Mapping[str, Any], problems: list[Problem]
) -> Mapping[str, Any] | None:
    if not isinstance(value, dict):
        problems.append(_bad("points", value, "it must map contracts to points"))
        return None
    points = dict(base)
    for key, spec in value.items():
        name = f"points.{key}"
        if key in ("barbu", "queens", "no_tricks", "trumps"):
            if not _is_int(spec):
                problems.append(_bad(name, spec, "it must be a whole number"))
            else:
                points[key] = spec
        elif key == "last_two":
            if not (isinstance(spec, list | tuple) and len(spec) == 2 and all(map(_is_int, spec))):
                problems.append(_bad(name, spec, "it must be two whole numbers"))
            else:
                points[key] = tuple(spec)
        elif key == "hearts":
            if _is_int(spec):
                points[key] = (spec,) * 13
            elif isinstance(spec, dict):
                hearts = dict(zip(RANKS, base["hearts"], strict=True))
                ok = True
                for rank, pts in spec.items():
                    rank_key = "T" if rank == "10" else str(rank).upper()
                    if rank_key not in hearts or not _is_int(pts):
                        problems.append(_bad(name, spec, "it must map ranks A..2 to whole numbers"))
                        ok = False
                        break
                    hearts[rank_key] = pts
                if ok:
                    points[key] = tuple(hearts[r] for r in RANKS)
            else:
                problems.append(_bad(name, spec, "it must be a whole number or ranks to numbers"))
        else:
            problems.append(
                Problem.make(
                    None, f"ruleset.options.points.{key}", "unknown_option", option=f"points.{key}"
                )
            )
    return Points(points)


def ruleset_from_json(obj: str | dict[str, Any] | Ruleset) -> Ruleset:
    """A Ruleset from "italian7" or {"preset": ..., "options": {...}}; raises InvalidGame."""
    ruleset, problems = parse_ruleset(obj)
    if problems or ruleset is None:
        raise InvalidGame(problems)
    return ruleset


def parse_ruleset(obj: object, field_: str = "ruleset") -> tuple[Ruleset | None, list[Problem]]:
    """Like ruleset_from_json, but returns the problems instead of raising."""
    if isinstance(obj, Ruleset):
        problems = ruleset_problems(obj, field_)
        return (None, problems) if problems else (obj, [])
    if isinstance(obj, str):
        preset = PRESETS.get(obj)
        if preset is None:
            return None, [_unknown_preset(obj, field_)]
        return preset, []
    if not isinstance(obj, dict):
        return None, [
            Problem.make(
                None, field_, "invalid_type", field=field_, expected="a preset name or an object"
            )
        ]
    problems: list[Problem] = []
    for key in obj:
        if key not in ("preset", "options"):
            problems.append(Problem.make(None, f"{field_}.{key}", "unknown_option", option=key))
    name = obj.get("preset")
    if name is None:
        return None, [
            *problems,
            Problem.make(None, f"{field_}.preset", "missing_field", field=f"{field_}.preset"),
        ]
    if not isinstance(name, str) or name not in PRESETS:
        return None, [*problems, _unknown_preset(name, f"{field_}.preset")]
    base = PRESETS[name]
    options = obj.get("options", {})
    if options is None:
        options = {}
    if not isinstance(options, dict):
        problems.append(
            Problem.make(
                None,
                f"{field_}.options",
                "invalid_type",
                field=f"{field_}.options",
                expected="an object",
            )
        )
        return None, problems
    changes: dict[str, Any] = {}
    for option, value in options.items():
        if option not in OPTION_NAMES:
            problems.append(
                Problem.make(None, f"{field_}.options.{option}", "unknown_option", option=option)
            )
        elif option in _BOOL_OPTIONS:
            if type(value) is not bool:
                problems.append(_bad(option, value, "it must be true or false"))
            else:
                changes[option] = value
        elif option in _CHOICE_OPTIONS:
            choices = _CHOICE_OPTIONS[option]
            if value not in choices:
                problems.append(_bad(option, value, "it must be one of " + ", ".join(choices)))
            else:
                changes[option] = value
        elif option == "domino_points":
            if not (
                isinstance(value, list | tuple) and len(value) == 4 and all(map(_is_int, value))
            ):
                problems.append(_bad(option, value, "it must be four whole numbers"))
            else:
                changes[option] = tuple(value)
        elif option == "contracts":
            if (
                not isinstance(value, list | tuple)
                or not value
                or any(c not in CONTRACTS for c in value)
                or len(set(value)) != len(value)
            ):
                problems.append(
                    _bad(option, value, "it must list some of " + ", ".join(CONTRACTS) + " once")
                )
            else:
                changes[option] = tuple(c for c in CONTRACTS if c in value)
        else:  # points
            points = _parse_points(value, base.points, problems)
            if points is not None:
                changes[option] = points
    if problems:
        return None, problems
    ruleset = replace(base, **changes) if changes else base
    problems = ruleset_problems(ruleset, field_)
    return (None, problems) if problems else (ruleset, [])


def ruleset_problems(ruleset: Ruleset, field_: str = "ruleset") -> list[Problem]:
    """Options that are each valid but together make every game impossible to complete."""
    problems = []
    if ruleset.mandatory_doubles and ruleset.deals_per_turn < REQUIRED_DOUBLES:
        # Each opponent must double the dealer in REQUIRED_DOUBLES of the dealer's deals,
        # and a dealer deals once per contract (in either rotation).
        problems.append(
            Problem.make(
                None,
                f"{field_}.options.contracts",
                "mandatory_doubles_impossible",
                count=ruleset.deals_per_turn,
                required=REQUIRED_DOUBLES,
            )
        )
    return problems


def _unknown_preset(name: object, field_: str) -> Problem:
    return Problem.make(
        None, field_, "unknown_preset", preset=str(name)[:60], choices=", ".join(PRESETS)
    )


def describe_ruleset(ruleset: Ruleset) -> list[str]:
    """Plain-English sentences describing a rule set, for pages."""
    r = ruleset
    p = r.points
    lines = [
        f"Rules: {r.preset} preset. {r.deals_per_turn} contracts per dealer, "
        f"{r.deals_per_game} deals per game.",
        "Contracts: " + ", ".join(CONTRACT_NAMES[c] for c in r.contracts) + ".",
    ]
    if "barbu" in r.contracts:
        lines.append(f"Barbu: the player who takes the king of hearts scores {p['barbu']}.")
    if "hearts" in r.contracts:
        hearts = ", ".join(f"{rank} {pts}" for rank, pts in zip(RANKS, p["hearts"], strict=True))
        lines.append(f"Hearts: each heart taken scores ({hearts}).")
    if "queens" in r.contracts:
        lines.append(f"Queens: each queen taken scores {p['queens']}.")
    if "last_two" in r.contracts:
        twelfth, thirteenth = p["last_two"]
        lines.append(f"Last two: the 12th trick scores {twelfth}, the 13th {thirteenth}.")
    if "no_tricks" in r.contracts:
        lines.append(f"No tricks: each trick taken scores {p['no_tricks']}.")
    if "trumps" in r.contracts:
        nt = " or no-trump" if r.trumps_allow_no_trump else ""
        lines.append(
            f"Trumps: the dealer names a trump suit{nt}; each trick scores +{p['trumps']}."
        )
    if "domino" in r.contracts:
        first, second, third, fourth = r.domino_points
        lines.append(
            f"Domino: first out {first:+d}, second {second:+d}, third {third:+d}, last {fourth:+d}."
        )
        lines.append(
            "Domino: a player may pass even when able to play, but not twice in a row."
            if r.domino_pass_when_able
            else "Domino: a player who can play must play."
        )
    lines.append(
        f"Each player deals {r.deals_per_turn} deals in a row."
        if r.dealer_rotation == "per_turn"
        else "The deal passes to the left after every deal."
    )
    lines.append("The dealer may not double, but may redouble.")
    if r.double_shape == "german":
        lines.append(
            "Each player doubles at most once per deal: one player, the two other "
            "non-dealers, or the whole table."
        )
    else:
        lines.append("A player may double any set of opponents.")
    if r.positive_only_dealer:
        lines.append("In positive contracts (trumps, domino) only the dealer may be doubled.")
    if r.mandatory_doubles:
        lines.append(
            f"Every player must double each dealer in at least {REQUIRED_DOUBLES} of that "
            "dealer's deals."
        )
    if r.barbu_discard_first_chance:
        lines.append("Barbu: the king of hearts must be discarded at the first chance.")
    if r.turn_settlement == "italian6":
        lines.append(
            "After each dealer's turn, every player gets +110 and placement points "
            "(+50, +25, −25, −50); a dealer finishing 3rd pays 25 to each opponent, "
            "4th pays 50 to each."
        )
    return lines

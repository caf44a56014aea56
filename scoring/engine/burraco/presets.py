"""Burraco rule sets as data: the presets of docs/rules/burraco.md, their options, VP tables, JSON
form."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

from ..errors import HandProblem, InvalidGame, Problem
from ..frozen import Frozen

# A band of a VP table: (highest difference, winner's VP); the last band's bound is None.
Band = tuple[int | None, int]
VpTable = tuple[Band, ...]

BURRACO_KINDS = ("clean", "semi", "dirty")
REQUIRED_BONUS = ("clean", "dirty", "close")
TURN_HANDS = (2, 3, 4)
VP_SCALE = 20
VP_LEVEL = VP_SCALE // 2
# Scores are multiples of 5: a VP band starts 5 above the end of the band before.
MP_STEP = 5
# A club's own burraco kind ("reale", "super"): a word that is not a field of a line.
_KIND_NAME = re.compile(r"[a-z][a-z_]{0,29}")
_LINE_FIELDS = frozenset({"melded", "in_hand", "penalty", "pozzetto", "close"})


@dataclass(frozen=True)
class Ruleset:
    """A preset plus every option of docs/rules/burraco.md; immutable, so it can be shared."""

    preset: str
    # Points per burraco kind ("clean", "semi", "dirty" and a club's own) and "close".
    bonus: Frozen
    no_pozzetto: int
    semi_clean: bool
    close_needs_clean: bool
    target: int
    # Hands per turn -> bands, in increasing order of difference.
    vp_tables: Frozen

    @cached_property
    def kinds(self) -> tuple[str, ...]:
        """The burraco kinds a hand may count under these rules, in table order."""
        return tuple(k for k in self.bonus if k != "close" and (k != "semi" or self.semi_clean))

    @cached_property
    def line_fields(self) -> frozenset[str]:
        """The keys a line of a hand may hold (semi always: a count of 0 is no harm)."""
        return (_LINE_FIELDS - {"close"}) | set(BURRACO_KINDS) | set(self.kinds)


def _table(bounds: tuple[int, ...]) -> VpTable:
    bands: list[Band] = [(bound, VP_LEVEL + i) for i, bound in enumerate(bounds)]
    bands.append((None, VP_SCALE))
    return tuple(bands)


# docs/rules/burraco.md "VP tables" (FIBUR, from secondary sources); 2 hands: the 3-hand bounds x
# 2/3,
# rounded down to a multiple of 5 (its Decision).
FIBUR_VP_TABLES = Frozen(
    {
        2: _table((30, 100, 165, 230, 330, 430, 530, 665, 830, 1000)),
        3: _table((50, 150, 250, 350, 500, 650, 800, 1000, 1250, 1500)),
        4: _table((100, 300, 500, 700, 900, 1100, 1300, 1500, 1700, 2000)),
    }
)

PRESETS: dict[str, Ruleset] = {
    "fibur": Ruleset(
        preset="fibur",
        bonus=Frozen({"clean": 200, "semi": 150, "dirty": 100, "close": 100}),
        no_pozzetto=-100,
        semi_clean=True,
        close_needs_clean=False,
        target=2005,
        vp_tables=FIBUR_VP_TABLES,
    ),
    "international": Ruleset(
        preset="international",
        bonus=Frozen({"clean": 200, "dirty": 100, "close": 100}),
        no_pozzetto=-100,
        semi_clean=False,
        close_needs_clean=True,
        target=2005,
        vp_tables=FIBUR_VP_TABLES,
    ),
    "free": Ruleset(
        preset="free",
        bonus=Frozen({"clean": 200, "semi": 150, "dirty": 100, "close": 100}),
        no_pozzetto=-100,
        semi_clean=True,
        close_needs_clean=False,
        target=2005,
        vp_tables=Frozen(),
    ),
}
DEFAULT_PRESET = "fibur"
OPTION_NAMES = (
    "bonus",
    "no_pozzetto",
    "semi_clean",
    "close_needs_clean",
    "target",
    "vp_tables",
)

_MULTIPLE_OF_5 = "it must be a whole multiple of 5, 0 or more"


def _is_int(value: object) -> bool:
    return type(value) is int


def vp_of(table: VpTable, difference: int) -> int:
    """The winner's VP for a difference D >= 0 (10 when level, whatever the first band)."""
    if difference <= 0:
        return VP_LEVEL
    for bound, vp in table:
        if bound is None or difference <= bound:
            return vp
    return table[-1][1]  # unreachable for a valid table: its last band is open


def vp_bands(table: VpTable) -> list[tuple[int, int | None, int, int]]:
    """The bands as they are read and printed: (from, to, winner's VP, loser's VP), `to`
    None for the last, open band."""
    out = []
    start = 0
    for bound, vp in table:
        out.append((start, bound, vp, VP_SCALE - vp))
        if bound is not None:
            start = bound + MP_STEP
    return out


def table_to_json(table: VpTable) -> list[list[int | None]]:
    return [[bound, vp] for bound, vp in table]


def ruleset_to_json(ruleset: Ruleset) -> dict[str, Any]:
    """The JSON form {"preset", "options": {every option}}, e.g. to freeze a copy in the DB."""
    return {
        "preset": ruleset.preset,
        "options": {
            "bonus": dict(ruleset.bonus),
            "no_pozzetto": ruleset.no_pozzetto,
            "semi_clean": ruleset.semi_clean,
            "close_needs_clean": ruleset.close_needs_clean,
            "target": ruleset.target,
            "vp_tables": {
                str(hands): table_to_json(table) for hands, table in ruleset.vp_tables.items()
            },
        },
    }


def _make(field_: str, code: str, **params: Any) -> Problem:
    return HandProblem.make(None, field_, code, **params)


def _bad(option: str, value: object, expected: str) -> Problem:
    shown = repr(value) if not isinstance(value, str) else value
    if len(shown) > 60:
        shown = shown[:57] + "..."
    return _make(
        f"ruleset.options.{option}",
        "invalid_option",
        option=option,
        value=shown,
        expected=expected,
    )


def _parse_bonus(value: object, base: Frozen, problems: list[Problem]) -> Frozen | None:
    if not isinstance(value, dict):
        problems.append(_bad("bonus", value, "it must map burraco kinds and close to points"))
        return None
    bonus = dict(base)
    before = len(problems)
    for kind, points in value.items():
        name = f"bonus.{kind}"
        if (
            not isinstance(kind, str)
            or not _KIND_NAME.fullmatch(kind)
            or (kind in _LINE_FIELDS and kind != "close")
        ):
            problems.append(_make(f"ruleset.options.{name}", "unknown_option", option=name))
        elif points is None and kind not in REQUIRED_BONUS:
            bonus.pop(kind, None)  # a club drops the semi-clean burraco or its own kind
        elif not _is_int(points) or points < 0 or points % 5:
            problems.append(_bad(name, points, _MULTIPLE_OF_5))
        else:
            bonus[kind] = points
    return Frozen(bonus) if len(problems) == before else None


def _parse_table(hands: int, value: object, problems: list[Problem]) -> VpTable | None:
    field_ = f"ruleset.options.vp_tables.{hands}"
    if type(value) is not list or not value:
        problems.append(
            _bad(f"vp_tables.{hands}", value, "it must list bands [highest difference, VP]")
        )
        return None
    before = len(problems)
    bands: list[Band] = []
    previous_bound: int | None = None
    previous_vp: int | None = None
    last = len(value)
    for i, band in enumerate(value, start=1):
        if type(band) is not list or len(band) != 2:
            problems.append(_make(field_, "vp_table_band", hands=hands, band=i))
            continue
        bound, vp = band
        if bound is None:
            if i != last:
                problems.append(_make(field_, "vp_table_open_early", hands=hands, band=i))
        elif not _is_int(bound) or bound < 0 or bound % 5:
            problems.append(_make(field_, "vp_table_bound", hands=hands, band=i, bound=bound))
            bound = None
        elif previous_bound is not None and bound <= previous_bound:
            problems.append(
                _make(
                    field_,
                    "vp_table_order",
                    hands=hands,
                    band=i,
                    bound=bound,
                    previous=previous_bound,
                )
            )
        if not _is_int(vp) or not VP_LEVEL <= vp <= VP_SCALE:
            problems.append(_make(field_, "vp_table_vp", hands=hands, band=i, vp=vp))
        else:
            if previous_vp is not None and vp < previous_vp:
                problems.append(
                    _make(
                        field_,
                        "vp_table_vp_order",
                        hands=hands,
                        band=i,
                        vp=vp,
                        previous=previous_vp,
                    )
                )
            previous_vp = vp
        if bound is not None:
            previous_bound = bound
        bands.append((bound, vp))
    if type(value[-1]) is list and len(value[-1]) == 2 and value[-1][0] is not None:
        problems.append(_make(field_, "vp_table_last_open", hands=hands))
    return tuple(bands) if len(problems) == before else None


def _parse_tables(value: object, base: Frozen, problems: list[Problem]) -> Frozen | None:
    if not isinstance(value, dict):
        problems.append(
            _make(
                "ruleset.options.vp_tables",
                "invalid_type",
                field="ruleset.options.vp_tables",
                expected="an object",
            )
        )
        return None
    tables = dict(base)
    before = len(problems)
    for key, spec in value.items():
        hands = int(key) if isinstance(key, str) and key in ("2", "3", "4") else None
        if hands is None:
            problems.append(_bad(f"vp_tables.{key}", spec, "turns have 2, 3 or 4 hands"))
        elif spec is None:
            tables.pop(hands, None)  # this club plays no turn of that length
        else:
            table = _parse_table(hands, spec, problems)
            if table is not None:
                tables[hands] = table
    return Frozen(dict(sorted(tables.items()))) if len(problems) == before else None


def parse_ruleset(obj: object, field_: str = "ruleset") -> tuple[Ruleset | None, list[Problem]]:
    """A Ruleset from "fibur" or {"preset": ..., "options": {...}}, or every problem with it."""
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
            _make(field_, "invalid_type", field=field_, expected="a preset name or an object")
        ]
    problems: list[Problem] = []
    for key in obj:
        if key not in ("preset", "options"):
            problems.append(_make(f"{field_}.{key}", "unknown_option", option=key))
    name = obj.get("preset")
    if name is None:
        problems.append(_make(f"{field_}.preset", "missing_field", field=f"{field_}.preset"))
        return None, problems
    if not isinstance(name, str) or name not in PRESETS:
        return None, [*problems, _unknown_preset(name, f"{field_}.preset")]
    base = PRESETS[name]
    options = obj.get("options") or {}
    if not isinstance(options, dict):
        problems.append(
            _make(
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
            problems.append(_make(f"{field_}.options.{option}", "unknown_option", option=option))
        elif option in ("semi_clean", "close_needs_clean"):
            if type(value) is not bool:
                problems.append(_bad(option, value, "it must be true or false"))
            else:
                changes[option] = value
        elif option == "no_pozzetto":
            if not _is_int(value) or value > 0 or value % 5:
                problems.append(_bad(option, value, "it must be a whole multiple of 5, 0 or less"))
            else:
                changes[option] = value
        elif option == "target":
            if not _is_int(value) or value <= 0:
                problems.append(_bad(option, value, "it must be a whole number above 0"))
            else:
                changes[option] = value
        elif option == "bonus":
            bonus = _parse_bonus(value, base.bonus, problems)
            if bonus is not None:
                changes[option] = bonus
        else:
            tables = _parse_tables(value, base.vp_tables, problems)
            if tables is not None:
                changes[option] = tables
    if problems:
        return None, problems
    ruleset = replace(base, **changes) if changes else base
    problems = ruleset_problems(ruleset, field_)
    return (None, problems) if problems else (ruleset, [])


def ruleset_from_json(obj: object) -> Ruleset:
    """A Ruleset from its JSON form (or a preset name); raises InvalidGame listing every problem."""
    ruleset, problems = parse_ruleset(obj)
    if ruleset is None:
        raise InvalidGame(problems)
    return ruleset


def ruleset_problems(ruleset: Ruleset, field_: str = "ruleset") -> list[Problem]:
    """Options that are each valid but do not fit together."""
    if ruleset.semi_clean and "semi" not in ruleset.bonus:
        return [_make(f"{field_}.options.bonus", "semi_bonus_missing")]
    return []


def _unknown_preset(name: object, field_: str) -> Problem:
    return _make(field_, "unknown_preset", preset=str(name)[:60], choices=", ".join(PRESETS))

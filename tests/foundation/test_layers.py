"""The import layers of pyproject.toml's import-linter contracts cover every module.

The contracts list scoring's modules by name (scoring holds both the pure maths, low, and
the standings part, high), so a new module of scoring must be placed in one of them, or
it could be imported from below without any contract noticing.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _contracts() -> list[dict]:
    with open(ROOT / "pyproject.toml", "rb") as handle:
        return tomllib.load(handle)["tool"]["importlinter"]["contracts"]


def _modules(package: str) -> set[str]:
    names = set()
    for path in (ROOT / package).iterdir():
        if path.name.startswith(("_", ".")) or path.name in {"migrations", "management"}:
            continue
        if path.suffix == ".py" or (path / "__init__.py").exists():
            names.add(f"{package}.{path.stem}")
    return names


def test_every_scoring_module_is_placed_in_a_layer() -> None:
    contracts = {c["name"]: c for c in _contracts()}
    pure = set(next(c for c in contracts.values() if "pure code" in c["name"])["source_modules"])
    clubs = next(c for c in contracts.values() if c["source_modules"] == ["clubs"])
    games = next(c for c in contracts.values() if c["source_modules"] == ["games"])
    low = pure | {"scoring.messages"}
    # The standings part: what neither clubs nor games may import.
    high = set(clubs["forbidden_modules"]) & set(games["forbidden_modules"])
    # Modules nothing below imports by nature: app config, URLs and the command line.
    entry_points = {"scoring.apps", "scoring.urls", "scoring.urls_api", "scoring.cli"}
    unplaced = _modules("scoring") - low - high - entry_points
    assert not unplaced, f"place these in pyproject.toml's import-linter contracts: {unplaced}"
    assert not (low & high)


def test_the_pure_layer_forbids_django_and_every_app() -> None:
    pure = next(c for c in _contracts() if "pure code" in c["name"])
    assert {"django", "clubs", "config", "demo"} <= set(pure["forbidden_modules"])
    assert {"games.seating", "games.movements"} <= set(pure["source_modules"])

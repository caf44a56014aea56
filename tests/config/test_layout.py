"""Each game lives in its own packages: no module, package or template named after a game
(burraco_form.py, views_burraco_desk.py) outside a package of that game (games/burraco/,
scoring/barbu/, templates/scoring/burraco/...). A package's part for one game is named
just that (games/models/burraco.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GAMES = ("barbu", "burraco")
CODE = ("clubs", "games", "scoring", "demo", "config", "templates")


def misplaced(root: Path) -> list[str]:
    """Paths under root whose name carries a game's name beside other words while no folder
    above it is that game's."""
    out = []
    for path in sorted(root.rglob("*")):
        relative = path.relative_to(root)
        if "__pycache__" in relative.parts or "migrations" in relative.parts:
            continue
        if path.suffix not in (".py", ".html") and not path.is_dir():
            continue
        name = path.stem if path.is_file() else path.name
        for game in GAMES:
            if game in name and name != game and game not in relative.parts[:-1]:
                out.append(str(relative))
    return out


@pytest.mark.parametrize("package", CODE)
def test_no_module_is_named_after_a_game_outside_its_games_package(package: str) -> None:
    assert misplaced(ROOT / package) == []


def test_the_check_finds_a_misplaced_module(tmp_path: Path) -> None:
    (tmp_path / "games" / "burraco").mkdir(parents=True)
    (tmp_path / "games" / "burraco" / "hand_form.py").write_text("")
    (tmp_path / "games" / "burraco_form.py").write_text("")
    (tmp_path / "scoring").mkdir()
    (tmp_path / "scoring" / "barbu.py").write_text("")
    (tmp_path / "scoring" / "views_barbu").mkdir()
    assert misplaced(tmp_path) == ["games/burraco_form.py", "scoring/views_barbu"]

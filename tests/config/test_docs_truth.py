"""The README and the guides name only what exists: every file path, `make` target,
`manage.py` command, `python -m` module and setting they show in code is checked here, so
a guide cannot go on describing a file or a command after it is renamed or removed."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest
from django.core.management import get_commands

ROOT = Path(__file__).resolve().parents[2]
DOCS = sorted([ROOT / "README.md", *(ROOT / "docs").rglob("*.md")])
TOP = (
    "config",
    "clubs",
    "games",
    "scoring",
    "demo",
    "templates",
    "static",
    "locale",
    "docs",
    "tests",
    "bench",
    "docker",
    "requirements",
    ".ci",
)
# Made by a run, not kept in git: named by the guides as where to look.
MADE = ("var/", "site/", ".venv", "db.sqlite3", "docker/.env", "staticfiles/")
CODE = re.compile(r"```[^\n]*\n(.*?)```|`([^`\n]+)`", re.S)
PATH = re.compile(r"(?<![\w/.:-])((?:\.ci|[a-z_]+)/[\w./-]*[\w/])")
SETTING = re.compile(r"\b([A-Z][A-Z0-9]*_[A-Z0-9_]+)\b")


def code_of(text: str) -> list[str]:
    """The code a Markdown text shows: fenced blocks and inline spans."""
    return [m.group(1) or m.group(2) for m in CODE.finditer(text)]


def paths_in(code: str) -> set[str]:
    found = set()
    for match in PATH.finditer(code):
        path = match.group(1).rstrip(".")
        if path.split("/")[0] in TOP and not path.startswith(MADE) and "<" not in path:
            found.add(path)
    return found


def make_targets() -> set[str]:
    text = (ROOT / "Makefile").read_text()
    return set(re.findall(r"^([a-z][\w-]*):", text, re.M))


def settings_known() -> str:
    parts = [
        *(ROOT / "config").glob("*.py"),
        *(ROOT / "docker").iterdir(),
        ROOT / "Makefile",
        ROOT / ".ci" / "run",
    ]
    return "\n".join(p.read_text() for p in parts if p.is_file())


def problems(text: str) -> list[str]:
    out = []
    targets, commands, known = make_targets(), set(get_commands()), settings_known()
    for code in code_of(text):
        for path in sorted(paths_in(code)):
            if not (ROOT / path).exists():
                out.append(f"no such file: {path}")
        for target in re.findall(r"\bmake\s+(?:-\S+\s+)*([a-z][\w-]*)", code):
            if target not in targets:
                out.append(f"no make target: {target}")
        for command in re.findall(r"manage\.py\s+([a-z_]+)", code):
            if command not in commands:
                out.append(f"no manage.py command: {command}")
        for module in re.findall(r"python\S*\s+-m\s+([\w.]+)", code):
            if importlib.util.find_spec(module) is None:
                out.append(f"no module: {module}")
        for setting in SETTING.findall(code):
            if setting not in known:
                out.append(f"no setting: {setting}")
    return out


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_path_command_and_setting_a_guide_names_exists(doc: Path) -> None:
    assert problems(doc.read_text()) == []


def test_a_renamed_file_a_lost_target_and_an_unknown_setting_are_found() -> None:
    text = (
        "Run `make demo` then `make deploy`; see `games/sql.py` and `games/core/live.py`;\n"
        "```sh\n.venv/bin/python manage.py demo_club\nmanage.py load_everything\n"
        "python -m games.barbu.seating\npython -m games.seating\n```\n"
        "Set `REDIS_URL` and `DB_PREPARED_STATEMENTS`."
    )
    assert problems(text) == [
        "no make target: deploy",
        "no such file: games/sql.py",
        "no manage.py command: load_everything",
        "no module: games.seating",
        "no setting: DB_PREPARED_STATEMENTS",
    ]

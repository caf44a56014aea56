"""`python -m games.burraco.movements`: JSON on standard output; bad input: exit 2 and a message."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[4]


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "games.burraco.movements", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_mitchell() -> None:
    done = run("--method", "mitchell", "--pairs", "16", "--turns", "2")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["turns"][0]["turn"] == 1
    assert out["turns"][0]["tables"][0] == {"table": 1, "NS": 1, "EW": 9}
    assert out["turns"][0]["byes"] == []
    assert out["turns"][1]["tables"][0] == {"table": 1, "NS": 1, "EW": 16}
    assert done.stderr == ""


def test_mitchell_step_and_odd_pairs() -> None:
    done = run("--method", "mitchell", "--pairs", "15", "--turns", "3", "--step", "3")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert [turn["byes"] for turn in out["turns"]] == [[8], [3], [6]]


def test_round_robin() -> None:
    done = run("--method", "round_robin", "--pairs", "4", "--turns", "3")
    assert done.returncode == 0, done.stderr
    turns = json.loads(done.stdout)["turns"]
    met = {frozenset((t["NS"], t["EW"])) for turn in turns for t in turn["tables"]}
    assert len(met) == 6


def test_round_robin_groups() -> None:
    done = run("--method", "round_robin", "--pairs", "12", "--turns", "5", "--groups", "2")
    assert done.returncode == 0, done.stderr
    assert len(json.loads(done.stdout)["turns"][0]["tables"]) == 6


def test_individual() -> None:
    done = run("--method", "individual", "--players", "10", "--turns", "2", "--seed", "4")
    assert done.returncode == 0, done.stderr
    turn = json.loads(done.stdout)["turns"][0]
    assert len(turn["tables"]) == 2 and len(turn["byes"]) == 2
    table = turn["tables"][0]
    assert len(table["NS"]) == 2 and len(table["EW"]) == 2
    assert (
        done.stdout
        == run("--method", "individual", "--players", "10", "--turns", "2", "--seed", "4").stdout
    )


STANDINGS = {
    "pairs": [
        {"pair": 3, "vp": 52, "mp": 410, "previous": 7, "met": [7, 9], "byes": 0},
        {"pair": 7, "vp": 50, "mp": 300, "previous": 3, "met": [3, 1], "byes": 0},
        {"pair": 9, "vp": 41, "mp": 20, "previous": 1, "met": [3, 1], "byes": 0},
        {"pair": 1, "vp": 30, "mp": -90, "previous": 9, "met": [9, 7], "byes": 0},
        {"pair": 5, "vp": 27, "mp": -640, "previous": None, "met": [2], "byes": 1},
        {"pair": 2, "vp": 20, "mp": -700, "previous": None, "met": [5], "byes": 1},
        {"pair": 4, "vp": 10, "mp": -800, "previous": 8, "met": [8], "byes": 0},
    ],
    "last_turn": False,
}


@pytest.mark.parametrize(
    ("variant", "tables"),
    [
        ("pure", [(3, 7), (9, 1), (5, 2)]),
        ("modified", [(3, 9), (7, 1), (5, 2)]),
        # 5 and 2 met: 3v5 (4) + 7v9 (1) + 1v2 (2) = 7, fewer squares than 3v2 + 7v9 + 1v5.
        ("no_rematch", [(3, 5), (7, 9), (1, 2)]),
    ],
)
def test_danese(tmp_path: Path, variant: str, tables: list[tuple[int, int]]) -> None:
    path = tmp_path / "standings.json"
    path.write_text(json.dumps(STANDINGS))
    done = run("--method", "danese", "--variant", variant, "--standings", str(path))
    assert done.returncode == 0, done.stderr
    (turn,) = json.loads(done.stdout)["turns"]
    assert turn["byes"] == [4]  # the lowest-ranked pair among those with no bye
    assert [(t["NS"], t["EW"]) for t in turn["tables"]] == tables


def test_danese_from_standard_input() -> None:
    done = run(
        "--method",
        "danese",
        "--variant",
        "pure",
        "--standings",
        "-",
        stdin=json.dumps(STANDINGS),
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["turns"][0]["tables"][0] == {"table": 1, "NS": 3, "EW": 7}


def test_an_unavoidable_rematch_is_said_on_standard_error() -> None:
    standings = {
        "pairs": [
            {"pair": 1, "previous": 2, "met": [2, 3, 4]},
            {"pair": 2, "previous": 1, "met": [1, 3, 4]},
            {"pair": 3, "met": [1, 2, 4]},
            {"pair": 4, "met": [1, 2, 3]},
        ]
    }
    done = run(
        "--method",
        "danese",
        "--variant",
        "no_rematch",
        "--standings",
        "-",
        stdin=json.dumps(standings),
    )
    assert done.returncode == 0
    assert json.loads(done.stdout)["turns"][0]["tables"][0] == {"table": 1, "NS": 1, "EW": 2}
    assert "note: no pairing avoids an earlier opponent: 1 v 2, 3 v 4 meet again" in done.stderr
    two = {"pairs": [{"pair": 5, "previous": 6}, {"pair": 6, "previous": 5}]}
    done = run(
        "--method", "danese", "--variant", "modified", "--standings", "-", stdin=json.dumps(two)
    )
    assert "their previous opponent: 5 v 6 meets again" in done.stderr
    done = run("--method", "danese", "--variant", "pure", "--standings", "-", stdin=json.dumps(two))
    assert done.stderr == ""


def _refused(done: subprocess.CompletedProcess[str], code: str, words: str) -> None:
    assert done.returncode == 2
    assert words in done.stderr
    assert done.stderr.count("error:") == 1
    (error,) = json.loads(done.stdout)["errors"]
    assert error["code"] == code
    assert words in error["message"]


@pytest.mark.parametrize(
    ("args", "code", "words"),
    [
        (["--pairs", "8", "--turns", "2"], "usage", "--method"),
        (["--method", "mitchell", "--turns", "2"], "usage", "needs --pairs"),
        (["--method", "mitchell", "--pairs", "eight", "--turns", "2"], "usage", "'eight'"),
        (
            ["--method", "mitchell", "--pairs", "8", "--turns", "2", "--seed", "1"],
            "usage",
            "--seed does not apply",
        ),
        (["--method", "swiss"], "usage", "invalid choice"),
        (["--method", "mitchell", "--pairs", "8", "--turns", "5"], "too_many_turns", "at most 4"),
        (
            ["--method", "mitchell", "--pairs", "8", "--turns", "2", "--step", "4"],
            "invalid_step",
            "between 1 and 3",
        ),
        (["--method", "mitchell", "--pairs", "1", "--turns", "1"], "too_few_pairs", "at least 2"),
        (
            ["--method", "round_robin", "--pairs", "6", "--turns", "6"],
            "too_many_turns",
            "at most 5",
        ),
        (
            ["--method", "individual", "--players", "3", "--turns", "1"],
            "too_few_players",
            "at least 4",
        ),
        (
            ["--method", "individual", "--players", "8", "--turns", "0"],
            "invalid_turns",
            "1 or more",
        ),
        (["--method", "danese", "--variant", "pure"], "usage", "needs --standings"),
        (
            ["--method", "danese", "--variant", "pure", "--standings", "/nonexistent/s.json"],
            "file_not_found",
            "/nonexistent/s.json",
        ),
    ],
)
def test_bad_command_lines(args: list[str], code: str, words: str) -> None:
    _refused(run(*args), code, words)


@pytest.mark.parametrize(
    ("standings", "code", "words"),
    [
        ("{not json", "invalid_standings", "not JSON"),
        ('{"pairs": [{"pair": 1}, {"pair": 2}], "last_turn": NaN}', "invalid_standings", "NaN"),
        ("[]", "invalid_standings", "expected an object"),
        ('{"pairs": []}', "invalid_standings", "non-empty list"),
        ('{"pairs": [{"pair": 1}, {"pair": 1}]}', "duplicate_pair", "pair 1 is listed twice"),
        ('{"pairs": [{"pair": 0}, {"pair": 2}]}', "invalid_standings", "pairs[0].pair"),
        ('{"pairs": [{"pair": 1, "met": [1]}, {"pair": 2}]}', "invalid_standings", "pairs[0].met"),
        ('{"pairs": [{"pair": 1, "vp": "x"}, {"pair": 2}]}', "invalid_standings", "pairs[0].vp"),
        ('{"pairs": [{"pair": 1, "byes": -1}, {"pair": 2}]}', "invalid_standings", "pairs[0].byes"),
        (
            '{"pairs": [{"pair": 1, "previous": true}, {"pair": 2}]}',
            "invalid_standings",
            "pairs[0].previous",
        ),
        (
            '{"pairs": [{"pair": 1, "team": 4}, {"pair": 2}]}',
            "invalid_standings",
            "unknown key 'team'",
        ),
        (
            '{"pairs": [{"pair": 1}, {"pair": 2}], "last_turn": "no"}',
            "invalid_standings",
            "last_turn",
        ),
        ('{"pairs": [{"pair": 1}]}', "too_few_pairs", "at least 2 pairs"),
    ],
)
def test_bad_standings(standings: str, code: str, words: str) -> None:
    done = run("--method", "danese", "--variant", "no_rematch", "--standings", "-", stdin=standings)
    _refused(done, code, words)


def test_standings_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    path.write_bytes(b'{"pairs": [{"pair": 1}], "x": "\xff"}')
    done = run("--method", "danese", "--variant", "pure", "--standings", str(path))
    _refused(done, "invalid_standings", "not UTF-8")

"""The seating command, run as organisers run it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[4]


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "games.barbu.seating", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_prints_plan_as_json() -> None:
    result = run("--players", "17", "--rounds", "3", "--seed", "5", "--time-limit", "0.5")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["repeats"] == 0
    assert len(data["rounds"]) == 3
    for round_data in data["rounds"]:
        assert len(round_data["tables"]) == 4
        assert len(round_data["byes"]) == 1
        seated = [p for table in round_data["tables"] for p in table]
        assert sorted(seated + round_data["byes"]) == list(range(1, 18))
    assert len({r["byes"][0] for r in data["rounds"]}) == 3


def test_same_seed_same_output() -> None:
    outputs = []
    for args in (
        ("--players", "24", "--rounds", "7", "--seed", "11"),
        ("--players", "21", "--rounds", "6", "--seed", "11", "--time-limit", "1"),
    ):
        first, second = run(*args), run(*args)
        assert first.returncode == 0
        if any(json.loads(r.stdout)["stopped_by_time_limit"] for r in (first, second)):
            pytest.skip("machine too busy for the work budget")
        assert first.stdout == second.stdout
        outputs.append(json.loads(first.stdout))
    assert outputs[0]["repeats"] == 0  # a known construction: 24 players, 7 rounds


def test_bad_arguments_exit_2() -> None:
    for args in (("--players", "3"), ("--players", "0"), ("--players", "x"), ("--rounds", "2")):
        result = run(*args)
        assert result.returncode == 2
        assert result.stderr
        assert not result.stdout


def test_method_option() -> None:
    result = run("--players", "8", "--method", "swiss")
    assert result.returncode == 0
    assert json.loads(result.stdout)["rounds"][0]["tables"] == [[1, 2, 3, 4], [5, 6, 7, 8]]

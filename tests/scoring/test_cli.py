"""The `python -m scoring score` command: output and exit codes, run as a subprocess."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

from scoring.engine.barbu import score_game
from scoring.engine.barbu.randomgame import random_game
from tests.scoring.engine.barbu.records import RESULTS, deal, game

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str, stdin: str | bytes = b"") -> subprocess.CompletedProcess[bytes]:
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    data = stdin.encode() if isinstance(stdin, str) else stdin
    return subprocess.run(
        [sys.executable, "-m", "scoring", *args],
        input=data,
        capture_output=True,
        cwd=ROOT,
        env=env,
        timeout=60,
        check=False,
    )


def test_scores_from_stdin():
    record = random_game(random.Random(1), "italian7")
    proc = run("score", "-", stdin=json.dumps(record))
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == score_game(record)


def test_scores_from_file(tmp_path):
    record = game([deal("barbu", RESULTS["barbu"])])
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    proc = run("score", str(path))
    assert proc.returncode == 0
    assert json.loads(proc.stdout)["totals"] == {"Anna": 0, "Bruno": 0, "Carla": -20, "Dario": 0}


def test_invalid_game_exit_2():
    record = game([deal("no_tricks", {"tricks": {"Anna": 12}})])
    proc = run("score", "-", stdin=json.dumps(record))
    assert proc.returncode == 2
    assert json.loads(proc.stdout) == {
        "errors": [
            {
                "deal": 1,
                "field": "result.tricks",
                "code": "tricks_total",
                "params": {"total": 12},
                "message": "tricks add up to 12, not 13",
            }
        ]
    }


def test_invalid_json_exit_2():
    proc = run("score", "-", stdin="{not json")
    assert proc.returncode == 2
    (error,) = json.loads(proc.stdout)["errors"]
    assert error["code"] == "invalid_json"
    assert error["deal"] is None


def test_not_utf8_exit_2():
    proc = run("score", "-", stdin=b"\xff\xfe{")
    assert proc.returncode == 2
    assert json.loads(proc.stdout)["errors"][0]["code"] == "invalid_json"


def test_missing_file_exit_2(tmp_path):
    proc = run("score", str(tmp_path / "nope.json"))
    assert proc.returncode == 2
    assert json.loads(proc.stdout)["errors"][0]["code"] == "file_not_found"


def test_usage_exit_2():
    for args in ((), ("scores", "-"), ("score",)):
        proc = run(*args)
        assert proc.returncode == 2
        assert json.loads(proc.stdout)["errors"][0]["code"] == "usage"


def test_help():
    proc = run("--help")
    assert proc.returncode == 0
    assert b"python -m scoring score" in proc.stdout


def test_unicode_names_round_trip():
    record = game([deal("barbu", {"king_of_hearts": "Carla"})])
    record["players"][0] = "Zoë"
    record["deals"][0]["dealer"] = "Zoë"
    proc = run("score", "-", stdin=json.dumps(record, ensure_ascii=False))
    assert proc.returncode == 0
    assert "Zoë" in json.loads(proc.stdout.decode("utf-8"))["totals"]


def test_engine_and_command_import_no_django():
    code = (
        "import sys, scoring.engine, scoring.engine.barbu.randomgame, scoring.cli; "
        "assert not [m for m in sys.modules if m.split('.')[0] == 'django'], 'django imported'"
    )
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, check=True, timeout=60)


def test_nan_and_infinity_are_not_json():
    # Python's json module reads NaN/Infinity, but they are not JSON (RFC 8259).
    for constant in ("NaN", "Infinity", "-Infinity"):
        text = '{"ruleset": "italian7", "players": ["a", "b", "c", "d"], "deals": [], "x": %s}'
        proc = run("score", "-", stdin=text % constant)
        assert proc.returncode == 2, constant
        (error,) = json.loads(proc.stdout)["errors"]
        assert error["code"] == "invalid_json"
        assert constant in error["message"]


def test_lone_surrogate_in_a_name_still_gives_json():
    # "\ud800" is a valid JSON escape but not a character: the output must stay JSON.
    record = '{"ruleset": "italian7", "players": ["\\ud800", "b", "c", "d"], "deals": []}'
    proc = run("score", "-", stdin=record)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["totals"]["\ud800"] == 0
    bad = record.replace('"\\ud800"', '"a"').replace("[]}", '[{"dealer": "\\udc00"}]}')
    proc = run("score", "-", stdin=bad)
    assert proc.returncode == 2, proc.stderr
    assert json.loads(proc.stdout)["errors"][0]["params"] == {"name": "\udc00"}

"""`python -m scoring score` on Burraco records: output and exit codes, run as a subprocess."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

from scoring.engine.burraco.randommatch import random_turn
from scoring.engine.records import score_record
from tests.scoring.engine.burraco.records import FORMAT_HAND, record

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


def test_format_md_example_from_a_file(tmp_path):
    path = tmp_path / "turn.json"
    path.write_text(json.dumps(record([FORMAT_HAND])), encoding="utf-8")
    proc = run("score", str(path))
    assert proc.returncode == 0, proc.stderr
    scores = json.loads(proc.stdout)
    assert scores["hands"][0]["NS"] == {"cards": 535, "bonus": 400, "pozzetto": 0, "score": 935}
    assert scores["result"] == {"difference": 885, "winner": "NS", "vp": {"NS": 17, "EW": 3}}
    assert proc.stderr == b""


def test_random_turn_from_stdin_equals_the_engine():
    rec = random_turn(random.Random(7), "fibur", 4)
    proc = run("score", "-", stdin=json.dumps(rec))
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == score_record(rec)


def test_invalid_burraco_record_exit_2_with_hands():
    rec = record([FORMAT_HAND, {**FORMAT_HAND, "closed": "EW"}])
    proc = run("score", "-", stdin=json.dumps(rec))
    assert proc.returncode == 2
    assert json.loads(proc.stdout) == {
        "errors": [
            {
                "hand": 2,
                "field": "closed",
                "code": "close_without_pozzetto",
                "params": {"line": "EW"},
                "message": "EW closed without having taken its pozzetto",
            },
            {
                "hand": 2,
                "field": "closed",
                "code": "close_without_burraco",
                "params": {"line": "EW"},
                "message": "EW closed without a burraco",
            },
        ]
    }


def test_unknown_game_exit_2():
    proc = run("score", "-", stdin='{"game": "scopa", "hands": []}')
    assert proc.returncode == 2
    (error,) = json.loads(proc.stdout)["errors"]
    assert (error["code"], error["field"], error["deal"]) == ("unknown_game", "game", None)
    assert error["message"] == "there is no game called scopa; choose one of barbu, burraco"


def test_barbu_record_still_scores():
    barbu = {
        "ruleset": "italian7",
        "players": ["Anna", "Bruno", "Carla", "Dario"],
        "deals": [
            {
                "dealer": "Anna",
                "contract": "barbu",
                "result": {"king_of_hearts": "Carla"},
                "doubles": [{"by": "Bruno", "against": "Anna"}],
            }
        ],
    }
    proc = run("score", "-", stdin=json.dumps(barbu))
    assert proc.returncode == 0, proc.stdout
    assert json.loads(proc.stdout)["totals"]["Carla"] == -20
    proc = run("score", "-", stdin=json.dumps({**barbu, "game": "barbu"}))
    assert proc.returncode == 0, proc.stdout


def test_only_json_on_stdout_for_every_kind_of_failure(tmp_path):
    for args, stdin in [
        (("score", str(tmp_path / "missing.json")), b""),
        (("score", "-"), b'{"game": "burraco"'),
        (("score", "-"), json.dumps(record(["x"])).encode()),
    ]:
        proc = run(*args, stdin=stdin)
        assert proc.returncode == 2
        assert "errors" in json.loads(proc.stdout)


def test_engine_and_command_import_no_django():
    code = (
        "import sys, scoring.engine, scoring.engine.burraco, scoring.engine.records, "
        "scoring.engine.burraco.randommatch, scoring.cli; "
        "assert not [m for m in sys.modules if m.split('.')[0] == 'django'], 'django imported'"
    )
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, check=True, timeout=60)

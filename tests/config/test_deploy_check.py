"""Production settings pass `manage.py check --deploy`; the default insecure key does not."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

# Slow: each test starts a fresh Django process (manage.py check --deploy).
pytestmark = pytest.mark.slow

PRODUCTION_KEY = "q7Vd2-Lk9pXz4Rm8Wn3Bc6Hf1Jt5Ys0Ge7Ua2Oi9Pl4Kx8Zw3Nv6Mb1Qr5Ts0Ey"


def run_check(tmp_path: Path, **env: str) -> subprocess.CompletedProcess:
    """`manage.py check --deploy --fail-level WARNING` in a fresh process with this env."""
    base = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "REDIS_URL", "SECRET_KEY", "DEBUG", "HTTPS"}
        # The browser tests allow sync ORM calls next to Playwright's event loop in this
        # process; a production process never has that switch.
        and k != "DJANGO_ALLOW_ASYNC_UNSAFE"
    }
    base.update(
        {
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DATABASE_URL": f"sqlite:///{tmp_path / 'deploy.sqlite3'}",
        }
    )
    base.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=settings.BASE_DIR,
        env=base,
        capture_output=True,
        text=True,
        timeout=120,
    )


PRODUCTION = {
    "DEBUG": "0",
    "SECRET_KEY": PRODUCTION_KEY,
    "HTTPS": "1",
    "ALLOWED_HOSTS": "example.org",
    "STATIC_MANIFEST": "1",
}


def test_production_settings_pass_the_deploy_check_without_warnings(tmp_path):
    assert len(PRODUCTION_KEY) >= 50 and len(set(PRODUCTION_KEY)) >= 5
    result = run_check(tmp_path, **PRODUCTION)
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "WARNING" not in output, output
    # Nothing silenced either: no check is hidden from the guard.
    assert "System check identified no issues (0 silenced)." in output


def test_the_default_insecure_key_fails_the_deploy_check(tmp_path):
    env = dict(PRODUCTION)
    env["SECRET_KEY"] = ""  # settings fall back to the built-in development key
    result = run_check(tmp_path, **env)
    output = result.stdout + result.stderr
    assert result.returncode != 0
    assert "security.W009" in output  # Django's check of a weak SECRET_KEY


def test_without_https_the_deploy_check_warns(tmp_path):
    # The entrypoint's guard also catches a production site left on plain HTTP.
    env = dict(PRODUCTION)
    env["HTTPS"] = "0"
    result = run_check(tmp_path, **env)
    output = result.stdout + result.stderr
    assert result.returncode != 0
    assert "security.W008" in output  # SECURE_SSL_REDIRECT

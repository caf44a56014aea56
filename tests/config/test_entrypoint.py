"""docker/entrypoint.sh run for real (Docker cannot run here): the web role guards, then
starts gunicorn with config/gunicorn_conf.py, listening on loopback and the container's
own address, never on every address."""

from __future__ import annotations

import ipaddress
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

from tests.config.gunicorn_server import DROPPED

pytestmark = pytest.mark.slow  # a fresh Django process and `check --deploy`

PRODUCTION = {
    "DEBUG": "0",
    "SECRET_KEY": "q7Vd2-Lk9pXz4Rm8Wn3Bc6Hf1Jt5Ys0Ge7Ua2Oi9Pl4Kx8Zw3Nv6Mb1Qr5Ts0Ey",
    "HTTPS": "1",
    "ALLOWED_HOSTS": "example.org",
    "STATIC_MANIFEST": "1",
}


def run_web_role(tmp_path: Path, **env: str) -> str:
    """The entrypoint's web role with a stand-in gunicorn that prints how it was started."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake = bin_dir / "gunicorn"
    fake.write_text('#!/bin/sh\necho "gunicorn $*"\necho "BIND=$BIND"\n')
    fake.chmod(0o755)
    environment = {k: v for k, v in os.environ.items() if k not in DROPPED | {"SECRET_KEY"}}
    environment.update(
        PRODUCTION,
        DJANGO_SETTINGS_MODULE="config.settings",
        DATABASE_URL=f"sqlite:///{tmp_path / 'entry.sqlite3'}",
        PATH=os.pathsep.join([str(bin_dir), str(Path(sys.executable).parent), os.environ["PATH"]]),
        **env,
    )
    result = subprocess.run(
        [shutil.which("sh") or "/bin/sh", "docker/entrypoint.sh", "web"],
        cwd=settings.BASE_DIR,
        env=environment,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def test_the_web_role_listens_on_loopback_and_the_container_s_own_address(tmp_path):
    out = run_web_role(tmp_path, PORT="8042")
    assert "gunicorn -c config/gunicorn_conf.py config.wsgi:application" in out
    bind = out.split("BIND=", 1)[1].split()[0].split(",")
    assert bind[0] == "127.0.0.1:8042"
    for address in bind:
        host, port = address.rsplit(":", 1)
        assert port == "8042"
        assert not ipaddress.ip_address(host).is_unspecified, bind


def test_bind_given_is_kept(tmp_path):
    out = run_web_role(tmp_path, BIND="10.1.2.3:9000")
    assert "BIND=10.1.2.3:9000" in out

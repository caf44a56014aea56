"""gunicorn as the web container runs it (config/gunicorn_conf.py): where it listens, and
the warning when NUM_PROXIES trusts X-Forwarded-For on a public address."""

from __future__ import annotations

import runpy
import socket
from pathlib import Path

import pytest
from django.conf import settings

from tests.config.gunicorn_server import Gunicorn, free_port

CONF = runpy.run_path(str(Path(settings.BASE_DIR) / "config" / "gunicorn_conf.py"))


@pytest.mark.parametrize(
    ("host", "public"),
    [
        ("0.0.0.0", True),
        ("::", True),
        ("203.0.113.7", False),  # documentation range: not routable
        ("8.8.8.8", True),
        ("2a00:1450:4001:81a::200e", True),
        ("127.0.0.1", False),
        ("::1", False),
        ("172.18.0.5", False),  # a container on its compose network
        ("10.0.0.4", False),
        ("192.168.1.20", False),
        ("fe80::1%eth0", False),
        ("web.example.org", True),
    ],
)
def test_which_addresses_are_public(host, public):
    assert CONF["is_public"](host) is public


def test_the_warning_names_the_public_listeners_only_with_num_proxies():
    with socket.socket() as local, socket.socket(socket.AF_INET6) as every:
        local.bind(("127.0.0.1", 0))
        every.bind(("::", 0))
        port = every.getsockname()[1]
        warning = CONF["listening_warning"]
        assert warning([local], 1) is None
        assert warning([local, every], 0) is None
        text = warning([local, every], 1)
    assert text.startswith(f"gunicorn listens on [::]:{port}, a public address")
    assert "NUM_PROXIES=1" in text and "X-Forwarded-For" in text


def test_by_default_gunicorn_listens_on_loopback_only(monkeypatch):
    monkeypatch.delenv("BIND", raising=False)
    monkeypatch.setenv("PORT", "8123")
    assert runpy.run_path(str(Path(settings.BASE_DIR) / "config" / "gunicorn_conf.py"))["bind"] == [
        "127.0.0.1:8123"
    ]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("bind", "num_proxies", "warned"),
    [("0.0.0.0", "1", True), ("127.0.0.1", "1", False), ("0.0.0.0", "0", False)],
)
def test_gunicorn_warns_at_start_when_it_listens_publicly_behind_trusted_proxies(
    bind, num_proxies, warned
):
    server = Gunicorn(f"{bind}:{free_port()}", NUM_PROXIES=num_proxies)
    try:
        server.wait_until_booted()
    finally:
        log = server.stop()
    assert ("a public address, while NUM_PROXIES" in log) is warned, log
    if warned:
        assert "[WARNING] gunicorn listens on 0.0.0.0:" in log

"""gunicorn as the web container runs it (config/gunicorn_conf.py): where it listens, the
warning when NUM_PROXIES trusts X-Forwarded-For on a public address, and the request
lines it leaves to Tavolo."""

from __future__ import annotations

import http.client
import json
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


def test_several_processes_without_a_shared_cache_are_warned_of():
    warning = CONF["cache_warning"]
    assert warning(1, "") is None
    assert warning(3, "redis://redis:6379/0") is None
    text = warning(3, "")
    assert text.startswith("gunicorn starts 3 worker processes without REDIS_URL")
    assert "304" in text and "WEB_CONCURRENCY=1" in text


class _Log:
    def __init__(self) -> None:
        self.warnings: list[str] = []

    def warning(self, text: str) -> None:
        self.warnings.append(text)


class _Server:
    def __init__(self, workers: int) -> None:
        self.LISTENERS: list = []
        self.cfg = type("Cfg", (), {"workers": workers})()
        self.log = _Log()


@pytest.mark.parametrize(
    ("workers", "redis_url", "warned"), [(2, "", True), (2, "redis://r/0", False), (1, "", False)]
)
def test_gunicorn_says_so_at_start(monkeypatch, workers, redis_url, warned):
    monkeypatch.setenv("REDIS_URL", redis_url)
    monkeypatch.delenv("NUM_PROXIES", raising=False)
    server = _Server(workers)
    CONF["when_ready"](server)
    assert [w.split(" worker")[0] for w in server.log.warnings] == (
        [f"gunicorn starts {workers}"] if warned else []
    )


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


def _get(port: int, target: str) -> tuple[int, str, str]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request("GET", target)
        answer = connection.getresponse()
        return answer.status, answer.getheader("Content-Type", ""), answer.read().decode()
    finally:
        connection.close()


@pytest.mark.slow
def test_an_over_long_request_line_under_the_api_is_answered_in_the_api_s_shape():
    port = free_port()
    server = Gunicorn(f"127.0.0.1:{port}")
    try:
        server.wait_until_booted()
        # Just over Tavolo's limit (gunicorn's old one, where it answered HTML).
        over = "/api/v1/games/?name=" + "x" * settings.REQUEST_LINE_LIMIT
        api = _get(port, over)
        page = _get(port, "/?q=" + "x" * settings.REQUEST_LINE_LIMIT)
        beyond = _get(port, "/api/v1/games/?name=" + "x" * 9000)
    finally:
        log = server.stop()
    status, content_type, body = api
    assert (status, content_type) == (414, "application/json"), (api, log)
    error = json.loads(body)
    assert error["status"] == 414 and error["code"] == "too_long"
    assert error["params"] == {"limit": settings.REQUEST_LINE_LIMIT}
    assert str(settings.REQUEST_LINE_LIMIT) in error["message"] and error["errors"] == []
    assert page[0] == 414 and page[1].startswith("text/plain")
    # Past gunicorn's own most (8190 bytes) gunicorn answers, as operators.md says.
    assert beyond[0] == 414 and beyond[1] == "text/html"

"""One Chromium for the browser tests (Debian's, driven by Playwright's sync API)."""

from __future__ import annotations

import os

import pytest

# Playwright's sync API keeps an event loop in this thread; the test's own ORM reads
# (no request handling happens here) are safe all the same.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="session", autouse=True)
def compiled_catalogues() -> None:
    """Django's cache of the .mo files forgotten, so the Italian run sees the current
    catalogue (compiled once before the run: tests/conftest.py's pytest_sessionstart)."""
    from django.utils.translation import trans_real

    trans_real._translations = {}
    trans_real._default = None


@pytest.fixture(scope="session")
def axe():
    from axe_playwright_python.sync_playwright import Axe

    return Axe()

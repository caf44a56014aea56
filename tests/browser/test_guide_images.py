"""The guides' screenshots (docs/img/) are taken by this test from the demo clubs.

`make docs-screenshots` (GUIDE_SCREENSHOTS=1) writes them into docs/img/, to commit. In the
normal run the same pictures are taken into a temporary folder and compared with what
the guides show: the test must still be able to take every picture a guide references
(the pages, the demo's tables and the choices made on them still exist), it takes no
picture a guide does not use, and each committed picture has the size it would be taken
at now. tests/config/test_docs_images.py checks the committed files without a browser.
"""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.conf import settings

from demo.loader import load_demo
from tests.browser.guide_shots import (
    IMAGES,
    SHOTS,
    Shot,
    compressed,
    png_size,
    referenced_images,
    shot_names,
)
from tests.browser.walk import log_in

pytestmark = [pytest.mark.browser]

WRITE = os.environ.get("GUIDE_SCREENSHOTS", "") not in {"", "0"}


def take(browser, base: str, shot: Shot) -> bytes:
    """The shot's page as the screen shows it, after its preparation, compressed."""
    context = browser.new_context(viewport=shot.viewport, locale=shot.language)
    cookie = {"name": settings.LANGUAGE_COOKIE_NAME, "value": shot.language}
    context.add_cookies([{**cookie, "domain": urlsplit(base).hostname, "path": "/"}])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        if shot.organiser:
            log_in(page, base, shot.language)
        response = page.goto(base + shot.path(shot.language))
        assert response is not None and response.status == 200, f"{shot.name}: {response}"
        if shot.prepare:
            shot.prepare(page)
        page.wait_for_load_state("networkidle")
        assert not errors, f"{shot.name}: {errors}"
        return compressed(page.screenshot())
    finally:
        context.close()


@pytest.mark.django_db(transaction=True)
def test_the_guides_pictures_are_taken_from_the_demo(browser, live_server, tmp_path) -> None:
    """The demo clubs, freshly loaded, photographed page by page (a chosen seat or line
    lives in the browser's session: the pictures only read the demo)."""
    load_demo(force=True)
    folder = IMAGES if WRITE else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.png"):
        if old.name not in shot_names():
            old.unlink()  # a picture no guide shows any more
    for shot in SHOTS:
        (folder / f"{shot.name}.png").write_bytes(take(browser, live_server.url, shot))
    made = {path.name for path in folder.glob("*.png")}
    assert made == shot_names()
    assert made == set(referenced_images()), "the guides show other pictures than these"
    for name in sorted(made):
        committed = Path(IMAGES / name)
        assert committed.exists(), f"docs/img/{name} is not there: make docs-screenshots"
        taken = png_size((folder / name).read_bytes())
        assert png_size(committed.read_bytes()) == taken, f"{name} is out of date"

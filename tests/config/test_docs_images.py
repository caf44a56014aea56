"""The guides' screenshots (docs/img/) without a browser: each image a guide shows is
there, is one the browser test takes (tests/browser/guide_shots.py), at the size it takes
it, and they stay small. `make docs-screenshots` takes them anew;
tests/browser/test_guide_images.py checks in Chromium that every one can still be taken."""

from __future__ import annotations

import re

from tests.browser.guide_shots import (
    IMAGE_LINK,
    IMAGES,
    MARKDOWN,
    SHOTS,
    png_size,
    prose,
    referenced_images,
    shot_names,
)

# All the pictures together, in bytes: a palette PNG of a page is 20-45 KB.
BUDGET = 450_000


def test_every_image_a_guide_shows_is_committed() -> None:
    missing = {
        name: guides for name, guides in referenced_images().items() if not (IMAGES / name).exists()
    }
    assert not missing, f"shown by a guide but not in docs/img/ (make docs-screenshots): {missing}"


def test_the_guides_show_exactly_the_pictures_the_test_takes() -> None:
    shown = set(referenced_images())
    assert shown == shot_names(), (
        f"taken but shown by no guide: {sorted(shot_names() - shown)}; "
        f"shown but never taken: {sorted(shown - shot_names())}"
    )
    assert {path.name for path in IMAGES.glob("*")} == shot_names()


def test_each_picture_has_the_size_of_its_screen() -> None:
    for shot in SHOTS:
        size = png_size((IMAGES / f"{shot.name}.png").read_bytes())
        assert size == (shot.viewport["width"], shot.viewport["height"]), shot.name


def test_the_pictures_stay_small() -> None:
    total = sum(path.stat().st_size for path in IMAGES.glob("*.png"))
    assert total < BUDGET, f"docs/img/ holds {total} bytes"


def test_every_picture_of_the_guides_is_one_of_docs_img() -> None:
    """A picture from elsewhere (another folder, a JPEG, the web) would escape the checks."""
    pictures = re.compile(r"!\[[^\]]*\]\(([^)]+)\)")
    for doc in MARKDOWN:
        for target in pictures.findall(prose(doc.read_text())):
            assert IMAGE_LINK.fullmatch(f"]({target})"), f"{doc.name}: {target}"


def test_pictures_are_found_in_prose_and_not_in_code() -> None:
    text = (
        "![a](img/desk-1200.png) and `![b](img/shown-as-code.png)`\n"
        "```md\n![c](img/in-a-block.png)\n```\n![d](../img/from-rules.png)"
    )
    assert IMAGE_LINK.findall(prose(text)) == ["img/desk-1200.png", "../img/from-rules.png"]

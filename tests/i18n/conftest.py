"""Compile the catalogues before the language tests, as `make test` does."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.utils.translation import trans_real


@pytest.fixture(scope="session", autouse=True)
def compiled_catalogues() -> None:
    """Fresh .mo files (they are git-ignored), and Django's cache of them forgotten."""
    call_command("compile_catalogues", verbosity=0)
    trans_real._translations = {}
    trans_real._default = None
    if hasattr(trans_real, "translation_catalog_exists"):
        trans_real.translation_catalog_exists.cache_clear()

"""The language tests read the catalogues compiled before the run (tests/conftest.py)."""

from __future__ import annotations

import pytest
from django.utils.translation import trans_real


@pytest.fixture(scope="session", autouse=True)
def compiled_catalogues() -> None:
    """Django's cache of the .mo files forgotten (they are compiled once before the run,
    and before any xdist worker starts: tests/conftest.py's pytest_sessionstart)."""
    trans_real._translations = {}
    trans_real._default = None
    if hasattr(trans_real, "translation_catalog_exists"):
        trans_real.translation_catalog_exists.cache_clear()

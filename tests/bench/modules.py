"""The benchmark scripts of bench/ loaded as modules, for the tests of their parts."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from django.conf import settings

BENCH = Path(settings.BASE_DIR) / "bench"


def bench_module(name: str) -> ModuleType:
    """bench/<name>.py, loaded anew, with bench/ importable as its scripts expect."""
    spec = importlib.util.spec_from_file_location(f"{name}_under_test", BENCH / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    if str(BENCH) not in sys.path:
        sys.path.insert(0, str(BENCH))
    spec.loader.exec_module(module)
    return module

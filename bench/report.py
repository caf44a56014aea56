"""Where every benchmark writes: its own section of bench/RESULTS.md, and the machine it ran on."""

from __future__ import annotations

import os
import platform
import re
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "RESULTS.md"


def machine() -> str:
    """The machine in one line: architecture, cores, Python and the system."""
    return (
        f"{platform.machine()}, nproc {os.cpu_count()}, Python {platform.python_version()} "
        f"({platform.python_implementation()}), {platform.system()}"
    )


def write_section(heading: str, text: str, results: Path = RESULTS) -> None:
    """Put `text` (which starts with its `heading`, e.g. "## Seating") in place of that
    section of `results`, or after the last one; every other section is kept as it is."""
    body = results.read_text() if results.exists() else "# Benchmark results\n"
    pattern = re.compile(rf"^{re.escape(heading)}\n.*?(?=^## |\Z)", re.S | re.M)
    if pattern.search(body):
        body = pattern.sub(lambda _match: text.rstrip("\n") + "\n\n", body)
    else:
        body = body.rstrip("\n") + "\n\n" + text
    results.write_text(body.rstrip("\n") + "\n")

"""Run every bench/bench_*.py in turn (`make bench`); each writes its own section of RESULTS.md."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent


def main(argv: list[str]) -> int:
    """Run the scripts whose names contain any of argv (all when none), and report each."""
    scripts = sorted(BENCH.glob("bench_*.py"))
    if argv:
        scripts = [s for s in scripts if any(word in s.name for word in argv)]
    if not scripts:
        print("no benchmark scripts matched", file=sys.stderr)
        return 1
    failed = []
    for script in scripts:
        print(f"== {script.name}", flush=True)
        started = time.perf_counter()
        # Each in its own process, from the repository root, as its docstring says to run it.
        code = subprocess.call([sys.executable, str(script)], cwd=BENCH.parent)
        print(f"== {script.name}: exit {code} in {time.perf_counter() - started:.1f} s", flush=True)
        if code:
            failed.append(script.name)
    if failed:
        print(f"failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    print(f"all {len(scripts)} benchmarks ran; results in {BENCH / 'RESULTS.md'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

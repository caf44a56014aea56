"""What the phone benchmarks share (bench_table_page.py, phone_saves.py, bench_viewer.py,
capacity_phones.py): Chromium and a mid-range phone's emulation, and a site with
production settings on SQLite served by gunicorn."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
PHONE = {"width": 390, "height": 844}
NETWORK = {
    "offline": False,
    "latency": 150,  # ms, round trip
    "downloadThroughput": 1_600_000 / 8,  # bytes/s
    "uploadThroughput": 750_000 / 8,
}
CPU_SLOWDOWN = 4


def manage(env: dict[str, str], *args: str) -> str:
    """manage.py with these arguments, on the bench's site: its output (on failure, the
    benchmark stops with the command's error)."""
    python = str(ROOT / ".venv" / "bin" / "python")
    done = subprocess.run(
        [python, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True
    )
    if done.returncode:
        sys.exit(f"manage.py {args[0]} failed:\n{done.stderr[-3000:]}")
    return done.stdout


def production_site(folder: Path) -> dict[str, str]:
    """A site with production settings in `folder`: a SQLite database, migrated, and the
    static files collected as production serves them (hashed names, compressed by
    whitenoise); its environment. No Redis: the cache is the process's own."""
    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DATABASE_URL=f"sqlite:///{folder / 'bench.sqlite3'}",
        DEBUG="0",
        STATIC_MANIFEST="1",
        STATIC_ROOT=str(folder / "static"),
        LOG_LEVEL="ERROR",
    )
    env.pop("REDIS_URL", None)
    manage(env, "migrate", "-v", "0")
    manage(env, "compile_catalogues", "-v", "0")
    manage(env, "collectstatic", "--noinput", "-v", "0")
    return env


def start_site(env: dict[str, str], port: int, *extra: str) -> subprocess.Popen:
    """gunicorn on `port`, in one process (threads for the phones' polls): without Redis
    the cache is each process's own, and a poll answered by another process than the
    save's would miss the change (config/gunicorn_conf.py, cache_warning)."""
    command = [str(ROOT / ".venv" / "bin" / "gunicorn"), "config.wsgi", "--workers", "1"]
    command += ["--threads", "4", "--bind", f"127.0.0.1:{port}", "--log-level", "warning"]
    return subprocess.Popen([*command, *extra], cwd=ROOT, env=env)


def phone_page(context, cpu_slowdown: float = CPU_SLOWDOWN):
    """A page of `context` on the venue's network (NETWORK), its CPU slowed unless
    `cpu_slowdown` is 1: the page, and its DevTools session."""
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", NETWORK)
    if cpu_slowdown > 1:
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": cpu_slowdown})
    return page, cdp

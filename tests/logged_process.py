"""A program started by a test in a process of its own (a Celery worker, gunicorn), run
from the project's folder, every line it writes collected for the test to wait on and to
show when it fails."""

from __future__ import annotations

import subprocess
import threading
import time

from django.conf import settings


class LoggedProcess:
    def __init__(self, args: list[str], env: dict[str, str]) -> None:
        self.lines: list[str] = []
        self.process = subprocess.Popen(
            args,
            cwd=settings.BASE_DIR,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.append(line)

    @property
    def log(self) -> str:
        return "".join(self.lines)

    def wait_for(self, text: str, count: int = 1, timeout: float = 60) -> None:
        """Until `text` stands in `count` lines of the log; fails if the process ends or
        the time runs out first."""
        deadline = time.monotonic() + timeout
        while sum(text in line for line in self.lines) < count:
            assert time.monotonic() < deadline, f"no {text!r}: {self.log[-3000:]}"
            assert self.process.poll() is None, self.log[-3000:]
            time.sleep(0.05)

    def stop(self) -> str:
        """Terminated (killed if it lingers 30 s); its whole log."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=30)
        return self.log

"""A redis-server of a test's own on a port of 6390-6399 (never the shared one), to kill,
pause and restart at will, and the settings that point this process at it."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time

import pytest


def free_port() -> int:
    for port in range(6390, 6400):
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) != 0:
                return port
    pytest.skip("no free port in 6390-6399 for a throwaway redis-server")


class Redis:
    """A redis-server without persistence, on 127.0.0.1 and a port of its own."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                *(shutil.which("redis-server") or "redis-server", "--port", str(self.port)),
                *("--bind", "127.0.0.1", "--save", "", "--appendonly", "no"),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while True:
            with socket.socket() as sock:
                if sock.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            assert time.monotonic() < deadline, "redis-server did not start"
            time.sleep(0.05)

    def kill(self) -> None:
        """Dead at once: its connections reset, new ones refused."""
        if self.process is not None and self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGCONT)
            self.process.kill()
            self.process.wait(timeout=10)

    def pause(self) -> None:
        """Alive but silent, as a host that vanished from the network: connections are
        accepted by the kernel and nothing is ever answered."""
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGSTOP)

"""bench/bench_capacity.py's stack: one or more web nodes (gunicorn, 2 sync workers each,
each node in its own process group so that it can be stopped as a machine stops), as many
Celery workers, and, for more than one node or with --proxy, HAProxy in front with the
production configuration (docker/haproxy/haproxy.cfg: its `bind`, `maxconn` and
`server-template` lines replaced by this machine's ports; Debian's `haproxy` package)."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from api_server import free_port, start_server, start_worker, stop, wait_for

ROOT = Path(__file__).resolve().parent.parent
PROXY_DIR = ROOT / "docker" / "haproxy"
NODE_WORKERS = 2  # gunicorn's sync workers on each web node


@dataclass
class Stack:
    port: int  # where the load goes: the proxy, or the only node
    nodes: list[subprocess.Popen]
    node_ports: list[int]
    workers: list[subprocess.Popen]
    proxy: subprocess.Popen | None = None
    stopped: list[int] = field(default_factory=list)

    def stop_node(self, index: int) -> None:
        """The node stops as a machine fails: SIGKILL to gunicorn and its workers at once,
        requests in flight cut off."""
        node = self.nodes[index]
        if node.poll() is None:
            os.killpg(node.pid, signal.SIGKILL)
            node.wait()
        self.stopped.append(index)

    def stop(self) -> None:
        for process in [*([self.proxy] if self.proxy else []), *self.nodes, *self.workers]:
            stop(process)


def start_node(
    env: dict[str, str], port: int, workers: int = NODE_WORKERS, threads: int = 1
) -> subprocess.Popen:
    """One web node: gunicorn in a process group of its own (stop_node kills it whole)."""
    return start_server(env, port, workers, threads, own_group=True)


def _replace(text: str, pattern: str, new: str) -> str:
    """One line of the production file replaced; a file that no longer has it stops the
    benchmark rather than measuring another proxy than production's."""
    changed, count = re.subn(pattern, new, text, count=1, flags=re.MULTILINE)
    if count != 1:
        raise SystemExit(f"docker/haproxy/haproxy.cfg has no line matching {pattern!r}")
    return changed


def proxy_config(
    front: int, node_ports: list[int], folder: Path, at_once: int = NODE_WORKERS
) -> Path:
    """docker/haproxy/haproxy.cfg with this machine's ports, written into `folder`."""
    text = (PROXY_DIR / "haproxy.cfg").read_text()
    text = _replace(text, r"^    bind :8080$", f"    bind 127.0.0.1:{front}")
    text = _replace(text, r"^    errorfile 503 .*$", f"    errorfile 503 {PROXY_DIR / '503.http'}")
    text = _replace(text, r"maxconn 3 ", f"maxconn {at_once} ")
    servers = "\n".join(
        f"    server web{n} 127.0.0.1:{port}" for n, port in enumerate(node_ports, 1)
    )
    text = _replace(text, r"^    server-template .*$", servers)
    text = text[: text.index("resolvers docker")]  # local ports: no Docker DNS
    path = folder / "haproxy.cfg"
    path.write_text(text)
    return path


def start_stack(
    env: dict[str, str],
    nodes: int,
    proxy: bool,
    folder: Path,
    workers: int = NODE_WORKERS,
    threads: int = 1,
) -> Stack:
    """`nodes` web nodes (`workers` gunicorn processes of `threads` threads each) and as
    many Celery workers; HAProxy in front when asked or when there is more than one node
    (as many requests at once on a node as it has threads in all). Returns once every
    node and the proxy answer."""
    node_ports = [free_port() for _ in range(nodes)]
    stack = Stack(
        port=node_ports[0],
        nodes=[start_node(env, port, workers, threads) for port in node_ports],
        node_ports=node_ports,
        workers=[start_worker(env, folder / f"worker{n}.log") for n in range(nodes)],
    )
    try:
        for port in node_ports:
            wait_for(port, "/favicon.ico")
        if proxy or nodes > 1:
            haproxy = shutil.which("haproxy")
            if haproxy is None:
                raise SystemExit("--nodes 2 and --proxy need HAProxy: apt-get install haproxy")
            stack.port = free_port()
            config = proxy_config(stack.port, node_ports, folder, workers * threads)
            stack.proxy = subprocess.Popen([haproxy, "-f", str(config), "-db"], cwd=folder)
            wait_for(stack.port, "/favicon.ico")
    except BaseException:
        stack.stop()
        raise
    return stack

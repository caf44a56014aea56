"""bench/bench_capacity.py's stack: one or more web nodes (gunicorn, 2 sync workers each,
each node in its own process group so that it can be stopped as a machine stops), as many
Celery workers, and, for more than one node or with --proxy, HAProxy in front with the
production configuration (docker/haproxy/haproxy.cfg: its `bind`, `maxconn` and
`server-template` lines replaced by this machine's ports; Debian's `haproxy` package).

With `node_cpus`, each web node (gunicorn's master and its workers) runs in a cgroup of its
own (cgroup v1's `cpu` controller, /sys/fs/cgroup/cpu/tavolo-bench-<pid>-node<n>) whose CFS
quota caps it at that many cores, as a machine of its own would: several nodes on one small
machine then each have a fixed budget instead of all sharing its cores. The groups are
removed when the stack stops."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

from api_server import free_port, start_server, start_worker, stop, wait_for

ROOT = Path(__file__).resolve().parent.parent
PROXY_DIR = ROOT / "docker" / "haproxy"
NODE_WORKERS = 2  # gunicorn's sync workers on each web node
CGROUP_CPU = Path("/sys/fs/cgroup/cpu")  # cgroup v1's cpu controller
PERIOD_US = 100_000  # the CFS period; a group's quota is its cores times this


def cpu_caps_missing(root: Path | None = None) -> str | None:
    """What keeps this machine from capping a process's CPU with a cgroup, None when
    nothing does (a group is created, given a quota and removed to make sure)."""
    root = root or CGROUP_CPU
    if not (root / "cpu.cfs_quota_us").exists():
        return (
            f"{root} is not cgroup v1's cpu controller (no cpu.cfs_quota_us there; a machine "
            "with cgroup v2 only, or a container without it mounted)"
        )
    probe = root / f"tavolo-bench-{os.getpid()}-probe"
    try:
        probe.mkdir(exist_ok=True)
    except OSError as error:
        return f"cannot create a cgroup in {root} ({error.strerror}; not root?)"
    try:
        if not (probe / "cpu.cfs_quota_us").exists():  # the kernel gives a new group its files
            return f"{root} is no cgroup file system (a new group there has no cpu.cfs_quota_us)"
        (probe / "cpu.cfs_quota_us").write_text(str(PERIOD_US))
    except OSError as error:
        return f"cannot give a cgroup a CPU quota in {root} ({error.strerror})"
    finally:
        with contextlib.suppress(OSError):
            probe.rmdir()
    return None


def check_cpu_caps(root: Path | None = None) -> None:
    """Stop the benchmark when the nodes' CPU cannot be capped: never run them uncapped."""
    missing = cpu_caps_missing(root)
    if missing:
        raise SystemExit(
            f"--node-cpus needs a writable cgroup v1 cpu controller at {root or CGROUP_CPU}, "
            f"to cap each web node's CPU: {missing}. Run as root on such a machine, or "
            "without --node-cpus."
        )


def group_pids(pgid: int) -> set[int]:
    """The processes of a process group (a node: gunicorn's master and its workers)."""
    pids = set()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = (Path("/proc") / entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid:
            pids.add(int(entry))
    return pids


@dataclass
class CpuCap:
    """A cgroup whose processes share `cores` cores at most (a CFS quota)."""

    path: Path
    cores: float

    @classmethod
    def create(cls, name: str, cores: float, root: Path | None = None) -> CpuCap:
        path = (root or CGROUP_CPU) / name
        try:
            path.mkdir(exist_ok=True)
            (path / "cpu.cfs_period_us").write_text(str(PERIOD_US))
            (path / "cpu.cfs_quota_us").write_text(str(round(cores * PERIOD_US)))
        except OSError as error:
            check_cpu_caps(root)  # says what is missing
            raise SystemExit(f"cannot create the cgroup {path}: {error}") from error
        return cls(path, cores)

    def add(self, pid: int) -> None:
        """Move a process (all its threads) into the group; its later children are born in
        it. A process already gone is no error."""
        with contextlib.suppress(ProcessLookupError):
            (self.path / "cgroup.procs").write_text(str(pid))

    def pids(self) -> set[int]:
        try:
            return {int(p) for p in (self.path / "cgroup.procs").read_text().split()}
        except OSError:
            return set()

    def hold(self, pgid: int) -> set[int]:
        """Move every process of the group `pgid` in (a worker forked before its master was
        moved), then make sure they are all in: the benchmark stops rather than measure an
        uncapped node. Returns the processes."""
        members = group_pids(pgid)
        for pid in members - self.pids():
            self.add(pid)
        outside = {pid for pid in group_pids(pgid) - self.pids() if Path(f"/proc/{pid}").exists()}
        if outside:
            raise SystemExit(f"processes {sorted(outside)} of a web node are not in {self.path}")
        return members

    def throttling(self) -> tuple[int, int]:
        """(CFS periods in which the group ran, periods in which it used its whole quota and
        had to wait), from cpu.stat."""
        try:
            text = (self.path / "cpu.stat").read_text()
        except OSError:
            return 0, 0
        stat = dict(line.split() for line in text.splitlines() if line.strip())
        return int(stat.get("nr_periods", 0)), int(stat.get("nr_throttled", 0))

    def remove(self, timeout: float = 10.0) -> None:
        """Remove the group once its processes are gone (a group with processes cannot be
        removed): leftovers after `timeout` go back to the root group first."""
        if not self.path.exists():
            return
        until = time.monotonic() + timeout
        while self.pids() and time.monotonic() < until:
            time.sleep(0.1)
        for pid in self.pids():
            with contextlib.suppress(ProcessLookupError):
                (self.path.parent / "cgroup.procs").write_text(str(pid))
        for _ in range(50):  # a process just gone can hold the group for a moment
            try:
                self.path.rmdir()
                return
            except FileNotFoundError:
                return
            except OSError:
                time.sleep(0.1)
        self.path.rmdir()  # the error, said


@dataclass
class Stack:
    port: int  # where the load goes: the proxy, or the only node
    nodes: list[subprocess.Popen]
    node_ports: list[int]
    workers: list[subprocess.Popen]
    proxy: subprocess.Popen | None = None
    stopped: list[int] = field(default_factory=list)
    caps: list[CpuCap] = field(default_factory=list)  # each node's, with node_cpus

    def throttling(self) -> tuple[int, int]:
        """The nodes' cgroups' CFS periods so far, and those in which a node was throttled."""
        counts = [cap.throttling() for cap in self.caps]
        return sum(c[0] for c in counts), sum(c[1] for c in counts)

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
        for cap in self.caps:
            cap.remove()


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
    node_cpus: float | None = None,
) -> Stack:
    """`nodes` web nodes (`workers` gunicorn processes of `threads` threads each, each
    node capped at `node_cpus` cores by a cgroup when given) and as many Celery workers;
    HAProxy in front when asked or when there is more than one node (as many requests at
    once on a node as it has threads in all). Returns once every node and the proxy
    answer."""
    node_ports = [free_port() for _ in range(nodes)]
    stack = Stack(port=node_ports[0], nodes=[], node_ports=node_ports, workers=[])
    try:
        for n, port in enumerate(node_ports, 1):
            if node_cpus:
                stack.caps.append(CpuCap.create(f"tavolo-bench-{os.getpid()}-node{n}", node_cpus))
            stack.nodes.append(start_node(env, port, workers, threads))
            if node_cpus:  # at once: gunicorn's workers, forked later, are born in it
                stack.caps[-1].add(stack.nodes[-1].pid)
        stack.workers = [start_worker(env, folder / f"worker{n}.log") for n in range(nodes)]
        for port in node_ports:
            wait_for(port, "/favicon.ico")
        for node, cap in zip(stack.nodes, stack.caps, strict=False):
            cap.hold(node.pid)  # the node's process group: its own (start_node)
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

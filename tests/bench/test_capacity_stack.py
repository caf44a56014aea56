"""bench/capacity_stack.py's CPU caps (bench_capacity.py --node-cpus): a web node in a cgroup
of its own gets no more CPU than its quota, the group is gone once the stack stops, and a
machine that cannot cap stops the benchmark rather than run the nodes uncapped."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.bench.modules import bench_module

stack = bench_module("capacity_stack")
TICK = os.sysconf("SC_CLK_TCK")
BUSY = [sys.executable, "-c", "while True: pass"]
can_cap = pytest.mark.skipif(
    stack.cpu_caps_missing() is not None,
    reason=f"cannot cap a process's CPU here: {stack.cpu_caps_missing()}",
)


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def group_of(leader: int, size: int) -> set[int]:
    """The process group of `leader` once it has `size` processes (5 s at most)."""
    until = time.monotonic() + 5
    while len(members := stack.group_pids(leader)) < size and time.monotonic() < until:
        time.sleep(0.02)
    return members


@pytest.fixture
def cap():
    cap = stack.CpuCap.create(f"tavolo-bench-test-{os.getpid()}", 0.3)
    yield cap
    cap.remove(timeout=5)


@can_cap
def test_a_capped_group_holds_its_processes_to_its_quota_forked_before_or_after(cap) -> None:
    """Two busy loops of one process group, forked before the group's leader is moved (the
    sweep catches them) and one forked after (born in the group), share 0.3 of a core."""
    script = "import os, time\nos.fork()\ntime.sleep(1)\nos.fork()\nwhile True: pass"
    leader = subprocess.Popen([sys.executable, "-c", script], start_new_session=True)
    try:
        group_of(leader.pid, 2)  # the first fork done, before any move
        members = cap.hold(leader.pid)
        assert leader.pid in members and len(members) == 2
        family = group_of(leader.pid, 4)  # the second forks, inside the group now
        assert len(family) == 4 and family <= cap.pids()
        before, started = sum(map(cpu_seconds, family)), time.monotonic()
        time.sleep(1.5)
        used = sum(map(cpu_seconds, family)) - before
        wall = time.monotonic() - started
    finally:
        os.killpg(leader.pid, signal.SIGKILL)
        leader.wait()
    # Four busy loops uncapped would take both cores (2 × wall); capped: 0.3 × wall.
    assert used < 0.6 * wall, f"{used:.2f} s of CPU in {wall:.2f} s"
    periods, throttled = cap.throttling()
    assert periods > 0 and throttled > 0.5 * periods


@can_cap
def test_the_cap_is_the_quota_asked_and_the_group_is_gone_once_removed() -> None:
    cap = stack.CpuCap.create(f"tavolo-bench-test-{os.getpid()}-quota", 0.5)
    assert (cap.path / "cpu.cfs_quota_us").read_text().strip() == "50000"
    assert (cap.path / "cpu.cfs_period_us").read_text().strip() == "100000"
    busy = subprocess.Popen(BUSY)
    cap.add(busy.pid)
    assert cap.pids() == {busy.pid}
    busy.kill()
    busy.wait()
    cap.remove()
    assert not cap.path.exists()


@can_cap
def test_a_process_left_in_a_group_goes_back_to_the_root_and_the_group_is_removed() -> None:
    cap = stack.CpuCap.create(f"tavolo-bench-test-{os.getpid()}-left", 0.5)
    left = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        cap.add(left.pid)
        cap.remove(timeout=0.2)
        assert not cap.path.exists()
        assert left.poll() is None  # not killed: only moved out
        assert str(left.pid) in (stack.CGROUP_CPU / "cgroup.procs").read_text().split()
    finally:
        left.kill()
        left.wait()


@can_cap
def test_a_stopped_stack_leaves_no_group(tmp_path) -> None:
    cap = stack.CpuCap.create(f"tavolo-bench-test-{os.getpid()}-stack", 0.5)
    busy = subprocess.Popen(BUSY, start_new_session=True)
    cap.add(busy.pid)
    node = stack.Stack(port=0, nodes=[busy], node_ports=[0], workers=[], caps=[cap])
    node.stop()
    assert busy.poll() is not None and not cap.path.exists()


def test_a_machine_that_cannot_cap_stops_the_benchmark_before_it_sets_up(
    tmp_path, monkeypatch
) -> None:
    capacity = bench_module("bench_capacity")
    used = sys.modules[capacity.check_cpu_caps.__module__]  # the stack module it imported

    def no_setup(*args):
        raise AssertionError("set up although the nodes cannot be capped")

    monkeypatch.setattr(capacity, "setup", no_setup)
    monkeypatch.setattr(used, "CGROUP_CPU", tmp_path / "no-cgroup")
    with pytest.raises(SystemExit) as stopped:
        capacity.main(["--nodes", "2", "--node-cpus", "0.5", "--no-write"])
    message = str(stopped.value)
    assert "--node-cpus needs a writable cgroup v1 cpu controller" in message
    assert f"{tmp_path / 'no-cgroup'} is not cgroup v1's cpu controller" in message
    # A folder that only looks like one: its new groups get no files from the kernel.
    (tmp_path / "cpu.cfs_quota_us").write_text("-1")
    monkeypatch.setattr(used, "CGROUP_CPU", tmp_path)
    with pytest.raises(SystemExit, match="is no cgroup file system"):
        capacity.main(["--node-cpus", "0.5"])
    assert [p.name for p in tmp_path.iterdir()] == ["cpu.cfs_quota_us"]  # the probe removed


def test_no_node_cpus_below_the_kernels_smallest_quota() -> None:
    capacity = bench_module("bench_capacity")
    with pytest.raises(SystemExit):
        capacity.parse(["--node-cpus", "0"])
    assert capacity.parse(["--node-cpus", "0.5"]).node_cpus == 0.5
    assert capacity.parse([]).node_cpus is None

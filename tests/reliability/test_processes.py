"""No stray processes: when a `--jobs 2` run is killed (SIGKILL or SIGTERM to simkit alone), its
worker processes and resource trackers end within seconds instead of living on blocked on a pipe
(which kept `simkit ... | tee log` hanging); Ctrl-C (SIGINT to the process group) prints the
documented line, exits 130 and shows no worker traceback. The same holds for an all-native run,
whose chunks play on threads of the simkit process: an interrupt waits for the running native
batches instead of tearing a thread down inside one (which aborted the process)."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from simkit.cli import INTERRUPTED
from simkit.core import dataset, native

PATIENCE = 120  # seconds: generous, on a loaded machine; the test asserts outcomes, never times


def live_members(group: int) -> list[str]:
    """The processes of a process group that are still running (zombies, already ended but not
    yet reaped by whoever inherited them, do not count), as 'pid command'."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue  # ended meanwhile
        state, _, pgrp = stat.rsplit(")", 1)[1].split()[:3]
        if int(pgrp) == group and state != "Z":
            found.append(f"{entry.name} {command}")
    return found


def wait_until(condition, what: str):
    deadline = time.monotonic() + PATIENCE
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.1)
    pytest.fail(f"still waiting for {what}")


# (engine, games, chunk size): long enough that the run is still going when the test strikes
RUNS = {"python": ("python", 20_000, 50), "native": ("native", 20_000_000, 2000)}


@pytest.fixture(params=sorted(RUNS))
def busy_run(tmp_path, request):
    """A long `--jobs 2` run in its own process group, once its workers have finished a chunk:
    worker processes on the Python engine, threads of the simkit process on the native one."""
    engine, games, chunk = RUNS[request.param]
    if engine == "native" and native.core() is None:
        pytest.skip("the native core is not built")
    out = tmp_path / "d"
    proc = subprocess.Popen(
        [sys.executable, "-m", "simkit.cli", "simulate", "eight-bit-invaders", "-n", str(games)]
        + ["--engine", engine, "--jobs", "2", "--chunk-size", str(chunk), "--quiet", "--out", str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group: the test can find (and clean up) every child
    )
    try:
        wait_until(lambda: dataset.finished_chunks(out), "the first chunk")
        if engine == "python":
            assert len(live_members(proc.pid)) >= 3, "simkit and its two workers"
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
        for line in live_members(proc.pid):  # what a failing test left: never leave it running
            os.kill(int(line.split()[0]), signal.SIGKILL)
        proc.communicate()


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
def test_workers_end_with_their_killed_parent(busy_run, sig):
    os.kill(busy_run.pid, sig)
    busy_run.wait()
    # the pipes close: nothing is left holding simkit's stdout and stderr (`| tee log` ends)
    busy_run.communicate(timeout=PATIENCE)
    wait_until(lambda: not live_members(busy_run.pid), "the workers and resource trackers to end")


def test_ctrl_c_prints_the_documented_line_and_no_traceback(busy_run):
    os.killpg(busy_run.pid, signal.SIGINT)  # what the terminal sends on Ctrl-C: the whole group
    _, err = busy_run.communicate(timeout=PATIENCE)
    assert busy_run.returncode == 130, err
    assert err.strip().splitlines() == [INTERRUPTED], err
    wait_until(lambda: not live_members(busy_run.pid), "the workers to end")

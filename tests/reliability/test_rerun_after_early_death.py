"""A run that died after creating its folders but before its manifest was in place can be run
again into the same folder: what it left (the lock, empty subfolders, a half-written manifest)
is not a foreign folder. A folder with anything else in it and no manifest is still refused."""

import subprocess
import sys

import pytest

from simkit.core import dataset
from tests.core.test_trust import one_line_error, simkit

ARGS = ["simulate", "eight-bit-invaders", "-n", "40", "--seed", "2", "--chunk-size", "10", "--quiet"]

# simkit itself, SIGKILLed at the moment it is about to put the manifest in place, having
# written HALF of it (a truncated .manifest.json.tmp) or nothing yet
DIES_BEFORE_MANIFEST = """
import os, signal, sys
from pathlib import Path
from simkit import cli
from simkit.core import dataset

def die(out, manifest):
    if {half}:
        (Path(out) / ".manifest.json.tmp").write_text('{{"format": 2, "gam')
    os.kill(os.getpid(), signal.SIGKILL)

dataset._write_manifest = die
sys.argv = ["simkit", *sys.argv[1:]]
cli.main()
"""


@pytest.mark.parametrize("half", [False, True])
def test_a_run_killed_before_its_manifest_can_be_run_again_into_the_same_folder(tmp_path, half):
    out = tmp_path / "d"
    killed = subprocess.run(
        [sys.executable, "-c", DIES_BEFORE_MANIFEST.format(half=half), *ARGS, "--out", str(out)],
        capture_output=True,
        text=True,
    )
    assert killed.returncode == -9, killed.stderr
    assert (out / "games").is_dir() and not (out / "manifest.json").exists(), "died where it should"
    again = simkit(*ARGS, "--out", out)
    assert again.returncode == 0, again.stderr
    assert "40 games written" in again.stdout
    assert dataset.load(out).games["game_index"].to_list() == list(range(40))
    assert not list(out.glob(".*.tmp"))


def test_a_folder_with_other_files_and_no_manifest_is_still_refused(tmp_path):
    out = tmp_path / "d"
    (out / "games").mkdir(parents=True)
    (out / "games" / "notes.txt").write_text("mine")
    one_line_error(simkit(*ARGS, "--out", out), "folder is not empty and holds no simkit manifest")
    assert (out / "games" / "notes.txt").read_text() == "mine"

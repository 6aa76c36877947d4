"""A full disk: the run ends with one line naming the folder and "No space left on device", leaves
no temporary file behind, and once space is freed the same command finishes the dataset with
exactly the rows of a run that never ran out of space.

The small disk is a tmpfs of a few hundred KB mounted in a private mount namespace (`unshare -rm`,
no root needed where user namespaces are allowed), so the test fills nothing real."""

import subprocess
import sys

import pytest
from polars.testing import assert_frame_equal

from simkit.core import dataset, runner, scenario

RUN = "-m simkit.cli simulate alien-attack -n 400 --seed 1 --chunk-size 50 --quiet --out mnt/d"

# Inside the namespace: a 400 KB tmpfs, a filler that leaves FREE bytes, a run that runs out of
# space, the filler removed, the same command again; the dataset is copied out before the
# namespace (and its tmpfs) goes away.
SCRIPT = """
set -u
mount -t tmpfs -o size=400k tmpfs mnt || exit 99
head -c $(( 400 * 1024 - {free} )) /dev/zero > mnt/filler
{python} {run} > full.out 2> full.err
echo $? > full.rc
find mnt -name '*.tmp' > leftovers
rm mnt/filler
{python} {run} > again.out 2> again.err
echo $? > again.rc
cp -r mnt/d copied
"""


def _can_mount_tmpfs(tmp_path) -> bool:
    probe = tmp_path / "probe"
    probe.mkdir()
    result = subprocess.run(
        ["unshare", "-rm", "sh", "-c", f"mount -t tmpfs -o size=64k tmpfs {probe}"], capture_output=True
    )
    return result.returncode == 0


@pytest.fixture
def small_disk(tmp_path):
    if not _can_mount_tmpfs(tmp_path):
        pytest.skip("needs user and mount namespaces (unshare -rm, mount -t tmpfs)")
    (tmp_path / "mnt").mkdir()
    return tmp_path


# 100 KB free: the disk fills while chunks are written; none: not even the manifest fits
@pytest.mark.parametrize("free", [100 * 1024, 0])
def test_a_full_disk_is_one_line_leaves_no_temporary_file_and_the_rerun_completes(small_disk, free):
    base = small_disk
    script = SCRIPT.format(free=free, python=sys.executable, run=RUN)
    done = subprocess.run(["unshare", "-rm", "sh", "-c", script], cwd=base, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr

    full_err = (base / "full.err").read_text()
    assert (base / "full.rc").read_text().strip() == "2", full_err
    lines = full_err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in full_err, full_err
    assert lines[0].startswith("simkit: error: mnt/d: ") and "no space left on device" in lines[0].lower()
    assert (base / "leftovers").read_text() == "", "temporary files left behind"

    assert (base / "again.rc").read_text().strip() == "0", (base / "again.err").read_text()
    reference = base / "reference"
    runner.run(scenario.single_cell("alien-attack", 400, 1, {}, [], 50), reference, progress=False)
    got, want = dataset.load(base / "copied"), dataset.load(reference)
    assert got.games.height == 400
    assert_frame_equal(got.games, want.games)
    assert_frame_equal(got.seats, want.seats)

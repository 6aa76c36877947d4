"""The version is stated once (simkit/core/version.py) and nothing in the package imports upwards."""

from __future__ import annotations

import importlib.metadata
import re
from pathlib import Path

import simkit
from simkit.core.version import VERSION

PACKAGE = Path(simkit.__file__).parent


def test_the_package_metadata_states_the_code_version():
    assert importlib.metadata.version("simkit") == VERSION == simkit.__version__


def test_no_module_imports_the_top_level_package():
    upwards = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path == PACKAGE / "__init__.py":
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if re.match(
                r"\s*(from simkit import (?!_native\b)|import simkit\s*$)", line
            ):  # _native: the core
                upwards.append(f"{path.relative_to(PACKAGE)}:{number}: {line.strip()}")
    assert not upwards, upwards


def test_report_means_one_thing():
    import simkit.reporting  # noqa: F401 (importing the package must not change the API's name)

    assert callable(simkit.report) and not isinstance(simkit.report, type(simkit))

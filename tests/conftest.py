"""Shared test fixtures."""

import os

import pytest

from simkit.core import native


@pytest.fixture(scope="session")
def core():
    """The native core. Tests that need it skip, saying why, where it was not built (no Rust
    toolchain at install time); CI always builds it, and there `SIMKIT_REQUIRE_NATIVE=1` turns
    the skip into a failure."""
    module = native.core()
    if module is None:
        if os.environ.get("SIMKIT_REQUIRE_NATIVE"):
            pytest.fail("the native core is not built, and SIMKIT_REQUIRE_NATIVE is set")
        pytest.skip("the native core is not built (install simkit where a Rust toolchain is found)")
    return module


def pytest_xdist_make_scheduler(config, log):
    """`make test`'s `--dist loadfile` sends a test file to one worker, so a module's fixtures are
    made once; but the four games' equivalence checks are the slowest tests by far (one to three
    minutes each), so each of those goes to whichever worker is free."""
    from xdist.scheduler import LoadFileScheduling

    class FilesAndEquivalence(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            if nodeid.startswith("tests/native/test_equivalence.py::test_native_and_python_rows"):
                return nodeid
            return super()._split_scope(nodeid)

    if config.getoption("dist") == "loadfile":
        return FilesAndEquivalence(config, log)
    return None

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

"""The native core (`simkit._native`, the Rust crate in native/) is built here by setuptools-rust
during `pip install`. It is optional: without a Rust toolchain the package installs and runs on
the Python engines (`simkit games` says which engine each game has)."""

from setuptools import setup
from setuptools_rust import Binding, RustExtension

setup(
    rust_extensions=[
        RustExtension(
            "simkit._native",
            path="native/Cargo.toml",
            binding=Binding.PyO3,
            features=["python"],
            optional=True,
            debug=False,  # optimised even for `pip install -e` (an in-place build defaults to debug)
        )
    ]
)

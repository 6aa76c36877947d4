"""simkit's version, stated once: the package metadata (pyproject.toml reads it), manifests and
reports. In `core` so that nothing in the package imports upwards to find it."""

VERSION = "0.1.0"

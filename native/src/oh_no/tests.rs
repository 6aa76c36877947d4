//! Unit tests of the native Oh no... INVASION!!! rules.

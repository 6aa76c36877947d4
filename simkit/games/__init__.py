"""One package per ruleset; each registers its engine with `simkit.core.registry` on import."""

"""Engine-neutral machinery: registry, seeds, runner, dataset I/O, scenarios, statistics."""

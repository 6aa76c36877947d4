"""Test doubles shared by the 8-Bit Invaders rule tests."""

import random


class Scripted(random.Random):
    """A random stream that yields chosen die faces, then `fallback` (or fails if None)."""

    def __init__(self, faces=(), fallback: float | None = None) -> None:
        super().__init__(0)
        self.faces = list(faces)
        self.fallback = fallback
        self.used = 0

    def random(self) -> float:
        if self.faces:
            self.used += 1
            return (self.faces.pop(0) - 0.5) / 6
        if self.fallback is None:
            raise AssertionError("the engine drew a die the test did not script")
        return self.fallback

"""simkit: Monte Carlo balance and strategy analysis for four alien-invasion tabletop games."""

__version__ = "0.1.0"

"""Test helpers a game's own tests can import (the contract kit)."""

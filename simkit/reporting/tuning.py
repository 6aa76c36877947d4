"""The report's section for a `simkit tune` search: the race's candidates and the confirmation of
the pick against the defaults on fresh seeds, read from the search's `tune.json`."""

from __future__ import annotations

import json
from typing import Any

from simkit.core.tune import SUMMARY, field_line
from simkit.reporting.sections import AnalysisContext, GameSection, Table
from simkit.reporting.text import ci_text, pct, points


def _ci(w: dict[str, Any]) -> str:
    """A rate of `tune.json` with its interval: "39.6 % (95 % CI 37.3 % to 42.0 %)"."""
    return f"{pct(w['estimate'])} ({ci_text(w['low'], w['high'], pct)})"


def section(ctx: AnalysisContext) -> GameSection | None:
    """The search's section, where the dataset is a tuning search (None otherwise)."""
    path = ctx.dataset.path / SUMMARY
    if not path.is_file():
        return None
    doc = json.loads(path.read_text(encoding="utf-8"))
    pick, default = doc["pick"], doc["default"]
    p, d, gain = doc["pick_confirmed"], doc["default_confirmed"], doc["gain"]
    findings = [f"The search picked {pick}: on {p['n']:,} fresh games (new seeds) it wins {_ci(p)}."]
    if doc.get("field") is not None:  # a competitive game: a seat against a field
        findings.insert(0, field_line(doc["field"], doc.get("players")) + ".")
    if gain is None:
        findings.append(f"The pick is the strategy's default ({default}): tuning found nothing better.")
    else:
        resolved = gain["low"] > 0 or gain["high"] < 0
        findings.append(
            f"The default {default} wins {_ci(d)} on the same games; the pick gains "
            f"{points(gain['difference'])} points (95 % CI {points(gain['low'])} to {points(gain['high'])}, "
            f"paired, {gain['n']:,} games): " + ("resolved." if resolved else "not resolved: no gain shown.")
        )
    alive = [c for c in doc["candidates"] if c["contender"]]
    if len(alive) > 1:
        findings.append(
            f"{len(alive)} of {len(doc['candidates'])} candidates could still be the best when the race "
            "ended: the data do not separate them."
        )
    names = list(doc["searched"])
    rows = [
        [
            str(rank),
            c["strategy"],
            *(str(c["values"][k]) for k in names),
            f"{c['games']:,}",
            _ci(c["win_rate"]),
            "yes" if c["contender"] else "ruled out",
        ]
        for rank, c in enumerate(doc["candidates"], 1)
    ]
    table = Table(
        "Every candidate of the race, by its win rate in the search (the pick's is flattered by having "
        "been picked; its confirmed rate is above)",
        ["rank", "strategy", *names, "games", "win rate", "could be best"],
        rows,
    )
    paragraphs = [
        "Every candidate played the same games (common random numbers). After each round a candidate "
        "stayed in the race while its win rate could still be the best: its upper bound reached the "
        f"leader's lower bound, both at z = {doc['z']:.2f} (95 % split over every candidate in every "
        "round); those left doubled their games, the others stopped. The race ended with one candidate, "
        f"with every candidate known to within {doc['tolerance']:g}, or at the cap. The pick and the "
        f"default then played again on fresh seeds ({doc['confirm_folder']}), so the gain is not the "
        "winner's curse."
    ]
    return GameSection("tune", "Parameter search (simkit tune)", findings, paragraphs, [], [table])

"""Alien Attack: USA report sections: mission-card balance, strategies head to head, first seat,
score components, Global Protection, the semi-cooperative verdict and board heatmaps.

Read from the dataset only (never the engine). How the card comparison is made: the City and the
Border decks are shuffled from each game's set-up stream, which depends on the root seed and the
game index only, so the deal is independent of the seats, the strategies and the markers drawn.
Two cards are compared *inside the games that dealt both*: the two holders played the same
Mothership order against the same table, so the per-game difference of their points (and of their
wins) removes everything the game itself brings; the seat each card lands in is a fair draw (the
report shows how often each card sat first). A card's own level is shown as its holder's points
above the average seat of the same game, a within-game measure comparable across player counts.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

import matplotlib
import numpy as np
import polars as pl

from simkit.core import stats
from simkit.core.compare import paired_scores
from simkit.games.alien_attack.game import SEMI_COOP_BASES
from simkit.reporting import charts
from simkit.reporting.sections import AnalysisContext, GameSection, Table
from simkit.reporting.text import count_range as _counts
from simkit.reporting.text import missing as _nan
from simkit.reporting.text import pct as _pct
from simkit.reporting.text import points as _pp
from simkit.reporting.text import signed

COMPONENTS = (
    ("placement_points", "placements"),
    ("city_mission", "City card"),
    ("border_mission", "Border card"),
    ("parks", "parks"),
    ("bases", "bases"),
    ("territory", "territory"),
    ("protection", "Global Protection"),
)
DECKS = (("city_card", "City card"), ("border_card", "Border card"))
TOP_SPACES = 8


# --- formatting -----------------------------------------------------------------------------------


def _signed(x: float) -> str:
    return signed(x, 1)  # points: one decimal


def _num(x: float, digits: int = 1) -> str:
    return "n/a" if _nan(x) else f"{x:.{digits}f}"


def _ci(low: float, high: float, fmt=_num) -> str:
    if _nan(low) or _nan(high):
        return "95 % CI n/a"
    return f"95 % CI {fmt(low)} to {fmt(high)}"


def _rate_text(iv: stats.Interval) -> str:
    return f"{_pct(iv.estimate)} ({_ci(iv.low, iv.high, _pct)}; {iv.n:,} games)"


def _mean_cell(iv: stats.Interval, signed: bool = False) -> str:
    f = _signed if signed else _num
    return f"{f(iv.estimate)} [{f(iv.low)}, {f(iv.high)}]"


def _rate_cell(iv: stats.Interval) -> str:
    return f"{_pct(iv.estimate)} [{_pct(iv.low)}, {_pct(iv.high)}]"


def _card_name(deck: str, card: Any) -> str:
    return f"City card {card}" if deck == "city_card" else f"Border card {str(card).capitalize()}"


def _ordered(deck: str, cards: Sequence[Any]) -> list[Any]:
    """Cards in the deck's own order (City 2-5; Atlantic, Pacific, Gulf, Mexico), unknown ones last."""
    from simkit.games.alien_attack.components import BORDER_CARDS, CITY_CARDS

    order = [str(c) for c in (CITY_CARDS if deck == "city_card" else BORDER_CARDS)]
    return sorted(cards, key=lambda c: (order.index(str(c)) if str(c) in order else len(order), str(c)))


def _short_card(deck: str, card: Any) -> str:
    return str(card) if deck == "city_card" else str(card).capitalize()


# --- the cells ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CellInfo:
    cell: str
    players: int
    variant: str
    strategies: tuple[str, ...]
    games: int

    @property
    def mirror(self) -> bool:
        return len(set(self.strategies)) == 1

    @property
    def label(self) -> str:
        if not self.strategies:
            who = "?"
        elif self.mirror:
            who = f"{self.strategies[0]} mirror"
        else:
            who = " vs ".join(self.strategies)
        text = f"{self.players} players, {who}"
        return text + (", semi-coop" if self.variant == "semi-coop" else "")


def _cells(ctx: AnalysisContext, seats: pl.DataFrame | None) -> list[CellInfo]:
    games = ctx.dataset.games
    manifest = {c["cell"]: c for c in ctx.dataset.manifest.get("cells") or []}
    out = []
    for part in games.partition_by("cell", maintain_order=True):
        cell = part["cell"][0]
        strategies = tuple(manifest.get(cell, {}).get("strategy") or [])
        players = None
        if "players" in part.columns and part["players"].null_count() < part.height:
            players = int(part["players"].drop_nulls()[0])
        if players is None and seats is not None:
            mine = seats.filter(pl.col("cell") == cell)
            players = int(mine["seat"].max()) + 1 if mine.height else len(strategies)
        if players is None:
            players = len(strategies)
        if not strategies and "strategy" in part.columns:
            strategies = tuple(str(part["strategy"][0]).split(","))
        variant = "standard"
        if "variant" in part.columns and part["variant"].null_count() < part.height:
            variant = str(part["variant"].drop_nulls()[0])
        out.append(CellInfo(cell, players, variant, strategies, part.height))
    return out


def _seat_frame(ctx: AnalysisContext) -> pl.DataFrame | None:
    """Seat rows with the game's mean and `rel` = the seat's points above the average seat of its game."""
    seats = ctx.dataset.seats
    needed = {"cell", "game_index", "seat", "score", "won"}
    if seats is None or seats.height == 0 or not needed <= set(seats.columns):
        return None
    seats = seats.with_columns(pl.col("score").cast(pl.Float64), pl.col("won").cast(pl.Boolean))
    return seats.with_columns(
        (pl.col("score") - pl.col("score").mean().over("cell", "game_index")).alias("rel"),
        pl.len().over("cell", "game_index").alias("table_size"),
    )


# --- mission cards --------------------------------------------------------------------------------


@dataclass(frozen=True)
class CardStat:
    card: Any
    win: stats.Interval
    points: stats.Interval
    rel: stats.Interval
    first_seat: stats.Interval  # share of its games in which the card sat in the first seat


@dataclass(frozen=True)
class PairStat:
    a: Any
    b: Any
    points: stats.Interval  # b - a, paired within the game
    unpaired: stats.Interval
    wins: stats.PairedDifference | None
    points_p: float = math.nan  # paired t test of b - a


def card_stats(seats: pl.DataFrame, deck: str) -> list[CardStat]:
    """Per card of `deck` in one cell's seat rows: win rate, mean points, points above the table."""
    out = []
    for card in _ordered(deck, seats[deck].drop_nulls().unique().to_list()):
        mine = seats.filter(pl.col(deck) == card)
        won = mine["won"].drop_nulls()
        out.append(
            CardStat(
                card,
                stats.wilson(int(won.sum()), won.len()),
                stats.mean_interval(mine["score"].to_numpy()),
                stats.mean_interval(mine["rel"].to_numpy()),
                stats.wilson(int((mine["seat"] == 0).sum()), mine.height),
            )
        )
    return out


def card_pairs(seats: pl.DataFrame, deck: str, cards: Sequence[Any]) -> list[PairStat]:
    """Every pair of cards, compared inside the games that dealt both (paired by game)."""
    out = []
    for a, b in combinations(cards, 2):
        ja = seats.filter(pl.col(deck) == a).select("game_index", "score", "won")
        jb = seats.filter(pl.col(deck) == b).select("game_index", "score", "won")
        joined = ja.join(jb, on="game_index", suffix="_b")
        if joined.height < 2:
            continue
        paired, unpaired, _ = paired_scores(joined["score"].to_numpy(), joined["score_b"].to_numpy())
        decided = joined.drop_nulls(["won", "won_b"])
        wins = (
            stats.paired_difference(decided["won"].to_numpy(), decided["won_b"].to_numpy())
            if decided.height
            else None
        )
        points_p = stats.mean_p_value(joined["score_b"].to_numpy() - joined["score"].to_numpy())
        out.append(PairStat(a, b, paired, unpaired, wins, points_p))
    return out


def pair_family(pairs: list[PairStat]) -> stats.Family:
    """The card pairs of one deck in one cell are one family; a table that lists many pairs calls
    them resolved under Benjamini-Hochberg (false discovery rate 5 %)."""
    return stats.family([p.points_p for p in pairs], stats.BH)


def _card_verdict(
    info: CellInfo, deck: str, cs: list[CardStat], pairs: list[PairStat], family: stats.Family
) -> list[str]:
    if len(cs) < 2 or not pairs:
        return []
    ranked = sorted(cs, key=lambda c: c.rel.estimate, reverse=True)
    best, worst = ranked[0].card, ranked[-1].card
    pair = next((p for p in pairs if {p.a, p.b} == {best, worst}), None)
    if pair is None:
        return []
    sign = 1 if pair.b == best else -1  # pair.points is b - a; we want best - worst
    d = sign * pair.points.estimate
    low, high = sorted((sign * pair.points.low, sign * pair.points.high))
    order = " > ".join(_short_card(deck, c.card) for c in ranked)
    what = "City cards" if deck == "city_card" else "Border cards"
    picked = pairs.index(pair)
    text = (
        f"{info.label}: {what} ranked by points above the table average: {order}. "
        f"Picked as the highest and lowest of {len(cs)} cards, {_card_name(deck, best)} scores "
        f"{_num(abs(d))} points {'more' if d >= 0 else 'less'} than "
        f"{_card_name(deck, worst)} ({_ci(low, high, _signed)}; {pair.points.n:,} games that dealt both, "
        "paired within the game)"
    )
    if pair.wins is not None:
        w = pair.wins
        wd, wl, wh = (w.difference, w.low, w.high) if sign == 1 else (-w.difference, -w.high, -w.low)
        text += (
            f"; its win rate is {_num(abs(100 * wd))} percentage points {'higher' if wd >= 0 else 'lower'} "
            f"({_ci(wl, wh, _pp)})"
        )
    text += (
        "; resolved in points." if family.resolved[picked] else "; the difference in points is not resolved."
    )
    resolved = []
    for p, yes in zip(pairs, family.resolved, strict=True):
        if yes:
            hi, lo = (p.b, p.a) if p.points.estimate > 0 else (p.a, p.b)
            resolved.append(f"{_short_card(deck, hi)} over {_short_card(deck, lo)}")
    text += (
        f" Resolved in points after {family.text} ({len(resolved)} of {len(pairs)} pairs): "
        f"{', '.join(resolved)}."
        if resolved
        else f" None of the {len(pairs)} pairwise differences in points is resolved after {family.text}."
    )
    return [text]


def _card_chart(ctx: AnalysisContext, per_cell: list[tuple[CellInfo, dict[str, list[CardStat]]]]):
    with matplotlib.rc_context(charts.STYLE):
        fig = charts.new_figure(11.0, 4.4)
        axes = fig.subplots(1, 2, sharey=True)
        groups = len(per_cell)
        for ax, (deck, title) in zip(axes, DECKS, strict=True):
            cards = _ordered(deck, list({c.card for _, d in per_cell for c in d[deck]}))
            for gi, (info, d) in enumerate(per_cell):
                cs = [c for c in d[deck] if not _nan(c.rel.low)]
                if not cs:
                    continue
                off = charts.dodge(gi, groups, 0.7)
                charts.interval_dots(
                    ax,
                    [cards.index(c.card) + off for c in cs],
                    [c.rel.estimate for c in cs],
                    [c.rel.low for c in cs],
                    [c.rel.high for c in cs],
                    group=gi,
                    label=info.label,
                )
            ax.axhline(0, color="#555555", linewidth=0.8)
            ax.set_xticks(range(len(cards)), [_short_card(deck, c) for c in cards])
            ax.set_xlabel(title)
            ax.grid(axis="x", visible=False)
        axes[0].set_ylabel("points above the table average (points)")
        axes[1].legend(title="cell", loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=8)
        fig.suptitle(f"Mission cards: points above the table average: {ctx.subject}", x=0.01, ha="left")
    n = [info.games for info, _ in per_cell]
    alt_items = [
        f"{info.label}, {_card_name(deck, c.card)}: {_signed(c.rel.estimate)} points "
        f"({_ci(c.rel.low, c.rel.high, _signed)}, {c.rel.n} games)"
        for info, d in per_cell
        for deck, _ in DECKS
        for c in d[deck]
    ]
    return charts.save_chart(
        fig,
        ctx.out,
        f"{ctx.name}-aa-cards",
        "Mission cards: points above the table average",
        "Mean final points of each card's holder minus the average seat of the same game, with 95 % "
        "t intervals, per cell. " + "; ".join(alt_items),
        "Each point is a card's holder's final points minus the mean of all seats in the same game, "
        "averaged over the games that dealt the card, with its 95 % t interval (0 = an average seat). "
        f"Cells of {_counts(n)}; at 2 players each card is dealt in half the games, "
        "at 4 players in all of them.",
    )


def cards_section(ctx: AnalysisContext, seats: pl.DataFrame, cells: list[CellInfo]) -> GameSection | None:
    if not {"city_card", "border_card"} <= set(seats.columns):
        return None
    findings: list[str] = []
    per_cell = []
    card_rows, pair_rows = [], []
    first_fair = [0, 0]  # cards whose first-seat share's interval holds 1 / players, cards
    mirror = [c for c in cells if c.mirror]
    if not mirror:
        return GameSection(
            "aa-cards",
            "Mission cards: City and Border",
            paragraphs=[
                "The mission cards are compared in mirror matches (every seat the same strategy), where "
                "the cards and the seat are the only differences between the players. This dataset has "
                "no mirror cell, so there is no card verdict here: run "
                "scenarios/alien_attack_missions.toml for one."
            ],
        )
    for info in mirror:
        mine = seats.filter(pl.col("cell") == info.cell)
        if mine.height == 0:
            continue
        d = {}
        for deck, _ in DECKS:
            cs = card_stats(mine, deck)
            d[deck] = cs
            pairs = card_pairs(mine, deck, [c.card for c in cs])
            family = pair_family(pairs)
            findings += _card_verdict(info, deck, cs, pairs, family)
            for c in cs:
                first_fair[0] += c.first_seat.low <= 1 / info.players <= c.first_seat.high
                first_fair[1] += 1
                card_rows.append(
                    [
                        info.label,
                        _card_name(deck, c.card),
                        f"{c.points.n:,}",
                        _rate_cell(c.win),
                        _mean_cell(c.points),
                        _mean_cell(c.rel, signed=True),
                        _rate_cell(c.first_seat),
                    ]
                )
            for p, resolved in zip(pairs, family.resolved, strict=True):
                pair_rows.append(
                    [
                        info.label,
                        f"{_card_name(deck, p.b)} − {_short_card(deck, p.a)}",
                        f"{p.points.n:,}",
                        _mean_cell(p.points, signed=True),
                        f"[{_signed(p.unpaired.low)}, {_signed(p.unpaired.high)}]",
                        "n/a"
                        if p.wins is None
                        else f"{_pp(p.wins.difference)} [{_pp(p.wins.low)}, {_pp(p.wins.high)}]",
                        "yes" if resolved else "no",
                    ]
                )
        per_cell.append((info, d))
    if not per_cell:
        return None
    left_out = [c.label for c in cells if not c.mirror]
    paragraphs = [
        "How the comparison is made. Each game's City and Border decks are shuffled from its set-up "
        "stream, which depends on the root seed and the game index only: within a cell, game i deals "
        "the same cards to the same seats in every run (and in every cell with the same player count). "
        "The deal is independent of the seats, the strategies and the markers drawn, so two cards are "
        "compared inside the games that dealt both: their holders faced the same Mothership order and "
        "the same table, and the per-game difference of their points (paired t interval) and of their "
        "wins (Tango's paired interval) removes what the game itself brings. At 4 players every "
        "game deals every card; at 2 players a given pair is dealt together in about one game in six, "
        "so those intervals rest on fewer games. A card's own level is its holder's points above the "
        "average seat of the same game, comparable across player counts.",
        "Why it is fair: only mirror matches are used (every seat the same strategy), so a card's holder "
        "differs from the others by its cards and its seat only, and the seat a card lands in is a fair "
        "draw. Check: for "
        f"{first_fair[0]} of {first_fair[1]} card-and-cell pairs the 95 % interval of the share of games "
        "in which the card sat first contains one in the number of players (the table's last column). "
        "Cells played on the same seed deal the same cards, so one uneven deal shows in each of them; "
        "an uneven share matters only as far as the seats differ, which the next section measures.",
    ]
    if left_out:
        paragraphs.append(
            "Left out: the cells where the seats play different strategies ("
            + "; ".join(left_out)
            + "): there the strategy gap would swamp the card effect."
        )
    tables = [
        Table(
            "Per card and cell: games that dealt it, its holder's win rate (95 % Wilson interval), mean "
            "final points and points above the table average (95 % t intervals), and how often it sat "
            "first (95 % Wilson interval).",
            ["cell", "card", "games", "win rate", "mean points", "points above table", "in first seat"],
            card_rows,
        ),
        Table(
            "Every pair of cards in one cell, from the games that dealt both: the second card's holder "
            "less the first's, in points (paired t interval; the unpaired Welch interval beside it shows "
            "what the pairing saves) and in win rate (percentage points, Tango paired interval). Resolved "
            "(in points): Benjamini-Hochberg over the pairs of the same deck in the same cell (false "
            "discovery rate 5 %; each finding above names the family's size).",
            [
                "cell",
                "cards",
                "games",
                "points (95 % CI)",
                "unpaired CI",
                "win rate (pp, 95 % CI)",
                "resolved",
            ],
            pair_rows,
        ),
    ]
    return GameSection(
        "aa-cards",
        "Mission cards: City and Border",
        findings=findings,
        paragraphs=paragraphs,
        charts=[_card_chart(ctx, per_cell)]
        if any(not _nan(c.rel.low) for _, d in per_cell for cs in d.values() for c in cs)
        else [],
        tables=tables,
    )


# --- first seat -----------------------------------------------------------------------------------


def _seat_chart(ctx: AnalysisContext, series: list) -> charts.Chart | None:
    if all(_nan(r.low) for _, by_seat in series for _, _, r in by_seat):
        return None  # too few games for any interval
    with matplotlib.rc_context(charts.STYLE):
        fig = charts.new_figure(9.0, 4.2)
        ax = fig.add_subplot()
        groups = len(series)
        for gi, (info, by_seat) in enumerate(series):
            off = charts.dodge(gi, groups, 0.7)
            ok = [(s, r) for s, _, r in by_seat if not _nan(r.low)]
            if not ok:
                continue
            charts.interval_dots(
                ax,
                [s + 1 + off for s, _ in ok],
                [r.estimate for _, r in ok],
                [r.low for _, r in ok],
                [r.high for _, r in ok],
                group=gi,
                label=info.label,
            )
        ax.axhline(0, color="#555555", linewidth=0.8)
        top = max(i.players for i, _ in series)
        ax.set_xticks(range(1, top + 1), [f"seat {k}" for k in range(1, top + 1)])
        ax.set_xlabel("seat (seat 1 starts round 1)")
        ax.set_ylabel("points above the table average (points)")
        ax.grid(axis="x", visible=False)
        ax.set_title(f"Seat effect: {ctx.subject}", loc="left")
        ax.legend(title="cell", loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=8)
    alt = "; ".join(
        f"{info.label}, seat {s + 1}: {_signed(r.estimate)} points ({_ci(r.low, r.high, _signed)})"
        for info, by_seat in series
        for s, _, r in by_seat
    )
    n = [info.games for info, _ in series]
    chart = charts.save_chart(
        fig,
        ctx.out,
        f"{ctx.name}-aa-seats",
        "Seat effect",
        "Points above the table average by seat, with 95 % t intervals, per cell. " + alt,
        "Mean final points of each seat minus the average seat of the same game, with 95 % t intervals "
        f"(0 = no seat effect); cells of {_counts(n)}.",
    )
    return chart


def _by_game(part: pl.DataFrame, values: pl.Series | pl.Expr) -> stats.Interval:
    """The mean of a per-seat quantity over seat-games, each game (cell and game index) one unit:
    the seats of one game share its deal and its outcome, so they are not independent. `n` is the
    number of games."""
    frame = part.select("cell", "game_index", values.cast(pl.Float64).alias("v")).drop_nulls()
    frame = frame.filter(pl.col("v").is_not_nan())
    clusters = frame.select(pl.struct("cell", "game_index").rank("dense")).to_series().to_numpy()
    return stats.clustered_mean(frame["v"].to_numpy(), clusters)


def _average_seat(seats: pl.DataFrame) -> stats.Interval:
    """The average seat's win rate, each game one unit (its seats are not independent)."""
    decided = seats.select("game_index", pl.col("won").cast(pl.Float64)).drop_nulls()
    return stats.clustered_mean(decided["won"].to_numpy(), decided["game_index"].to_numpy())


def seat_section(ctx: AnalysisContext, seats: pl.DataFrame, cells: list[CellInfo]) -> GameSection | None:
    findings, rows, series, firsts = [], [], [], []
    for info in cells:
        mine = seats.filter(pl.col("cell") == info.cell)
        if mine.height == 0 or info.players < 2:
            continue
        games = mine["game_index"].n_unique()
        fair = _average_seat(mine)
        by_seat = []
        for seat in range(info.players):
            s = mine.filter(pl.col("seat") == seat)
            w = s["won"].drop_nulls()
            by_seat.append(
                (seat, stats.wilson(int(w.sum()), w.len()), stats.mean_interval(s["rel"].to_numpy()))
            )
        series.append((info, by_seat))
        first_rel = mine.filter(pl.col("seat") == 0)["rel"].to_numpy()
        firsts.append((info, by_seat[0], fair, stats.mean_p_value(first_rel)))
        for seat, w, r in by_seat:
            rows.append([info.label, str(seat + 1), f"{games:,}", _rate_cell(w), _mean_cell(r, signed=True)])
    if not series:
        return None
    # one first-seat finding per cell: the cells are the family
    family = stats.family([p for *_, p in firsts])
    for (info, first, fair, _), resolved in zip(firsts, family.resolved, strict=True):
        rel = first[2]
        verdict = (
            "an advantage"
            if resolved and rel.estimate > 0
            else "a disadvantage"
            if resolved and rel.estimate < 0
            else "no resolved advantage or disadvantage"
        )
        findings.append(
            f"{info.label}: the first seat wins {_rate_text(first[1])} against {_pct(fair.estimate)} "
            f"({_ci(fair.low, fair.high, _pct)}; each game one unit) for an average seat, and scores "
            f"{_signed(rel.estimate)} points above the table average "
            f"({_ci(rel.low, rel.high, _signed)}; {rel.n:,} games): {verdict} (after {family.text})."
        )
    chart = _seat_chart(ctx, series)
    return GameSection(
        "aa-seats",
        "First-seat advantage",
        findings=findings,
        paragraphs=[
            "Seat 1 starts round 1 and the Mothership passes to the left each round. The runner rotates "
            "the strategies over the seats from game to game, so each strategy sits first equally often "
            "and a seat effect is not a strategy effect. A seat's points are measured against the "
            "average seat of the same game (a within-game difference); the average seat's win rate is "
            "one in the number of players, a little more when ties share the win."
        ],
        charts=[chart] if chart is not None else [],
        tables=[
            Table(
                "Win rate (95 % Wilson interval) and points above the table average (95 % t interval) "
                "by seat.",
                ["cell", "seat", "games", "win rate", "points above table"],
                rows,
            )
        ],
    )


# --- head to head ---------------------------------------------------------------------------------


def head_to_head_section(seats: pl.DataFrame, cells: list[CellInfo]) -> GameSection | None:
    """Cells where different strategies share the table: each strategy's win rate per seat-game
    against the average seat's, its points above the table average, and for two strategies the
    difference in points between them within each game (paired)."""
    if "strategy" not in seats.columns:
        return None
    findings, rows, duels = [], [], []
    for info in cells:
        names = list(dict.fromkeys(info.strategies))
        mine = seats.filter(pl.col("cell") == info.cell)
        if len(names) < 2 or info.variant != "standard" or mine.height == 0:
            continue
        fair = _average_seat(mine)
        rates = {}
        for name in names:
            part = mine.filter(pl.col("strategy") == name)
            w = part["won"].drop_nulls()
            rates[name] = _by_game(part, pl.col("won"))
            rel = _by_game(part, pl.col("rel"))
            rows.append(
                [info.label, name, f"{w.len():,}", _rate_cell(rates[name]), _mean_cell(rel, signed=True)]
            )
        if len(names) != 2:
            continue
        a, b = names
        per_game = mine.group_by("game_index", "strategy").agg(pl.col("score").mean())
        wide = per_game.pivot(on="strategy", index="game_index", values="score").drop_nulls()
        per_game_diff = (wide[a] - wide[b]).to_numpy()
        duels.append(
            (info, a, b, rates, fair, stats.mean_interval(per_game_diff), stats.mean_p_value(per_game_diff))
        )
    family = stats.family([d[-1] for d in duels])  # one verdict per cell: the cells are the family
    for (info, a, b, rates, fair, diff, _), resolved in zip(duels, family.resolved, strict=True):
        ra = rates[a]
        if ra.low > fair.estimate and resolved and diff.estimate > 0:
            verdict = f"{a} beats {b}"
        elif ra.high < fair.estimate and resolved and diff.estimate < 0:
            verdict = f"{b} beats {a}"
        else:
            verdict = f"neither {a} nor {b} is resolved stronger"
        findings.append(
            f"{info.label}: {verdict}. In its seat-games {a} wins {_rate_text(ra)}, against "
            f"{_pct(rates[b].estimate)} for {b} and {_pct(fair.estimate)} for an average seat, and scores "
            f"{_signed(diff.estimate)} points a game more than {b} ({_ci(diff.low, diff.high, _signed)}; "
            f"{diff.n:,} games, paired within the game; resolved or not after {family.text})."
        )
    if not rows:
        return None
    return GameSection(
        "aa-h2h",
        "Head to head",
        findings=findings,
        paragraphs=[
            "Cells where different strategies play at one table. The runner rotates the strategies over "
            "the seats from game to game, so no strategy owns the first seat. A strategy's win rate is "
            "over its seat-games (95 % interval with each game one unit, as its seats share the game; "
            "ties share the win, so an average seat wins a "
            "little more than one in the number of players); its points are measured against the "
            "average seat of the same game. With two strategies, the verdict needs both: a win rate "
            "whose interval lies above the average seat's, and more points a game, paired within games."
        ],
        tables=[
            Table(
                "Win rate (95 % Wilson interval) and points above the table average (95 % t interval) "
                "by strategy, in cells that mix strategies.",
                ["cell", "strategy", "seat-games", "win rate", "points above table"],
                rows,
            )
        ],
    )


# --- score components and Global Protection -------------------------------------------------------


def _groups(seats: pl.DataFrame, cells: list[CellInfo]) -> list[tuple[int, str, pl.DataFrame]]:
    players = pl.DataFrame(
        {"cell": [c.cell for c in cells], "players": [c.players for c in cells]},
        schema={"cell": pl.String, "players": pl.Int64},
    )
    joined = seats.join(players, on="cell", how="inner")
    out = []
    for p in sorted(joined["players"].unique().to_list()):
        for strategy in sorted(joined.filter(pl.col("players") == p)["strategy"].unique().to_list()):
            part = joined.filter((pl.col("players") == p) & (pl.col("strategy") == strategy))
            out.append((int(p), str(strategy), part))
    return out


def components_section(
    ctx: AnalysisContext, seats: pl.DataFrame, cells: list[CellInfo]
) -> GameSection | None:
    comps = [(c, name) for c, name in COMPONENTS if c in seats.columns]
    if not comps or "strategy" not in seats.columns:
        return None
    groups = _groups(seats, cells)
    if not groups:
        return None
    rows, findings, means = [], [], []
    for p, strategy, part in groups:
        total = _by_game(part, pl.col("score"))
        ivs = [_by_game(part, pl.col(c)) for c, _ in comps]
        means.append((f"{p} players, {strategy}", [iv.estimate for iv in ivs]))
        rows.append(
            [f"{p} players", strategy, f"{total.n:,}", _mean_cell(total), *(_mean_cell(iv) for iv in ivs)]
        )
        if "city_mission" in part.columns and "border_mission" in part.columns:
            mission = _by_game(part, pl.col("city_mission") + pl.col("border_mission"))
            place = ivs[0] if comps[0][0] == "placement_points" else None
            text = (
                f"With {p} players, {strategy} seats score {_num(total.estimate)} points "
                f"({_ci(total.low, total.high)}; {part.height:,} seat-games in {total.n:,} games, each "
                "game one unit), of which their two mission "
                f"cards bring {_num(mission.estimate)} ({_ci(mission.low, mission.high)})"
            )
            if place is not None:
                text += f" and placements {_num(place.estimate)} ({_ci(place.low, place.high)})"
            findings.append(text + ".")
    with matplotlib.rc_context(charts.STYLE):
        fig = charts.new_figure(10.0, max(2.8, 0.45 * len(means) + 1.6))
        ax = fig.add_subplot()
        left = np.zeros(len(means))
        ys = np.arange(len(means))
        for ci, (_, name) in enumerate(comps):
            vals = np.array([m[1][ci] for m in means])
            ax.barh(ys, vals, left=left, color=charts.colour(ci), label=name, height=0.7, edgecolor="white")
            left += vals
        ax.set_yticks(ys, [m[0] for m in means])
        ax.invert_yaxis()
        ax.set_xlabel("mean final points per seat (points)")
        ax.grid(axis="y", visible=False)
        ax.set_title(f"Score components by strategy: {ctx.subject}", loc="left")
        ax.legend(title="component", loc="upper left", bbox_to_anchor=(1.0, 1.0))
    alt = "; ".join(
        f"{label}: " + ", ".join(f"{name} {_num(v)}" for (_, name), v in zip(comps, vals, strict=True))
        for label, vals in means
    )
    n = [part.height for _, _, part in groups]
    chart = charts.save_chart(
        fig,
        ctx.out,
        f"{ctx.name}-aa-components",
        "Score components by strategy",
        "Mean points of each score component per seat, stacked, by player count and strategy. " + alt,
        "Mean points per seat from each score component, stacked to the mean final total, by player "
        f"count and strategy; {_counts(n, 'seat-games')} per bar. The intervals are in the table.",
    )
    return GameSection(
        "aa-components",
        "Score components by strategy",
        findings=findings,
        paragraphs=[
            "Every seat row splits its final points into placements (cities and herds scored during the "
            "game) and the end-of-game scoring: the City and Border cards, the Global cards (parks, "
            "bases, territory) and Global Protection. Seat-games of one strategy are pooled over the "
            "cells with the same player count, whatever the opponents."
        ],
        charts=[chart],
        tables=[
            Table(
                "Mean points per seat by component (95 % t intervals), by player count and strategy.",
                ["players", "strategy", "seat-games", "total", *(name for _, name in comps)],
                rows,
            )
        ],
    )


def protection_section(
    ctx: AnalysisContext, seats: pl.DataFrame, cells: list[CellInfo]
) -> GameSection | None:
    if "protection" not in seats.columns or "strategy" not in seats.columns:
        return None
    board, _ = _board(ctx.dataset.games)
    # Global Protection pays all of its points or none: any points mean it was earned, whatever
    # the board file pays; the page names the amount from that file when it can still be read
    if board is not None:
        pays = f"{board.protection_points} points"
        needs = (board.protection_value1, board.protection_herds, board.protection_borders)
    else:  # the board file moved: the rulebook's requirements
        pays, needs = "its points", (4, 4, 3)
    rows, findings = [], []
    for p, strategy, part in _groups(seats, cells):
        ok = part["protection"].drop_nulls()
        iv = _by_game(part, pl.col("protection") > 0)
        rows.append([f"{p} players", strategy, f"{ok.len():,}", _rate_cell(iv)])
        findings.append(
            f"With {p} players, {strategy} seats earn Global Protection in {_pct(iv.estimate)} of their "
            f"games ({_ci(iv.low, iv.high, _pct)}; {ok.len():,} seat-games in {iv.n:,} games, each game "
            "one unit)."
        )
    if not rows:
        return None
    return GameSection(
        "aa-protection",
        "Global Protection",
        findings=findings,
        paragraphs=[
            f"Global Protection pays {pays} to a player whose discs touch {needs[0]} value-1 cities, "
            f"cover {needs[1]} herd spaces and cover {needs[2]} border spaces outside its own Border card; "
            "the rate is the share of seat-games that met all three (95 % intervals with each game one "
            "unit: the seats of a game share it)."
        ],
        tables=[
            Table(
                "Global Protection success rate by player count and strategy.",
                ["players", "strategy", "seat-games", "success rate"],
                rows,
            )
        ],
    )


# --- semi-cooperative -----------------------------------------------------------------------------


def _semicoop_pairs(games: pl.DataFrame, semi: list[CellInfo]) -> list[str]:
    """Success at one player count against the next, for the same mirror strategy, paired by game
    index (game i draws the same Mothership order at every player count)."""
    found = []
    for strategy in dict.fromkeys(c.strategies[0] for c in semi if c.mirror and c.strategies):
        mine = sorted((c for c in semi if c.mirror and c.strategies[0] == strategy), key=lambda c: c.players)
        for a, b in zip(mine, mine[1:], strict=False):
            ga = games.filter(pl.col("cell") == a.cell).select("game_index", "won")
            gb = games.filter(pl.col("cell") == b.cell).select("game_index", "won")
            joined = ga.join(gb, on="game_index", suffix="_b").drop_nulls(["won", "won_b"])
            if joined.height < 2:
                continue
            w = stats.paired_difference(
                joined["won"].cast(pl.Boolean).to_numpy(), joined["won_b"].cast(pl.Boolean).to_numpy()
            )
            found.append((strategy, a, b, w))
    family = stats.family([w.p_value for *_, w in found])  # every step of every strategy
    out = []
    for (strategy, a, b, w), resolved in zip(found, family.resolved, strict=True):
        verdict = (
            f"more often than {a.players}"
            if resolved and w.difference > 0
            else f"less often than {a.players}"
            if resolved and w.difference < 0
            else f"about as often as {a.players}"
        )
        out.append(
            f"{strategy} mirror, semi-coop: {b.players} players hold Earth {verdict}: "
            f"{_pp(w.difference)} percentage points ({_ci(w.low, w.high, _pp)}; {w.n:,} games paired "
            "by game index, which draws the same Mothership order at every player count)"
            + ("; resolved" if resolved else "; not resolved")
            + f" after {family.text}."
        )
    return out


def semicoop_section(ctx: AnalysisContext, cells: list[CellInfo]) -> GameSection | None:
    semi = [c for c in cells if c.variant == "semi-coop"]
    games = ctx.dataset.games
    if not semi or "won" not in games.columns:
        return None
    findings, rows, pts = [], [], []
    for info in semi:
        part = games.filter(pl.col("cell") == info.cell)
        won = part["won"].drop_nulls().cast(pl.Boolean)
        iv = stats.wilson(int(won.sum()), won.len())
        destroyed = (
            stats.mean_interval(part["bases_destroyed"].cast(pl.Float64).to_numpy())
            if "bases_destroyed" in part.columns
            else None
        )
        pts.append((info, iv))
        text = f"{info.label}: Earth holds (at least {SEMI_COOP_BASES} bases destroyed) in {_rate_text(iv)}"
        if destroyed is not None:
            text += (
                f"; the players destroy {_num(destroyed.estimate)} bases a game "
                f"({_ci(destroyed.low, destroyed.high)})"
            )
        findings.append(text + ".")
        rows.append(
            [
                info.label,
                f"{iv.n:,}",
                _rate_cell(iv),
                "n/a" if destroyed is None else _mean_cell(destroyed),
            ]
        )
    findings += _semicoop_pairs(games, semi)
    with matplotlib.rc_context(charts.STYLE):
        fig = charts.new_figure(7.0, 3.8)
        ax = fig.add_subplot()
        xs = list(range(len(pts)))
        charts.interval_dots(
            ax,
            xs,
            [iv.estimate for _, iv in pts],
            [iv.low for _, iv in pts],
            [iv.high for _, iv in pts],
            scale=100,
        )
        ax.set_xticks(xs, [info.label.replace(", ", "\n") for info, _ in pts])
        ax.set_ylim(-1.5, 101)
        ax.set_ylabel("games the players win together (%)")
        ax.set_xlabel("cell")
        ax.grid(axis="x", visible=False)
        ax.set_title(f"Semi-cooperative success: {ctx.subject}", loc="left")
    chart = charts.save_chart(
        fig,
        ctx.out,
        f"{ctx.name}-aa-semicoop",
        "Semi-cooperative success",
        "Share of semi-cooperative games in which at least 24 bases were destroyed, with 95 % Wilson "
        "intervals. " + "; ".join(f"{info.label}: {_rate_text(iv)}" for info, iv in pts),
        "Share of games in which the players together destroyed at least 24 bases (else everybody "
        "loses), with 95 % Wilson intervals; "
        f"{_counts([iv.n for _, iv in pts])} per cell.",
    )
    return GameSection(
        "aa-semicoop",
        "Semi-cooperative success by player count",
        findings=findings,
        paragraphs=[
            f"In the semi-cooperative variant everybody loses unless the players destroy at least "
            f"{SEMI_COOP_BASES} bases in total; otherwise the standard winner wins."
        ],
        charts=[chart],
        tables=[
            Table(
                "Team success rate (95 % Wilson interval) and bases destroyed a game (95 % t interval).",
                ["cell", "games", "Earth holds", "bases destroyed"],
                rows,
            )
        ],
    )


# --- board heatmaps -------------------------------------------------------------------------------


def space_counts(column: pl.Series, n_spaces: int) -> np.ndarray:
    """How many games list each space (index = space number) in a space-separated column."""
    counts = np.zeros(n_spaces + 1, dtype=np.int64)
    for text in column.drop_nulls().to_list():
        for tok in str(text).split():
            s = int(tok)
            if 1 <= s <= n_spaces:
                counts[s] += 1
    return counts


def _board(games: pl.DataFrame):
    from simkit.games.alien_attack import components

    datas = games["data"].drop_nulls().unique().to_list() if "data" in games.columns else ["built-in"]
    if len(datas) > 1:
        return None, "the cells use different board files, so one map cannot show them all"
    data = datas[0] if datas else "built-in"
    try:
        return components.load(None if data in (None, "built-in") else data), ""
    except Exception as exc:  # the board file moved or changed since the run
        return None, f"the board file could not be read ({exc})"


def board_section(ctx: AnalysisContext) -> GameSection | None:
    games = ctx.dataset.games
    if not {"base_spaces", "capture_spaces"} <= set(games.columns):
        return None
    board, why = _board(games)
    if board is None:
        return GameSection("aa-board", "Board heatmaps", paragraphs=[f"No heatmaps: {why}."])
    from simkit.games.alien_attack import board_plot

    n = games["base_spaces"].drop_nulls().len()
    if n == 0:
        return None
    findings, chart_list, tables = [], [], []
    for col, what, verb, plural, cmap in (
        ("base_spaces", "becomes a base", "became a base", "become a base", "Reds"),
        ("capture_spaces", "sees a disc captured", "saw a disc captured", "see a disc captured", "Purples"),
    ):
        counts = space_counts(games[col], board.n)
        rates = {s: counts[s] / n for s in range(1, board.n + 1)}
        order = sorted(rates, key=lambda s: (-rates[s], s))
        top = order[:TOP_SPACES]
        ivs = {s: stats.wilson(int(counts[s]), n) for s in range(1, board.n + 1)}
        hi, lo = order[0], order[-1]
        per_game = stats.mean_interval(
            np.array([len(str(t).split()) for t in games[col].drop_nulls().to_list()], dtype=float)
        )
        findings.append(
            f"Space {hi} {what} most often: in {_rate_text(ivs[hi])}; space {lo} least often: "
            f"{_pct(ivs[lo].estimate)} ({_ci(ivs[lo].low, ivs[lo].high, _pct)}). A game has "
            f"{_num(per_game.estimate)} such spaces on average ({_ci(per_game.low, per_game.high)})."
        )
        label = "share of games (%)"
        with matplotlib.rc_context(charts.STYLE):
            fig = charts.new_figure(11.0, 7.5)
            ax = fig.add_subplot()
            board_plot.draw_board(
                board,
                values={s: 100 * r for s, r in rates.items()},
                ax=ax,
                title=f"Share of games in which each space {what}: {ctx.subject}",
                cmap=cmap,
                value_label=label,
            )
        name = "bases" if col == "base_spaces" else "captures"
        chart_list.append(
            charts.save_chart(
                fig,
                ctx.out,
                f"{ctx.name}-aa-heat-{name}",
                f"Where {'bases appear' if name == 'bases' else 'discs are captured'}",
                f"Map of the board shaded by the share of games in which each space {what}. Most: "
                + ", ".join(f"space {s} {_pct(rates[s])}" for s in top)
                + f". Least: space {lo} {_pct(rates[lo])}.",
                f"Each space is shaded by the share of games in which it {verb} (darker = more often), "
                f"pooled over all {n:,} games of the dataset (every cell); cities are the numbered dots, "
                "borders the coloured edges, parks the green triangles, Canada icons the red diamonds. "
                "No space's 95 % Wilson interval is wider than ±"
                f"{_pct(max(iv.half_width for iv in ivs.values()))}; the most frequent spaces are in the "
                "table.",
            )
        )
        tables.append(
            Table(
                f"The {TOP_SPACES} spaces that {plural} most often, of {n:,} games (95 % Wilson intervals).",
                ["space", "share of games", "games"],
                [[str(s), _rate_cell(ivs[s]), f"{int(counts[s]):,}"] for s in top],
            )
        )
    return GameSection(
        "aa-board",
        "Board heatmaps: bases and captures",
        findings=findings,
        paragraphs=[
            "A space becomes a base when its marker is left undefended at the end of a round (whether "
            "or not the base is destroyed later); a disc is captured when a flip traps it between two "
            "bases. Both maps pool every game of the dataset: with more players, more markers are "
            "covered each round and fewer spaces flip."
        ],
        charts=chart_list,
        tables=tables,
    )


# --- the hook -------------------------------------------------------------------------------------


def sections(ctx: AnalysisContext) -> list[GameSection]:
    seats = _seat_frame(ctx)
    cells = _cells(ctx, seats)
    out: list[GameSection | None] = []
    if seats is not None:
        out += [
            cards_section(ctx, seats, cells),
            head_to_head_section(seats, cells),
            seat_section(ctx, seats, cells),
            components_section(ctx, seats, cells),
            protection_section(ctx, seats, cells),
        ]
    out += [semicoop_section(ctx, cells), board_section(ctx)]
    return [s for s in out if s is not None]

"""How rates and differences read on the page: one helper for the report and every game's analysis.

Two rules the plain `f"{100 * x:.1f} %"` broke: a value that rounds to zero from below printed
"-0.0", and a rate of 1 win in 3,000 printed "0.0 %" like 0 wins. A nonzero value that would round
to zero gets more decimals (up to three); an exact zero prints unsigned.
"""

from __future__ import annotations

import math
import string
from typing import Any

from simkit.core import stats

MAX_DIGITS = 3


def missing(x: Any) -> bool:
    return x is None or (isinstance(x, float) and math.isnan(x))


def _digits(x: float, digits: int) -> int:
    """`digits`, or more (up to MAX_DIGITS) until a nonzero `x` (in percent) no longer rounds to 0."""
    while x and round(abs(x), digits) == 0 and digits < MAX_DIGITS:
        digits += 1
    return digits


def pct(x: Any, digits: int = 1, none: str = "n/a") -> str:
    """A proportion as a percentage: "12.3 %", "0.03 %" for 1 in 3,000, "0.0 %" only for zero,
    "< 0.001 %" below what three decimals show; never "-0.0 %"."""
    if missing(x):
        return none
    value = 100 * float(x)
    d = _digits(value, digits)
    if value and round(abs(value), d) == 0:
        return f"{'> -' if value < 0 else '< '}{10**-d:.{d}f} %"
    text = f"{value:.{d}f}"
    return ("0" + text[2:] if text.startswith("-0") and float(text) == 0 else text) + " %"


def points(x: Any, digits: int = 1, none: str = "n/a") -> str:
    """A difference of proportions in signed percentage points ("+2.1", "-0.04"); an exact zero,
    or a value that rounds to zero at three decimals, is unsigned ("0.0")."""
    if missing(x):
        return none
    value = 100 * float(x)
    d = _digits(value, digits)
    if round(value, d) == 0:
        return f"{0:.{d}f}"
    return f"{value:+.{d}f}"


def signed(x: Any, digits: int = 2, none: str = "n/a") -> str:
    """A signed number ("+1.25", "-0.40"); one that rounds to zero is unsigned ("0.00"), never
    "-0.00"."""
    if missing(x):
        return none
    if round(float(x), digits) == 0:
        return f"{0:.{digits}f}"
    return f"{float(x):+,.{digits}f}"


# --- the page's table cells (jinja filters): a dash where there is no value ---


def fmt_pct(x: Any, digits: int = 1) -> str:
    return pct(x, digits, none="–")


def fmt_num(x: Any, digits: int = 2, none: str = "–") -> str:
    """A number with thousands separators ("1,234.50"); `none` without one."""
    return none if missing(x) else f"{x:,.{digits}f}"


def fmt_int(x: Any) -> str:
    return "–" if missing(x) else f"{int(x):,}"


def fmt_interval(low: Any, high: Any, digits: int = 2, pct: bool = False, none: str = "–") -> str:
    """An interval as "low to high" ("10.1 to 14.5 %" for proportions); `none` without one."""
    if missing(low) or missing(high):
        return none
    if pct:
        return f"{100 * low:.1f} to {100 * high:.1f} %"
    return f"{low:,.{digits}f} to {high:,.{digits}f}"


def count_range(ns: Any, what: str = "games", none: str = "no games") -> str:
    """How many games each point or cell rests on: "1,000 games", "400 to 1,000 games"."""
    values = [int(n) for n in ns]
    if not values:
        return none
    lo, hi = min(values), max(values)
    return f"{lo:,} {what}" if lo == hi else f"{lo:,} to {hi:,} {what}"


def per(estimates: Any, what: str, noun: str = "games") -> str:
    """How many games (`noun`) each of `estimates` (`stats.Interval`s or paired differences: a
    chart's points, a table's cells) rests on: "400 games per square", "380 to 400 pairs per point"."""
    return count_range([e.n for e in estimates], f"{noun} per {what}")


def settings_text(settings: Any, keys: Any = None, sep: str = " ") -> str:
    """Settings as the page names a cell by them, "players=2 figures=4": each of `keys` (None:
    every one) that `settings` (a mapping) holds as key=value, joined by `sep`; "" where it holds
    none of them."""
    return sep.join(f"{k}={settings[k]}" for k in (settings if keys is None else keys) if k in settings)


def the_crew(strategy: str) -> str:
    """A cooperative game's players in a sentence, named by their strategy: "the greedy crew", or
    "the crew" where there is none to name."""
    return f"the {strategy} crew" if strategy else "the crew"


def plural(n: int, noun: str = "game") -> str:
    """A count with its noun: "1 game", "1,200 games"."""
    return f"{n:,} {noun}" + ("" if n == 1 else "s")


def estimate_cell(iv: Any, digits: int = 1, as_pct: bool = False, none: str = "–") -> str:
    """An estimate (a `stats.Interval`) as a table cell with its 95 % interval and its games:
    "12.3 % (10.1 to 14.5 %; n=400)" for a rate (`as_pct`), "5.5 (5.1 to 6.0; n=381)" for a mean
    to `digits` decimals, "4.0 (n=1)" where one game gives no interval; `none` without games."""
    if iv is None or iv.n == 0:
        return none
    value = pct(iv.estimate) if as_pct else f"{iv.estimate:.{digits}f}"
    if missing(iv.low) or missing(iv.high):
        return f"{value} (n={iv.n:,})"
    if as_pct:
        return f"{value} ({fmt_interval(iv.low, iv.high, pct=True)}; n={iv.n:,})"
    return f"{value} ({iv.low:.{digits}f} to {iv.high:.{digits}f}; n={iv.n:,})"


def ci(iv: Any, digits: int = 2, pct: bool = False, none: str = "n/a") -> str:
    """A `stats.Interval`'s bounds as `fmt_interval` writes them ("10.1 to 14.5 %" for a rate);
    `none` when it rests on no games or has no bounds."""
    return fmt_interval(iv.low, iv.high, digits, pct, none) if iv.n else none


def with_interval(iv: Any, rate: bool = True, digits: int = 2) -> str:
    """An estimate and its interval: "12.3 % (10.1 to 14.5 %)" for a rate, "1.25 (0.90 to 1.60)"
    otherwise."""
    estimate = pct(iv.estimate) if rate else f"{iv.estimate:,.{digits}f}"
    return f"{estimate} ({ci(iv, digits, pct=rate)})"


def number(x: Any, digits: int = 1, none: str = "n/a") -> str:
    """A plain number in a sentence or a table cell ("12.3", no thousands separator); `none`
    without one."""
    return none if missing(x) else f"{x:.{digits}f}"


def span(low: Any, high: Any, fmt: Any = number) -> str:
    """An interval's bounds as a sentence reads them, written by `fmt`: "1.2 to 3.4"."""
    return f"{fmt(low)} to {fmt(high)}"


def ci_text(low: Any, high: Any, fmt: Any = number) -> str:
    """A 95 % interval in a sentence, its bounds written by `fmt` (one of the formatters here):
    "95 % CI 1.2 to 3.4", or "95 % CI n/a" without one."""
    if missing(low) or missing(high):
        return "95 % CI n/a"
    return f"95 % CI {span(low, high, fmt)}"


def bounds(low: Any, high: Any, fmt: Any = number) -> str:
    """An interval in a table cell, its bounds written by `fmt`: "[48.9 %, 62.1 %]"."""
    return f"[{fmt(low)}, {fmt(high)}]"


def bracketed(iv: Any, fmt: Any = number) -> str:
    """An estimate with its interval (a `stats.Interval`) in a table cell, written by `fmt`:
    "55.6 % [48.9 %, 62.1 %]"."""
    return f"{fmt(iv.estimate)} {bounds(iv.low, iv.high, fmt)}"


def rate_text(iv: Any) -> str:
    """A rate with its interval and its games (a `stats.Interval`) in a sentence:
    "12.3 % (95 % CI 10.1 % to 14.5 %; 1,000 games)"."""
    return f"{pct(iv.estimate)} ({ci_text(iv.low, iv.high, pct)}; {iv.n:,} games)"


def signed1(x: Any, none: str = "n/a") -> str:
    """A signed number to one decimal, as points read ("+1.3", "-0.4", "0.0")."""
    return signed(x, 1, none)


def pp(x: Any, none: str = "n/a") -> str:
    """A difference of proportions as plain percentage points, unsigned ("2.1" for 0.021)."""
    return none if missing(x) else number(100 * float(x))


# --- estimates in templates: the words of a page (`kit.Words.fill`) and its table cells ---


def number2(x: Any, none: str = "n/a") -> str:
    """A number to two decimals with thousands separators ("1,234.50"); `none` without one."""
    return fmt_num(x, 2, none)


FORMATS = {
    "number": number,
    "number2": number2,
    "pct": pct,
    "points": points,
    "signed": signed,
    "signed1": signed1,
    "pp": pp,
}


class Shown:
    """An estimate with its 95 % interval (a `stats.Interval`, or a `stats.PairedDifference`,
    whose estimate is its difference) as a template's format spec asks, the formatter named by
    its key in FORMATS ("pct", "signed1", ...):

    - `{x:pct}` the estimate ("12.3 %"), `{x:abs number}` its absolute value;
    - `{x:ci pct}` the interval in a sentence, `ci_text` ("95 % CI 10.1 % to 14.5 %"; `{x:ci}`
      in plain numbers);
    - `{x:[pct]}` the estimate and its interval in a table cell, `bracketed`
      ("12.3 % [10.1 %, 14.5 %]"), and `{x:bounds pct}` the interval alone, `bounds`;
    - `{x:rate}` a rate, its interval and its games, `rate_text`;
    - `{x:interval pct}` the bounds alone as `ci` writes them ("10.1 to 14.5 %"; `{x:interval}`
      in numbers to two decimals, "1,234.50 to 1,300.00"), "n/a" without games;
    - `{x:interval points}` (any other formatter of FORMATS) the bounds in its numbers, "-4.1 to
      +2.0";
    - `{x:games}` the games it rests on, `plural` ("1 game", "1,200 games");
    - `{x:more|less}` the first word where the estimate is at least 0, else the second;
    - `{x.n:,}` (any attribute of the value) as it is.

    A missing estimate (None) reads "n/a" whatever the spec."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __getattr__(self, name: str) -> Any:
        return getattr(self.value, name)

    @property
    def estimate(self) -> float:
        value = self.value
        return value.estimate if hasattr(value, "estimate") else value.difference

    def __format__(self, spec: str) -> str:
        if self.value is None:
            return "n/a"
        if spec == "rate":
            return rate_text(self)
        if "|" in spec:
            at_least, below = spec.split("|")
            return at_least if self.estimate >= 0 else below
        if spec.startswith("[") and spec.endswith("]"):
            return bracketed(self, FORMATS[spec[1:-1]])
        word, _, name = spec.rpartition(" ")
        if spec == "ci":
            return ci_text(self.low, self.high)
        if word == "ci":
            return ci_text(self.low, self.high, FORMATS[name])
        if word == "bounds":
            return bounds(self.low, self.high, FORMATS[name])
        if spec in ("interval", "interval pct"):  # "10.1 to 14.5 %", as `ci` writes it
            return ci(self, pct=name == "pct")
        if word == "interval":
            return span(self.low, self.high, FORMATS[name])
        if spec == "games":
            return plural(self.n)
        if word == "abs":
            return FORMATS[name](abs(self.estimate))
        if word or name not in FORMATS:
            raise ValueError(f"a template asks for {spec!r}: no such format of an estimate")
        return FORMATS[name](self.estimate)


class _Formatter(string.Formatter):
    """`str.format`'s templates, with an estimate (or None) in a field written by `Shown`, a plain
    number whose spec names a formatter of FORMATS by it ("{share:pct}"), and a truth value by
    the word for true or for false ("{resolved:yes|no}")."""

    def format_field(self, value: Any, format_spec: str) -> str:
        if value is None or isinstance(value, stats.Interval | stats.PairedDifference):
            return format(Shown(value), format_spec)
        if format_spec in FORMATS:  # a plain number: "{share:pct}"
            return FORMATS[format_spec](value)
        if isinstance(value, bool) and "|" in format_spec:  # "{resolved:yes|no}"
            yes, no = format_spec.split("|")
            return yes if value else no
        return super().format_field(value, format_spec)


class _Attributes:
    """An object's attributes as a template's fields, after the values `more`."""

    def __init__(self, item: Any, more: dict[str, Any]) -> None:
        self.item, self.more = item, more

    def __getitem__(self, name: str) -> Any:
        return self.more[name] if name in self.more else getattr(self.item, name)


_FORMATTER = _Formatter()


def fill(template: str, /, **values: Any) -> str:
    """`template.format(**values)`, each estimate (or None) written as `Shown` reads its spec
    ("{wins:pct} ({wins:ci pct})"), a number by the formatter its spec names ("{share:pct}")."""
    return _FORMATTER.vformat(template, (), values)


def fill_from(template: str, item: Any, /, **more: Any) -> str:
    """`fill` from the attributes of `item` (a table row's model, say; `more` first):
    "{win:[pct]}" is `bracketed(item.win, pct)`."""
    return _FORMATTER.vformat(template, (), _Attributes(item, more))


# --- a difference's words by its sign ---


def by_sign(resolved: bool, x: float, above: Any, below: Any, neither: Any) -> Any:
    """`above` or `below` for a resolved difference `x` by its sign (a word, a template's key),
    else `neither`: an unresolved difference, or none."""
    return above if resolved and x > 0 else below if resolved and x < 0 else neither


# --- a group's shares in a chart's alt text ---


def shares_item(head: str, n: int, parts: Any, sep: str = " ") -> str:
    """A group's shares in a chart's alt text: "level 0, bold (n=250): won 10.0 %, lost 3.2 %",
    each part of `parts` (a name and its count) as its name, `sep` and its share of `n`."""
    return f"{head} (n={n}): {', '.join(f'{name}{sep}{pct(k / n)}' for name, k in parts)}"


def successes(iv: Any) -> int:
    """The successes a proportion's interval (a `stats.Interval` of a share) rests on: its
    estimate times its trials, rounded (the wins of a win rate)."""
    return round(iv.estimate * iv.n)


def rate_cells(iv: Any) -> list[str]:
    """A win rate's table cells (a `stats.Interval`): its games, its wins, the rate and its 95 %
    interval ("1,000", "312", "31.2 %", "28.4 to 34.2 %")."""
    return [f"{iv.n:,}", f"{successes(iv):,}", pct(iv.estimate), ci(iv, pct=True)]


def points_interval(d: Any) -> str:
    """A difference's 95 % interval (a `stats.PairedDifference` or `stats.Interval` of shares) in
    signed percentage points, as `points` writes them: "-1.2 to +3.4"."""
    return span(d.low, d.high, points)


def joined_upto(items: list[str], limit: int, more: str = "") -> str:
    """The first `limit` of `items` joined by "; " (the points a chart's alt text lists), then
    `more` ("; and more (see the table)") where there are more than that."""
    return "; ".join(items[:limit]) + (more if len(items) > limit else "")

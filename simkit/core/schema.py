"""Component files described once: the schema a loader checks, `simkit data check` reports in
full, and `simkit data template` writes out with every field explained.

A game declares its file as a `Table` of fields (`Int`, `Float`, `Str`, `Bool`, `Source`, `List`,
`Table`, `Tables` for an array of tables, `Table(keys=...)` for a table whose keys are data, such
as a points table per city value, and `Section` for a top-level table with its `source`) plus
`Check`s: rules across fields, each naming the keys it reads so that it runs only when those passed
their own checks.

`problems(doc, spec)` lists every fault as (key, message), not just the first: a user entering
real cards fixes them all in one pass. A loader raises the first as one line
(`raise_first`) and builds its components from the checked document.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar

from simkit.core.errors import UserError
from simkit.core.files import PROVENANCE, data_key, read_toml

Problem = tuple[
    str, str
]  # (key, what is wrong), e.g. ("formation.rows", "must be an integer in 1..9, got 0")


# --- fields ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Field:
    """One value of the file. `doc` says what it means (the template writes it as a comment);
    `optional` fields may be left out."""

    doc: str = ""
    optional: bool = False

    def check(self, value: Any, key: str) -> Iterator[Problem]:
        raise NotImplementedError

    def allowed(self) -> str:
        """The allowed values, as the template states them."""
        raise NotImplementedError


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class Int(Field):
    lo: int | None = None
    hi: int | None = None

    def check(self, value: Any, key: str) -> Iterator[Problem]:
        if (
            not _is_int(value)
            or (self.lo is not None and value < self.lo)
            or (self.hi is not None and value > self.hi)
        ):
            yield key, f"must be {self.allowed()}, got {value!r}"

    def allowed(self) -> str:
        if self.lo is not None and self.hi is not None:
            return f"an integer in {self.lo}..{self.hi}"
        if self.lo is not None:
            return f"an integer of at least {self.lo}"
        return "an integer" if self.hi is None else f"an integer of at most {self.hi}"


@dataclass(frozen=True)
class Float(Field):
    lo: float = -math.inf
    hi: float = math.inf

    def check(self, value: Any, key: str) -> Iterator[Problem]:
        ok = (
            (_is_int(value) or isinstance(value, float))
            and math.isfinite(value)
            and self.lo <= value <= self.hi
        )
        if not ok:
            yield key, f"must be a number in {self.lo:g}..{self.hi:g}, got {value!r}"

    def allowed(self) -> str:
        return f"a number in {self.lo:g}..{self.hi:g}"


@dataclass(frozen=True)
class Str(Field):
    """Text; `choices` the allowed values, `pattern` a regular expression it must match whole
    (`pattern_help` says it in words), `nonempty` refuses ""."""

    choices: tuple[str, ...] | None = None
    pattern: str | None = None
    pattern_help: str = ""
    nonempty: bool = True
    valid: Callable[[str], bool] | None = None  # a test beyond the pattern (pattern_help says it)

    def check(self, value: Any, key: str) -> Iterator[Problem]:
        if not isinstance(value, str):
            yield key, f"must be text, got {value!r}"
        elif self.choices is not None and value not in self.choices:
            yield key, f"must be one of {', '.join(self.choices)}, got {value!r}"
        elif (self.pattern is not None and not re.fullmatch(self.pattern, value)) or (
            self.valid is not None and not self.valid(value)
        ):
            yield key, f"must be {self.pattern_help or 'text matching ' + str(self.pattern)}, got {value!r}"
        elif self.nonempty and not value:
            yield key, "must not be empty"

    def allowed(self) -> str:
        if self.choices is not None:
            return "one of " + ", ".join(f'"{c}"' for c in self.choices)
        return self.pattern_help or "text"


@dataclass(frozen=True)
class Bool(Field):
    def check(self, value: Any, key: str) -> Iterator[Problem]:
        if not isinstance(value, bool):
            yield key, f"must be true or false, got {value!r}"

    def allowed(self) -> str:
        return "true or false"


def Source(doc: str = "where these values come from", optional: bool = False) -> Str:  # noqa: N802
    """A section's provenance: one of PROVENANCE ("invented" values are not the printed ones)."""
    return Str(doc=doc, optional=optional, choices=PROVENANCE)


@dataclass(frozen=True)
class List(Field):
    """A list of `item`s; `length` (exact) or `min_len`/`max_len`; `distinct`, `increasing`."""

    item: Field = field(default_factory=Field)
    min_len: int = 0
    max_len: int | None = None
    distinct: bool = False
    increasing: bool = False

    def check(self, value: Any, key: str) -> Iterator[Problem]:
        if not isinstance(value, list):
            yield key, f"must be a list of {self.item.allowed()}, got {value!r}"
            return
        if len(value) < self.min_len or (self.max_len is not None and len(value) > self.max_len):
            yield key, f"must hold {_count_range(self.min_len, self.max_len)} entries, found {len(value)}"
        bad = False
        for i, item in enumerate(value):
            for problem in self.item.check(item, f"{key}[{i}]"):
                bad = True
                yield problem
        if bad:
            return
        if self.distinct and len({_hashable(v) for v in value}) != len(value):
            seen: set = set()
            twice = next(v for v in value if _hashable(v) in seen or seen.add(_hashable(v)))
            yield key, f"lists {twice!r} twice (entries must be distinct)"
        if self.increasing and any(a >= b for a, b in zip(value, value[1:], strict=False)):
            yield key, "must be in increasing order"

    def allowed(self) -> str:
        return f"a list, each entry {self.item.allowed()}"


@dataclass(frozen=True)
class Table(Field):
    """A table with the named `fields` (in the order the template writes them) and, with `keys`,
    keys that are data besides them: each other key must match `keys` (a regular expression,
    `keys_help` in words) and each of its values is `values`."""

    fields: dict[str, Field] = field(default_factory=dict)
    keys: str | None = None
    keys_help: str = ""
    values: Field | None = None
    inline: bool = False  # written as `{ a = 1, b = 2 }` (an entry of `Tables`)

    def check(self, value: Any, key: str) -> Iterator[Problem]:
        if not isinstance(value, dict):
            yield key, "missing table" if value is None else f"must be a table, got {value!r}"
            return
        unknown = [] if self.keys is not None else sorted(set(value) - set(self.fields))
        for name in unknown:
            yield _join(key, name), f"unknown key (allowed: {', '.join(self.fields)})"
        for name, spec in self.fields.items():
            where = _join(key, name)
            if name not in value:
                if not spec.optional:
                    yield where, "missing table" if isinstance(spec, Table) and not spec.inline else "missing"
                continue
            yield from spec.check(value[name], where)
        if self.keys is not None:  # the other keys are data
            assert self.values is not None
            for name, item in value.items():
                if name in self.fields:
                    continue
                where = _join(key, name)
                if not re.fullmatch(self.keys, name):
                    yield where, f"unknown key (keys are {self.keys_help or self.keys})"
                else:
                    yield from self.values.check(item, where)

    def allowed(self) -> str:
        if self.keys is not None:
            return (
                f"a table of {self.keys_help or self.keys} = {self.values.allowed() if self.values else ''}"
            )
        return "{ " + ", ".join(self.fields) + " }"


def Section(doc: str = "", optional: bool = False, source_doc: str = "", **fields: Field) -> Table:  # noqa: N802
    """A section of a component file: `fields` after its `source` (where its values come from, one of
    PROVENANCE; `source_doc` says so in the template's words), as every section has one."""
    source = Source(source_doc) if source_doc else Source()
    return Table(doc=doc, optional=optional, fields={"source": source, **fields})


@dataclass(frozen=True)
class Tables(Field):
    """An array of tables, each an `item` (written one inline table a line)."""

    item: Table = field(default_factory=Table)
    min_len: int = 0
    max_len: int | None = None

    def check(self, value: Any, key: str) -> Iterator[Problem]:
        if not isinstance(value, list):
            yield key, f"must be a list of {self.item.allowed()}, got {_short(value)}"
            return
        if len(value) < self.min_len or (self.max_len is not None and len(value) > self.max_len):
            yield key, f"must hold {_count_range(self.min_len, self.max_len)} entries, found {len(value)}"
        for i, item in enumerate(value):
            yield from self.item.check(item, f"{key}[{i}]")

    def allowed(self) -> str:
        return f"a list of {self.item.allowed()}"


# The `[meta]` section every component file may open with: what the file is, for people.
META = Table(
    doc="What this file is, for people",
    optional=True,
    fields={
        "name": Str(doc="a name for this set of components", optional=True),
        "version": Int(doc="its version", lo=0, optional=True),
        "description": Str(doc="anything worth saying", optional=True, nonempty=False),
    },
)


@dataclass(frozen=True)
class Check:
    """A rule across fields: `rule(doc)` yields (key, message) for each fault. It runs only when
    every key in `needs` (a prefix: "aliens" covers "aliens.cards[3].type") passed its own checks,
    so it may read them without guarding their types."""

    needs: tuple[str, ...]
    rule: Callable[[dict], Iterable[Problem]]
    doc: str = ""  # the rule in words, written into the template


@dataclass(frozen=True)
class FileSpec:
    """A component file: its top-level `Table`, the rules across fields, and what the template
    says first (what the file is, and how a user swaps it in)."""

    root: Table
    checks: tuple[Check, ...] = ()
    title: str = ""
    intro: str = ""


# --- checking ------------------------------------------------------------------------------------


def problems(doc: dict, spec: FileSpec) -> list[Problem]:
    """Every fault of the document, in file order: the fields' own checks, then the rules whose
    keys all passed."""
    found = list(spec.root.check(doc, ""))
    for rule in spec.checks:
        if any(_touches(key, need) for key, _ in found for need in rule.needs):
            continue
        found.extend(rule.rule(doc))
    return found


def raise_first(path: Path, found: Sequence[Problem], command: str = "") -> None:
    """A loader's one line: the first fault, and how many more there are."""
    if not found:
        return
    key, message = found[0]
    more = ""
    if len(found) > 1:
        more = f" (and {len(found) - 1} more: {command or 'simkit data check'} lists them all)"
    raise UserError(f"{path}: {key}: {message}{more}")


Built = TypeVar("Built")


def loader(
    spec: FileSpec,
    game_id: str,
    default: Path,
    build: Callable[[Path, dict[str, Any], str], Built],
    what: str,
) -> Callable[[str | Path | None], Built]:
    """A game's `load(path=None)`: the TOML file at `path` (None: the built-in `default`) read,
    checked against `spec` (a fault raises the loader's one line) and made into the game's
    components by `build(path, document, sha256 of the bytes)`.

    A file is parsed once per process and per version: the cache key is the resolved path and the
    digest of the bytes a task shipped (`files.data_key`), so shipped bytes never meet a copy
    parsed from another version of the file."""

    @lru_cache(maxsize=8)
    def cached(path_text: str, shipped_digest: str) -> Built:  # the digest only keys the cache
        path = Path(path_text)
        doc, raw = read_toml(path, what)
        raise_first(path, problems(doc, spec), f"simkit data check {game_id} {path}")
        return build(path, doc, hashlib.sha256(raw).hexdigest())

    def load(path: str | Path | None = None) -> Built:
        return cached(*data_key(path, default))

    load.__doc__ = f"Load and check a {what} of {game_id}; `None` means the built-in one."
    return load


def lines(path: Path, found: Sequence[Problem]) -> list[str]:
    """One line per fault, each naming the file and the key."""
    return [f"{path}: {key}: {message}" if key else f"{path}: {message}" for key, message in found]


# --- differences from the built-in file --------------------------------------------------------


def differences(mine: Any, builtin: Any, key: str = "", limit: int = 6) -> list[str]:
    """What a user's (checked) file changes from the built-in one, one line per changed key; a
    list of tables says how many entries differ and which."""
    if isinstance(mine, dict) and isinstance(builtin, dict):
        out: list[str] = []
        for name in list(builtin) + [k for k in mine if k not in builtin]:
            where = _join(key, name)
            if name not in mine:
                out.append(f"{where}: left out (built-in: {_short(builtin[name])})")
            elif name not in builtin:
                out.append(f"{where}: added ({_short(mine[name])})")
            else:
                out.extend(differences(mine[name], builtin[name], where, limit))
        return out
    if mine == builtin:
        return []
    if (
        isinstance(mine, list)
        and isinstance(builtin, list)
        and any(isinstance(v, dict) for v in mine + builtin)
    ):
        changed = [
            i
            for i in range(max(len(mine), len(builtin)))
            if i >= len(mine) or i >= len(builtin) or mine[i] != builtin[i]
        ]
        if len(mine) == len(builtin) and len(changed) <= 3:  # few: each entry, down to its changed keys
            return [line for i in changed for line in differences(mine[i], builtin[i], f"{key}[{i}]", limit)]
        shown = ", ".join(str(i) for i in changed[:limit]) + (", ..." if len(changed) > limit else "")
        sizes = (
            f"{len(mine)} entries (built-in {len(builtin)})"
            if len(mine) != len(builtin)
            else f"{len(mine)} entries"
        )
        return [f"{key}: {len(changed)} of {sizes} differ (entries {shown})"]
    return [f"{key}: {_short(mine)} (built-in: {_short(builtin)})"]


# --- the template -------------------------------------------------------------------------------


def template(spec: FileSpec, doc: dict, source_note: str) -> str:
    """The file `doc` (the built-in one) written back with every field explained: its meaning, its
    allowed values and, for a section whose source is "invented", that its values are not the
    printed ones. The result loads exactly as `doc` does."""
    out: list[str] = []
    for text in (spec.title, spec.intro, source_note):
        if text:
            out.extend(_comment(text))
            out.append("#")
    out.extend(
        _comment(
            "Each section's `source` says where its values come from: "
            + ", ".join(f'"{p}"' for p in PROVENANCE)
            + '. "invented" values are simkit\'s own stand-ins for cards that are not public: '
            'replace them with the printed ones and set the source to "rulebook" or "published".'
        )
    )
    if spec.checks:
        out.append("#")
        out.append("# Rules across fields:")
        for rule in spec.checks:
            if rule.doc:
                out.extend(_comment(f"- {rule.doc}"))
    _write_table(out, spec.root, doc, [])
    return "\n".join(out).rstrip() + "\n"


def _write_table(out: list[str], spec: Table, doc: dict, path: list[str]) -> None:
    """Scalars, lists and inline tables of this table first (TOML needs them before its
    sub-tables), then each sub-table under its own header."""
    if spec.keys is not None:  # keys that are data: every entry as `key = value`, after the named ones
        # (named fields of such a table are plain values: a sub-table header would swallow the data keys)
        named = {k: v for k, v in doc.items() if k in spec.fields}
        _write_table(out, Table(doc=spec.doc, fields=spec.fields), named, path)
        if named:
            out.append("")
        for name, value in doc.items():
            if name not in spec.fields:
                out.append(f"{_key(name)} = {_value(value)}")
        return
    subtables = []
    for name, field_spec in spec.fields.items():
        if name not in doc:
            if field_spec.doc:
                out.extend(
                    _comment(
                        f"{name} (optional, left out): {field_spec.doc}. Allowed: {field_spec.allowed()}."
                    )
                )
            continue
        value = doc[name]
        if isinstance(field_spec, Table) and not field_spec.inline:
            subtables.append((name, field_spec, value))
            continue
        out.append("")
        out.extend(_comment(_describe(name, field_spec, value, doc)))
        if isinstance(field_spec, Tables):
            out.append(f"{_key(name)} = [")
            out.extend(f"  {_value(item)}," for item in value)
            out.append("]")
        else:
            out.append(f"{_key(name)} = {_value(value)}")
    for name, sub, value in subtables:
        out.append("")
        out.append("")
        header = ".".join(_key(p) for p in [*path, name])
        if sub.doc:
            out.extend(_comment(sub.doc))
        if sub.keys is not None and sub.values is not None:
            out.extend(_comment(f"Keys: {sub.keys_help or sub.keys}. Each value: {sub.values.allowed()}."))
        for source_key in _invented(value):
            what = sub.fields[source_key].doc if source_key in sub.fields else source_key
            out.extend(
                _comment(f"INVENTED in the built-in file ({source_key}: {what}): not the printed values.")
            )
        out.append(f"[{header}]")
        _write_table(out, sub, value, [*path, name])


def _describe(name: str, spec: Field, value: Any, doc: dict) -> str:
    text = f"{name}: {spec.doc}." if spec.doc else f"{name}."
    if isinstance(spec, Tables):
        parts = [
            f"{k} ({f.allowed()}{', optional' if f.optional else ''}): {f.doc}"
            for k, f in spec.item.fields.items()
        ]
        text += " One entry per line, each with " + "; ".join(parts) + "."
    else:
        text += f" Allowed: {spec.allowed()}."
    if spec.optional:
        text += " Optional."
    return text


def _invented(value: Any) -> list[str]:
    """The provenance keys of a table (`source`, `..._source`) whose value is "invented"."""
    if not isinstance(value, dict):
        return []
    return [k for k, v in value.items() if (k == "source" or k.endswith("_source")) and v == "invented"]


# --- TOML text -----------------------------------------------------------------------------------


_BARE = re.compile(r"[A-Za-z0-9_-]+")


def _key(name: str) -> str:
    return name if _BARE.fullmatch(name) else json.dumps(name)


def _value(value: Any) -> str:
    """A TOML value (the types a component file holds)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # a JSON string is a TOML basic string
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_key(k)} = {_value(v)}" for k, v in value.items()) + " }"
    raise TypeError(f"no TOML form for {type(value).__name__}")


def _comment(text: str, width: int = 98) -> list[str]:
    """`# ` lines wrapped at `width`."""
    words, lines_, line_ = text.split(), [], "#"
    for word in words:
        if len(line_) + 1 + len(word) > width and line_ != "#":
            lines_.append(line_)
            line_ = "#"
        line_ += " " + word
    lines_.append(line_)
    return lines_


# --- small helpers -------------------------------------------------------------------------------


def _join(key: str, name: str) -> str:
    return f"{key}.{name}" if key else str(name)


def _under(key: str, prefix: str) -> bool:
    """`key` is `prefix` or inside it (a sub-key or an index)."""
    return key == prefix or key.startswith(prefix + ".") or key.startswith(prefix + "[") or prefix == ""


def _touches(fault: str, need: str) -> bool:
    """A fault at `fault` leaves `need` unusable: it is inside `need`, or `need` is inside it (a
    missing or broken table above a needed key)."""
    return _under(fault, need) or (fault != "" and _under(need, fault))


def _count_range(lo: int, hi: int | None) -> str:
    if hi is None:
        return "at least one" if lo == 1 else f"at least {lo}"
    return str(lo) if lo == hi else f"{lo} to {hi}"


def _hashable(value: Any) -> Any:
    return json.dumps(value, sort_keys=True) if isinstance(value, dict | list) else value


def _short(value: Any, width: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= width else text[: width - 3] + "..."

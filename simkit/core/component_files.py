"""`simkit data template` and `simkit data check`: a game's component file, explained and checked.

The template is the built-in file written back from the game's schema with every field
commented; the check lists every fault of a user's file (one line each), or, for a file without
faults, what it changes from the built-in data.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from simkit.core import schema
from simkit.core.errors import UserError
from simkit.core.files import read_toml
from simkit.core.registry import Engine


def _spec(engine: Engine) -> schema.FileSpec:
    if engine.component_spec is None:
        raise UserError(f"{engine.id} reads no component file")
    return engine.component_spec


def builtin_path(engine: Engine) -> Path:
    return Path(engine.load_components(engine.params()).path)


def template(engine: Engine) -> str:
    """The built-in component file with every field explained; it loads as the built-in one."""
    spec = _spec(engine)
    path = builtin_path(engine)
    doc, _ = read_toml(path, "component file")
    note = (
        f"The built-in component file of {engine.title}, written with every field explained by "
        f"`simkit data template {engine.id}`. Edit the values to match your cards, check the file with "
        f"`simkit data check {engine.id} FILE`, and play with it by `--set data=FILE`."
    )
    text = schema.template(spec, doc, note)
    if tomllib.loads(text) != doc:  # the template must mean exactly the built-in file
        raise RuntimeError(f"{engine.id}: the template does not load as the built-in file")
    return text


def check(engine: Engine, path: Path) -> tuple[list[str], list[str]]:
    """(one line per fault, what differs from the built-in file): faults empty when the file is
    good, and only then the differences."""
    spec = _spec(engine)
    doc, _ = read_toml(path, "component file")
    found = schema.problems(doc, spec)
    if found:
        return schema.lines(path, found), []
    try:  # the loader itself, for anything its schema does not say
        engine.load_components(engine.params({"data": str(path)}))
    except UserError as exc:
        return [str(exc)], []
    builtin, _ = read_toml(builtin_path(engine), "component file")
    return [], schema.differences(doc, builtin)

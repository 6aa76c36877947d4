"""Players by name: a game's built-in strategies, or a user's class loaded from `path/file.py:Class`.

A user's file travels by value: the runner reads its text once and ships it with every task, and
the worker compiles it under the file's own name. A worker on another machine therefore needs no
copy of the file, and tracebacks still name the user's file and line.
"""

from __future__ import annotations

import hashlib
import linecache
import re
import sys
import traceback
import types
from collections.abc import Iterable, Mapping
from pathlib import Path

from simkit.core.errors import UserError

USER_SPEC = re.compile(r"^(?P<path>.+\.py):(?P<name>[A-Za-z_]\w*)$")

_sources: dict[str, str] = {}  # file path as written -> source text (shipped to workers)
_modules: dict[tuple[str, str], types.ModuleType] = {}  # (path, source hash) -> compiled module


def is_user_spec(name: str) -> bool:
    """`path/file.py:ClassName` names a user's player; anything else is a built-in strategy name."""
    return USER_SPEC.match(name) is not None


def _split(spec: str) -> tuple[str, str]:
    match = USER_SPEC.match(spec)
    if match is None:
        raise UserError(f"strategy {spec!r}: expected path/file.py:ClassName")
    return match["path"], match["name"]


def read_source(path: str) -> str:
    """The text of a user's player file, or one clear line saying why it cannot be read."""
    if path in _sources:
        return _sources[path]
    try:
        text = Path(path).read_bytes().decode("utf-8")
    except FileNotFoundError:
        raise UserError(f"strategy file not found: {path}") from None
    except UnicodeDecodeError:
        raise UserError(f"{path}: strategy file is not UTF-8 text") from None
    except OSError as exc:
        raise UserError(f"{path}: cannot read strategy file ({exc.strerror})") from None
    _sources[path] = text
    return text


def sources_for(names: Iterable[str]) -> dict[str, str]:
    """The user files among these strategy names, path -> text: what a task carries to a worker."""
    return {path: read_source(path) for path, _ in (_split(n) for n in names if is_user_spec(n))}


def install(sources: Mapping[str, str]) -> None:
    """Make shipped sources the ones `load_class` compiles (called in each worker)."""
    _sources.update(sources)


def source_hash(path: str) -> str:
    return hashlib.sha256(read_source(path).encode("utf-8")).hexdigest()


def _module(path: str) -> types.ModuleType:
    source = read_source(path)
    key = (path, hashlib.sha256(source.encode("utf-8")).hexdigest())
    if key in _modules:
        return _modules[key]
    module = types.ModuleType(f"simkit_user_player_{key[1][:12]}")
    module.__file__ = path
    # tracebacks show the user's lines even where the file does not exist (a remote worker)
    linecache.cache[path] = (len(source), None, source.splitlines(keepends=True), path)
    sys.modules[module.__name__] = module  # dataclasses and pickling look classes up here
    try:
        exec(compile(source, path, "exec"), module.__dict__)
    except SyntaxError as exc:
        del sys.modules[module.__name__]
        raise UserError(f"{path}, line {exc.lineno}: syntax error: {exc.msg}") from None
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # sys.exit in the file too: it must not end the run silently
        del sys.modules[module.__name__]
        raise UserError(f"{path}: importing it raised {type(exc).__name__}: {exc}{_where(exc)}") from None
    _modules[key] = module
    return module


def load_class(spec: str) -> type:
    """The class a user's `path/file.py:ClassName` names."""
    path, name = _split(spec)
    cls = getattr(_module(path), name, None)
    if not isinstance(cls, type):
        raise UserError(f"{path}: defines no class named {name!r}")
    return cls


def player_class(name: str, builtin: Mapping[str, type]) -> type:
    """The class behind a strategy name: a built-in one, or a user's file.py:Class."""
    if is_user_spec(name):
        return load_class(name)
    try:
        return builtin[name]
    except KeyError:
        raise UserError(f"unknown strategy {name!r} (strategies: {', '.join(builtin)})") from None


def _where(exc: BaseException) -> str:
    """` (in decision D, at FILE, line N)` for an exception raised inside a user's player: D is the
    outermost user frame (the method the engine called), the line the innermost one."""
    user = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename in _sources]
    if not user:
        return ""
    return f" (in decision {user[0].name}, at {user[-1].filename}, line {user[-1].lineno})"


def describe_failure(exc: BaseException, strategies: Iterable[str] = ()) -> str:
    """One line for a failed game: the error, and where in a user's player it was raised. An
    illegal choice is raised by the engine (its message names the decision); the line then names
    the user's players in the game, since no user frame is on the stack."""
    where = _where(exc)
    if not where:
        users = sorted({s for s in strategies if is_user_spec(s)})
        where = f" (user player: {', '.join(users)})" if users else ""
    return f"{type(exc).__name__}: {exc}{where}"

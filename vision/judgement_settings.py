"""The throw judgement's settings by name: a table's ``[judgement]`` overrides and the benches'
``--set NAME=VALUE``.

A name is a field of ``TrackerSettings``, ``CockedSettings`` or ``WallContact`` (each field's
meaning is in its class's docstring); the value must be of the field's kind, so a typo or a
wrong type is refused with what to write instead, never run on a silent default.
"""

from __future__ import annotations

import typing
from collections.abc import Mapping
from dataclasses import fields
from typing import Any

from vision.cocked.settings import CockedSettings
from vision.throw_geometry import WallContact
from vision.tracker import TrackerSettings

# the parts of TrackerSettings that own their settings (its fields of these names)
PARTS: dict[str, type] = {"cocked": CockedSettings, "wall": WallContact}

# what a value of each kind may be written as
_HINTS = {
    "bool": "true or false",
    "int": "a whole number",
    "float": "a number",
    "int|None": "a whole number, or false for off",
    "float|None": "a number, or false for off",
}


class SettingError(ValueError):
    """A judgement setting that does not exist or has a value of the wrong kind."""


def _kind(hint: Any) -> str | None:
    """"bool", "int", "float", "int|None", "float|None", or None (not settable by name)."""
    args = typing.get_args(hint)
    optional = type(None) in args
    if optional:
        rest = [a for a in args if a is not type(None)]
        if len(rest) != 1:
            return None
        hint = rest[0]
    name = {bool: "bool", int: "int", float: "float"}.get(hint)
    if name is None:
        return None
    return f"{name}|None" if optional else name


def settable() -> dict[str, tuple[str, str]]:
    """Every setting a name can reach: name -> (part: "" for TrackerSettings itself, "cocked"
    or "wall"; kind)."""
    out: dict[str, tuple[str, str]] = {}
    for part, cls in (("", TrackerSettings), *PARTS.items()):
        hints = typing.get_type_hints(cls)
        for f in fields(cls):
            if part == "" and f.name in PARTS:
                continue
            kind = _kind(hints[f.name])
            if kind is not None:
                out[f.name] = (part, kind)
    return out


def _checked(name: str, value: Any, kind: str) -> Any:
    base, _, optional = kind.partition("|")
    if optional and (value is False or value is None):  # off (``from_text`` gives None)
        return None
    if base == "bool":
        ok = isinstance(value, bool)
    elif base == "int":
        ok = isinstance(value, int) and not isinstance(value, bool)
    else:
        ok = isinstance(value, int | float) and not isinstance(value, bool)
        value = float(value) if ok else value
    if not ok:
        raise SettingError(f"{name} = {value!r} has the wrong type; write {_HINTS[kind]}")
    return value


def tracker_settings(overrides: Mapping[str, Any] | None = None, **fixed: Any) -> TrackerSettings:
    """``TrackerSettings`` with ``overrides`` (name -> value, each checked against its field's
    kind) and ``fixed`` (the same, given by the caller's code, e.g. ``geometric_cocked``)."""
    known = settable()
    parts: dict[str, dict[str, Any]] = {"": {}, "cocked": {}, "wall": {}}
    for name, value in {**(overrides or {}), **fixed}.items():
        if name not in known:
            raise SettingError(f"unknown setting {name!r}; the settings are the fields of "
                               "TrackerSettings, CockedSettings and WallContact (their "
                               "docstrings say what each means), e.g. pair_gap_square")
        part, kind = known[name]
        parts[part][name] = _checked(name, value, kind)
    return TrackerSettings(cocked=CockedSettings(**parts["cocked"]),
                           wall=WallContact(**parts["wall"]), **parts[""])


def from_text(name: str, text: str) -> Any:
    """The value ``text`` stands for as setting ``name`` (a bench's ``--set NAME=VALUE``)."""
    known = settable()
    if name not in known:
        raise SettingError(f"unknown setting {name!r}; known: {', '.join(sorted(known))}")
    kind = known[name][1]
    word = text.strip().lower()
    if kind == "bool" and word in ("true", "on", "yes", "1"):
        return True
    if kind == "bool" and word in ("false", "off", "no", "0"):
        return False
    if "None" in kind and word in ("false", "off", "none"):
        return None
    try:
        return int(word) if kind.startswith("int") else float(word)
    except ValueError:
        raise SettingError(f"{name}={text!r}: write {_HINTS[kind]}") from None

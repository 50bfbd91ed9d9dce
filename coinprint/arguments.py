"""Checking the arguments of the public Python API (``import coinprint``), so that a bad value
(None, bytes, a huge number, a dict that contains itself, a name longer than the text cap)
raises a :class:`UsageError` saying what was wrong and what is allowed, never a TypeError or
a RecursionError from deep inside. The command line checks its options in ``cli/options.py``;
this is the same care for callers in Python."""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from coinprint.caps import MAX_JSON_INT_DIGITS, MAX_TEXT_CHARS, check_range
from coinprint.errors import UsageError

MAX_PATH_CHARS = 4096
"""Longest file path (or layout spec) the API takes: Linux's own limit."""
MAX_NESTING = 64
"""Deepest nesting of lists and dicts in an option or result value (the JSON nesting cap)."""


def kind(value: Any) -> str:
    """What ``value`` is, for a message: ``None``, ``bytes``, ``a list``, ``an int``, …"""
    if value is None:
        return "None"
    name = type(value).__name__
    return name if name in ("bytes", "bytearray") else ("an " if name[0] in "aeiou" else "a ") + name


def text(value: Any, what: str, *, limit: int = MAX_TEXT_CHARS, name: bool = False) -> str:
    """``value`` if it is text of at most ``limit`` characters; a ``name`` (a key, an option's
    name) must also be printable: a newline in it would forge a line of a message."""
    if isinstance(value, (bytes, bytearray)):
        raise UsageError(f"{what} must be text (str), not bytes; decode it first")
    if not isinstance(value, str):
        raise UsageError(f"{what} must be text, not {kind(value)}")
    if len(value) > limit:
        raise UsageError(f"{what} of {len(value):,} characters is over the {limit:,}-character cap")
    if name and not value.isprintable():
        raise UsageError(f"{what} {ascii(value)} holds control characters; they are not allowed in names")
    return value


def choice(value: Any, what: str, allowed: Iterable[str]) -> str:
    """``value`` if it is one of ``allowed``."""
    options = tuple(allowed)
    chosen = text(value, what)
    if chosen not in options:
        raise UsageError(f"{what} {chosen!r} is not one of: {', '.join(options)}")
    return chosen


def huge(value: int) -> bool:
    """Whether a whole number has more digits than any input may (the JSON number cap): such
    a number is refused before it is printed, which alone could take seconds."""
    return value.bit_length() > MAX_JSON_INT_DIGITS * 3.33


def whole(value: Any, what: str, low: int, high: int, *, cap: str = "") -> int:
    """``value`` if it is a whole number (not a bool) from ``low`` to ``high``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise UsageError(f"{what} must be a whole number from {low:,} to {high:,}, not {kind(value)}")
    if huge(value):
        raise UsageError(
            f"{what} must be a whole number from {low:,} to {high:,}, not one of over {MAX_JSON_INT_DIGITS} digits"
        )
    return check_range(what, value, low, high, cap=cap)


def plain_data(value: Any, what: str, depth: int = 0, seen: set[int] | None = None) -> Any:
    """``value`` if it is plain data (text, numbers, bools, None, lists and dicts with text
    keys) that contains itself nowhere and nests at most :data:`MAX_NESTING` deep."""
    seen = set() if seen is None else seen
    if isinstance(value, int) and not isinstance(value, bool) and huge(value):
        raise UsageError(f"{what} holds a whole number of over {MAX_JSON_INT_DIGITS} digits (the JSON number cap)")
    if value is None or isinstance(value, (str, bool, int)):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise UsageError(f"{what} holds {value!r}; numbers must be finite")
        return value
    if not isinstance(value, (list, tuple, dict)):
        raise UsageError(f"{what} holds {kind(value)}; use text, numbers, lists and dicts")
    if id(value) in seen:
        raise UsageError(f"{what} contains itself (a cycle); give plain data")
    if depth >= MAX_NESTING:
        raise UsageError(f"{what} is nested more than {MAX_NESTING} levels deep")
    seen.add(id(value))
    try:
        if isinstance(value, dict):
            for key, item in value.items():
                text(key, f"a key in {what}", name=True)
                plain_data(item, what, depth + 1, seen)
        else:
            for item in value:
                plain_data(item, what, depth + 1, seen)
    finally:
        seen.discard(id(value))
    return value


def mapping(value: Any, what: str) -> dict[str, Any]:
    """``value`` if it is a dict of plain data with text keys (see :func:`plain_data`)."""
    if not isinstance(value, dict):
        raise UsageError(f"{what} must be a dict, not {kind(value)}")
    plain_data(value, what)
    return value

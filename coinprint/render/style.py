"""Print styles (``color``, ``ink-saver``), read from ``templates/styles.json``."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache

from coinprint.errors import UsageError
from coinprint.resources import template_path


@dataclass(frozen=True)
class Palette:
    name: str
    space_fill: tuple[str, ...]
    space_stroke: str
    space_stroke_mm: float
    region_stroke_mm: float
    label: str
    guide: str
    accent: str
    filled: bool

    def fill(self, index: int | None) -> str | None:
        """The fill for colour number ``index`` (None: the first colour); None in ink-saver."""
        if not self.filled:
            return None
        return self.space_fill[(index or 0) % len(self.space_fill)]


@cache
def palette(name: str) -> Palette:
    """The style called ``name`` (``color`` or ``ink-saver``)."""
    styles = json.loads(template_path("styles.json").read_text(encoding="utf-8"))
    if name not in styles:
        raise UsageError(f"unknown style '{name}'; use one of: {', '.join(styles)}")
    values = dict(styles[name])
    values["space_fill"] = tuple(values["space_fill"])
    return Palette(name=name, **values)

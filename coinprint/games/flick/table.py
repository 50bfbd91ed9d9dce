"""The table a Flick game is played on, as the physics sees it: friction and restitution (record
options, checked here so that the referee can refuse a bad one without loading the physics),
the table's size, and the limits on a shot.

No measured friction or restitution for coins on a table is published. Generic metal-on-wood
sliding friction is 0.2 to 0.6 and coin-on-coin restitution 0.45 to 0.9; the defaults below sit
inside those ranges and are assumptions (docs/games/flick.md, The physics).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from coinprint.errors import UsageError

GRAVITY_MM_S2 = 9806.65
"""Standard gravity, in mm/s² (the physics works in mm, grams and seconds)."""

DEFAULT_FRICTION = 0.3
DEFAULT_RESTITUTION = 0.7
DEFAULT_COIN_FRICTION = 0.2
FRICTION_RANGE = (0.2, 0.6)
"""The sliding friction μ of a coin on the table a record may ask for: generic metal on wood."""
RESTITUTION_RANGE = (0.45, 0.9)
"""The restitution e of two coins a record may ask for."""
COIN_FRICTION_RANGE = (0.0, 0.6)
"""The friction between two coins' rims a record may ask for."""

TABLE_OPTIONS: dict[str, tuple[float, tuple[float, float]]] = {
    "friction": (DEFAULT_FRICTION, FRICTION_RANGE),
    "restitution": (DEFAULT_RESTITUTION, RESTITUTION_RANGE),
    "coin_friction": (DEFAULT_COIN_FRICTION, COIN_FRICTION_RANGE),
}
"""The record options of the table: name → (default, (lowest, highest))."""

TABLE_HALF_MM = 600.0
"""The table is a square 1.2 m across centred on the goal: a coin starts on it, and one whose
centre crosses its edge falls off."""
MAX_SPEED_M_S = 5.0
"""The fastest shot: a hard flick sends a quarter at 2 to 3 m/s; faster is refused."""


@dataclass(frozen=True)
class Table:
    """The physical constants of one game's table."""

    friction: float = DEFAULT_FRICTION
    """Sliding friction μ of a coin on the table (Coulomb: a sliding coin slows by μg)."""
    restitution: float = DEFAULT_RESTITUTION
    """Restitution e of a coin striking a coin, for every pair alike."""
    coin_friction: float = DEFAULT_COIN_FRICTION
    """Friction between two coins' rims while they touch."""


def table_of(options: Mapping[str, Any]) -> Table:
    """The table that a record's options ask for; a value that is not a number in its range is a
    :class:`UsageError` naming it."""
    values = {}
    for name, (default, (low, high)) in TABLE_OPTIONS.items():
        value = options.get(name, default)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
            raise UsageError(f"flick option {name} must be a number from {low:g} to {high:g}, not {value!r}")
        values[name] = float(value)
    return Table(**values)


def shot_problem(x: Any, y: Any, direction: Any, speed: Any) -> str | None:
    """What is wrong with a shot's numbers (a start point in mm, a direction in degrees, a speed
    in m/s), or None: each must be a finite number, the start on the table, the speed above 0
    and at most :data:`MAX_SPEED_M_S`."""
    for name, value in (("x", x), ("y", y), ("direction", direction), ("speed", speed)):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            return f"a shot's {name} must be a finite number, not {value!r}"
    if max(abs(x), abs(y)) > TABLE_HALF_MM:
        return (
            f"a shot starting at ({x:g}, {y:g}) mm is off the table (within {TABLE_HALF_MM:g} mm of the goal's centre)"
        )
    if not 0 < speed <= MAX_SPEED_M_S:
        return f"a shot's speed must be above 0 and at most {MAX_SPEED_M_S:g} m/s, not {speed:g}"
    return None

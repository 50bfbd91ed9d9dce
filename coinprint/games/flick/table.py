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

RAMP_MM_RANGE = (5.0, 150.0)
"""A ramp's height the measuring sheet's friction method takes, in mm."""
DISTANCE_MM_RANGE = (0.0, 3000.0)
"""A distance a coin slid in a measurement, in mm."""
SLIDE_OPTIONS = ("ramp_low_mm", "slide_low_mm", "ramp_high_mm", "slide_high_mm")
"""The friction measured with the ramp: its two heights and how far the coin slid from each."""
REBOUND_OPTIONS = ("struck_mm", "striker_mm")
"""The restitution measured with two coins of a kind: how far the struck coin and the striker
slid after the impact."""

TABLE_OPTIONS: dict[str, tuple[float | None, tuple[float, float]]] = {
    "friction": (DEFAULT_FRICTION, FRICTION_RANGE),
    "restitution": (DEFAULT_RESTITUTION, RESTITUTION_RANGE),
    "coin_friction": (DEFAULT_COIN_FRICTION, COIN_FRICTION_RANGE),
    "ramp_low_mm": (None, RAMP_MM_RANGE),
    "slide_low_mm": (None, DISTANCE_MM_RANGE),
    "ramp_high_mm": (None, RAMP_MM_RANGE),
    "slide_high_mm": (None, DISTANCE_MM_RANGE),
    "struck_mm": (None, DISTANCE_MM_RANGE),
    "striker_mm": (None, DISTANCE_MM_RANGE),
}
"""The record options of the table: name → (default, (lowest, highest)). The measurements
(default None: not measured) give ``friction`` and ``restitution`` when they are given."""

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
    :class:`UsageError` naming it. Measurements from the measuring sheet, when given, set the
    friction (all four of :data:`SLIDE_OPTIONS`) and the restitution (both :data:`REBOUND_OPTIONS`)."""
    values: dict[str, float | None] = {}
    for name, (default, (low, high)) in TABLE_OPTIONS.items():
        value = options.get(name, default)
        if value is None and default is None:
            values[name] = None
            continue
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
            raise UsageError(f"flick option {name} must be a number from {low:g} to {high:g}, not {value!r}")
        values[name] = float(value)
    friction = _measured(values, "friction", SLIDE_OPTIONS, friction_from_slides)
    restitution = _measured(values, "restitution", REBOUND_OPTIONS, restitution_from_rebound)
    return Table(friction, restitution, float(values["coin_friction"] or 0.0))


def _measured(values: dict[str, float | None], name: str, measurements: tuple[str, ...], formula: Any) -> float:
    """The option ``name`` itself, or the value its measurements give, checked against its range."""
    given = [m for m in measurements if values[m] is not None]
    value = values[name]
    assert value is not None
    if not given:
        return value
    if len(given) < len(measurements):
        raise UsageError(f"flick options {', '.join(measurements)} go together: give all of them or none")
    if value != TABLE_OPTIONS[name][0]:
        raise UsageError(f"give flick option {name} or the measurements {', '.join(measurements)}, not both")
    problem, result = formula(*(values[m] for m in measurements))
    low, high = TABLE_OPTIONS[name][1]
    if problem is None and not low <= result <= high:
        problem = f"give {name} {result:.3g}, outside {low:g} to {high:g}"
    if problem:
        raise UsageError(f"the measurements {', '.join(measurements)} {problem}; measure again (docs: Flick)")
    return float(result)


def friction_from_slides(
    ramp_low_mm: float, slide_low_mm: float, ramp_high_mm: float, slide_high_mm: float
) -> tuple[str | None, float]:
    """The table's sliding friction μ from a coin let go at the top of the same ramp at two
    heights, and how far it slid on the table from the ramp's foot each time.

    The coin reaches the foot with the energy of its fall less what the ramp took, and the
    table takes the rest over the slide: m·g·h − L = μ·m·g·d. The ramp's loss L is the ramp's
    friction over its run, the same at both heights when the foot and the top's support stay
    on their marks, so it cancels: μ = (h_high − h_low) / (d_high − d_low). Returns (what is
    wrong, or None; μ)."""
    if ramp_high_mm <= ramp_low_mm:
        return "need the high ramp higher than the low one", 0.0
    if slide_high_mm <= slide_low_mm:
        return "need the coin to slide further from the high ramp than from the low one", 0.0
    return None, (ramp_high_mm - ramp_low_mm) / (slide_high_mm - slide_low_mm)


def restitution_from_rebound(struck_mm: float, striker_mm: float) -> tuple[str | None, float]:
    """The restitution e of two coins from a head-on strike of a coin at rest by one of the same
    kind, and how far each slid after the impact (the striker from where it touched).

    Equal masses part at u·(1+e)/2 (the struck coin) and u·(1−e)/2 (the striker), and a sliding
    coin goes v²/2μg, so striker/struck = ((1−e)/(1+e))² whatever the speed and the friction:
    e = (1 − r)/(1 + r) with r = √(striker/struck). Returns (what is wrong, or None; e)."""
    if struck_mm <= 0 or striker_mm >= struck_mm:
        return "need the struck coin to slide further than the striker", 0.0
    ratio = math.sqrt(striker_mm / struck_mm)
    return None, (1 - ratio) / (1 + ratio)


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

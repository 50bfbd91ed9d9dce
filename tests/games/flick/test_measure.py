"""The measuring sheet's formulas against the physics: a measurement simulated on a table of
known friction and restitution gives them back. The friction: a coin let go on a ramp at two
heights (the ramp taking an unknown, equal share of the energy each time) slides on; the
restitution: a coin slides head-on into one of its kind at rest, the striker sliding on 5 mm or
more (a shorter slide is read too roughly with a ruler; the sheet says so)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from coinprint.errors import UsageError
from coinprint.games.flick.measure import RULER_MM, measuring_scene, measuring_sheet_pdf
from coinprint.games.flick.physics import Placed, Scene, Shot, simulate
from coinprint.games.flick.table import (
    GRAVITY_MM_S2,
    REBOUND_OPTIONS,
    SLIDE_OPTIONS,
    Table,
    friction_from_slides,
    restitution_from_rebound,
    table_of,
)
from coinprint.render.scene import Path as Drawn
from coinprint.render.scene import Text
from coinprint.units import COINS, coin

GOAL = ((-75.0, -75.0), (75.0, -75.0), (75.0, 75.0), (-75.0, 75.0))
EDGES = ("heads", 2, "tails", 4)
ROUND = sorted(name for name, c in COINS.items() if not c.equal_curves)
START = (-550.0, -300.0)


def slide_from_ramp(name: str, height_mm: float, ramp_loss_mm: float, table: Table) -> float:
    """How far a coin slides on the table after a ramp of ``height_mm``, the ramp taking the
    energy of a fall of ``ramp_loss_mm`` (its friction over its run)."""
    speed = math.sqrt(2 * GRAVITY_MM_S2 * (height_mm - ramp_loss_mm)) / 1000
    scene = Scene(GOAL, EDGES, (), (Placed("h1", coin(name), *START),))
    out = simulate(scene, Shot("h1", *START, 0.0, speed), "heads", table)
    return math.dist(out.rest["h1"][:2], START)


@settings(max_examples=30, deadline=None)
@given(
    name=st.sampled_from(sorted(COINS)),
    friction=st.floats(0.2, 0.6),
    low=st.floats(15, 40),
    rise=st.floats(20, 60),
    ramp_loss=st.floats(0, 10),
)
def test_two_ramp_heights_give_the_tables_friction_within_3_percent(name, friction, low, rise, ramp_loss) -> None:
    table = Table(friction=friction)
    slide_low = slide_from_ramp(name, low, ramp_loss, table)
    slide_high = slide_from_ramp(name, low + rise, ramp_loss, table)
    problem, measured = friction_from_slides(low, slide_low, low + rise, slide_high)
    assert problem is None
    assert measured == pytest.approx(friction, rel=0.03)


@settings(max_examples=30, deadline=None)
@given(
    name=st.sampled_from(ROUND),
    restitution=st.floats(0.45, 0.8),
    friction=st.floats(0.2, 0.6),
    speed=st.floats(1.0, 2.5),
)
def test_a_head_on_strike_gives_the_restitution_within_0_04(name, restitution, friction, speed) -> None:
    target = (-300.0, -300.0)
    diameter = coin(name).diameter_mm
    start = (target[0] - diameter - 60.0, target[1])
    scene = Scene(GOAL, EDGES, (), (Placed("h1", coin(name), *start), Placed("h2", coin(name), *target)))
    out = simulate(scene, Shot("h1", *start, 0.0, speed), "heads", Table(friction=friction, restitution=restitution))
    assume("h2" in out.rest)  # not slid off the table
    struck = math.dist(out.rest["h2"][:2], target)
    striker = math.dist(out.rest["h1"][:2], (target[0] - diameter, target[1]))
    # What a ruler reads: the sheet asks for a striker that slid 5 mm or more (the simulated
    # slide of a slow coin is long by a fraction of a millimetre, and so is a reading).
    assume(striker >= 5 and struck >= 50)
    problem, measured = restitution_from_rebound(struck, striker)
    assert problem is None
    assert measured == pytest.approx(restitution, abs=0.04)


def test_the_measurements_set_the_table() -> None:
    table = table_of(
        {
            "ramp_low_mm": 20,
            "slide_low_mm": 50,
            "ramp_high_mm": 50,
            "slide_high_mm": 150,
            "struck_mm": 100,
            "striker_mm": 4,
        }
    )
    assert table.friction == pytest.approx(0.3)
    assert table.restitution == pytest.approx((1 - 0.2) / 1.2)


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"ramp_low_mm": 20, "slide_low_mm": 50}, "go together"),
        ({"ramp_low_mm": 50, "slide_low_mm": 50, "ramp_high_mm": 20, "slide_high_mm": 150}, "higher"),
        ({"ramp_low_mm": 20, "slide_low_mm": 150, "ramp_high_mm": 50, "slide_high_mm": 50}, "further"),
        ({"ramp_low_mm": 20, "slide_low_mm": 50, "ramp_high_mm": 30, "slide_high_mm": 500}, "outside"),
        (
            {"friction": 0.4, "ramp_low_mm": 20, "slide_low_mm": 50, "ramp_high_mm": 50, "slide_high_mm": 150},
            "not both",
        ),
        ({"struck_mm": 10, "striker_mm": 20}, "further than the striker"),
        ({"struck_mm": "far", "striker_mm": 20}, "struck_mm must be a number"),
        ({"ramp_low_mm": 1, "slide_low_mm": 50, "ramp_high_mm": 50, "slide_high_mm": 150}, "from 5 to 150"),
    ],
)
def test_bad_measurements_are_refused_in_one_line(options, words) -> None:
    with pytest.raises(UsageError, match=words) as caught:
        table_of(options)
    assert "\n" not in str(caught.value)


# -- the sheet ----------------------------------------------------------------------------------------------


def test_the_sheets_ruler_has_a_tick_every_millimetre_at_true_size() -> None:
    scene = measuring_scene()
    assert (scene.width_mm, scene.height_mm) == (210.0, 297.0)
    ticks = sorted(
        item.rings[0][0][0]
        for item in scene.items
        if isinstance(item, Drawn)
        and not item.closed
        and item.rings[0][0][0] == item.rings[0][1][0]
        and abs(item.rings[0][0][1] - item.rings[0][1][1]) <= 6  # a tick, not a mark on the ramp strip
    )
    ruler = ticks[: RULER_MM + 1]
    assert len(ruler) == RULER_MM + 1
    assert all(b - a == pytest.approx(1.0) for a, b in zip(ruler, ruler[1:]))
    pdf = measuring_sheet_pdf()
    assert b"/MediaBox [ 0 0 595.2756 841.8898 ]" in pdf  # A4 in points: 210 and 297 mm


def test_the_sheet_names_every_measurement_option() -> None:
    words = " ".join(item.text for item in measuring_scene().items if isinstance(item, Text))
    for option in (*SLIDE_OPTIONS, *REBOUND_OPTIONS):
        assert option in words


def test_the_docs_copy_of_the_sheet_is_the_sheet() -> None:
    docs = Path(__file__).parents[3] / "docs" / "games" / "flick-measure-table.pdf"
    assert docs.read_bytes() == measuring_sheet_pdf()

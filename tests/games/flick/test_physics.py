"""Flick's physics against the formulas of mechanics, not against itself: a sliding coin's
stopping distance v²/2μg; a head-on impact's 1-D law (the seed's penny that rebounds from a
quarter where a quarter does not); momentum kept and energy never gained; rest stays rest; the
same shot gives the same bytes; random scenes end without overlaps or NaN; every simulated
log is accepted by the referee; hostile shots are refused in one line."""

from __future__ import annotations

import json
import math
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coinprint.engine import InvalidMoveError, replay
from coinprint.errors import UsageError
from coinprint.games.flick.board import build
from coinprint.games.flick.physics import (
    STEP_S,
    Outcome,
    Placed,
    Scene,
    Shot,
    equal_curve_outline,
    referee_log,
    scene_of,
    simulate,
)
from coinprint.games.flick.rules import FlickRules
from coinprint.games.flick.table import GRAVITY_MM_S2, Table
from coinprint.units import COINS, coin

GOAL = ((-75.0, -75.0), (75.0, -75.0), (75.0, 75.0), (-75.0, 75.0))
EDGES = ("heads", 2, "tails", 4)
ROUND = [name for name, c in COINS.items() if not c.equal_curves]


def lone(name: str, x: float = -550.0, y: float = -300.0) -> Scene:
    return Scene(GOAL, EDGES, (), (Placed("h1", coin(name), x, y),))


def velocities(outcome: Outcome, body: int) -> list[tuple[float, float]]:
    """A body's velocity over each step, from its traced positions (mm/s)."""
    assert outcome.trace is not None
    path = outcome.trace
    return [
        ((path[k + 1][body][0] - path[k][body][0]) / STEP_S, (path[k + 1][body][1] - path[k][body][1]) / STEP_S)
        for k in range(len(path) - 1)
    ]


# -- a sliding coin ----------------------------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(
    name=st.sampled_from(sorted(COINS)),
    speed=st.floats(0.6, 1.9),
    friction=st.floats(0.3, 0.6),
)
def test_a_lone_coin_stops_within_1_percent_of_v2_over_2_mu_g(name: str, speed: float, friction: float) -> None:
    out = simulate(lone(name), Shot("h1", -550.0, -300.0, 0.0, speed), "heads", Table(friction=friction))
    travelled = out.rest["h1"][0] + 550.0
    formula = (speed * 1000) ** 2 / (2 * friction * GRAVITY_MM_S2)
    assert travelled == pytest.approx(formula, rel=0.01)
    assert out.rest["h1"][1] == pytest.approx(-300.0, abs=1e-6)  # straight on


def test_a_slide_at_any_angle_goes_the_same_distance() -> None:
    distances = []
    for direction in (0.0, 37.0, 90.0, 200.0, 301.5):
        out = simulate(lone("quarter", 0, -300), Shot("h1", 0.0, -300.0, direction, 1.0), "heads")
        x, y, _ = out.rest["h1"]
        distances.append(math.hypot(x, y + 300))
        assert math.degrees(math.atan2(y + 300, x)) % 360 == pytest.approx(direction, abs=1e-6)
    assert max(distances) - min(distances) < 1e-6


# -- impacts --------------------------------------------------------------------------------------------------


def head_on(striker: str, target: str, restitution: float, speed: float = 1.0) -> tuple[float, float, float]:
    """The striker's speed just before a head-on impact on a resting coin, and both coins'
    speeds just after (mm/s, along the line of the shot)."""
    scene = Scene(GOAL, EDGES, (), (Placed("h1", coin(striker), -400, -300), Placed("t1", coin(target), -300, -300)))
    out = simulate(scene, Shot("h1", -400, -300, 0.0, speed), "heads", Table(restitution=restitution), trace=True)
    first, second = velocities(out, 0), velocities(out, 1)
    hit = next(k for k, v in enumerate(second) if v[0] != 0.0)
    return first[hit - 1][0], first[hit][0], second[hit][0]


@pytest.mark.parametrize(
    "striker,target",
    [("penny", "quarter"), ("dime", "quarter"), ("quarter", "quarter"), ("nickel", "penny"), ("uk-50p", "dime")],
)
@pytest.mark.parametrize("restitution", [0.45, 0.7, 0.9])
def test_a_head_on_impact_follows_the_1d_law(striker: str, target: str, restitution: float) -> None:
    m1, m2 = coin(striker).mass_g, coin(target).mass_g
    before, after, struck = head_on(striker, target, restitution)
    # The table slows both coins during the impact's step: by μgΔt each, at most twice.
    slack = 2 * Table().friction * GRAVITY_MM_S2 * STEP_S + 1e-3 * before
    assert after == pytest.approx(before * (m1 - restitution * m2) / (m1 + m2), abs=slack)
    assert struck == pytest.approx(before * m1 * (1 + restitution) / (m1 + m2), abs=slack)
    # Momentum is kept, less what the table took over the step.
    assert m1 * after + m2 * struck == pytest.approx(m1 * before, abs=slack * (m1 + m2))


def test_a_penny_rebounds_from_a_quarter_exactly_when_e_is_above_0_441() -> None:
    threshold = coin("penny").mass_g / coin("quarter").mass_g
    assert threshold == pytest.approx(0.441, abs=5e-4)
    # Either side of the threshold by more than the table's pull during one step.
    assert head_on("penny", "quarter", 0.42)[1] > 0
    assert head_on("penny", "quarter", 0.46)[1] < 0
    assert head_on("penny", "quarter", 0.7)[1] < 0


@pytest.mark.parametrize("restitution", [0.45, 0.7, 0.9])
def test_a_quarter_never_rebounds_from_a_quarter(restitution: float) -> None:
    assert head_on("quarter", "quarter", restitution)[1] > 0


def kinetic_energy(scene: Scene, outcome: Outcome) -> list[float]:
    """The coins' kinetic energy (translation and spin) over each step."""
    assert outcome.trace is not None
    pieces = [*scene.goal_coins, *scene.coins]
    energy = []
    for k in range(len(outcome.trace) - 1):
        total = 0.0
        for index, piece in enumerate(pieces):
            (x0, y0, a0), (x1, y1, a1) = outcome.trace[k][index], outcome.trace[k + 1][index]
            mass, radius = piece.coin.mass_g, piece.coin.radius_mm
            total += mass * ((x1 - x0) ** 2 + (y1 - y0) ** 2) / STEP_S**2 / 2
            total += mass * radius**2 / 2 * ((a1 - a0) / STEP_S) ** 2 / 2
        energy.append(total)
    return energy


def test_energy_is_never_gained_over_a_shot_into_a_cluster() -> None:
    scene = scene_of(build(coins=5))
    h1 = scene.coin("h1")
    out = simulate(scene, Shot("h1", h1.x, h1.y, 87.0, 2.0), "heads", trace=True)
    assert any("contact" in e for e in out.events)  # it did strike
    energy = kinetic_energy(scene, out)
    assert all(later <= earlier * (1 + 1e-9) + 1e-6 for earlier, later in zip(energy, energy[1:]))
    assert energy[-1] == 0.0


# -- rest, repeatability, random scenes -------------------------------------------------------------------


def test_a_coin_at_rest_stays_at_rest() -> None:
    scene = scene_of(build(coins=3))
    out = simulate(scene, Shot("h1", -300.0, -400.0, 180.0, 0.5), "heads")  # away from everything
    for piece in scene.coins:
        if piece.id != "h1":
            assert out.rest[piece.id] == (piece.x, piece.y, piece.angle)
    assert out.events == [Shot("h1", -300.0, -400.0, 180.0, 0.5).event("heads"), {"stop": True}]


def test_the_same_shot_gives_the_same_bytes() -> None:
    scene = scene_of(build(coins=5))
    h1 = scene.coin("h1")
    shot = Shot("h1", h1.x, h1.y, 88.0, 1.7)
    runs = {
        json.dumps([simulate(scene, shot, "heads").events, sorted(simulate(scene, shot, "heads").rest.items())])
        for _ in range(4)
    }
    assert len(runs) == 1


SHOT_B = Shot("h3", -40.0, -160.0, 75.0, 1.4)
B_ALONE = """
import json
from coinprint.games.flick.board import build
from coinprint.games.flick.physics import Shot, scene_of, simulate
out = simulate(scene_of(build(coins=5)), Shot("h3", -40.0, -160.0, 75.0, 1.4), "heads", trace=True)
print(json.dumps([out.events, sorted(out.rest.items()), out.fallen, out.steps, out.trace]))
"""


def test_a_shot_gives_the_same_bytes_whatever_ran_before_it() -> None:
    """Shot B in a fresh process, alone, against B after shots that struck coins, knocked one
    off the table, moved the goal coins and were refused: nothing of one shot outlives it."""
    alone = subprocess.run([sys.executable, "-c", B_ALONE], capture_output=True, text=True, check=True).stdout
    scene = scene_of(build(coins=5))
    h1 = scene.coin("h1")
    before = [
        Shot("h1", h1.x, h1.y, 88.0, 1.7),
        Shot("h1", h1.x, h1.y, 200.0, 3.0),
        Shot("h2", h1.x, h1.y, 90.0, 1.0),  # on top of h1: refused
        Shot("h3", -40.0, -160.0, 60.0, 2.5),
    ]
    for shot in before:
        try:
            simulate(scene, shot, "heads")
        except UsageError:
            pass
    after = simulate(scene, SHOT_B, "heads", trace=True)
    record = [after.events, sorted(after.rest.items()), after.fallen, after.steps, after.trace]
    assert json.loads(alone) == json.loads(json.dumps(record))
    assert alone.strip() == json.dumps(record)


def overlap(a: Placed, b: Placed) -> float:
    return a.coin.radius_mm + b.coin.radius_mm - math.dist((a.x, a.y), (b.x, b.y))


@settings(max_examples=25, deadline=None)
@given(
    spots=st.lists(st.tuples(st.floats(-200, 200), st.floats(-200, 200)), min_size=2, max_size=8),
    names=st.lists(st.sampled_from(ROUND), min_size=8, max_size=8),
    direction=st.floats(0, 360),
    speed=st.floats(0.2, 3.0),
    restitution=st.floats(0.45, 0.9),
)
def test_random_scenes_end_at_rest_without_overlaps_or_nan(spots, names, direction, speed, restitution) -> None:
    pieces: list[Placed] = []
    for index, (x, y) in enumerate(spots):
        piece = Placed(f"h{index + 1}", coin(names[index]), x, y)
        if all(overlap(piece, other) < 0 for other in pieces):
            pieces.append(piece)
    outside = [p for p in pieces if max(abs(p.x), abs(p.y)) > 80]
    if not outside:
        return
    scene = Scene(GOAL, EDGES, (), tuple(pieces))
    start = outside[0]
    out = simulate(scene, Shot(start.id, start.x, start.y, direction, speed), "heads", Table(restitution=restitution))
    after = scene.at_rest(out)
    for index, a in enumerate(after.coins):
        assert all(math.isfinite(v) for v in (a.x, a.y, a.angle))
        for b in after.coins[index + 1 :]:
            assert overlap(a, b) < 0.1  # the solver's slop, a tenth of a millimetre at most
    assert {e for e in out.events[-1]} == {"stop"}


# -- the referee takes the physics' log ---------------------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(
    direction=st.floats(45, 135),
    speed=st.floats(0.3, 2.5),
    coin_number=st.integers(1, 3),
    penalty_h=st.booleans(),
)
def test_every_simulated_shot_is_accepted_by_the_referee(direction, speed, coin_number, penalty_h) -> None:
    layout = build(coins=3)
    rules = FlickRules(layout, {"penalty_h": penalty_h})
    scene = scene_of(layout)
    piece = scene.coin(f"h{coin_number}")
    out = simulate(scene, Shot(piece.id, piece.x, piece.y, direction, speed), "heads", rules.table)
    state = rules.initial_state()
    taken = referee_log(rules, state, out.events)
    assert taken == out.events[: len(taken)]
    assert len(taken) == len(out.events) or rules.is_over(state)
    done = replay(FlickRules(layout, {"penalty_h": penalty_h}), taken)
    assert done.error is None, done.error


def test_a_shot_at_a_goal_coin_is_penalty_g() -> None:
    layout = build()
    rules = FlickRules(layout, {})
    scene = scene_of(layout)
    g1 = scene.goal_coins[0]
    h2 = scene.coin("h2")  # the nearer of Heads' coins: nothing lies between
    aim = math.degrees(math.atan2(g1.y - h2.y, g1.x - h2.x))
    out = simulate(scene, Shot("h2", h2.x, h2.y, aim, 1.0), "heads")
    assert {"goal-coin-moved": 1} in out.events
    state = rules.initial_state()
    referee_log(rules, state, out.events)
    assert "penalty G" in rules.result(state).reason


def test_a_shot_into_the_goal_enters_over_the_shooters_line() -> None:
    layout = build()
    scene = scene_of(layout)
    h1 = scene.coin("h1")
    out = simulate(scene, Shot("h1", h1.x, h1.y, 90.0, 0.8), "heads")
    assert out.events[1] == {"enter": "h1", "edge": "heads"}
    assert out.events[-1] == {"stop": True}
    rules = FlickRules(layout, {})
    done = replay(rules, out.events)
    assert done.error is None and rules.score(done.state) == {"heads": 1, "tails": 0}


def test_a_shot_event_keeps_its_parameters_through_the_referee() -> None:
    rules = FlickRules(build(), {})
    state = rules.initial_state()
    event = Shot("h1", -13.6, -102.0, 90.0, 0.8).event("heads")
    assert rules.move_text(state, rules.parse_move(state, event)) == event


# -- the table's options and hostile shots --------------------------------------------------------------------


@pytest.mark.parametrize(
    "options",
    [{"friction": 0.1}, {"friction": True}, {"restitution": 1.2}, {"restitution": "0.7"}, {"coin_friction": -1}],
)
def test_bad_table_options_are_usage_errors(options) -> None:
    with pytest.raises(UsageError, match="flick option"):
        FlickRules(build(), options)


def test_the_table_options_reach_the_physics() -> None:
    rules = FlickRules(build(), {"friction": 0.5, "restitution": 0.5})
    assert (rules.table.friction, rules.table.restitution) == (0.5, 0.5)
    assert FlickRules(build(), {}).table == Table()


@pytest.mark.parametrize(
    "shot,words",
    [
        (Shot("h1", -13.63, -102.085, 90.0, math.nan), "finite"),
        (Shot("h1", -13.63, -102.085, math.inf, 1.0), "finite"),
        (Shot("h1", -13.63, -102.085, 90.0, 1e9), "speed"),
        (Shot("h1", -13.63, -102.085, 90.0, 0.0), "speed"),
        (Shot("h1", 5000.0, 0.0, 90.0, 1.0), "off the table"),
        (Shot("h1", 0.0, 0.0, 90.0, 1.0), "inside the goal"),
        (Shot("h1", 13.63, -102.085, 90.0, 1.0), "overlap"),
        (Shot("h9", -13.63, -102.085, 90.0, 1.0), "no coin"),
    ],
)
def test_hostile_shots_are_refused_in_one_line(shot: Shot, words: str) -> None:
    with pytest.raises(UsageError, match=words) as caught:
        simulate(scene_of(build()), shot, "heads")
    assert "\n" not in str(caught.value)


def test_a_coin_placed_off_the_table_is_refused() -> None:
    scene = Scene(GOAL, EDGES, (), (Placed("h1", coin("quarter"), -300, -300), Placed("t1", coin("dime"), 1e6, 0)))
    with pytest.raises(UsageError, match="off the table"):
        simulate(scene, Shot("h1", -300, -300, 0, 1.0), "heads")


@pytest.mark.parametrize("speed", [math.nan, "fast", 99.0])
def test_a_logged_shot_with_bad_numbers_is_an_invalid_move(speed) -> None:
    rules = FlickRules(build(), {})
    with pytest.raises(InvalidMoveError):
        rules.parse_move(
            rules.initial_state(), {"shot": "heads", "coin": "h1", "at": [0, -100], "direction": 90, "speed": speed}
        )


# -- the heptagons --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["uk-20p", "uk-50p"])
def test_a_heptagon_has_its_width_in_every_direction(name: str) -> None:
    width = coin(name).diameter_mm
    outline = equal_curve_outline(width, 7)
    assert len(outline) == 28
    for turn in range(0, 180, 3):
        ux, uy = math.cos(math.radians(turn)), math.sin(math.radians(turn))
        along = [x * ux + y * uy for x, y in outline]
        # Corners on the true curves: the outline is never wider, and at most 0.05 mm narrower.
        assert width - 0.05 < max(along) - min(along) <= width + 1e-9

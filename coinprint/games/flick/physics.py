"""Flick's physics: one shot on the table simulated as rigid coins sliding with friction, written
as the referee's event log.

The model (docs/games/flick.md, The physics). Coins are rigid bodies seen from above, with their
true diameter and mass (the coin catalogue); the UK 20p and 50p are equal-curve heptagons, the
others discs. The table pulls on every coin with Coulomb friction: a sliding coin slows by μg
whatever its speed, and a spinning one by the torque of a disc pressed evenly on the table,
⅔·μ·m·g·r. That is pymunk's top-down pattern: a pivot joint (sliding) and a gear joint
(spinning) from each coin to the table, which may push back with at most the friction force
and never pull the coin back to where it was (``max_bias = 0``). Two coins that strike bounce
with restitution e and rub with the coins' friction, one value for every pair (pymunk would
multiply the two shapes' values). The goal coins are bodies too: anything that touches one
moves it (penalty G).

Every run of the same shot gives the same result to the bit: one thread, a fresh space per
shot, bodies added in a fixed order, a fixed step of :data:`STEP_S`. Lengths are in mm, masses
in grams, times in seconds; a shot's speed is given in m/s.
"""

from __future__ import annotations

import atexit
import functools
import math
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from coinprint.engine import Rules
from coinprint.errors import UsageError
from coinprint.games.flick.table import GRAVITY_MM_S2, TABLE_HALF_MM, Table, shot_problem
from coinprint.layout import Layout
from coinprint.units import Coin, coin

if TYPE_CHECKING:
    import pymunk
    from pymunk._chipmunk_cffi import ffi, lib
else:
    pymunk = ffi = lib = None  # loaded by _load_chipmunk before the first shot


def _load_chipmunk() -> None:
    """Import pymunk and chipmunk's C functions on first use: a command that simulates no
    shot (a kit, a board) does not pay for them (about 25 ms)."""
    global pymunk, ffi, lib
    if lib is None:
        import pymunk as loaded
        from pymunk._chipmunk_cffi import ffi as c_ffi
        from pymunk._chipmunk_cffi import lib as c_lib

        pymunk, ffi, lib = loaded, c_ffi, c_lib


XY = tuple[float, float]

STEP_S = 1 / 1000
"""The fixed time step. A coin sliding from speed v to rest travels v²/2μg and about v·Δt/2
more (it moves a step before the table first slows it), so the stopping distance is long by
μgΔt/v: under 1 % from 0.3 m/s up at μ = 0.3, from 0.6 m/s up at μ = 0.6."""
MAX_SECONDS = 20.0
"""No shot lasts longer: the fastest allowed coin on the slipperiest table stops within 3 s."""
REST_CHECK_STEPS = 32
"""Steps between two looks at whether everything has stopped and whether a coin fell off."""
REST_SPEED_MM_S = 1e-3
REST_SPIN_RAD_S = 1e-4
SLEEP_S = 0.01
"""A coin still for this long falls asleep (it is woken when something strikes it)."""
ARC_SEGMENTS = 4
"""Straight pieces per curve of a heptagon. Their corners lie on the true curve, so the outline
is at most w·(1 − cos(π/56)) inside it: 0.034 mm for the 20p, 0.043 mm for the 50p."""
OVERLAP_MM = 0.05
"""Coins placed deeper into each other than this are refused as overlapping."""
COLLISION_SLOP_MM = 0.01
SOLVER_ITERATIONS = 10
"""pymunk's default: enough for a coin striking a cluster of touching coins."""
CENTRE_RADIUS_MM = 0.001
"""A coin's centre is a tiny sensor disc: the goal (a sensor polygon) reports when a centre
crosses into it or out of it, without a Python look at every step."""

_SCORE, _GOAL_COIN, _CENTRE, _GOAL = 1, 2, 3, 4
_COINS_CATEGORY, _CENTRE_CATEGORY, _GOAL_CATEGORY = 0b001, 0b010, 0b100
_COINS_FILTER = (0, _COINS_CATEGORY, _COINS_CATEGORY)
_CENTRE_FILTER = (0, _CENTRE_CATEGORY, _GOAL_CATEGORY)


@dataclass(frozen=True)
class Placed:
    """A coin at a point of the table: its id (``h1``, ``t2``, ``g1``), what coin it is, its
    centre in mm and its turn in radians (it matters only for a heptagon)."""

    id: str
    coin: Coin
    x: float
    y: float
    angle: float = 0.0


@dataclass(frozen=True)
class Scene:
    """The table before a shot: the goal's corners (corner 0 first, side k from corner k−1 to
    corner k), what an ``enter`` event names for each side (the player sitting there, or the
    side's number), the goal coins and the score coins on the table."""

    goal: tuple[XY, ...]
    edges: tuple[str | int, ...]
    goal_coins: tuple[Placed, ...]
    coins: tuple[Placed, ...]

    def at_rest(self, outcome: Outcome) -> Scene:
        """The scene after a shot: every score coin where it stopped (a fallen coin is gone)."""
        coins = tuple(
            replace(c, x=outcome.rest[c.id][0], y=outcome.rest[c.id][1], angle=outcome.rest[c.id][2])
            for c in self.coins
            if c.id in outcome.rest
        )
        return replace(self, coins=coins)

    def coin(self, coin_id: str) -> Placed:
        found = next((c for c in self.coins if c.id == coin_id), None)
        if found is None:
            raise UsageError(f"there is no coin {coin_id!r} on the table; the coins are {', '.join(self.ids)}")
        return found

    @property
    def ids(self) -> list[str]:
        return [c.id for c in self.coins]


@dataclass(frozen=True)
class Shot:
    """A flick: the coin, where its centre starts (mm, outside the goal), the direction it goes
    (degrees anticlockwise from the +x axis, Heads' line running along +x) and its speed (m/s)."""

    coin: str
    x: float
    y: float
    direction: float
    speed: float

    def event(self, player: str) -> dict[str, Any]:
        """The log's ``shot`` event with the shot's own parameters."""
        return {
            "shot": player,
            "coin": self.coin,
            "at": [self.x, self.y],
            "direction": self.direction,
            "speed": self.speed,
        }


@dataclass
class Outcome:
    """What a shot did: the event log from the ``shot`` to the ``stop``, where every score coin
    came to rest (x, y, angle), the coins that fell off the table, how many steps it took, and
    with ``trace`` every body's (x, y, angle) after every step (goal coins first)."""

    events: list[dict[str, Any]]
    rest: dict[str, tuple[float, float, float]]
    fallen: list[str]
    steps: int
    trace: list[list[tuple[float, float, float]]] | None = None
    moved_goal_coins: list[int] = field(default_factory=list)


def scene_of(layout: Layout) -> Scene:
    """The table at the start of a game on this mat: score coins on their zones' spots, named as
    the referee names them (``h1``, ``h2``, … for Heads' team in seat order, ``t1``, … for Tails')."""
    goals = layout.features_with_role("goal")
    if not goals:
        raise UsageError("a Flick mat needs a goal to be played on")
    ring = [(float(x), float(y)) for x, y in goals[0].geometry["coordinates"][0][:-1]]
    goal = tuple(ring) if _area(ring) > 0 else tuple(reversed(ring))
    sides = len(goal)
    edges: list[str | int] = list(range(1, sides + 1))
    for line in layout.features_with_role("line"):
        side = line.properties.get("side")
        if isinstance(side, int) and 1 <= side <= sides:
            edges[side - 1] = str(line.properties.get("player"))
    goal_coins = []
    for number, feature in enumerate(layout.features_with_role("goal-coin"), start=1):
        centre = feature.properties.get("center") or [feature.shape.centroid.x, feature.shape.centroid.y]
        goal_coins.append(Placed(f"g{number}", coin(str(feature.properties.get("coin", "dime"))), *map(float, centre)))
    zones = {z.properties.get("player"): z for z in layout.features_with_role("zone")}
    counters = {"heads": 0, "tails": 0}
    coins = []
    for line in sorted(layout.features_with_role("line"), key=lambda f: f.properties.get("seat", 0)):
        zone = zones.get(line.properties.get("player"))
        if zone is None:
            continue
        face = str(line.properties.get("face", "heads"))
        kinds = zone.properties.get("arsenal") or []
        for k, (x, y) in enumerate(zone.properties.get("spots", [])):
            counters[face] += 1
            kind = str(kinds[k]) if k < len(kinds) else str(zone.properties["coin"])  # an arsenal's, in turn
            coins.append(Placed(f"{face[0]}{counters[face]}", coin(kind), float(x), float(y)))
    return Scene(goal, tuple(edges), tuple(goal_coins), tuple(coins))


def simulate(scene: Scene, shot: Shot, player: str, table: Table | None = None, *, trace: bool = False) -> Outcome:
    """Play ``shot`` by ``player`` on ``scene``: the shot coin is put at the shot's start and
    sent off; the result is the referee's event log of the shot and where everything stopped.

    A shot that cannot be played is a :class:`UsageError` in one line: numbers that are not
    finite, a speed of 0 or above the cap, a start inside the goal or off the table, a coin that
    is not on the table, coins overlapping."""
    table = table or Table()
    problem = shot_problem(shot.x, shot.y, shot.direction, shot.speed)
    if problem:
        raise UsageError(problem)
    scene.coin(shot.coin)
    if _inside(scene.goal, (shot.x, shot.y)):
        raise UsageError(f"{shot.coin} starts inside the goal; a shot starts outside it (5.1)")
    coins = tuple(replace(c, x=shot.x, y=shot.y) if c.id == shot.coin else c for c in scene.coins)
    for piece in (*scene.goal_coins, *coins):
        _check_on_table(piece)
    world = _World(replace(scene, coins=coins), table)
    try:
        world.check_overlaps()
        return world.run(shot, player, trace=trace)
    finally:
        world.close()


def referee_log(rules: Rules[Any, Any], state: Any, events: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The events the referee takes from ``state`` on, applied to it: all of them, or those up to
    the one that ends the game (a penalty), since nothing is logged after the end."""
    taken = []
    for event in events:
        if rules.is_over(state):
            break
        rules.apply(state, rules.parse_move(state, event))
        taken.append(event)
    return taken


# -- the world of one shot ----------------------------------------------------------------------------


class _Piece:
    """One coin of the world: its chipmunk body, its shapes (the rim, and for a score coin the
    centre sensor) and its two joints to the table."""

    __slots__ = ("name", "kind", "placed", "body", "shapes", "joints", "reach")

    def __init__(
        self, name: str, kind: int, placed: Placed, body: Any, shapes: tuple[Any, ...], joints: tuple[Any, Any]
    ) -> None:
        self.name, self.kind, self.placed = name, kind, placed
        self.body, self.shapes, self.joints = body, shapes, joints
        curves = placed.coin.equal_curves
        # How far the rim reaches from the centre (a heptagon's corners are beyond its width/2).
        self.reach = placed.coin.radius_mm / (math.cos(math.pi / (2 * curves)) if curves else 1.0)


class _World:
    """One scene in a chipmunk space: goal coins first, then the score coins, in the scene's
    order, added to the goal's space (:class:`_Room`) and taken out again by :meth:`close`,
    which leaves the space as it found it (the same bits as a fresh space: tested).

    The coins, their shapes and their joints are chipmunk's own objects, made and freed here:
    pymunk's Python wrapper of one of them costs more to build than the object costs in the
    whole shot. The space, the goal sensor and the collision handlers are pymunk's."""

    def __init__(self, scene: Scene, table: Table) -> None:
        self.scene, self.table = scene, table
        self.room = _room(scene.goal)
        self.room.world = self
        self.space = self.room.space
        self.events: list[dict[str, Any]] = []
        self.pieces: dict[str, _Piece] = {}
        self.by_shape: dict[Any, _Piece] = {}
        """Each coin by its shapes (chipmunk's pointers, which compare and hash by address)."""
        self.inside: dict[str, bool] = {}
        self.moved_goal_coins: list[int] = []
        self.pair = (ffi.new("cpShape **"), ffi.new("cpShape **"))
        self.table_body = self.space.static_body._body
        for number, piece in enumerate(scene.goal_coins, start=1):
            self._add(piece, _GOAL_COIN, str(number))
        for piece in scene.coins:
            self._add(piece, _SCORE, piece.id)
            self.inside[piece.id] = _inside(scene.goal, (piece.x, piece.y))

    def _add(self, piece: Placed, kind: int, name: str) -> None:
        coin = piece.coin
        mass, moment, outline = _body_of(coin)
        body = lib.cpBodyNew(mass, moment)
        if outline:
            rim = lib.cpPolyShapeNew(body, len(outline), outline, _IDENTITY, 0.0)
        else:
            rim = lib.cpCircleShapeNew(body, coin.radius_mm, (0.0, 0.0))
        lib.cpBodySetPosition(body, (piece.x, piece.y))
        lib.cpBodySetAngle(body, piece.angle)
        lib.cpShapeSetCollisionType(rim, kind)
        lib.cpShapeSetFilter(rim, _COINS_FILTER)
        shapes: tuple[Any, ...] = (rim,)
        if kind == _SCORE:  # a goal coin never enters the goal: it sits on its corner
            centre = lib.cpCircleShapeNew(body, CENTRE_RADIUS_MM, (0.0, 0.0))
            lib.cpShapeSetSensor(centre, True)
            lib.cpShapeSetCollisionType(centre, _CENTRE)
            lib.cpShapeSetFilter(centre, _CENTRE_FILTER)
            shapes = (rim, centre)
        space = self.space._space
        lib.cpSpaceAddBody(space, body)
        for shape in shapes:
            lib.cpSpaceAddShape(space, shape)
        table, friction, weight = self.table_body, self.table.friction, mass * GRAVITY_MM_S2
        slide = lib.cpPivotJointNew2(table, body, (0.0, 0.0), (0.0, 0.0))
        spin = lib.cpGearJointNew(table, body, 0.0, 1.0)
        for joint, force in ((slide, friction * weight), (spin, 2 / 3 * friction * weight * coin.radius_mm)):
            lib.cpConstraintSetMaxBias(joint, 0.0)
            lib.cpConstraintSetMaxForce(joint, force)
            lib.cpSpaceAddConstraint(space, joint)
        made = _Piece(name, kind, piece, body, shapes, (slide, spin))
        self.pieces[piece.id] = made
        for shape in shapes:
            self.by_shape[shape] = made

    def close(self) -> None:
        """Take every coin out of the space and free it (the space and the goal are pymunk's)."""
        space = self.space._space
        for piece in self.pieces.values():
            for joint in piece.joints:
                if lib.cpSpaceContainsConstraint(space, joint):
                    lib.cpSpaceRemoveConstraint(space, joint)
                lib.cpConstraintFree(joint)
            for shape in piece.shapes:
                if lib.cpSpaceContainsShape(space, shape):
                    lib.cpSpaceRemoveShape(space, shape)
                lib.cpShapeFree(shape)
            if lib.cpSpaceContainsBody(space, piece.body):
                lib.cpSpaceRemoveBody(space, piece.body)
            lib.cpBodyFree(piece.body)
        self.pieces.clear()
        self.by_shape.clear()
        self.room.world = None

    def _shapes_of(self, arbiter: pymunk.Arbiter) -> tuple[Any, Any]:
        first, second = self.pair
        lib.cpArbiterGetShapes(arbiter._arbiter, first, second)
        return first[0], second[0]

    def _pair(self, arbiter: pymunk.Arbiter, space: pymunk.Space, data: Any) -> None:
        # One restitution and one friction for every pair of coins, not the product of the two
        # shapes' values that pymunk would use.
        arbiter.restitution = self.table.restitution
        arbiter.friction = self.table.coin_friction

    def _touched(self, arbiter: pymunk.Arbiter, space: pymunk.Space, data: Any) -> None:
        first, second = (self.by_shape[s] for s in self._shapes_of(arbiter))
        if second.kind == _SCORE:
            self.events.append({"contact": [first.name, second.name]})
        for piece in (first, second):
            if piece.kind == _GOAL_COIN and int(piece.name) not in self.moved_goal_coins:
                self.moved_goal_coins.append(int(piece.name))
                self.events.append({"goal-coin-moved": int(piece.name)})

    def _entered(self, arbiter: pymunk.Arbiter, space: pymunk.Space, data: Any) -> None:
        piece = self.by_shape[self._shapes_of(arbiter)[0]]
        name = piece.name
        if self.inside[name]:
            return
        self.inside[name] = True
        now_at, velocity = lib.cpBodyGetPosition(piece.body), lib.cpBodyGetVelocity(piece.body)
        now = (now_at.x, now_at.y)
        before = (now[0] - velocity.x * STEP_S, now[1] - velocity.y * STEP_S)
        side = _side_crossed(self.scene.goal, before, now)
        self.events.append({"enter": name, "edge": self.scene.edges[side - 1]})

    def _left(self, arbiter: pymunk.Arbiter, space: pymunk.Space, data: Any) -> None:
        name = self.by_shape[self._shapes_of(arbiter)[0]].name
        if self.inside.get(name):
            self.inside[name] = False
            self.events.append({"leave": name})

    def check_overlaps(self) -> None:
        pieces = list(self.pieces.values())
        for k, piece in enumerate(pieces):
            x, y, reach = piece.placed.x, piece.placed.y, piece.reach
            for other in pieces[k + 1 :]:
                if math.hypot(other.placed.x - x, other.placed.y - y) > reach + other.reach:
                    continue  # too far apart to touch: no need to ask chipmunk
                contacts = lib.cpShapesCollide(piece.shapes[0], other.shapes[0])
                depth = max((-contacts.points[i].distance for i in range(contacts.count)), default=0.0)
                if depth > OVERLAP_MM:
                    raise UsageError(
                        f"coins {_label(piece.name)} and {_label(other.name)} overlap by {depth:.2f} mm; "
                        "coins lie side by side on the table"
                    )

    def run(self, shot: Shot, player: str, *, trace: bool) -> Outcome:
        body = self.pieces[shot.coin].body
        speed = shot.speed * 1000.0
        # pymunk's integrator moves a body before the table slows it: its velocities belong half
        # a step later than its positions (leapfrog). So the coin leaves with the speed it has
        # half a step after the release; started with the release speed itself, every slide
        # would be longer by v·Δt/2.
        speed = max(0.0, speed - self.table.friction * GRAVITY_MM_S2 * STEP_S / 2)
        turn = math.radians(shot.direction)
        lib.cpBodySetVelocity(body, (speed * math.cos(turn), speed * math.sin(turn)))
        order = [piece.body for piece in self.pieces.values()]
        self.on_table = dict(self.pieces)
        path: list[list[tuple[float, float, float]]] | None = [] if trace else None
        fallen: list[str] = []
        limit = round(MAX_SECONDS / STEP_S)
        # chipmunk's step itself: pymunk's Space.step around it only runs the adds, removals and
        # post-step callbacks queued during a step, and this world queues none.
        self.space.step(STEP_S)
        steps = 1
        step, space = lib.cpSpaceStep, self.space._space
        if path is not None:
            path.append([_place(b) for b in order])
        while True:  # `steps` steps taken (and traced); a look every REST_CHECK_STEPS
            if steps % REST_CHECK_STEPS == 0:
                fallen += self._fall_off()
                if self._still():
                    break
            if steps >= limit:
                break
            target = min(limit, (steps // REST_CHECK_STEPS + 1) * REST_CHECK_STEPS)
            if path is None:  # the steps up to the next look, with no Python in between
                for _ in range(target - steps):
                    step(space, STEP_S)
            else:
                for _ in range(target - steps):
                    step(space, STEP_S)
                    path.append([_place(b) for b in order])
            steps = target
        rest = {c.id: _place(self.pieces[c.id].body) for c in self.scene.coins if c.id not in fallen}
        events = [shot.event(player), *self.events, {"stop": True}]
        return Outcome(events, rest, fallen, steps, path, list(self.moved_goal_coins))

    def _still(self) -> bool:
        return all(lib.cpBodyIsSleeping(p.body) for p in self.on_table.values())

    def _fall_off(self) -> list[str]:
        gone = []
        space = self.space._space
        for name, piece in list(self.on_table.items()):
            if lib.cpBodyIsSleeping(piece.body):
                continue
            at = lib.cpBodyGetPosition(piece.body)
            if max(abs(at.x), abs(at.y)) > TABLE_HALF_MM:
                # The order pymunk removed them in: the joints, the body, then its shapes.
                for joint in piece.joints:
                    lib.cpSpaceRemoveConstraint(space, joint)
                lib.cpSpaceRemoveBody(space, piece.body)
                for shape in piece.shapes:
                    lib.cpSpaceRemoveShape(space, shape)
                del self.on_table[name]
                gone.append(name)
        return [g for g in gone if not g.startswith("g")]


_IDENTITY = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


class _Room:
    """A chipmunk space kept for every shot on one goal: the goal's sensor and the collision
    handlers, which pymunk's Python wrappers make slowly, are made once; each shot's world adds
    its coins and takes them out again (:meth:`_World.close`), leaving the space as it found it.
    The handlers call the world of the shot under way."""

    def __init__(self, goal: tuple[XY, ...]) -> None:
        self.world: _World | None = None
        space = self.space = pymunk.Space(threaded=False)
        space.collision_slop = COLLISION_SLOP_MM
        # A coin that has stopped sleeps until something strikes it: the solver skips it.
        space.idle_speed_threshold = REST_SPEED_MM_S
        space.sleep_time_threshold = SLEEP_S
        space.iterations = SOLVER_ITERATIONS
        sensor = pymunk.Poly(space.static_body, goal)
        sensor.sensor, sensor.collision_type = True, _GOAL
        sensor.filter = pymunk.ShapeFilter(categories=_GOAL_CATEGORY, mask=_CENTRE_CATEGORY)
        space.add(sensor)
        for a, b in ((_SCORE, _SCORE), (_SCORE, _GOAL_COIN), (_GOAL_COIN, _GOAL_COIN)):
            space.on_collision(a, b, begin=self._touched, pre_solve=self._pair)
        space.on_collision(_CENTRE, _GOAL, begin=self._entered, separate=self._left)

    def _touched(self, arbiter: pymunk.Arbiter, space: pymunk.Space, data: Any) -> None:
        assert self.world is not None
        self.world._touched(arbiter, space, data)

    def _pair(self, arbiter: pymunk.Arbiter, space: pymunk.Space, data: Any) -> None:
        assert self.world is not None
        self.world._pair(arbiter, space, data)

    def _entered(self, arbiter: pymunk.Arbiter, space: pymunk.Space, data: Any) -> None:
        assert self.world is not None
        self.world._entered(arbiter, space, data)

    def _left(self, arbiter: pymunk.Arbiter, space: pymunk.Space, data: Any) -> None:
        assert self.world is not None
        self.world._left(arbiter, space, data)


_ROOMS: dict[tuple[int, tuple[XY, ...]], _Room] = {}
"""The spaces kept, by thread and goal (the studio simulates in several threads at once)."""
_ROOMS_LOCK = threading.Lock()
ROOMS_KEPT = 32
"""Spaces kept at most (a run plays on one or a few mats, in a few threads)."""


def _room(goal: tuple[XY, ...]) -> _Room:
    _load_chipmunk()
    key = (threading.get_ident(), goal)
    with _ROOMS_LOCK:
        room = _ROOMS.get(key)
        if room is None or room.world is not None:  # a space still in use (a shot left unclosed) is not reused
            if len(_ROOMS) >= ROOMS_KEPT:
                _ROOMS.clear()  # a world under way keeps its own space
            room = _ROOMS[key] = _Room(goal)
    return room


@atexit.register
def _free_rooms() -> None:
    # pymunk frees a space by walking it with Python callbacks, which are gone once the
    # interpreter is being torn down: the kept spaces are freed before that.
    with _ROOMS_LOCK:
        _ROOMS.clear()


@functools.cache
def _body_of(coin: Coin) -> tuple[float, float, list[XY]]:
    """A coin's mass, moment of inertia and, for an equal-curve heptagon, its outline (else
    empty: a disc)."""
    _load_chipmunk()
    mass = coin.mass_g
    if coin.equal_curves:
        outline, moment = _outline_and_moment(coin.diameter_mm, coin.equal_curves, mass)
        return mass, moment, outline
    return mass, pymunk.moment_for_circle(mass, 0, coin.radius_mm), []


def _place(body: Any) -> tuple[float, float, float]:
    at = lib.cpBodyGetPosition(body)
    return (at.x, at.y, lib.cpBodyGetAngle(body))


@functools.cache
def _outline_and_moment(width_mm: float, curves: int, mass: float) -> tuple[list[XY], float]:
    outline = equal_curve_outline(width_mm, curves)
    return outline, pymunk.moment_for_poly(mass, outline)


# -- geometry ------------------------------------------------------------------------------------------


def equal_curve_outline(width_mm: float, curves: int, segments: int = ARC_SEGMENTS) -> list[XY]:
    """The outline of a Reuleaux polygon of ``curves`` (odd) curves and width ``width_mm``, as a
    polygon of ``segments`` straight pieces per curve whose corners lie on the curves. Each curve
    is an arc of radius ``width_mm`` centred on the opposite corner."""
    circumradius = width_mm / (2 * math.cos(math.pi / (2 * curves)))
    corners = [
        (circumradius * math.cos(2 * math.pi * k / curves), circumradius * math.sin(2 * math.pi * k / curves))
        for k in range(curves)
    ]
    outline = []
    for k in range(curves):
        cx, cy = corners[(k + (curves + 1) // 2) % curves]
        start = math.atan2(corners[k][1] - cy, corners[k][0] - cx)
        end = math.atan2(corners[(k + 1) % curves][1] - cy, corners[(k + 1) % curves][0] - cx)
        sweep = math.remainder(end - start, 2 * math.pi)
        for j in range(segments):
            angle = start + sweep * j / segments
            outline.append((cx + width_mm * math.cos(angle), cy + width_mm * math.sin(angle)))
    return outline


def _area(ring: Sequence[XY]) -> float:
    return sum(ring[k - 1][0] * ring[k][1] - ring[k][0] * ring[k - 1][1] for k in range(len(ring))) / 2


def _inside(goal: Sequence[XY], point: XY) -> bool:
    """Whether ``point`` is strictly inside the convex, anticlockwise goal."""
    x, y = point
    for k in range(len(goal)):
        (ax, ay), (bx, by) = goal[k - 1], goal[k]
        if (bx - ax) * (y - ay) - (by - ay) * (x - ax) <= 0:
            return False
    return True


def _side_crossed(goal: Sequence[XY], before: XY, now: XY) -> int:
    """The side (1…n) whose edge the step from ``before`` to ``now`` crossed; if the step is too
    short to tell, the side nearest ``now``."""
    best, best_distance = len(goal), math.inf
    for k in range(len(goal)):
        a, b = goal[k - 1], goal[k]
        if _segments_cross(before, now, a, b):
            return k or len(goal)
        distance = _distance_to_segment(now, a, b)
        if distance < best_distance:
            best, best_distance = k or len(goal), distance
    return best


def _segments_cross(p: XY, q: XY, a: XY, b: XY) -> bool:
    def turn(u: XY, v: XY, w: XY) -> float:
        return (v[0] - u[0]) * (w[1] - u[1]) - (v[1] - u[1]) * (w[0] - u[0])

    return turn(a, b, p) * turn(a, b, q) <= 0 and turn(p, q, a) * turn(p, q, b) <= 0


def _distance_to_segment(p: XY, a: XY, b: XY) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = dx * dx + dy * dy
    t = 0.0 if length == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length))
    return math.dist(p, (a[0] + t * dx, a[1] + t * dy))


def _check_on_table(piece: Placed) -> None:
    values = (piece.x, piece.y, piece.angle)
    if not all(math.isfinite(v) for v in values):
        raise UsageError(f"coin {piece.id} is at ({piece.x}, {piece.y}); a coin's place is finite numbers")
    if max(abs(piece.x), abs(piece.y)) > TABLE_HALF_MM:
        raise UsageError(
            f"coin {piece.id} at ({piece.x:g}, {piece.y:g}) mm is off the table "
            f"(within {TABLE_HALF_MM:g} mm of the goal's centre)"
        )


def _label(name: str) -> str:
    return f"g{name}" if name.isdigit() else name

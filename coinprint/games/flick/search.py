"""What Flick's computer players know besides the referee: the shots worth trying and how a
hand executes one.

A player's decision is a shot *meant*: a ``shot`` event with its parameters (where the coin is
placed, the direction and the speed). :meth:`FlickSearch.execute` plays it as a hand would,
with Gaussian noise on the direction and the speed (the record's ``skill`` option), and returns
the shot as executed followed by what the table did (the physics' events), each a move of the
record. The generic agents then play Flick: ``random`` a random shot; ``greedy`` the candidate
whose exact outcome is best; ``aim`` the candidate whose noisy executions score best on average;
``montecarlo`` (the search player) the candidate whose noisy executions, each followed by
play-outs of aimed shots, win most often.
"""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING, Any

from coinprint.errors import UsageError
from coinprint.games.flick.rules import SKILLS, Event, FlickRules, FlickState
from coinprint.games.flick.table import GRAVITY_MM_S2, MAX_SPEED_M_S
from coinprint.search import Agent, AimAgent, Search

if TYPE_CHECKING:
    from coinprint.games.flick.physics import Scene

XY = tuple[float, float]

PLACE_MM = 45.0
"""How far behind their line (goal edge to coin centre) the players place a coin to shoot."""
OFFSETS = (-0.25, 0.0, 0.25)
"""Where along their line candidate shots start, as fractions of the line's length from its middle."""
TARGET_PULL = 0.4
"""Candidate targets: the goal's centre and points this far from it towards each corner."""
KNOCK_ON_MM = 60.0
"""A shot at an opponent's coin in the goal is struck to roll this far past it."""
TABLE_KINDS = frozenset({"enter", "leave", "contact", "goal-coin-moved", "stop"})
"""Events that follow from a shot: what the table did, not what a player chose."""
PARK_GAP_MM = 2.0
"""How far outside the goal's edge a parked coin's rim lies."""
PARK_SPEED_M_S = 0.05
"""A parked coin is set down with this nudge along the edge (it slides about 0.4 mm)."""
TRIES = 20
"""Random places tried before a random shot gives up on a crowded spot."""
NUDGE_MM = 5.0
"""How far a planned start is moved away from the goal, at a time, when a coin now lies on it."""


class ParkingAgent(Agent[FlickState, Event]):
    """The parking player of the seed's note 1: it sets ``park`` of its coins down just outside
    the goal, beside the edges other than its own (where a coin knocked out of the goal would
    strike them), nudged along the edge so they stay there, then plays as ``aim`` does
    (``repeats`` noisy tries of each candidate). A parked coin did not enter the goal, so it
    turns over (rule 5.3) and joins the other side: parking has a price in these rules."""

    name = "park"

    def __init__(self, park: int = 2, repeats: int = 8) -> None:
        self.park = park
        self.aim: AimAgent[FlickState, Event] = AimAgent(repeats)

    def choose(self, search: Search[FlickState, Event], state: FlickState, rng: random.Random) -> Event:
        assert isinstance(search, FlickSearch)
        if state.expected or search.parked(state) >= self.park:
            return self.aim.choose(search, state, rng)
        spots = search.parking_shots(state)
        if not spots:
            return self.aim.choose(search, state, rng)
        return spots[rng.randrange(len(spots))]


class FlickSearch(Search[FlickState, Event]):
    """Shots to try, a hand's noise, and the score as evaluation, for a :class:`FlickRules`."""

    rules: FlickRules
    agents = {"park": (ParkingAgent, {"park": (int, 0, 12), "repeats": (int, 1, 1000)})}

    def __init__(self, rules: FlickRules) -> None:
        super().__init__(rules)
        self.rules = rules
        self.direction_sigma, self.speed_sigma = SKILLS[rules.options["skill"]]

    # -- the shots -------------------------------------------------------------------------------
    def candidates(self, state: FlickState) -> list[Event]:
        """Shots the aiming and search players weigh: from three places behind the active
        player's line, at the goal's centre, at points towards its corners, and through each
        opponent's coin in the goal (during a simulated shot, the table's next event)."""
        if state.expected:
            return self.rules.legal_moves(state)
        scene = self._scene(state)
        player = self.rules.to_move(state)
        coin = self._coin_to_shoot(state, scene)
        targets = [(point, 0.0) for point in self._goal_points(scene)]
        face = self.rules.face_of(player)
        targets += [
            ((c.x, c.y), KNOCK_ON_MM) for c in scene.coins if state.in_goal.get(c.id) and state.faces[c.id] != face
        ]
        shots = []
        for offset in OFFSETS:
            start = self._place(scene, player, offset, PLACE_MM)
            for target, beyond in targets:
                shots.append(self._shot_at(player, coin, start, target, beyond))
        return [shot for shot in shots if self._playable(state, shot)]

    def random_move(self, state: FlickState, rng: random.Random) -> Event:
        """A shot from a random place behind the player's line at a random point of the goal,
        at a speed between 0.6 and 1.4 times what stops the coin there (during a simulated shot,
        the table's next event)."""
        if state.expected:
            return self.rules.legal_moves(state)[0]
        scene = self._scene(state)
        player = self.rules.to_move(state)
        coin = self._coin_to_shoot(state, scene)
        points = self._goal_points(scene)
        for _ in range(TRIES):
            start = self._place(scene, player, rng.uniform(-0.4, 0.4), rng.uniform(20.0, 80.0))
            a, b = rng.sample(points, 2)
            share = rng.random()
            target = (a[0] + (b[0] - a[0]) * share, a[1] + (b[1] - a[1]) * share)
            shot = self._shot_at(player, coin, start, target, 0.0, rng.uniform(0.6, 1.4))
            if self._playable(state, shot):
                return shot
        return self._shot_at(player, coin, self._place(scene, player, 0.0, 150.0), scene_centre(scene), 0.0)

    def playout_move(self, state: FlickState, rng: random.Random) -> Event:
        """A random one of the candidate shots that can be played (a random shot when none
        can): play-outs that aim, as players do."""
        if state.expected:
            return self.rules.legal_moves(state)[0]
        scene = self._scene(state)
        player = self.rules.to_move(state)
        coin = self._coin_to_shoot(state, scene)
        points = self._goal_points(scene)
        for _ in range(TRIES):
            start = self._place(scene, player, rng.choice(OFFSETS), PLACE_MM)
            shot = self._shot_at(player, coin, start, rng.choice(points), 0.0)
            if self._playable(state, shot):
                return shot
        return self.random_move(state, rng)

    def forced(self, state: FlickState) -> Event | None:
        """During a shot the physics has played, the table's next event."""
        if state.expected:
            return self.rules.parse_move(state, state.expected[0])
        return None

    def is_decision(self, state: FlickState, move: Event) -> bool:
        """A player's act (a shot, a touch, a flip, a coin moved by hand), not what the table
        did after a shot."""
        return move.kind not in TABLE_KINDS

    def execute(self, state: FlickState, move: Event, rng: random.Random) -> list[Event]:
        """The shot as the hand executed it (the intended direction and speed with the skill's
        Gaussian noise) and the table's events after it, up to the one that ends the game."""
        if move.kind != "shot" or move.aim is None or state.scene is None:
            return [move]
        x, y, direction, speed = move.aim
        direction += rng.gauss(0.0, self.direction_sigma)
        speed = min(MAX_SPEED_M_S, max(0.01, speed * (1.0 + rng.gauss(0.0, self.speed_sigma))))
        shot = Event(
            "shot",
            coin=self._own_coin(state, move.coin),
            player=self.rules.to_move(state),
            aim=(x, y, direction, speed),
        )
        try:
            return self.exactly(state, shot)
        except UsageError:  # planned in another position: a coin now lies where it starts
            return self.exactly(state, self.placed(state, shot, rng))

    def _own_coin(self, state: FlickState, coin: str) -> str:
        """``coin`` when the player to move may shoot it, else the coin they would shoot (tree
        search plans a line of shots once and replays it after other noisy shots, when the
        planned coin may have entered the goal or changed face)."""
        face = self.rules.face_of(self.rules.to_move(state))
        if state.faces.get(coin) == face and not state.in_goal.get(coin, True):
            return coin
        return self._coin_to_shoot(state, self._scene(state))

    def placed(self, state: FlickState, shot: Event, rng: random.Random) -> Event:
        """``shot`` with its start moved away from the goal, a few mm at a time, until no coin
        lies there; a random shot when no such place is found."""
        assert shot.aim is not None
        x, y, direction, speed = shot.aim
        centre = scene_centre(self._scene(state))
        away = math.dist((x, y), centre) or 1.0
        ux, uy = (x - centre[0]) / away, (y - centre[1]) / away
        for step in range(1, TRIES + 1):
            aim = (x + ux * NUDGE_MM * step, y + uy * NUDGE_MM * step, direction, speed)
            moved = Event("shot", coin=shot.coin, player=shot.player, aim=aim)
            if self._playable(state, moved):
                return moved
        return self.random_move(state, rng)

    def exactly(self, state: FlickState, shot: Event) -> list[Event]:
        """``shot`` played exactly as given, and the events after it the referee takes."""
        outcome = self.rules.simulated(state, shot)
        steps = [shot]
        after = state.copy()
        self.rules.apply_unchecked(after, shot)
        for event in outcome.events[1:]:
            if self.rules.is_over(after):
                break
            step = self.rules.parse_move(after, event)
            self.rules.apply_unchecked(after, step)
            steps.append(step)
        return steps

    def successors(self, state: FlickState) -> list[tuple[Event, FlickState]]:
        """Each candidate shot with the position after it, played exactly (the aiming player
        plans as if its hand were steady; the game then plays it with the hand's noise)."""
        found = []
        for shot in self.candidates(state):
            after = state.copy()
            for step in self.exactly(state, shot):
                self.rules.apply_unchecked(after, step)
            found.append((shot, after))
        return found

    # -- parking ---------------------------------------------------------------------------------
    def parking_shots(self, state: FlickState) -> list[Event]:
        """Shots that set the player's coin down just outside the middle of each goal edge but
        their own, nudged along the edge; those the table takes (no coin lies there)."""
        scene = self._scene(state)
        player = self.rules.to_move(state)
        own = next(p.side for p in self.rules.seated if p.name == player)
        coin_id = self._coin_to_shoot(state, scene)
        radius = scene.coin(coin_id).coin.radius_mm if coin_id in scene.ids else 12.0
        goal = scene.goal
        shots = []
        for side in range(1, len(goal) + 1):
            if side == own:
                continue
            a, b = goal[side - 1], goal[side % len(goal)]
            length = math.dist(a, b)
            ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
            out = radius + PARK_GAP_MM
            x, y = (a[0] + b[0]) / 2 + uy * out, (a[1] + b[1]) / 2 - ux * out
            along = math.degrees(math.atan2(uy, ux))
            shot = Event("shot", coin=coin_id, player=player, aim=(x, y, along, PARK_SPEED_M_S))
            if self._playable(state, shot):
                shots.append(shot)
        return shots

    def parked(self, state: FlickState) -> int:
        """The player's coins lying outside the goal within a coin's width of its edge."""
        scene = state.scene
        if scene is None:
            return 0
        face = self.rules.face_of(self.rules.to_move(state))
        goal = scene.goal
        near = 0
        for c in scene.coins:
            if state.faces.get(c.id) != face or state.in_goal.get(c.id):
                continue
            edge = min(_distance_to_edge((c.x, c.y), goal[k - 1], goal[k]) for k in range(len(goal)))
            near += edge <= c.coin.diameter_mm
        return near

    # -- judging ---------------------------------------------------------------------------------
    def evaluate(self, state: FlickState, player: str) -> float:
        """Coins of the player's face in the goal less the others'; a game won or lost by a
        penalty or at the end counts as the whole set of coins."""
        face = self.rules.face_of(player)
        if state.over:
            winner = self.rules.result(state).winner
            coins = float(len(state.faces))
            return 0.0 if winner is None else coins if winner in (player, face) else -coins
        score = self.rules.score(state)
        return float(sum(n if f == face else -n for f, n in score.items()))

    def position_key(self, state: FlickState) -> Any:
        scene = state.scene
        places = None if scene is None else tuple((c.id, round(c.x, 1), round(c.y, 1)) for c in scene.coins)
        return (tuple(sorted(state.faces.items())), tuple(sorted(state.in_goal.items())), state.active, places)

    # -- geometry --------------------------------------------------------------------------------
    def _scene(self, state: FlickState) -> Scene:
        if state.scene is None:
            raise UsageError("this Flick position does not say where the coins lie: agents cannot play on from it")
        return state.scene

    def _coin_to_shoot(self, state: FlickState, scene: Scene) -> str:
        """The player's coin outside the goal lying farthest from it (one knocked off the
        table first): the coins near the goal are left where they block."""
        face = self.rules.face_of(self.rules.to_move(state))
        mine = [c for c, f in state.faces.items() if f == face and not state.in_goal[c]]
        if not mine:
            raise UsageError(f"{self.rules.to_move(state)} has no coin outside the goal to shoot")
        lying = {c.id: c for c in scene.coins}
        centre = scene_centre(scene)
        return max(mine, key=lambda c: math.inf if c not in lying else math.dist((lying[c].x, lying[c].y), centre))

    def _goal_points(self, scene: Scene) -> list[XY]:
        centre = scene_centre(scene)
        return [centre] + [
            (centre[0] + (x - centre[0]) * TARGET_PULL, centre[1] + (y - centre[1]) * TARGET_PULL)
            for x, y in scene.goal
        ]

    def _place(self, scene: Scene, player: str, along: float, out_mm: float) -> XY:
        """A point ``out_mm`` outside the middle of the player's line, moved ``along`` its length."""
        side = next(p.side for p in self.rules.seated if p.name == player)
        goal = scene.goal
        a, b = goal[side - 1], goal[side % len(goal)]  # side k runs from corner k−1 to corner k
        length = math.dist(a, b)
        ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
        mid = ((a[0] + b[0]) / 2 + ux * along * length, (a[1] + b[1]) / 2 + uy * along * length)
        return (mid[0] + uy * out_mm, mid[1] - ux * out_mm)  # outward: the goal turns anticlockwise

    def _shot_at(self, player: str, coin: str, start: XY, target: XY, beyond_mm: float, scale: float = 1.0) -> Event:
        """The shot from ``start`` that stops ``beyond_mm`` past ``target`` (v² = 2μgd)."""
        distance = math.dist(start, target) + beyond_mm
        speed = math.sqrt(2 * self.rules.table.friction * GRAVITY_MM_S2 * distance) / 1000 * scale
        direction = math.degrees(math.atan2(target[1] - start[1], target[0] - start[0]))
        return Event("shot", coin=coin, player=player, aim=(start[0], start[1], direction, min(speed, MAX_SPEED_M_S)))

    def _playable(self, state: FlickState, shot: Event) -> bool:
        try:
            self.rules.simulated(state, shot)
        except UsageError:
            return False
        return True


def scene_centre(scene: Scene) -> XY:
    """The middle of the goal (its corners' mean)."""
    xs, ys = zip(*scene.goal, strict=True)
    return (sum(xs) / len(xs), sum(ys) / len(ys))


def _distance_to_edge(p: XY, a: XY, b: XY) -> float:
    ax, ay = b[0] - a[0], b[1] - a[1]
    t = max(0.0, min(1.0, ((p[0] - a[0]) * ax + (p[1] - a[1]) * ay) / (ax * ax + ay * ay)))
    return math.dist(p, (a[0] + ax * t, a[1] + ay * t))

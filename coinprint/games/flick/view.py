"""What pictures of a Flick game hold: every score coin, the face it shows, where it lies (when
the physics knows) and, in a time-lapse, the coins sliding during a shot."""

from __future__ import annotations

from typing import Any

from coinprint.errors import UsageError
from coinprint.games.flick.physics import STEP_S, Scene, Shot, simulate
from coinprint.games.flick.rules import Event, FlickRules, FlickState
from coinprint.games.flick.table import GRAVITY_MM_S2, MAX_SPEED_M_S
from coinprint.layout import Mark
from coinprint.units import coin
from coinprint.view import MOTION_FRAME_S, Tray, TrayCoin, View


class FlickView(View[FlickState, Event]):
    """Flick's view: the mat has no spaces, so a coin's mark says where it lies (``at``) when
    the record's shots carry their parameters, and only whether it is in the goal otherwise."""

    rules: FlickRules

    def marks(self, state: FlickState) -> list[Mark]:
        """Every score coin: its name, the face it shows (``side``), ``space`` "goal" when it
        is in the goal, else "" (the mat has no spaces), and ``at`` its centre when the
        physics knows it (during a shot, where it comes to rest); a coin knocked off the table
        has no ``at``, and the drawing puts it back by its player."""
        scene = state.after if state.after is not None else state.scene
        places = {} if scene is None else {c.id: (c.x, c.y) for c in scene.coins}
        return [
            Mark("goal" if state.in_goal[c] else "", text=c, side=state.faces[c], at=places.get(c)) for c in state.faces
        ]

    def holders(self, state: FlickState) -> dict[str, str]:
        """No one holds anything: the mat has no spaces (a coin in the goal scores for the
        face it shows, which the score says)."""
        return {}

    def motion(self, state: FlickState, move: Event) -> list[list[Mark]]:
        """A shot with its parameters, re-simulated: the coins every :data:`MOTION_FRAME_S`
        seconds from the release until they stop (none for any other event, or where the
        physics cannot say)."""
        if move.kind != "shot" or move.aim is None or state.scene is None or state.in_shot:
            return []
        scene = self.rules.shot_scene(state, move)
        try:
            outcome = simulate(scene, Shot(move.coin, *move.aim), move.player, self.rules.table, trace=True)
        except UsageError:
            return []
        assert outcome.trace is not None
        every = max(1, round(MOTION_FRAME_S / STEP_S))
        return [self._sliding(state, scene, places) for places in outcome.trace[every - 1 :: every]]

    def _sliding(self, state: FlickState, scene: Scene, places: list[tuple[float, float, float]]) -> list[Mark]:
        first = len(scene.goal_coins)  # the trace lists the goal coins first, then the scene's coins
        at = {c.id: places[first + k][:2] for k, c in enumerate(scene.coins)}
        return [
            Mark("goal" if state.in_goal[c] else "", text=c, side=state.faces[c], at=at.get(c)) for c in state.faces
        ]

    # -- the studio's table ----------------------------------------------------------------------
    def free_coin_radius(self, mark: Mark) -> float:
        """Every score coin is the mat's score coin."""
        return coin(str(self.rules.layout.params.get("score_coin", "quarter"))).radius_mm

    def trays(self, state: FlickState) -> list[Tray]:
        """The coins knocked off the table, by owner: the next shot of one puts it back."""
        scene = state.after if state.after is not None else state.scene
        lying = set() if scene is None else set(scene.ids)
        off = [c for c in state.faces if c not in lying]
        if scene is None or not off:
            return []
        return [Tray("Off the table", tuple(TrayCoin(c, side=self._owner(state, c), pick=c) for c in off))]

    def _owner(self, state: FlickState, coin_id: str) -> str:
        face = state.faces[coin_id]
        return next((p.name for p in self.rules.seated if p.face == face), "")

    def interaction(self, state: FlickState) -> str:
        """A shot is pulled back from a coin, as a sling is."""
        return "sling"

    def table_facts(self, state: FlickState) -> dict[str, Any]:
        """For the sling: the table's friction and gravity (a coin sent at v stops after
        v²/2μg), the fastest shot, and the goal (no shot starts inside it)."""
        goal = self.rules.layout.features_with_role("goal")[0].shape
        return {
            "friction": self.rules.table.friction,
            "gravity_mm_s2": GRAVITY_MM_S2,
            "max_speed": MAX_SPEED_M_S,
            "polygon": [list(p) for p in goal.exterior.coords[:-1]],
        }

"""What pictures of a Flick game hold: every score coin, the face it shows, in the goal or out."""

from __future__ import annotations

from coinprint.games.flick.rules import Event, FlickRules, FlickState
from coinprint.layout import Mark
from coinprint.view import View


class FlickView(View[FlickState, Event]):
    """Flick's view: the mat has no spaces, so a coin's mark says only where it lies."""

    rules: FlickRules

    def marks(self, state: FlickState) -> list[Mark]:
        """Every score coin: its name, the face it shows (``side``), and ``space`` "goal"
        when it is in the goal, else "" (the mat has no spaces; its drawing places them)."""
        return [Mark("goal" if state.in_goal[c] else "", text=c, side=state.faces[c]) for c in state.faces]

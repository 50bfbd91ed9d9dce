"""What pictures of the Map's chase hold: claimed countries with their owner's letter, the two
coins as rings."""

from __future__ import annotations

from coinprint.games.mapgame.rules import PLAYERS, MapMove, MapRules, MapState
from coinprint.layout import Mark
from coinprint.view import View


class MapView(View[MapState, MapMove]):
    """The Map's view: see each method."""

    rules: MapRules

    def marks(self, state: MapState) -> list[Mark]:
        """Each claimed country shows its owner's letter; the coins are rings round theirs."""
        marks = []
        for sid in self.rules.ids:
            owner = state.owner[sid]
            here = [p for p in PLAYERS if state.coins[p] == sid]
            if owner is None and not here:
                continue
            text = owner or ""
            side = here[0] if here else ""
            marks.append(Mark(sid, text=text, side=side, ring="coin" if here else ""))
        return marks

    def holders(self, state: MapState) -> dict[str, str]:
        """A country is held by the player who claimed it (not by whose coin is on it)."""
        return {sid: owner for sid, owner in state.owner.items() if owner is not None}

    def title(self, state: MapState) -> str:
        return f"Map after {state.turn} moves: {self.rules.result(state).describe()}"

    def pieces(self, state: MapState) -> list[Mark]:
        """The two coins, each with its own player's letter (who claimed a country is
        :meth:`holders`, drawn under the coin)."""
        return [Mark(sid, text=player, side=player) for player, sid in state.coins.items()]

    def score_lines(self, state: MapState) -> list[str]:
        """The countries each player has claimed (the score)."""
        lines = []
        for player in PLAYERS:
            held = [self.rules.layout.space(sid).name for sid, owner in state.owner.items() if owner == player]
            names = ", ".join(held) if held else "none yet"
            lines.append(f"{player} has claimed {state.claimed[player]} countries: {names}")
        return lines

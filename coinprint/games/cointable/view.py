"""What pictures of Coin Table positions hold: a coin per occupied space, castles and the safe
coin ringed."""

from __future__ import annotations

from coinprint.games.cointable.rules import FACE_LETTER, PLAYERS, CoinTableRules, CoinTableState
from coinprint.layout import Mark
from coinprint.view import View


class CoinTableView(View[CoinTableState, int]):
    """Coin Table's view: see each method."""

    rules: CoinTableRules

    def marks(self, state: CoinTableState) -> list[Mark]:
        """A coin per occupied space: "H" or "T" in its face's colour; a ring "castle" on
        castled coins, "safe" on the safe coin."""
        ids = [space.id for space in self.rules.layout.spaces]
        return [
            Mark(
                ids[i],
                FACE_LETTER[face],
                PLAYERS[face - 1],
                ring="castle" if state.castled[i] else "safe" if i == state.safe else "",
            )
            for i, face in enumerate(state.faces)
            if face
        ]

    def holders(self, state: CoinTableState) -> dict[str, str]:
        """A space is held by the face its coin shows (as :meth:`marks`, without the marks)."""
        ids = [space.id for space in self.rules.layout.spaces]
        return {ids[i]: PLAYERS[face - 1] for i, face in enumerate(state.faces) if face}

    def title(self, state: CoinTableState) -> str:
        return f"Coin Table after {state.plies} moves: {self.rules.result(state).describe()}"

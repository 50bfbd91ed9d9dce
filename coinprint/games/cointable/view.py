"""What pictures of Coin Table positions hold: a coin per occupied space, castles and the safe
coin ringed."""

from __future__ import annotations

from itertools import permutations

from coinprint.games.cointable.rules import FACE_LETTER, PLAYERS, VERBS, CoinTableRules, CoinTableState
from coinprint.layout import Mark
from coinprint.view import Tray, TrayCoin, View

PICK_WORDS = {"touch": "touch it (it becomes safe)", "flip": "flip it to your face"}


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

    def trays(self, state: CoinTableState) -> list[Tray]:
        """The shared supply: how many coins are left to place."""
        return [Tray("supply", (TrayCoin("", count=state.supply, caption=f"{state.supply} left"),))]

    def score_lines(self, state: CoinTableState) -> list[str]:
        """How many spaces each face shows (the score), and the supply left."""
        shown = [sum(1 for face in state.faces if face == n) for n in (1, 2)]
        return [
            f"{PLAYERS[0]} shows on {shown[0]} spaces, {PLAYERS[1]} on {shown[1]}: the face on more spaces wins",
            f"{state.supply} coins left in the supply",
        ]

    def move_picks(self, state: CoinTableState, move: int) -> list[list[str]]:
        """A place: its space; a touch or a flip: the coin, then the verb; a castle: its three
        coins in any order."""
        ids = [space.id for space in self.rules.layout.spaces]
        n = self.rules.size
        if move < n:
            return [[ids[move]]]
        if move < 3 * n:
            return [[ids[move % n], VERBS[move // n]]]
        cells = [ids[i] for i in self.rules.triangles[move - self.rules.first_castle]]
        return [list(order) for order in permutations(cells)]

    def pick_words(self, state: CoinTableState, pick: str) -> str:
        return PICK_WORDS.get(pick) or super().pick_words(state, pick)

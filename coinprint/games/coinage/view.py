"""What pictures of Coin Age positions hold: the top coin of each stack, and each turn's throw
beside the card."""

from __future__ import annotations

from coinprint.games.coinage.coins import DENOMINATIONS, PLAYERS
from coinprint.games.coinage.rules import CoinAgeRules
from coinprint.games.coinage.state import CoinAgeState, Turn
from coinprint.layout import Mark
from coinprint.view import View


class CoinAgeView(View[CoinAgeState, Turn]):
    """Coin Age's view: see each method."""

    rules: CoinAgeRules

    def move_note(self, state: CoinAgeState, move: Turn) -> str:
        """How many of the thrown coins matched, and which (the move's text shows the throw;
        plain letters, which every font a replay or time-lapse is set in has)."""
        matched = [DENOMINATIONS[rank] for rank, hit in move.throw if hit]
        if not matched:
            return "no match"
        return f"{len(matched)} match{'es' if len(matched) != 1 else ''}: {', '.join(matched)}"

    def move_aside(self, state: CoinAgeState, move: Turn) -> list[Mark]:
        """The turn's throw beside the card: each coin in the colour of the face it landed on
        (the mover's when it matched, ringed), highest rank first."""
        me = state.mover
        return [
            Mark("", DENOMINATIONS[rank], PLAYERS[me if hit else 1 - me], ring="match" if hit else "")
            for rank, hit in move.throw
        ]

    def marks(self, state: CoinAgeState) -> list[Mark]:
        return [
            Mark(self.rules.ids[i], DENOMINATIONS[stack[-1][0]], PLAYERS[stack[-1][1]], len(stack))
            for i, stack in enumerate(state.stacks)
            if stack
        ]

    def holders(self, state: CoinAgeState) -> dict[str, str]:
        """A space is held by the owner of its top coin."""
        return {self.rules.ids[i]: PLAYERS[stack[-1][1]] for i, stack in enumerate(state.stacks) if stack}

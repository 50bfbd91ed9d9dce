"""What pictures of Coin Age positions hold: the top coin of each stack, and each turn's throw
beside the card."""

from __future__ import annotations

from itertools import permutations
from typing import TYPE_CHECKING

from coinprint.engine import IllegalMoveError
from coinprint.games.coinage.coins import DENOMINATIONS, NAMES, PLAYERS
from coinprint.games.coinage.rules import CoinAgeRules
from coinprint.games.coinage.state import Action, CoinAgeState, Turn
from coinprint.layout import Mark
from coinprint.units import COINS
from coinprint.view import Tray, TrayCoin, View

if TYPE_CHECKING:
    from coinprint.layout import Space

SCALE = {letter: COINS[NAMES[letter]].diameter_mm / COINS["quarter"].diameter_mm for letter in DENOMINATIONS}
"""Each coin's size against the quarter (a dime is about three quarters of it across)."""


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

    # -- the studio's table --------------------------------------------------------------------
    def coin_scale(self, mark: Mark) -> float:
        return SCALE.get(mark.text, 1.0)

    def fill(self, space: Space) -> tuple[str, int | None]:
        """Regions in their printed colours."""
        return ("region", space.properties.get("color"))

    def trays(self, state: CoinAgeState) -> list[Tray]:
        """The turn's throw (each coin on the face it landed, the matches ringed), then both
        banks; the mover's bank coins are picked to place them."""
        trays = []
        if state.throw is not None and state.ended is None:
            me = state.mover
            thrown = tuple(
                TrayCoin(
                    DENOMINATIONS[rank],
                    PLAYERS[me if hit else 1 - me],
                    scale=SCALE[DENOMINATIONS[rank]],
                    ring="match" if hit else "",
                    caption=f"{PLAYERS[me if hit else 1 - me]}{' · match' if hit else ''}",
                )
                for rank, hit in state.throw
            )
            trays.append(Tray("the throw", thrown))
        for p, player in enumerate(PLAYERS):
            coins = tuple(
                TrayCoin(
                    letter,
                    player,
                    state.banks[p][rank],
                    f"bank:{letter}" if p == state.mover else "",
                    SCALE[letter],
                    caption=f"×{state.banks[p][rank]}",
                )
                for rank, letter in reversed(list(enumerate(DENOMINATIONS)))
            )
            trays.append(Tray(f"{player}'s bank", coins, player))
        return trays

    def score_lines(self, state: CoinAgeState) -> list[str]:
        """Each player's points (board after doubling, plus bank coins) and each region's."""
        parts = self.rules.scores(state)
        lines = []
        for player in PLAYERS:
            doubled = parts["doubled"][player]
            twice = f" (doubled in {', '.join(doubled)})" if doubled else ""
            lines.append(
                f"{player} {parts['total'][player]}: board {parts['board'][player]}{twice} + bank coins {parts['bank'][player]}"
            )
        for region in self.rules.region_scores(state):
            points = ", ".join(f"{p} {n}" for p, n in region["points"].items())
            who = f", doubled for {region['doubled']}" if region["doubled"] else ""
            lines.append(f"region {region['region']}: {points}{who}")
        return lines

    def move_picks(self, state: CoinAgeState, move: Turn) -> list[list[str]]:
        """A turn's actions in every order the rules allow: a place is the bank coin, then
        the space; a move its two spaces; a capture the space, then "capture"; a payment
        "pay:" and the coin."""
        ways = []
        for order in dict.fromkeys(permutations(move.actions)):
            if order != move.actions:
                try:
                    self.rules.check(state, Turn(move.throw, order))
                except IllegalMoveError:
                    continue
            ways.append([pick for action in order for pick in self._picks(action)])
        return ways

    def _picks(self, action: Action) -> list[str]:
        kind, ids = action[0], self.rules.ids
        if kind == "place":
            return [f"bank:{DENOMINATIONS[action[1]]}", ids[action[2]]]
        if kind == "move":
            return [ids[action[1]], ids[action[2]]]
        if kind == "capture":
            return [ids[action[1]], "capture"]
        return [f"pay:{DENOMINATIONS[action[1]]}"]

    def pick_words(self, state: CoinAgeState, pick: str) -> str:
        kind, _, letter = pick.partition(":")
        if kind == "bank" and letter in NAMES:
            return f"a {NAMES[letter]} from your bank"
        if kind == "pay" and letter in NAMES:
            return f"pay a {NAMES[letter]}"
        if pick == "capture":
            return "capture the stack"
        return super().pick_words(state, pick)

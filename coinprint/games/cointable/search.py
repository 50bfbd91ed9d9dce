"""What agents know of Coin Table besides its rules: the greedy evaluation, moves judged
without playing them, and play-outs on the fast path (:mod:`coinprint.games.cointable.playout`)."""

from __future__ import annotations

import random
from itertools import compress
from typing import Any

from coinprint.games.cointable.playout import FastCoinTable
from coinprint.games.cointable.rules import PLAYERS, CoinTableRules, CoinTableState
from coinprint.search import Search, SearchMove


class CoinTableSearch(Search[CoinTableState, int]):
    """Coin Table's search: see each method."""

    rules: CoinTableRules

    def __init__(self, rules: CoinTableRules) -> None:
        super().__init__(rules)
        self._fast: FastCoinTable | None = None

    def playout_total(
        self, state: CoinTableState, move: int, player: str, rng: random.Random, depth: int, count: int
    ) -> float:
        """As :meth:`Search.playout_total`, on the fast path of :mod:`coinprint.games.cointable.playout`
        (the same random process, its own draws of random numbers)."""
        fast = self._fast
        if fast is None:
            fast = self._fast = FastCoinTable(self.rules)
        after = state.copy()
        self.rules.apply_unchecked(after, move)
        return fast.playout_total(after, PLAYERS.index(player) + 1, rng, depth, count)

    def position_key(self, state: CoinTableState) -> tuple[Any, ...]:
        """The faces, the castles, the safe coin and who is to move."""
        return (tuple(state.faces), frozenset(state.castles), state.safe, state.player)

    def scored_moves(self, state: CoinTableState) -> list[SearchMove]:
        """The legal moves with the evaluation (:meth:`evaluate`) of the position after
        each, found from the position's own evaluation and what each move changes, without
        playing it (tree search lists every node's sixty-odd moves and plays a few)."""
        rules = self.rules
        moves = rules.legal_moves(state)
        if not moves:
            return []
        me, n = state.player, rules.size
        player = PLAYERS[me - 1]
        faces, castled, threats, safe = state.faces, state.castled, state.near[3 - me], state.safe
        base = self.evaluate(state, player)

        # The mover's coins, not castled, that two or more of the opponent's touch: each costs
        # one unless it is the safe coin.
        exposed = {i for i in compress(rules.places, map(me.__eq__, faces)) if threats[i] >= 2 and not castled[i]}
        unsafe = 1.0 if safe in exposed else 0.0  # the safe coin losing its safety
        ends_placing = state.empty == 1 or state.supply == 1
        counts = state.counts
        listed = []
        make = tuple.__new__  # SearchMove without its constructor's cost: thousands a move
        for move in moves:
            if move < n:  # place: one more coin, which is the safe one now
                if ends_placing:
                    listed.append(make(SearchMove, (move, 0.0, _outcome(counts[me] + 1, counts[3 - me]))))
                    continue
                value = base + 1.0 - unsafe
            elif move < 2 * n:  # touch: only which coin is safe changes
                cell = move - n
                value = base - unsafe + (1.0 if cell in exposed else 0.0)
            elif move < 3 * n:  # flip: one coin changes sides and is safe; its neighbours are less threatened
                cell = move - 2 * n
                value = base + 2.0
                around = rules.neighbours[cell]
                for j in around:
                    if j != safe and threats[j] == 2 and j in exposed:
                        value += 1.0
                if safe in exposed and (threats[safe] > 2 or safe not in around):
                    value -= 1.0
            else:  # castle: three coins castled (worth one more, never threatened); no coin safe
                triangle = rules.triangles[move - rules.first_castle]
                value = base
                for i in triangle:  # the mover's coins, each worth one more once castled
                    if not castled[i]:
                        value += 2.0 if threats[i] >= 2 and i != safe else 1.0
                if safe in exposed and safe not in triangle:
                    value -= 1.0
                if state.supply == 1:
                    listed.append(make(SearchMove, (move, 0.0, _outcome(counts[me], counts[3 - me]))))
                    continue
            listed.append(make(SearchMove, (move, value, None)))
        return listed

    def tree_defaults(self) -> dict[str, float]:
        """Tree search judges leaves by the evaluation alone (``mix`` 1): random play-outs of
        Coin Table last over a hundred moves of mostly touches and tell good moves from bad
        too faintly to be worth their time at these budgets."""
        return {"mix": 1.0}

    def evaluate(self, state: CoinTableState, player: str) -> float:
        """A guess for the greedy agent: spaces showing ``player``'s face minus the
        opponent's; a castled coin counts once more (it can never be lost); and each of
        ``player``'s coins that the opponent could flip now costs one.

        (Without the last two terms two greedy agents flip the same coins back and forth
        for ever; with them, greedy against greedy ends in about 120 moves.)
        """
        me = PLAYERS.index(player) + 1
        them = 3 - me
        value = float(state.counts[me] - state.counts[them])
        faces, castled, threats, safe = state.faces, state.castled, state.near[them], state.safe
        for i, face in enumerate(faces):
            if not face:
                continue
            if castled[i]:
                value += 1.0 if face == me else -1.0
            elif face == me and threats[i] >= 2 and i != safe:
                value -= 1.0
        return value


def _outcome(mine: int, theirs: int) -> float:
    """A finished game's value for the player with ``mine`` coins showing: 1, 0.5 or 0."""
    return 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0

"""A fast play-out path for Coin Age: the same random games as the reference engine, about
ten times faster.

Monte Carlo agents spend nearly all their time in random play-outs. The reference engine
(:mod:`coinprint.games.coinage`) builds each play-out turn as a list of action tuples on copied
states; here a position is two short lists of ints and nothing is allocated per action:

- ``stacks[i]``: the stack on space ``i`` as an int, four bits a coin, the top coin in the
  lowest bits; a coin is ``rank * 2 + owner + 1`` (so 0 is an empty space);
- ``tops[i]``: the rank of the top coin on space ``i``, or ``EMPTY`` (4) — one more than any
  rank, so "a coin of rank r may go here" reads ``tops[i] > r``;
- ``banks``: heads' four counts by rank, then tails'.

A play-out draws exactly the random numbers the reference draws, in the same order (one
``random()`` per coin thrown, one ``randrange`` per step of a turn over the same list of
actions), so a Monte Carlo agent chooses the same moves with either path; the tests hold the
two to that. Only play-outs use this module: the moves a game records are still applied and
checked by the reference engine.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from coinprint.games.coinage import START_BANK, VALUES

if TYPE_CHECKING:
    from coinprint.games.coinage import CoinAgeRules, CoinAgeState

EMPTY = 4
"""``tops`` value of an empty space."""

COIN_VALUE = (0,) + tuple(VALUES[(code - 1) >> 1] for code in range(1, 9))
"""Points of a top coin by its code (``rank * 2 + owner + 1``)."""

PAIR_CACHE = 1 << 16
"""Most sets of empty spaces whose moves are remembered (all 1024 of a 10-space map)."""

Position = tuple[list[int], list[int], list[int], int, bool]
"""(stacks, tops, banks, turn, ended) — see the module docstring."""


class FastCoinAge:
    """Play-outs for one Coin Age map (built from a :class:`CoinAgeRules`)."""

    def __init__(self, rules: CoinAgeRules) -> None:
        n = len(rules.ids)
        self.size = n
        # Move targets in the reference's order: sources by index, targets sorted.
        self.targets: list[tuple[int, ...]] = [tuple(sorted(rules.neighbours[i])) for i in range(n)]
        self.regions: list[tuple[int, ...]] = [tuple(r) for r in rules.regions]
        self._pairs: dict[int, tuple[tuple[int, int], ...]] = {}

    # -- positions -----------------------------------------------------------------------------
    def position(self, state: CoinAgeState) -> Position:
        """The fast form of a reference state."""
        stacks, tops = [], []
        for stack in state.stacks:
            code = 0
            for rank, owner in stack:
                code = (code << 4) | (rank * 2 + owner + 1)
            stacks.append(code)
            tops.append(stack[-1][0] if stack else EMPTY)
        banks = list(state.banks[0]) + list(state.banks[1])
        return stacks, tops, banks, state.turn, state.ended is not None

    def initial(self) -> Position:
        return [0] * self.size, [EMPTY] * self.size, list(START_BANK) * 2, 0, False

    # -- scoring -------------------------------------------------------------------------------
    def totals(self, stacks: list[int], banks: list[int]) -> tuple[int, int]:
        """Points by player: top coins with region doubling, plus one a coin in the bank."""
        heads = banks[0] + banks[1] + banks[2] + banks[3]
        tails = banks[4] + banks[5] + banks[6] + banks[7]
        for members in self.regions:
            heads_points = tails_points = heads_held = tails_held = 0
            for space in members:
                code = stacks[space] & 15
                if code:
                    if code & 1:  # heads' coin (owner 0)
                        heads_points += COIN_VALUE[code]
                        heads_held += 1
                    else:
                        tails_points += COIN_VALUE[code]
                        tails_held += 1
            if heads_held > tails_held:
                heads_points *= 2
            elif tails_held > heads_held:
                tails_points *= 2
            heads += heads_points
            tails += tails_points
        return heads, tails

    def winner(self, stacks: list[int], banks: list[int]) -> int:
        """0 heads, 1 tails, -1 a tie (points, then bank value, as the reference judges)."""
        heads, tails = self.totals(stacks, banks)
        if heads != tails:
            return 0 if heads > tails else 1
        value = [sum(n * v for n, v in zip(banks[4 * p : 4 * p + 4], VALUES)) for p in (0, 1)]
        if value[0] != value[1]:
            return 0 if value[0] > value[1] else 1
        return -1

    # -- play-outs -----------------------------------------------------------------------------
    def playout_total(self, start: Position, me: int, rng: random.Random, depth: int, count: int) -> float:
        """The sum of ``count`` play-out values for player ``me`` from ``start`` (each: 1 win,
        0.5 tie, 0 loss; cut at ``depth`` turns and judged by the score's sign: 0.75 / 0.5 / 0.25)."""
        stacks0, tops0, banks0, turn0, ended0 = start
        total = 0.0
        for _ in range(count):
            total += self.playout(stacks0[:], tops0[:], banks0[:], turn0, ended0, me, rng, depth)
        return total

    def playout(
        self,
        stacks: list[int],
        tops: list[int],
        banks: list[int],
        turn: int,
        ended: bool,
        me: int,
        rng: random.Random,
        depth: int,
    ) -> float:
        """One play-out on these lists (changed in place); see :meth:`playout_total`."""
        rand, getrandbits = rng.random, rng.getrandbits
        n = self.size
        pairs_of = self._pairs
        # Kept in step with ``tops``: how many spaces show each top rank (EMPTY included), the
        # empty spaces as bits, and each player's coins in the bank.
        hist = [0, 0, 0, 0, 0]
        emask = 0
        for space, top in enumerate(tops):
            hist[top] += 1
            if top == EMPTY:
                emask |= 1 << space
        held = [sum(banks[0:4]), sum(banks[4:8])]
        pairs: tuple[tuple[int, int], ...] = ()
        for _ in range(depth):
            if ended:
                winner = self.winner(stacks, banks)
                return 1.0 if winner == me else (0.5 if winner < 0 else 0.0)
            mover = turn & 1
            base = 4 * mover
            # The throw, highest rank first: one random() per coin in the bank.
            free = []
            if banks[base + 3] and rand() < 0.5:
                free.append(3)
            if banks[base + 2] and rand() < 0.5:
                free.append(2)
            if banks[base + 1] and rand() < 0.5:
                free.append(1)
            if banks[base] and rand() < 0.5:
                free.append(0)
            count = len(free)
            if count == 4:
                placements, moves, captures, can_pay = 2, 0, 0, True
            elif count >= 2:
                placements, moves, captures, can_pay = 2, 0, 0, False
            elif count == 1:
                placements, moves, captures, can_pay = 1, 1, 0, False
            else:
                placements, moves, captures, can_pay = 0, 1, 1, False
            while True:
                # Count the actions the reference would list (pays, places by rank, moves,
                # captures, in that order), draw one or "stop", and do it.
                pays = count if can_pay else 0
                if placements > 0:
                    h4 = hist[4]
                    h3 = h4 + hist[3]
                    h2 = h3 + hist[2]
                    above = (h2 + hist[1], h2, h3, h4)
                    places = [above[rank] for rank in free]
                    placeable = sum(places)
                else:
                    placeable = 0
                if moves > 0:
                    found = pairs_of.get(emask)
                    pairs = found if found is not None else self._pairs_for(emask)
                    steps = len(pairs)
                else:
                    steps = 0
                taken = n - hist[4] if captures > 0 else 0
                options = pays + placeable + steps + taken
                # rng.randrange(options + 1), as CPython draws it (_randbelow_with_getrandbits).
                bits = (options + 1).bit_length()
                pick = getrandbits(bits)
                while pick > options:
                    pick = getrandbits(bits)
                if pick == options:
                    break
                if pick < pays:
                    rank = free[pick]
                    banks[base + rank] -= 1
                    banks[4 - base + rank] += 1
                    held[mover] -= 1
                    held[1 - mover] += 1
                    placements += 1
                    can_pay = False
                    del free[pick]
                    count -= 1
                    continue
                pick -= pays
                if pick < placeable:
                    k = 0
                    while pick >= places[k]:
                        pick -= places[k]
                        k += 1
                    rank = free[k]
                    for space in range(n):
                        if tops[space] > rank:
                            if pick == 0:
                                break
                            pick -= 1
                    old = tops[space]
                    hist[old] -= 1
                    hist[rank] += 1
                    if old == EMPTY:
                        emask ^= 1 << space
                    banks[base + rank] -= 1
                    held[mover] -= 1
                    stacks[space] = (stacks[space] << 4) | (rank * 2 + mover + 1)
                    tops[space] = rank
                    placements -= 1
                    del free[k]
                    count -= 1
                else:
                    pick -= placeable
                    if pick < steps:
                        source, target = pairs[pick]
                        stacks[target], stacks[source] = stacks[source], 0
                        tops[target], tops[source] = tops[source], EMPTY
                        emask ^= (1 << source) | (1 << target)
                        moves -= 1
                    else:
                        pick -= steps
                        for space in range(n):
                            if tops[space] != EMPTY:
                                if pick == 0:
                                    break
                                pick -= 1
                        code = stacks[space]
                        banks[base + (((code & 15) - 1) >> 1)] += 1
                        held[mover] += 1
                        code >>= 4
                        stacks[space] = code
                        new = (((code & 15) - 1) >> 1) if code else EMPTY
                        hist[tops[space]] -= 1
                        hist[new] += 1
                        tops[space] = new
                        if not code:
                            emask |= 1 << space
                        captures -= 1
                if hist[EMPTY] == 0 or held[mover] == 0:
                    ended = True
                    break
            turn += 1
        heads, tails = self.totals(stacks, banks)
        lead = heads - tails if me == 0 else tails - heads
        return 0.75 if lead > 0 else (0.25 if lead < 0 else 0.5)

    def _pairs_for(self, emask: int) -> tuple[tuple[int, int], ...]:
        """Every (source, target) move with the empty spaces ``emask``, in the reference's
        order: a stack to an empty neighbour, sources by index, targets sorted."""
        pairs = tuple(
            (source, target)
            for source in range(self.size)
            if not emask >> source & 1
            for target in self.targets[source]
            if emask >> target & 1
        )
        if len(self._pairs) < PAIR_CACHE:
            self._pairs[emask] = pairs
        return pairs

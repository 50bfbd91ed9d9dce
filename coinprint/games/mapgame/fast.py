"""A fast play-out path for the Map chase: the same random games as the reference engine,
several times faster.

The reference engine's random move (:meth:`coinprint.games.mapgame.search.MapSearch.random_move`)
picks a neighbouring country with ``rng.choice``, then, for a capture, where to send the
captured coin with another ``rng.choice``. Here countries are numbers (layout order),
ownership is a list of ints, and both choices are drawn as CPython's ``rng.choice`` draws
them without building the lists, so a play-out draws exactly the random numbers the
reference draws and a Monte Carlo agent chooses the same moves with either path (the
tests hold the two to that). Only play-outs use this module: recorded moves are still
applied and checked by the reference engine.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from coinprint.games.mapgame.rules import MapRules, MapState

NOBODY = -1

Position = tuple[int, int, list[int], int, int, int]
"""(O's country, X's country, owner by country (0 O, 1 X, -1 nobody), O's claims minus X's,
unclaimed countries, moves played)."""


class FastMap:
    """Play-outs for one map (built from a :class:`MapRules`)."""

    def __init__(self, rules: MapRules) -> None:
        index = {sid: i for i, sid in enumerate(rules.ids)}
        self.index = index
        self.size = len(rules.ids)
        # Neighbours in the reference's order (layout order).
        self.neighbours: list[tuple[int, ...]] = [
            tuple(sorted(index[other] for other in rules.neighbours[sid])) for sid in rules.ids
        ]
        self.isolated = any(not near for near in self.neighbours)
        """A country with no neighbour: the reference raises there; play-outs must not use this path."""
        # Per country: its neighbours, how many there are and that count's bit length.
        self.table = [(near, len(near), len(near).bit_length()) for near in self.neighbours]

    def position(self, state: MapState) -> Position:
        """The fast form of a reference state."""
        code = {None: NOBODY, "O": 0, "X": 1}
        owner = [code[state.owner[sid]] for sid in self.index]
        lead = state.claimed["O"] - state.claimed["X"]
        unclaimed = owner.count(NOBODY)
        return self.index[state.coins["O"]], self.index[state.coins["X"]], owner, lead, unclaimed, state.turn

    def playout_total(self, start: Position, me: int, rng: random.Random, depth: int, count: int) -> float:
        """The sum of ``count`` play-out values for player ``me`` (0 O, 1 X) from ``start``:
        1 a win, 0.5 a tie, 0 a loss; a play-out cut at ``depth`` moves is judged by the sign
        of the reference's evaluation (0.75 / 0.5 / 0.25)."""
        o, x, owner0, lead, unclaimed, turn = start
        total = 0.0
        for _ in range(count):
            total += self.playout(o, x, owner0[:], lead, unclaimed, turn, me, rng, depth)
        return total

    def playout(
        self,
        o: int,
        x: int,
        owner: list[int],
        lead: int,
        unclaimed: int,
        turn: int,
        me: int,
        rng: random.Random,
        depth: int,
    ) -> float:
        """One play-out; ``owner`` is changed in place."""
        getrandbits = rng.getrandbits
        neighbours, table = self.neighbours, self.table
        sends = self.size - 1
        send_bits = sends.bit_length()
        for _ in range(depth):
            if unclaimed == 0:
                if lead == 0:
                    return 0.5
                return 1.0 if (lead > 0) == (me == 0) else 0.0
            if turn & 1:
                here, rival, player, gain = x, o, 1, -1
            else:
                here, rival, player, gain = o, x, 0, 1
            near, count, bits = table[here]
            # rng.choice over the neighbours, as CPython draws it: getrandbits of the list
            # length's bit length until the number falls below the length.
            pick = getrandbits(bits)
            while pick >= count:
                pick = getrandbits(bits)
            to = near[pick]
            if to == rival:
                # A capture: then where to send the captured coin, any other country alike
                # (rng.choice over the countries but this one, in layout order).
                pick = getrandbits(send_bits)
                while pick >= sends:
                    pick = getrandbits(send_bits)
                send = pick + 1 if pick >= rival else pick
                if player:
                    o = send
                else:
                    x = send
                previous = owner[to]
                if previous == NOBODY:
                    unclaimed -= 1
                    lead += gain
                    owner[to] = player
                elif previous != player:
                    lead += 2 * gain
                    owner[to] = player
                if player:
                    x = to
                else:
                    o = to
                turn += 1
                continue
            if owner[to] == NOBODY:
                unclaimed -= 1
                lead += gain
                owner[to] = player
            if player:
                x = to
            else:
                o = to
            turn += 1
        mine, theirs = (o, x) if me == 0 else (x, o)
        reach_mine = sum(1 for s in neighbours[mine] if owner[s] == NOBODY)
        reach_theirs = sum(1 for s in neighbours[theirs] if owner[s] == NOBODY)
        value = float(lead if me == 0 else -lead) + 0.1 * (reach_mine - reach_theirs)
        return 0.75 if value > 0 else (0.25 if value < 0 else 0.5)

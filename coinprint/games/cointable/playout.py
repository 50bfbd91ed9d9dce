"""A fast play-out path for Coin Table: random games by the reference's play-out policy (a
uniform choice among the legal moves), several times faster than listing the moves.

The reference (:meth:`coinprint.engine.Rules.playout_total` over
:class:`~coinprint.games.cointable.CoinTableRules`) lists every legal move before each pick.
Here a move is drawn among all ``2n + T`` move numbers (a place or a touch on each of the
``n`` spaces, a flip on each, a castle on each of the ``T`` triangles) and drawn again when it
is not legal now: every legal move stays equally likely (a place or a touch is always legal,
so a draw succeeds at least ``n`` times in ``2n + T``), and nothing is listed. The random
numbers are drawn differently from the reference's, so a play-out is not the reference's game
for the same seed, but it is the same random process: the tests replay the fast path's moves
through the checked reference engine and compare the two paths' play-out values as
distributions. Only play-outs use this module.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from coinprint.games.cointable.rules import CoinTableRules, CoinTableState


class FastCoinTable:
    """Play-outs on one Coin Table board (built from a :class:`CoinTableRules`)."""

    def __init__(self, rules: CoinTableRules) -> None:
        self.size = rules.size
        self.neighbours = rules.neighbours
        self.triangles = rules.triangles
        self.triangles_of = [tuple(ts) for ts in rules.triangles_of]
        self.moves = 2 * rules.size + len(rules.triangles)
        """How many move numbers a draw picks from (flips, then castles, after the places)."""

    def playout_total(
        self,
        start: CoinTableState,
        me: int,
        rng: random.Random,
        depth: int,
        count: int,
        trace: list[list[int]] | None = None,
    ) -> float:
        """The sum of ``count`` play-out values for player ``me`` (1 heads, 2 tails) from
        ``start`` (left as it was): 1 a win, 0.5 a tie, 0 a loss; a play-out cut at ``depth``
        moves is judged by the sign of the counts' difference (0.75 / 0.5 / 0.25). With
        ``trace`` (for tests), each play-out's moves, numbered as the reference numbers them."""
        total = 0.0
        for _ in range(count):
            log: list[int] | None = None
            if trace is not None:
                log = []
                trace.append(log)
            total += self._playout(start, me, rng, depth, log)
        return total

    def _playout(self, start: CoinTableState, me: int, rng: random.Random, depth: int, log: list[int] | None) -> float:
        n = self.size
        rand = rng.random
        neighbours, triangles, triangles_of = self.neighbours, self.triangles, self.triangles_of
        scale = self.moves
        faces = start.faces[:]
        near = [[], start.near[1][:], start.near[2][:]]
        castled = start.castled[:]
        castles = set(start.castles)
        ready = [set(), set(start.ready[1]), set(start.ready[2])]
        counts = start.counts[:]
        safe, player, supply, empty = start.safe, start.player, start.supply, start.empty
        for _ in range(depth):
            if empty == 0 or supply == 0:
                break
            mine = near[player]
            while True:
                pick = int(rand() * scale)
                if pick < n:
                    break
                if pick < 2 * n:
                    cell = pick - n
                    if faces[cell] == 3 - player and mine[cell] >= 2 and not castled[cell] and cell != safe:
                        break
                elif pick - 2 * n in ready[player]:
                    break
            if pick < n:
                if faces[pick]:  # a touch
                    safe = pick
                    if log is not None:
                        log.append(n + pick)
                else:  # a place
                    faces[pick] = player
                    for j in neighbours[pick]:
                        mine[j] += 1
                    counts[player] += 1
                    empty -= 1
                    supply -= 1
                    safe = pick
                    self._gain(faces, castles, ready[player], pick, player, triangles, triangles_of)
                    if log is not None:
                        log.append(pick)
            elif pick < 2 * n:  # a flip
                cell = pick - n
                them = 3 - player
                faces[cell] = player
                theirs = near[them]
                for j in neighbours[cell]:
                    mine[j] += 1
                    theirs[j] -= 1
                counts[player] += 1
                counts[them] -= 1
                safe = cell
                their_ready = ready[them]
                for t in triangles_of[cell]:
                    their_ready.discard(t)
                self._gain(faces, castles, ready[player], cell, player, triangles, triangles_of)
                if log is not None:
                    log.append(pick + n)
            else:  # a castle
                t = pick - 2 * n
                castles.add(t)
                ready[player].discard(t)
                for i in triangles[t]:
                    castled[i] += 1
                supply -= 1
                safe = -1
                if log is not None:
                    log.append(pick + n)
            player = 3 - player
        else:
            if empty and supply:
                lead = counts[me] - counts[3 - me]
                return 0.75 if lead > 0 else (0.25 if lead < 0 else 0.5)
        lead = counts[me] - counts[3 - me]
        return 1.0 if lead > 0 else (0.0 if lead < 0 else 0.5)

    @staticmethod
    def _gain(
        faces: list[int],
        castles: set[int],
        ready: set[int],
        cell: int,
        player: int,
        triangles: list[tuple[int, int, int]],
        triangles_of: list[tuple[int, ...]],
    ) -> None:
        """The triangles through ``cell`` that now show ``player``'s face on all three spaces."""
        for t in triangles_of[cell]:
            a, b, c = triangles[t]
            if faces[a] == player and faces[b] == player and faces[c] == player and t not in castles:
                ready.add(t)

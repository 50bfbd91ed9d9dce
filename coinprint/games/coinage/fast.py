"""A fast play-out path for Coin Age: random games by the reference's play-out policy, over
ten times faster than the reference engine plays them.

Monte Carlo agents spend nearly all their time in random play-outs. The reference engine
(:mod:`coinprint.games.coinage.rules`) builds each play-out turn as a list of action tuples on copied
states; here a position is a few short lists of ints and bitmasks, and nothing is allocated
per action:

- ``stacks[i]``: the stack on space ``i`` as an int, four bits a coin, the top coin in the
  lowest bits; a coin is ``rank * 2 + owner + 1`` (so 0 is an empty space);
- ``tops[i]``: the rank of the top coin on space ``i``, or ``EMPTY`` (4) — one more than any
  rank, so "a coin of rank r may go here" reads ``tops[i] > r``;
- ``banks``: heads' four counts by rank, then tails';
- during a play-out, the empty spaces as bits, each player's ranks in the bank as bits and
  coins in the bank as a count, so the stacks that may move and the coins that may be
  captured are table look-ups by the bitmask of empty spaces, and a throw's matches are the
  bits of one ``getrandbits(4)`` masked by the ranks in the bank.

The policy is the reference's (:meth:`~coinprint.games.coinage.search.CoinAgeSearch.playout_move`): the throw is fair, and at
each step of a turn the player stops or does one of the actions still allowed, all equally
likely. A placement is drawn as (matched coin, any space) and drawn again when the coin may
not go there, which keeps the allowed actions equally likely without counting them. The
random numbers are drawn differently from the reference's (one ``getrandbits(4)`` a throw,
one ``random()`` a draw), so a play-out is not the reference's game for the same seed, but it
is the same random process: the tests replay the fast path's turns through the checked
reference engine and compare the two paths' play-out values as distributions. Only play-outs use this
module: the moves a game records are still chosen, applied and checked by the reference engine.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeVar

from coinprint.games.coinage.coins import START_BANK, VALUES

if TYPE_CHECKING:
    from coinprint.games.coinage.rules import CoinAgeRules
    from coinprint.games.coinage.state import Action, CoinAgeState, Throw

T = TypeVar("T")

EMPTY = 4
"""``tops`` value of an empty space."""

COIN_VALUE = (0,) + tuple(VALUES[(code - 1) >> 1] for code in range(1, 9))
"""Points of a top coin by its code (``rank * 2 + owner + 1``)."""

COIN_CODES = (tuple(rank * 2 + 1 for rank in range(4)), tuple(rank * 2 + 2 for rank in range(4)))
"""A coin's code by owner, then rank."""

TOP_RANK = (EMPTY,) + tuple((code - 1) >> 1 for code in range(1, 16))
"""The rank of a top coin by its code (``EMPTY`` for no coin)."""

MATCHED = tuple(tuple(rank for rank in (3, 2, 1, 0) if mask >> rank & 1) for mask in range(16))
"""The ranks in a 4-bit mask, highest first."""

POPCOUNT = tuple(len(ranks) for ranks in MATCHED)
"""How many ranks a 4-bit mask holds."""

ALLOWANCE = tuple(
    (2, 0, 0, True)
    if len(ranks) == 4
    else (2, 0, 0, False)
    if len(ranks) >= 2
    else (1, 1, 0, False)
    if len(ranks) == 1
    else (0, 1, 1, False)
    for ranks in MATCHED
)
"""(placements, moves, captures, may pay) by the mask of matched ranks (the rules' table)."""

CACHE_LIMIT = 1 << 16
"""Most bitmasks whose tables a map remembers (all 1024 of a 10-space map)."""

Position = tuple[list[int], list[int], list[int], int, bool]
"""(stacks, tops, banks, turn, ended) — see the module docstring."""


@dataclass
class Trace:
    """What play-outs did, for tests: by play-out, its turns as the reference writes them
    (the throw and the actions, in order) and its last position (stacks, tops, banks)."""

    turns: list[list[tuple[Throw, list[Action]]]] = field(default_factory=list)
    finals: list[tuple[list[int], list[int], list[int]]] = field(default_factory=list)


class FastCoinAge:
    """Play-outs for one Coin Age map (built from a :class:`CoinAgeRules`)."""

    def __init__(self, rules: CoinAgeRules) -> None:
        n = len(rules.ids)
        self.size = n
        self.full = (1 << n) - 1
        self.neighbours: list[tuple[int, ...]] = [tuple(sorted(rules.neighbours[i])) for i in range(n)]
        self.regions: list[tuple[int, ...]] = [tuple(r) for r in rules.regions]
        self._bits: _Table[tuple[int, ...]] = _Table(self._bits_for)
        self._pairs: _Table[tuple[tuple[int, int], ...]] = _Table(self._pairs_for)
        self._region_points: _Table[tuple[int, int]] = _Table(self._points_for)
        # Placement draws by the mask of matched coins: (rank, space) for every rank in the
        # mask (highest first) and every space.
        self._place_slots = [tuple((rank, space) for rank in MATCHED[mask] for space in range(n)) for mask in range(16)]

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
        points = self._region_points
        for members in self.regions:
            key = 0
            for space in members:
                key = key << 4 | stacks[space] & 15
            heads_points, tails_points = points[key]
            heads += heads_points
            tails += tails_points
        return heads, tails

    @staticmethod
    def _points_for(key: int) -> tuple[int, int]:
        """A region's points by player (after doubling), from its top coins' codes, four bits
        each (any order; 0 an empty space)."""
        heads_points = tails_points = heads_held = tails_held = 0
        while key:
            code = key & 15
            key >>= 4
            if code & 1:  # heads' coin (owner 0)
                heads_points += COIN_VALUE[code]
                heads_held += 1
            elif code:
                tails_points += COIN_VALUE[code]
                tails_held += 1
        if heads_held > tails_held:
            heads_points *= 2
        elif tails_held > heads_held:
            tails_points *= 2
        return heads_points, tails_points

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
    def playout_total(
        self, start: Position, me: int, rng: random.Random, depth: int, count: int, trace: Trace | None = None
    ) -> float:
        """The sum of ``count`` play-out values for player ``me`` from ``start`` (each: 1 win,
        0.5 tie, 0 loss; cut at ``depth`` turns and judged by the score's sign: 0.75 / 0.5 / 0.25).
        With ``trace`` (for tests; play-outs pass none), every turn played is written to it as
        the reference writes turns, and each play-out's last position."""
        stacks0, tops0, banks0, turn0, ended0 = start
        empty0 = sum(1 << space for space, top in enumerate(tops0) if top == EMPTY)
        ranks0 = (
            sum((banks0[rank] > 0) << rank for rank in range(4)),
            sum((banks0[4 + rank] > 0) << rank for rank in range(4)),
        )
        coins0 = (sum(banks0[0:4]), sum(banks0[4:8]))
        rand, getrandbits = rng.random, rng.getrandbits
        bits_of, pairs_of, place_slots = self._bits, self._pairs, self._place_slots
        full, totals = self.full, self.totals
        log: list[tuple[Throw, list[Action]]] | None = None
        total = 0.0
        for _ in range(count):
            stacks, tops, banks, empty, ended = stacks0[:], tops0[:], banks0[:], empty0, ended0
            if trace is not None:
                log = []
                trace.turns.append(log)
            # The mover's and the other player's ranks in the bank (bits) and coins in it.
            mover = turn0 & 1
            base = 4 * mover
            my_ranks, their_ranks = ranks0[mover], ranks0[1 - mover]
            my_coins, their_coins = coins0[mover], coins0[1 - mover]
            my_coin, their_coin = COIN_CODES[mover], COIN_CODES[1 - mover]
            for _ in range(depth):
                if ended:
                    winner = self.winner(stacks, banks)
                    total += 1.0 if winner == me else (0.5 if winner < 0 else 0.0)
                    break
                # The throw: each coin in the bank is a match with even odds.
                free = getrandbits(4) & my_ranks
                placements, moves, captures, can_pay = ALLOWANCE[free]
                if log is not None:
                    actions: list[Action] = []
                    log.append((tuple((rank, bool(free >> rank & 1)) for rank in MATCHED[my_ranks]), actions))
                while True:
                    # Stop, or one of the actions allowed now, all equally likely. A placement is
                    # drawn as (matched coin, any space) and drawn again when the space is not
                    # allowed: that keeps every allowed action equally likely without counting them.
                    slots = place_slots[free] if placements else ()
                    placing = len(slots)
                    if moves or captures or can_pay:
                        pays = POPCOUNT[free] if can_pay else 0
                        pairs = pairs_of[empty] if moves else ()
                        occupied = bits_of[full ^ empty] if captures else ()
                        options = pays + placing + len(pairs) + len(occupied)
                        if not options:
                            break
                    else:  # most turns: placements only
                        pays, options = 0, placing
                    # pick: pays below 0, then placements, moves, captures, and stop (the last).
                    scale = options + 1
                    while True:
                        pick = int(rand() * scale) - pays
                        if pick < 0 or pick >= placing:
                            break
                        rank, space = slots[pick]
                        if tops[space] > rank:
                            break
                    if pick < 0:
                        rank = MATCHED[free][pick + pays]
                        banks[base + rank] -= 1
                        if not banks[base + rank]:
                            my_ranks ^= 1 << rank
                        banks[4 - base + rank] += 1
                        their_ranks |= 1 << rank
                        my_coins -= 1
                        their_coins += 1
                        placements += 1
                        can_pay = False
                        free ^= 1 << rank
                        if log is not None:
                            actions.append(("pay", rank))
                    elif pick < placing:
                        if tops[space] == 4:  # EMPTY
                            empty ^= 1 << space
                        tops[space] = rank
                        stacks[space] = stacks[space] << 4 | my_coin[rank]
                        left = banks[base + rank] - 1
                        banks[base + rank] = left
                        rank_bit = 1 << rank
                        if not left:
                            my_ranks ^= rank_bit
                        my_coins -= 1
                        placements -= 1
                        free ^= rank_bit
                        if log is not None:
                            actions.append(("place", rank, space))
                        if not empty or not my_coins:
                            ended = True  # no empty space, or the mover's bank is empty
                            break
                    elif pick >= options - pays:
                        break
                    elif pick - placing < len(pairs):
                        source, target = pairs[pick - placing]
                        stacks[target], stacks[source] = stacks[source], 0
                        tops[target], tops[source] = tops[source], EMPTY
                        empty ^= (1 << source) | (1 << target)
                        moves -= 1
                        if log is not None:
                            actions.append(("move", source, target))
                    else:
                        space = occupied[pick - placing - len(pairs)]
                        code = stacks[space]
                        rank = TOP_RANK[code & 15]
                        banks[base + rank] += 1
                        my_ranks |= 1 << rank
                        my_coins += 1
                        code >>= 4
                        stacks[space] = code
                        tops[space] = TOP_RANK[code & 15]
                        if not code:
                            empty |= 1 << space
                        captures -= 1
                        if log is not None:
                            actions.append(("capture", space))
                    if not (placements or moves or captures or can_pay):
                        break
                base ^= 4
                my_coin, their_coin = their_coin, my_coin
                my_ranks, their_ranks = their_ranks, my_ranks
                my_coins, their_coins = their_coins, my_coins
            else:
                heads, tails = totals(stacks, banks)
                lead = heads - tails if me == 0 else tails - heads
                total += 0.75 if lead > 0 else (0.25 if lead < 0 else 0.5)
            if trace is not None:
                trace.finals.append((stacks, tops, banks))
        return total

    # -- tables by bitmask ---------------------------------------------------------------------
    def _bits_for(self, mask: int) -> tuple[int, ...]:
        """The spaces in ``mask``, in index order."""
        return tuple(space for space in range(self.size) if mask >> space & 1)

    def _pairs_for(self, empty: int) -> tuple[tuple[int, int], ...]:
        """Every (source, target) move when the spaces ``empty`` are empty: a stack to an
        empty neighbour."""
        return tuple(
            (source, target)
            for source in range(self.size)
            if not empty >> source & 1
            for target in self.neighbours[source]
            if empty >> target & 1
        )


class _Table(dict[int, T]):
    """Values by bitmask, each made the first time it is asked for (up to ``CACHE_LIMIT``)."""

    def __init__(self, make: Callable[[int], T]) -> None:
        super().__init__()
        self.make = make

    def __missing__(self, mask: int) -> T:
        value = self.make(mask)
        if len(self) < CACHE_LIMIT:
            self[mask] = value
        return value


# -- listing a throw's turns for tree search ----------------------------------------------------
SPACE_BITS = 16
"""Bits a space's stack takes in a packed board (four coins at most: ranks fall upward)."""

STACK_MASK = (1 << SPACE_BITS) - 1

NONE, PLACE, MOVE, CAPTURE = range(4)
"""What led to a step of the listing's search (the first step: none)."""

Listed = tuple[tuple["Action", ...], float, "float | None"]
"""A turn's actions, the search evaluation of the position after it for the mover, and the
game's outcome for the mover when the turn ends it (1 a win, 0.5 a tie, 0 a loss), else None."""


class TurnLister:
    """Every distinct turn of a throw with the search evaluation of the position after it,
    on packed positions: the board one int (:data:`SPACE_BITS` a space, the top coin in the
    lowest four), the banks one int (four bits a count, heads' ranks then tails').

    It finds the same turns in the same order as the reference's listing
    (:meth:`~coinprint.games.coinage.rules.CoinAgeRules.turns_after`: depth first, pay, place, move, capture, each outcome
    kept with the first action sequence found to it), and judges each outcome as
    :meth:`~coinprint.games.coinage.search.CoinAgeSearch.tree_evaluate` does (the same weighted features, summed region by
    region from tables made once per region's top coins and the banks' lowest ranks)."""

    def __init__(self, rules: CoinAgeRules, weights: tuple[float, ...]) -> None:
        n = len(rules.ids)
        self.size = n
        self.fast = FastCoinAge(rules)
        self.neighbours = [tuple(sorted(rules.neighbours[i])) for i in range(n)]
        self.region_masks = [sum(15 << (space * SPACE_BITS) for space in members) for members in rules.regions]
        self.tops_mask = sum(15 << (space * SPACE_BITS) for space in range(n))
        self.weights = weights
        self._region_values: _Table[float] = _Table(self._region_value)
        self._bank_values: _Table[tuple[float, int]] = _Table(self._bank_value)

    # -- evaluation ----------------------------------------------------------------------------
    def _region_value(self, key: int) -> float:
        """Heads' share of the evaluation from one region: ``key`` is the packed board's top
        coins (four bits) on the region's spaces only, with heads' and tails' lowest ranks in
        the bank (three bits each) and who moves next (one bit) in bits 4 to 10."""
        w = self.weights
        tail = key >> 4 & 127
        nxt = tail & 1
        low = (tail >> 4 & 7, tail >> 1 & 7)
        points, held, dimes, exposed = [0, 0], [0, 0], [0, 0], [0, 0]
        for space in range(self.size):
            code = key >> (space * SPACE_BITS) & 15
            if not code:
                continue
            owner, rank = (code - 1) & 1, (code - 1) >> 1
            value = VALUES[rank]
            points[owner] += value
            held[owner] += 1
            if rank == 0:
                dimes[owner] += 1
            elif rank > low[1 - owner]:
                exposed[owner] += value
        doubled = 0
        if held[0] != held[1]:
            leader = 0 if held[0] > held[1] else 1
            points[leader] *= 2
            doubled = 1 if leader == 0 else -1
        threat = exposed[1] if nxt == 0 else -exposed[0]
        return (
            w[0] * (held[0] - held[1])
            + w[1] * (points[0] - points[1])
            + w[6] * (exposed[1] - exposed[0])
            + w[7] * threat
            + w[8] * doubled
            + w[9] * (dimes[0] - dimes[1])
        )

    def _bank_value(self, bank: int) -> tuple[float, int]:
        """Heads' share of the evaluation from the banks, and the banks' lowest ranks (three
        bits each, heads' first) as :meth:`_region_value` reads them."""
        counts = [bank >> (4 * i) & 15 for i in range(8)]
        w = self.weights
        value = sum(w[2 + rank] * (counts[rank] - counts[4 + rank]) for rank in range(4))
        lows = [next((rank for rank in range(4) if counts[4 * p + rank]), 4) for p in (0, 1)]
        return value, (lows[0] << 3 | lows[1]) << 5

    def heads_value(self, board: int, bank: int, nxt: int) -> float:
        """The search evaluation for heads of a position not over, ``nxt`` to move."""
        value, lows = self._bank_values[bank]
        regions = self._region_values
        tops = board & self.tops_mask
        tail = lows | nxt << 4
        for mask in self.region_masks:
            value += regions[tops & mask | tail]
        return value + (self.weights[10] if nxt == 0 else -self.weights[10])

    # -- listing -------------------------------------------------------------------------------
    def turns(self, state: CoinAgeState) -> list[Listed]:
        """Every distinct turn of ``state``'s pending throw, judged (see the class docstring)."""
        seen, ended_keys = self._outcomes(state)
        me = state.mover
        listed: list[Listed] = []
        nxt = 1 - me
        sign = 1.0 if me == 0 else -1.0
        for (board, bank), actions in seen.items():
            if (board, bank) in ended_keys:
                listed.append((actions, 0.0, self._outcome(board, bank, me)))
            else:
                listed.append((actions, sign * self.heads_value(board, bank, nxt), None))
        return listed

    def actions(self, state: CoinAgeState) -> list[tuple[Action, ...]]:
        """The actions of every distinct turn of ``state``'s pending throw, in the reference's
        order, not judged (what a random agent picks from)."""
        return list(self._outcomes(state)[0].values())

    def _outcomes(self, state: CoinAgeState) -> tuple[dict[tuple[int, int], tuple[Action, ...]], set[tuple[int, int]]]:
        """Every distinct outcome (packed board, packed banks) of ``state``'s pending throw
        with the first actions found to it, in the order found; and the outcomes that end
        the game."""
        assert state.throw is not None
        me = state.mover
        board = bank = empty = 0
        for space, stack in enumerate(state.stacks):
            code = 0
            for rank, owner in stack:
                code = (code << 4) | (rank * 2 + owner + 1)
            board |= code << (space * SPACE_BITS)
            if not code:
                empty |= 1 << space
        for i, count in enumerate(list(state.banks[0]) + list(state.banks[1])):
            bank |= count << (4 * i)
        free = sum(1 << rank for rank, hit in state.throw if hit)
        placements, moves, captures, can_pay = ALLOWANCE[free]
        seen: dict[tuple[int, int], tuple[Action, ...]] = {}
        ended_keys: set[tuple[int, int]] = set()
        searched: set[tuple[int, int, int, int]] = set()
        n, neighbours = self.size, self.neighbours
        my_shift = 16 * me
        my_unit = [1 << (4 * (4 * me + rank)) for rank in range(4)]
        their_unit = [1 << (4 * (4 * (1 - me) + rank)) for rank in range(4)]
        coin = [rank * 2 + me + 1 for rank in range(4)]
        spaces = range(n)

        def search(
            board: int,
            bank: int,
            empty: int,
            free: int,
            budget: int,
            actions: tuple[Action, ...],
            came: tuple[int, int, int] = (NONE, 0, 0),
        ) -> None:
            """As :meth:`_TurnSearch.search` (``budget`` packed: placements, move, capture,
            may pay); ``came`` is the action that led here as (kind, a, b): a placement's rank
            and space, a move's source and target, a capture's space.

            The actions are tried in the reference's order (pay, place, move, capture), so
            when two actions in either order reach the same outcome, the order tried first
            found it and searched on from it. The other order is skipped here: two placements
            on different spaces (the higher rank first was tried first); a placement after a
            move off and onto other spaces; after a capture, any move but one into the space
            it emptied (moving the captured stack's rest is moving the stack, then capturing
            where it went). An action that ends the game is never skipped (the first order may
            have stopped before it)."""
            key = (board, bank)
            if key not in seen:
                seen[key] = actions
            marker = (board, bank, free, budget)
            if marker in searched:
                return
            searched.add(marker)
            placements, moves, captures, can_pay = budget >> 3, budget >> 2 & 1, budget >> 1 & 1, budget & 1
            kind, came_a, came_b = came
            ranks = MATCHED[free]
            if can_pay:
                for rank in ranks:
                    after_bank = bank - my_unit[rank] + their_unit[rank]
                    step = actions + (("pay", rank),)
                    if not after_bank >> my_shift & 0xFFFF:
                        _end(board, after_bank, step)
                    else:
                        search(board, after_bank, empty, free ^ 1 << rank, budget + 8 - 1, step)
            if placements:
                left = budget - 8
                for rank in ranks:
                    after_bank = bank - my_unit[rank]
                    bank_out = not after_bank >> my_shift & 0xFFFF
                    rest, code = free ^ 1 << rank, coin[rank]
                    for space in spaces:
                        shift = space * SPACE_BITS
                        stack = board >> shift & STACK_MASK
                        if stack and TOP_RANK[stack & 15] <= rank:
                            continue
                        after = board + ((stack * 15 + code) << shift)
                        after_empty = empty & ~(1 << space)
                        if not after_empty or bank_out:
                            _end(after, after_bank, actions + (("place", rank, space),))
                        elif (kind == PLACE and rank > came_a and space != came_b) or (
                            kind == MOVE and space != came_a and space != came_b
                        ):
                            continue  # found before, by the other order
                        elif not left:  # nothing more to do: note it without a search
                            if (after, after_bank) not in seen:
                                seen[after, after_bank] = actions + (("place", rank, space),)
                        else:
                            step = actions + (("place", rank, space),)
                            search(after, after_bank, after_empty, rest, left, step, (PLACE, rank, space))
            if moves:
                left = budget - 4
                for source in spaces:
                    if empty >> source & 1:
                        continue
                    shift = source * SPACE_BITS
                    stack = board >> shift & STACK_MASK
                    for target in neighbours[source]:
                        if not empty >> target & 1 or (kind == CAPTURE and target != came_a):
                            continue  # occupied, or found before by the other order
                        after = board - (stack << shift) + (stack << (target * SPACE_BITS))
                        step = actions + (("move", source, target),)
                        if not left:
                            if (after, bank) not in seen:
                                seen[after, bank] = step
                        else:
                            after_empty = empty ^ (1 << source | 1 << target)
                            search(after, bank, after_empty, free, left, step, (MOVE, source, target))
            if captures:
                left = budget - 2
                for space in spaces:
                    if empty >> space & 1:
                        continue
                    shift = space * SPACE_BITS
                    stack = board >> shift & STACK_MASK
                    after = board - ((stack - (stack >> 4)) << shift)
                    after_bank = bank + my_unit[TOP_RANK[stack & 15]]
                    step = actions + (("capture", space),)
                    if not left:
                        if (after, after_bank) not in seen:
                            seen[after, after_bank] = step
                    else:
                        after_empty = empty | (1 << space) if stack < 16 else empty
                        search(after, after_bank, after_empty, free, left, step, (CAPTURE, space, 0))

        def _end(board: int, bank: int, actions: tuple[Action, ...]) -> None:
            key = (board, bank)
            if key not in seen:
                seen[key] = actions
                ended_keys.add(key)

        search(board, bank, empty, free, placements << 3 | moves << 2 | captures << 1 | can_pay, ())
        return seen, ended_keys

    def _outcome(self, board: int, bank: int, me: int) -> float:
        """The finished game's value for ``me`` (1 a win, 0.5 a tie, 0 a loss)."""
        stacks = [board >> (space * SPACE_BITS) & STACK_MASK for space in range(self.size)]
        banks = [bank >> (4 * i) & 15 for i in range(8)]
        winner = self.fast.winner(stacks, banks)
        return 0.5 if winner < 0 else float(winner == me)

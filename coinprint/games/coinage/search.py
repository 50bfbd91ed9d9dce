"""What agents know of Coin Age besides its rules: paired throws, turns listed and judged on
packed positions (:mod:`coinprint.games.coinage.fast`), cheap play-out turns, the greedy
evaluation and tree search's fitted one."""

from __future__ import annotations

import random
from collections.abc import Iterator
from operator import mul
from typing import Any

from coinprint.engine import IllegalMoveError
from coinprint.games.coinage.coins import DENOMINATIONS, PLAYERS, VALUES
from coinprint.games.coinage.fast import FastCoinAge, TurnLister
from coinprint.games.coinage.rules import NO_THROW, CoinAgeRules
from coinprint.games.coinage.state import Action, Allowance, CoinAgeState, Throw, Turn
from coinprint.search import Search, SearchMove

SEARCH_FEATURES = (
    "spaces held",
    "points on the board",
    "dimes in the bank",
    "pennies in the bank",
    "nickels in the bank",
    "quarters in the bank",
    "points the other could cover",
    "points the next player could cover",
    "regions doubled",
    "dimes on top",
    "to move next",
)
"""What tree search's evaluation counts, each as the player's figure less the opponent's
(:meth:`CoinAgeSearch.features`)."""

SEARCH_WEIGHTS = (1.44, 0.01, 0.01, 0.37, 0.37, 0.27, 0.14, 0.03, -0.17, -0.38, 0.81)
"""What each feature is worth: a logistic regression of who won on the features of 110,000
positions from 3,200 ε-greedy self-play games on the classic map, scaled so that tree
search's squash of the evaluation (:data:`coinprint.mcts.EVALUATION_SCALE`) is the fitted
chance of winning. ``python bench/fit_coinage_evaluation.py`` refits them and prints how well
they predict held-out games."""


class CoinAgeSearch(Search[CoinAgeState, Turn]):
    """Coin Age's search: see each method."""

    rules: CoinAgeRules

    def __init__(self, rules: CoinAgeRules) -> None:
        super().__init__(rules)
        self._fast: FastCoinAge | None = None
        self._lister: TurnLister | None = None

    def begin_paired_turn(self, state: CoinAgeState, chance_seed: int, turn: int) -> None:
        """Throw the mover's coins, each denomination's toss from a stream of its own (seeded
        by ``chance_seed``, the turn's number and the coin), so two paired games throw their
        common coins alike even when their banks differ."""
        bank = state.banks[state.mover]
        state.throw = tuple(
            (rank, random.Random(f"chance {chance_seed} {turn} {DENOMINATIONS[rank]}").random() < 0.5)
            for rank in reversed(range(4))
            if bank[rank] > 0
        )

    def chance_key(self, state: CoinAgeState) -> Throw | None:
        """The pending throw: it decides which turns are legal."""
        return state.throw

    def recorded_chance(self, state: CoinAgeState, move: Turn) -> None:
        """A recorded turn carries its throw: make it the pending one."""
        state.throw = move.throw

    def successors(self, state: CoinAgeState) -> list[tuple[Turn, CoinAgeState]]:
        """The referee's legal turns with the position after each, found in one depth-first
        search (:meth:`CoinAgeRules.turns_after`)."""
        return self.rules.turns_after(state)

    def random_move(self, state: CoinAgeState, rng: random.Random) -> Turn:
        """A turn chosen uniformly from :meth:`CoinAgeRules.legal_moves` (the same list, found on packed
        positions without the positions after each turn, so the same choice for ``rng``)."""
        if state.ended:
            raise IllegalMoveError(f"the game is already over ({state.ended})")
        if state.throw is None:
            raise IllegalMoveError(NO_THROW)
        return Turn(state.throw, rng.choice(self._turn_lister().actions(state)))

    def _turn_lister(self) -> TurnLister:
        lister = self._lister
        if lister is None:
            lister = self._lister = TurnLister(self.rules, SEARCH_WEIGHTS)
        return lister

    def scored_moves(self, state: CoinAgeState) -> list[SearchMove]:
        """The turns of :meth:`successors`, in its order, each with its search evaluation
        (:meth:`tree_evaluate`) or outcome, listed and judged on packed positions
        (:class:`~coinprint.games.coinage.fast.TurnLister`) without building the position
        after each turn: tree search plays a turn only when it widens to it."""
        if state.ended:
            return []
        if state.throw is None:
            raise IllegalMoveError(NO_THROW)
        lister = self._turn_lister()
        throw = state.throw
        # Named tuples made by tuple.__new__: the classes' own constructors cost twice as much,
        # and a node lists hundreds of turns of which it plays a few.
        make = tuple.__new__
        return [
            make(SearchMove, (make(Turn, (throw, actions)), value, outcome))
            for actions, value, outcome in lister.turns(state)
        ]

    def playout_move(self, state: CoinAgeState, rng: random.Random) -> Turn:
        """A random turn built one action at a time (at each step: stop, or one of the actions
        still allowed, all equally likely). Far cheaper than listing every turn; Monte Carlo
        play-outs use it. The random agent still picks uniformly among distinct turns."""
        if state.throw is None:
            raise IllegalMoveError(NO_THROW)
        current, allowance, actions = state.copy(), Allowance.for_throw(state.throw), []
        while not current.ended:
            options = list(self.candidate_actions(current, allowance))
            pick = rng.randrange(len(options) + 1)
            if pick == len(options):
                break
            self.rules.do_action(current, allowance, options[pick])
            actions.append(options[pick])
        return Turn(state.throw, tuple(actions))

    def playout_total(
        self, state: CoinAgeState, move: Turn, player: str, rng: random.Random, depth: int, count: int
    ) -> float:
        """As :meth:`Search.playout_total`, on the fast path of :mod:`coinprint.games.coinage.fast`:
        the same play-out policy and rules, its own draws of random numbers (so not the
        reference's sum for the same ``rng``, but the same expected value)."""
        fast = self._fast
        if fast is None:
            fast = self._fast = FastCoinAge(self.rules)
        after = state.copy()
        self.rules.apply_unchecked(after, move)
        return fast.playout_total(fast.position(after), PLAYERS.index(player), rng, depth, count)

    def candidate_actions(self, state: CoinAgeState, allowance: Allowance) -> Iterator[Action]:
        free = [r for r in allowance.matched if r not in allowance.used]
        if allowance.can_pay and not allowance.paid:
            for rank in free:
                yield ("pay", rank)
        if allowance.placements > 0:
            for rank in free:
                for space, stack in enumerate(state.stacks):
                    if not stack or stack[-1][0] > rank:
                        yield ("place", rank, space)
        if allowance.moves > 0:
            for source, stack in enumerate(state.stacks):
                if stack:
                    for target in sorted(self.rules.neighbours[source]):
                        if not state.stacks[target]:
                            yield ("move", source, target)
        if allowance.captures > 0:
            for space, stack in enumerate(state.stacks):
                if stack:
                    yield ("capture", space)

    def position_key(self, state: CoinAgeState) -> tuple[Any, ...]:
        """The stacks, the banks and who is to move."""
        return (state.key(), state.mover)

    def evaluate(self, state: CoinAgeState, player: str) -> float:
        """The score difference for ``player`` (the same sums as :meth:`scores`, lean)."""
        total = [sum(state.banks[0]), sum(state.banks[1])]
        stacks = state.stacks
        for members in self.rules.regions:
            points, held = [0, 0], [0, 0]
            for space in members:
                stack = stacks[space]
                if stack:
                    rank, owner = stack[-1]
                    points[owner] += VALUES[rank]
                    held[owner] += 1
            if held[0] != held[1]:
                points[0 if held[0] > held[1] else 1] *= 2
            total[0] += points[0]
            total[1] += points[1]
        me = PLAYERS.index(player)
        return float(total[me] - total[1 - me])

    def tree_defaults(self) -> dict[str, float]:
        """Tree search values a new leaf by 8 random play-outs, not 1: Coin Age's play-outs are
        short and cheap beside listing a throw's turns, and one is a noisy judge of a leaf.

        The root is a race of the 16 best turns by the evaluation (sequential halving,
        ``halving`` 16) rather than UCB1 over them all: a throw allows dozens to thousands of
        turns, and the race spends the budget on a few of them, each meeting the same
        opponent's throws. 800 iterations: with the listing on packed positions
        (:meth:`scored_moves`) a game costs about 3.5 s of one core.

        Exploration 0.15, half the default of the other games: below the race, a turn's
        subtree has few visits, and spreading them over more replies cost more than it found.
        It won 561–238 with a tie against greedy on 800 fresh paired games (70 %, 95 % interval
        67–73 %; docs/benchmarks.md), where exploration 0.3 won 68 %."""
        return {"iterations": 800, "playouts": 8, "halving": 16, "exploration": 0.15}

    def tree_evaluate(self, state: CoinAgeState, player: str) -> float:
        """How likely ``player`` is to win, on the search's points scale: the sum of
        :meth:`features` times :data:`SEARCH_WEIGHTS`, which tree search's squash turns
        into the fitted chance of winning; a finished game is judged by its score
        (:meth:`evaluate`).

        The plain score misjudges a position (on held-out self-play games its log-loss is
        0.660 against 0.589 for the features; a coin toss scores 0.693): a space held is worth
        far more than its coin's points, since coins get covered and regions change hands;
        pennies, nickels and quarters still in the bank are worth more than the one point they
        score now; a dime on top is worth less than another coin there; and the player to
        move next is ahead."""
        if state.ended:
            return self.evaluate(state, player)
        features = self.features(state, player)
        value: float = sum(map(mul, SEARCH_WEIGHTS, features))
        return value

    def features(self, state: CoinAgeState, player: str) -> tuple[float, ...]:
        """The figures of :data:`SEARCH_FEATURES` for ``player``, each theirs less the
        opponent's: spaces held (by the top coin), board points after doubling, bank coins by
        rank (D, P, N, Q), the points of the opponent's top coins that one of the player's
        bank coins could cover (a lower rank) less the same for the opponent, that figure
        for the player to move next alone (signed for ``player``), regions doubled, dimes on
        top (they can never be covered), and 1 if ``player`` moves next, else −1."""
        me = PLAYERS.index(player)
        banks = state.banks
        # The lowest rank in each bank: a top coin above it can be covered.
        lowest = [_lowest_rank(bank) for bank in banks]
        held, points, doubled, dimes, exposed = [0, 0], [0, 0], [0, 0], [0, 0], [0, 0]
        stacks = state.stacks
        for members in self.rules.regions:
            region_points, region_held = [0, 0], [0, 0]
            for space in members:
                stack = stacks[space]
                if stack:
                    rank, owner = stack[-1]
                    value = VALUES[rank]
                    region_points[owner] += value
                    region_held[owner] += 1
                    if rank == 0:
                        dimes[owner] += 1
                    elif rank > lowest[1 - owner]:
                        exposed[owner] += value
            heads, tails = region_held
            if heads != tails:
                leader = 0 if heads > tails else 1
                region_points[leader] *= 2
                doubled[leader] += 1
            points[0] += region_points[0]
            points[1] += region_points[1]
            held[0] += heads
            held[1] += tails
        them = 1 - me
        mine, theirs = banks[me], banks[them]
        mover = state.mover
        threat = exposed[1 - mover] if mover == me else -exposed[1 - mover]
        return (
            held[me] - held[them],
            points[me] - points[them],
            mine[0] - theirs[0],
            mine[1] - theirs[1],
            mine[2] - theirs[2],
            mine[3] - theirs[3],
            exposed[them] - exposed[me],
            threat,
            doubled[me] - doubled[them],
            dimes[me] - dimes[them],
            1 if mover == me else -1,
        )


def _lowest_rank(bank: list[int]) -> int:
    """The lowest rank with a coin in ``bank`` (4 when it is empty)."""
    return 0 if bank[0] else 1 if bank[1] else 2 if bank[2] else 3 if bank[3] else 4

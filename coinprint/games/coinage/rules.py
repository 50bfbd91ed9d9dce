"""The Coin Age rules engine (docs/formats.md: Facts, and How coinprint reads the seed rules).

Each player has a bank of 4 dimes, 3 pennies, 2 nickels and 1 quarter. On a turn the player
throws one coin of each denomination still in their bank; a coin that lands showing the
player's own side (heads for the heads player, tails for tails) is a *match*. The number of
matches decides what the turn allows (every action is optional, in any order):

====== ==========================================================
matches allowed
====== ==========================================================
4      place 2 of the matching coins; or pay 1 matching coin to the opponent and place 3
2–3    place 2 of the matching coins
1      place the matching coin, and move one stack
0      capture one top coin, and move one stack
====== ==========================================================

Place: onto an empty space, or onto a stack whose top coin outranks the placed coin
(dime < penny < nickel < quarter), whoever owns it. Move: a whole stack (either player's) to
an empty adjacent space. Capture: any top coin goes to the capturer's bank, their side up.
Pay: the coin goes to the opponent's bank, their side up. The game ends *at once* when the
last empty space is filled or a player has placed every coin they have; nothing more may be
done in that turn.

Notation: one string per turn, parts separated by ``;``; the first part is the throw::

    throw Q+ N- P+ D+; place P b2; place D a1
    throw N- P- D+; move b2 c3; place D b2
    throw Q- N- P- D-; capture a1; move c2 c1
    throw Q+ N+ P+ D+; pay N; place Q a1; place P a2; place D a3
    throw P- D-                      (a turn with no action: a pass)

The throw lists each denomination in the bank once, highest first (Q N P D); ``+`` means
the coin shows the thrower's own side (a match), ``-`` the other side. Coins are D, P, N,
Q; spaces are the map's labels (any case). The player is not written: heads plays turn 1,
then the players alternate.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from operator import mul
from typing import TYPE_CHECKING, Any, NamedTuple

from coinprint.engine import IllegalMoveError, InvalidMoveError, Result, Rules, SearchMove
from coinprint.errors import UsageError
from coinprint.games.coinage.coins import DENOMINATIONS, NAMES, PLAYERS, START_BANK, VALUES
from coinprint.games.coinage.fast import FastCoinAge, TurnLister
from coinprint.layout import Layout, Mark

if TYPE_CHECKING:
    from coinprint.games.coinage.fast import FastCoinAge


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
(:meth:`CoinAgeRules.search_features`)."""

SEARCH_WEIGHTS = (1.44, 0.01, 0.01, 0.37, 0.37, 0.27, 0.14, 0.03, -0.17, -0.38, 0.81)
"""What each feature is worth: a logistic regression of who won on the features of 110,000
positions from 3,200 ε-greedy self-play games on the classic map, scaled so that tree
search's squash of the evaluation (:data:`coinprint.mcts.EVALUATION_SCALE`) is the fitted
chance of winning. ``python bench/fit_coinage_evaluation.py`` refits them and prints how well
they predict held-out games."""

Coin = tuple[int, int]
"""(rank, owner index)."""
Throw = tuple[tuple[int, bool], ...]
"""((rank, matched), …) highest rank first."""
Stacks = tuple[tuple[Coin, ...], ...]
"""Stacks by space, bottom coin first, as the legal-turn search keeps them."""
Banks = tuple[tuple[int, ...], tuple[int, ...]]
"""Heads' and tails' bank counts by rank, as the legal-turn search keeps them."""
Action = tuple[Any, ...]
"""("place", rank, space) · ("move", from, to) · ("capture", space) · ("pay", rank)."""


class Turn(NamedTuple):
    """One whole turn: its throw and its actions, in the order they were done (a named
    tuple: tree search makes and hashes thousands a move)."""

    throw: Throw
    actions: tuple[Action, ...] = ()


@dataclass
class CoinAgeState:
    """Stacks (bottom coin first) by space index, banks by player index, whose turn, the
    pending throw (set by ``begin_turn`` in simulation), and how the game ended.

    Each stack is a tuple, replaced and never changed in place, so copies of a position (and
    the hundreds of positions after one throw's turns) share their stacks."""

    stacks: list[tuple[Coin, ...]]
    banks: list[list[int]]
    turn: int = 0
    throw: Throw | None = None
    ended: str | None = None

    def copy(self) -> CoinAgeState:
        return CoinAgeState(
            list(self.stacks), [list(self.banks[0]), list(self.banks[1])], self.turn, self.throw, self.ended
        )

    @property
    def mover(self) -> int:
        return self.turn % 2

    def key(self) -> tuple[Any, ...]:
        return (tuple(self.stacks), tuple(tuple(b) for b in self.banks), self.ended)


_THROWS: dict[Throw, tuple[int, int]] = {
    tuple((rank, bool(hits >> rank & 1)) for rank in (3, 2, 1, 0) if held >> rank & 1): (held, hits & held)
    for held in range(16)
    for hits in range(16)
    if hits & ~held == 0
}
"""Every throw written highest first (as every turn read or thrown is): the ranks thrown
and the ranks matched, as bits."""

_ALLOWANCE_BY_MATCHES = ((0, 1, 1, False), (1, 1, 0, False), (2, 0, 0, False), (2, 0, 0, False), (2, 0, 0, True))
"""(placements, moves, captures, may pay) by the number of matches (:class:`_Allowance`)."""


@dataclass
class _Allowance:
    """What is left of a turn's allowance while its actions are checked one by one."""

    matched: list[int]
    placements: int
    moves: int
    captures: int
    can_pay: bool
    paid: bool = False
    used: list[int] = field(default_factory=list)

    @classmethod
    def for_throw(cls, throw: Throw) -> _Allowance:
        matched = [rank for rank, hit in throw if hit]
        count = len(matched)
        if count == 4:
            return cls(matched, 2, 0, 0, True)
        if count >= 2:
            return cls(matched, 2, 0, 0, False)
        if count == 1:
            return cls(matched, 1, 1, 0, False)
        return cls(matched, 0, 1, 1, False)


class CoinAgeRules(Rules[CoinAgeState, Turn]):
    """Coin Age on a map layout. Options: none yet (an unknown option is a usage error)."""

    name = "coinage"
    players = PLAYERS

    def __init__(self, layout: Layout, options: dict[str, Any] | None = None) -> None:
        options = dict(options or {})
        if options:
            raise UsageError(f"unknown coinage option(s) {', '.join(sorted(options))}; Coin Age has no options")
        self.layout = layout
        self.ids = [s.id for s in layout.spaces]
        self.index = {sid: i for i, sid in enumerate(self.ids)}
        self.labels = [s.name for s in layout.spaces]
        graph = layout.graph
        self.neighbours = [frozenset(self.index[n] for n in graph.neighbors(sid)) for sid in self.ids]
        regions: dict[str, list[int]] = {}
        for i, space in enumerate(layout.spaces):
            regions.setdefault(space.region or space.id, []).append(i)
        self.regions = [tuple(v) for _, v in sorted(regions.items())]
        self.region_names = sorted(regions)
        self._fast: FastCoinAge | None = None
        self._lister: TurnLister | None = None

    # -- state ----------------------------------------------------------------------------------
    def initial_state(self) -> CoinAgeState:
        return CoinAgeState([() for _ in self.ids], [list(START_BANK), list(START_BANK)])

    def to_move(self, state: CoinAgeState) -> str:
        return PLAYERS[state.mover]

    def is_over(self, state: CoinAgeState) -> bool:
        return state.ended is not None

    def begin_turn(self, state: CoinAgeState, rng: random.Random) -> None:
        """Throw the mover's coins: one of each denomination in the bank, each a fair toss."""
        bank = state.banks[state.mover]
        state.throw = tuple((rank, rng.random() < 0.5) for rank in reversed(range(4)) if bank[rank] > 0)

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

    # -- checking and playing ---------------------------------------------------------------------
    def check(self, state: CoinAgeState, move: Turn) -> None:
        self._play(state.copy(), move, checked=True)

    def apply(self, state: CoinAgeState, move: Turn) -> None:
        """As :meth:`Rules.apply`, in one pass over the turn (:meth:`_play_checked`) where it
        is legal; a turn found illegal there is checked again by :meth:`check`, which raises
        saying why, so the errors are the reference's."""
        if state.ended is None and self._play_checked(state, move):
            return
        self.check(state, move)
        self.apply_unchecked(state, move)  # legal after all (a throw written in another order)

    def _play_checked(self, state: CoinAgeState, turn: Turn) -> bool:
        """Play ``turn`` on ``state`` if it is legal, on copies of the stacks and banks that
        replace the state's only at the end; False, with ``state`` unchanged, if any part of
        it is not (or the throw is not written highest first, as every turn read or thrown
        is). The same rules as :meth:`_illegal` and :meth:`_do`, with the empty spaces and
        the mover's coins counted as the actions go."""
        try:
            throw, me = turn.throw, state.mover
            bank = state.banks[me]
            read = _THROWS.get(throw)
            if read is None or (state.throw is not None and state.throw != throw):
                return False
            thrown, free = read
            if thrown != (bank[0] > 0) | (bank[1] > 0) << 1 | (bank[2] > 0) << 2 | (bank[3] > 0) << 3:
                return False
            placements, moves, captures, can_pay = _ALLOWANCE_BY_MATCHES[bin(free).count("1")]
            stacks, mine, theirs = list(state.stacks), bank[:], state.banks[1 - me][:]
            empty, coins, size = stacks.count(()), sum(mine), len(stacks)
            neighbours = self.neighbours
            ended = None
            for action in turn.actions:
                if ended:
                    return False
                kind = action[0]
                if kind == "place":
                    _, rank, space = action
                    if placements < 1 or not (0 <= rank < 4 and free >> rank & 1) or not 0 <= space < size:
                        return False
                    stack = stacks[space]
                    if stack:
                        if stack[-1][0] <= rank:
                            return False
                    else:
                        empty -= 1
                    stacks[space] = stack + ((rank, me),)
                    mine[rank] -= 1
                    coins -= 1
                    placements -= 1
                    free ^= 1 << rank
                elif kind == "pay":
                    _, rank = action
                    if not can_pay or not (0 <= rank < 4 and free >> rank & 1):
                        return False
                    mine[rank] -= 1
                    theirs[rank] += 1
                    coins -= 1
                    placements += 1
                    can_pay = False
                    free ^= 1 << rank
                elif kind == "move":
                    _, source, target = action
                    if moves < 1 or not 0 <= source < size or not stacks[source]:
                        return False
                    if target not in neighbours[source] or stacks[target]:
                        return False
                    stacks[target], stacks[source] = stacks[source], ()
                    moves -= 1
                elif kind == "capture":
                    _, space = action
                    if captures < 1 or not 0 <= space < size or not stacks[space]:
                        return False
                    stack = stacks[space]
                    stacks[space] = stack[:-1]
                    mine[stack[-1][0]] += 1
                    coins += 1
                    captures -= 1
                    if len(stack) == 1:
                        empty += 1
                else:
                    return False
                if not empty:
                    ended = "every space is filled"
                elif not coins:
                    ended = f"{PLAYERS[me]} has placed every coin"
        except (TypeError, ValueError, IndexError):  # not a turn's shape: the reference says why
            return False
        state.stacks = stacks
        state.banks = [mine, theirs] if me == 0 else [theirs, mine]
        state.turn += 1
        state.throw = None
        state.ended = ended
        return True

    def apply_unchecked(self, state: CoinAgeState, move: Turn) -> None:
        self._play(state, move, checked=False)

    def _play(self, state: CoinAgeState, turn: Turn, checked: bool) -> None:
        if checked:
            if state.ended:
                raise IllegalMoveError(f"the game is already over ({state.ended})")
            self._check_throw(state, turn.throw)
        allowance = _Allowance.for_throw(turn.throw)
        for number, action in enumerate(turn.actions, start=1):
            if checked:
                if state.ended:
                    raise IllegalMoveError(
                        f"action {number} ({self.action_text(action)}): the game ended at once ({state.ended}); nothing more may be done"
                    )
                why = self._illegal(state, allowance, action)
                if why:
                    raise IllegalMoveError(f"action {number} ({self.action_text(action)}): {why}")
            self._do(state, allowance, action)
        state.turn += 1
        state.throw = None

    def _check_throw(self, state: CoinAgeState, throw: Throw) -> None:
        bank = state.banks[state.mover]
        have = [rank for rank in reversed(range(4)) if bank[rank] > 0]
        thrown = [rank for rank, _ in throw]
        if sorted(thrown) != sorted(have) or len(set(thrown)) != len(thrown):
            expected = " ".join(DENOMINATIONS[r] for r in have)
            got = " ".join(DENOMINATIONS[r] for r in thrown) or "nothing"
            raise IllegalMoveError(
                f"the throw must be one coin of each denomination in the bank ({expected}), not {got}"
            )
        if state.throw is not None and tuple(sorted(state.throw)) != tuple(sorted(throw)):
            raise IllegalMoveError(f"the coins were thrown as {self.throw_text(state.throw)}")

    def _illegal(self, state: CoinAgeState, allowance: _Allowance, action: Action) -> str | None:
        """Why ``action`` is not allowed now, or None."""
        kind = action[0]
        me = state.mover
        if kind in ("place", "pay"):
            rank = action[1]
            if rank not in allowance.matched:
                return f"the {NAMES[DENOMINATIONS[rank]]} is not a matching coin of this throw"
            if rank in allowance.used:
                return f"the matching {NAMES[DENOMINATIONS[rank]]} has already been used this turn"
            if state.banks[me][rank] < 1:  # pragma: no cover - a matched coin is in the bank
                return f"there is no {NAMES[DENOMINATIONS[rank]]} in the bank"
        if kind == "pay":
            if not allowance.can_pay:
                return "paying needs 4 matches"
            if allowance.paid:
                return "only one coin may be paid per turn"
            return None
        if kind == "place":
            if allowance.placements < 1:
                extra = (
                    " (with 4 matches, pay 1 coin first to place a third)"
                    if allowance.can_pay and not allowance.paid
                    else ""
                )
                return f"this throw allows no more placements{extra}"
            stack = state.stacks[action[2]]
            if stack and stack[-1][0] <= action[1]:
                top = NAMES[DENOMINATIONS[stack[-1][0]]]
                return f"a {NAMES[DENOMINATIONS[action[1]]]} may not go on a {top}; a coin goes only on a higher-ranked top coin"
            return None
        if kind == "move":
            if allowance.moves < 1:
                return "this throw allows no move (moves need 0 or 1 match)"
            source, target = action[1], action[2]
            if not state.stacks[source]:
                return f"{self.labels[source]} is empty; there is no stack to move"
            if target not in self.neighbours[source]:
                return f"{self.labels[target]} is not next to {self.labels[source]}"
            if state.stacks[target]:
                return f"{self.labels[target]} is occupied; a stack moves only to an empty space"
            return None
        if kind == "capture":
            if allowance.captures < 1:
                return "this throw allows no capture (captures need 0 matches)"
            if not state.stacks[action[1]]:
                return f"{self.labels[action[1]]} is empty; there is nothing to capture"
            return None
        return f"unknown action {kind!r}"  # pragma: no cover

    def _do(self, state: CoinAgeState, allowance: _Allowance, action: Action) -> None:
        me = state.mover
        kind = action[0]
        if kind == "place":
            rank, space = action[1], action[2]
            state.banks[me][rank] -= 1
            state.stacks[space] += ((rank, me),)
            allowance.placements -= 1
            allowance.used.append(rank)
        elif kind == "pay":
            rank = action[1]
            state.banks[me][rank] -= 1
            state.banks[1 - me][rank] += 1
            allowance.placements += 1
            allowance.paid = True
            allowance.used.append(rank)
        elif kind == "move":
            source, target = action[1], action[2]
            state.stacks[target], state.stacks[source] = state.stacks[source], ()
            allowance.moves -= 1
        elif kind == "capture":
            stack = state.stacks[action[1]]
            rank = stack[-1][0]
            state.stacks[action[1]] = stack[:-1]
            state.banks[me][rank] += 1
            allowance.captures -= 1
        if not any(not s for s in state.stacks):
            state.ended = "every space is filled"
        elif sum(state.banks[me]) == 0:
            state.ended = f"{PLAYERS[me]} has placed every coin"

    # -- legal turns -------------------------------------------------------------------------------
    def legal_moves(self, state: CoinAgeState) -> list[Turn]:
        """Every distinct turn for the pending throw (``begin_turn`` makes it), as action
        sequences found depth-first; turns with the same outcome are listed once (the first
        order found). Without a pending throw this is an error: the throw comes first."""
        return [turn for turn, _ in self.successors(state)]

    def successors(self, state: CoinAgeState) -> list[tuple[Turn, CoinAgeState]]:
        """:meth:`legal_moves` with the position after each turn (no throw pending), found in
        one depth-first search (:class:`_TurnSearch`)."""
        if state.ended:
            return []
        if state.throw is None:
            raise IllegalMoveError("no throw yet this turn; call begin_turn first (the throw comes before any action)")
        return _TurnSearch(self, state).run()

    def random_move(self, state: CoinAgeState, rng: random.Random) -> Turn:
        """A turn chosen uniformly from :meth:`legal_moves` (the same list, found on packed
        positions without the positions after each turn, so the same choice for ``rng``)."""
        if state.ended:
            raise IllegalMoveError(f"the game is already over ({state.ended})")
        if state.throw is None:
            raise IllegalMoveError("no throw yet this turn; call begin_turn first (the throw comes before any action)")
        return Turn(state.throw, rng.choice(self._turn_lister().actions(state)))

    def _turn_lister(self) -> TurnLister:
        lister = self._lister
        if lister is None:
            lister = self._lister = TurnLister(self, SEARCH_WEIGHTS)
        return lister

    def search_moves(self, state: CoinAgeState) -> list[SearchMove]:
        """The turns of :meth:`successors`, in its order, each with its search evaluation
        (:meth:`search_evaluate`) or outcome, listed and judged on packed positions
        (:class:`~coinprint.games.coinage.fast.TurnLister`) without building the position
        after each turn: tree search plays a turn only when it widens to it."""
        if state.ended:
            return []
        if state.throw is None:
            raise IllegalMoveError("no throw yet this turn; call begin_turn first (the throw comes before any action)")
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
            raise IllegalMoveError("no throw yet this turn; call begin_turn first (the throw comes before any action)")
        current, allowance, actions = state.copy(), _Allowance.for_throw(state.throw), []
        while not current.ended:
            options = list(self._candidate_actions(current, allowance))
            pick = rng.randrange(len(options) + 1)
            if pick == len(options):
                break
            self._do(current, allowance, options[pick])
            actions.append(options[pick])
        return Turn(state.throw, tuple(actions))

    def playout_total(
        self, state: CoinAgeState, move: Turn, player: str, rng: random.Random, depth: int, count: int
    ) -> float:
        """As :meth:`Rules.playout_total`, on the fast path of :mod:`coinprint.games.coinage.fast`:
        the same play-out policy and rules, its own draws of random numbers (so not the
        reference's sum for the same ``rng``, but the same expected value)."""
        fast = self._fast
        if fast is None:
            fast = self._fast = FastCoinAge(self)
        after = state.copy()
        self.apply_unchecked(after, move)
        return fast.playout_total(fast.position(after), PLAYERS.index(player), rng, depth, count)

    def _candidate_actions(self, state: CoinAgeState, allowance: _Allowance) -> Iterator[Action]:
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
                    for target in sorted(self.neighbours[source]):
                        if not state.stacks[target]:
                            yield ("move", source, target)
        if allowance.captures > 0:
            for space, stack in enumerate(state.stacks):
                if stack:
                    yield ("capture", space)

    # -- notation ----------------------------------------------------------------------------------
    def parse_move(self, state: CoinAgeState, text: Any) -> Turn:
        if not isinstance(text, str):
            raise InvalidMoveError("a Coin Age turn is a string like 'throw Q+ N- P+ D+; place P b2'")
        parts = [p.strip() for p in text.split(";")]
        head = parts[0].split()
        if not head or head[0].lower() != "throw":
            raise InvalidMoveError("a turn starts with its throw, e.g. 'throw Q+ N- P+ D+'")
        throw = []
        for token in head[1:]:
            if len(token) != 2 or token[0].upper() not in DENOMINATIONS or token[1] not in "+-":
                raise InvalidMoveError(
                    f"'{token}' is not a thrown coin; write D, P, N or Q then + (match) or - (no match)"
                )
            throw.append((DENOMINATIONS.index(token[0].upper()), token[1] == "+"))
        throw.sort(key=lambda t: -t[0])
        actions = tuple(self._parse_action(p) for p in parts[1:] if p)
        if any(not p for p in parts[1:]):
            raise InvalidMoveError("an empty action between ';' separators")
        return Turn(tuple(throw), actions)

    def _parse_action(self, text: str) -> Action:
        words = text.split()
        verb = words[0].lower()
        shapes = {"place": 2, "pay": 1, "move": 2, "capture": 1}
        if verb not in shapes:
            raise InvalidMoveError(f"unknown action '{words[0]}'; use place, pay, move or capture")
        if len(words) - 1 != shapes[verb]:
            usage = {"place": "place P b2", "pay": "pay N", "move": "move b2 c3", "capture": "capture a1"}[verb]
            raise InvalidMoveError(f"'{text}' should read like '{usage}'")
        if verb in ("place", "pay"):
            coin = words[1].upper()
            if coin not in DENOMINATIONS:
                raise InvalidMoveError(f"'{words[1]}' is not a coin; use D, P, N or Q")
            rank = DENOMINATIONS.index(coin)
            return ("place", rank, self._space(words[2])) if verb == "place" else ("pay", rank)
        if verb == "move":
            return ("move", self._space(words[1]), self._space(words[2]))
        return ("capture", self._space(words[1]))

    def _space(self, name: str) -> int:
        try:
            return self.index[self.layout.space(name).id]
        except KeyError:
            raise InvalidMoveError(
                f"no space called '{name}' on this map; spaces are {', '.join(self.labels)}"
            ) from None

    def throw_text(self, throw: Throw) -> str:
        return "throw " + " ".join(f"{DENOMINATIONS[r]}{'+' if hit else '-'}" for r, hit in throw)

    def action_text(self, action: Action) -> str:
        kind = action[0]
        if kind == "place":
            return f"place {DENOMINATIONS[action[1]]} {self.labels[action[2]].lower()}"
        if kind == "pay":
            return f"pay {DENOMINATIONS[action[1]]}"
        if kind == "move":
            return f"move {self.labels[action[1]].lower()} {self.labels[action[2]].lower()}"
        return f"capture {self.labels[action[1]].lower()}"

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

    def move_text(self, state: CoinAgeState, move: Turn) -> str:
        return "; ".join([self.throw_text(move.throw)] + [self.action_text(a) for a in move.actions])

    # -- scoring -----------------------------------------------------------------------------------
    def region_scores(self, state: CoinAgeState) -> list[dict[str, Any]]:
        """Per region: its name, its spaces' labels, spaces held and points (after doubling)
        by player, and who doubled (or None)."""
        found = []
        for name, members in zip(self.region_names, self.regions):
            points, held = [0, 0], [0, 0]
            for space in members:
                if state.stacks[space]:
                    rank, owner = state.stacks[space][-1]
                    points[owner] += VALUES[rank]
                    held[owner] += 1
            doubler = next((p for p in (0, 1) if held[p] > held[1 - p]), None)
            if doubler is not None:
                points[doubler] *= 2
            found.append(
                {
                    "region": name,
                    "spaces": [self.labels[i] for i in members],
                    "held": {PLAYERS[p]: held[p] for p in (0, 1)},
                    "points": {PLAYERS[p]: points[p] for p in (0, 1)},
                    "doubled": PLAYERS[doubler] if doubler is not None else None,
                }
            )
        return found

    def scores(self, state: CoinAgeState) -> dict[str, Any]:
        """Points by player with their parts: ``board`` (after region doubling), ``bank``,
        ``bank_value`` (the tie-break) and ``doubled`` (regions doubled, by player)."""
        regions = self.region_scores(state)
        bank = {PLAYERS[p]: sum(state.banks[p]) for p in (0, 1)}
        value = {PLAYERS[p]: sum(n * v for n, v in zip(state.banks[p], VALUES)) for p in (0, 1)}
        board = {p: sum(r["points"][p] for r in regions) for p in PLAYERS}
        return {
            "total": {p: board[p] + bank[p] for p in PLAYERS},
            "board": board,
            "bank": bank,
            "bank_value": value,
            "doubled": {p: [r["region"] for r in regions if r["doubled"] == p] for p in PLAYERS},
        }

    def result(self, state: CoinAgeState) -> Result:
        parts = self.scores(state)
        total, value = parts["total"], parts["bank_value"]
        h, t = PLAYERS
        if total[h] != total[t]:
            winner = h if total[h] > total[t] else t
            how = "more points"
        elif value[h] != value[t]:
            winner = h if value[h] > value[t] else t
            how = f"tie on points broken by bank value {value[h]}–{value[t]}"
        else:
            winner, how = None, "equal points and equal bank value"
        reason = f"{state.ended}; {how}" if state.ended else how
        return Result(winner if state.ended else None, total, reason, finished=state.ended is not None)

    def position_key(self, state: CoinAgeState) -> tuple[Any, ...]:
        """The stacks, the banks and who is to move."""
        return (state.key(), state.mover)

    def evaluate(self, state: CoinAgeState, player: str) -> float:
        """The score difference for ``player`` (the same sums as :meth:`scores`, lean)."""
        total = [sum(state.banks[0]), sum(state.banks[1])]
        stacks = state.stacks
        for members in self.regions:
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

    def search_defaults(self) -> dict[str, float]:
        """Tree search values a new leaf by 8 random play-outs, not 1: Coin Age's play-outs are
        short and cheap beside listing a throw's turns, and one is a noisy judge of a leaf.

        The root is a race of the 16 best turns by the evaluation (sequential halving,
        ``halving`` 16) rather than UCB1 over them all: a throw allows dozens to thousands of
        turns, and the race spends the budget on a few of them, each meeting the same
        opponent's throws. 800 iterations: with the listing on packed positions
        (:meth:`search_moves`) a game costs about 3.5 s of one core.

        Exploration 0.15, half the default of the other games: below the race, a turn's
        subtree has few visits, and spreading them over more replies cost more than it found.
        It won 561–238 with a tie against greedy on 800 fresh paired games (70 %, 95 % interval
        67–73 %; docs/benchmarks.md), where exploration 0.3 won 68 %."""
        return {"iterations": 800, "playouts": 8, "halving": 16, "exploration": 0.15}

    def search_evaluate(self, state: CoinAgeState, player: str) -> float:
        """How likely ``player`` is to win, on the search's points scale: the sum of
        :meth:`search_features` times :data:`SEARCH_WEIGHTS`, which tree search's squash turns
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
        features = self.search_features(state, player)
        value: float = sum(map(mul, SEARCH_WEIGHTS, features))
        return value

    def search_features(self, state: CoinAgeState, player: str) -> tuple[float, ...]:
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
        for members in self.regions:
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

    # -- showing ---------------------------------------------------------------------------------
    def marks(self, state: CoinAgeState) -> list[Mark]:
        return [
            Mark(self.ids[i], DENOMINATIONS[stack[-1][0]], PLAYERS[stack[-1][1]], len(stack))
            for i, stack in enumerate(state.stacks)
            if stack
        ]

    def holders(self, state: CoinAgeState) -> dict[str, str]:
        """A space is held by the owner of its top coin."""
        return {self.ids[i]: PLAYERS[stack[-1][1]] for i, stack in enumerate(state.stacks) if stack}

    def describe(self, state: CoinAgeState) -> str:
        lines = []
        for i, stack in enumerate(state.stacks):
            coins = " ".join(f"{DENOMINATIONS[r]}{'h' if o == 0 else 't'}" for r, o in stack) or "."
            lines.append(f"{self.labels[i]:>4} [{self.layout.spaces[i].region}]: {coins}")
        for p in (0, 1):
            bank = " ".join(f"{n}{DENOMINATIONS[r]}" for r, n in enumerate(state.banks[p]))
            lines.append(f"{PLAYERS[p]} bank: {bank}")
        lines.append("(stacks bottom first; h = heads' coin, t = tails')")
        return "\n".join(lines)


def _lowest_rank(bank: list[int]) -> int:
    """The lowest rank with a coin in ``bank`` (4 when it is empty)."""
    return 0 if bank[0] else 1 if bank[1] else 2 if bank[2] else 3 if bank[3] else 4


class _TurnSearch:
    """Every distinct outcome of one throw, depth first, over immutable stacks and banks.

    The actions are tried in the order :meth:`CoinAgeRules._candidate_actions` gives them
    (pay, place, move, capture), so each outcome keeps the first action sequence that reaches
    it. A state here is (stacks, banks, how the game ended) and is its own key."""

    def __init__(self, rules: CoinAgeRules, state: CoinAgeState) -> None:
        assert state.throw is not None
        self.state = state
        self.throw = state.throw
        self.me = state.mover
        self.coin = [(rank, self.me) for rank in range(4)]
        self.neighbours = [sorted(n) for n in rules.neighbours]
        self.placed_all = f"{PLAYERS[self.me]} has placed every coin"
        self.seen: dict[tuple[Any, ...], tuple[Action, ...]] = {}
        """Every outcome found, with the first action sequence found to it."""
        self.searched: set[tuple[Any, ...]] = set()
        """(outcome, free coins, allowance left) already searched from."""

    def run(self) -> list[tuple[Turn, CoinAgeState]]:
        state, allowance = self.state, _Allowance.for_throw(self.throw)
        stacks = tuple(state.stacks)
        banks = (tuple(state.banks[0]), tuple(state.banks[1]))
        budget = (allowance.placements, allowance.moves, allowance.captures, allowance.can_pay)
        self.search(stacks, banks, None, tuple(allowance.matched), budget, ())
        return [
            (
                Turn(self.throw, actions),
                CoinAgeState(list(stacks), [list(banks[0]), list(banks[1])], state.turn + 1, None, ended),
            )
            for (stacks, banks, ended), actions in self.seen.items()
        ]

    def ending(self, stacks: Stacks, bank: tuple[int, ...]) -> str | None:
        """How the game ends after an action, as :meth:`CoinAgeRules._do` says it, or None."""
        if all(stacks):
            return "every space is filled"
        return None if any(bank) else self.placed_all

    def banks_with(self, banks: Banks, rank: int, change: int, paid: bool = False) -> Banks:
        """``banks`` with the mover's coins of ``rank`` changed by ``change`` (and, when
        ``paid``, the other player's by the opposite)."""
        me = self.me
        mine = banks[me][:rank] + (banks[me][rank] + change,) + banks[me][rank + 1 :]
        theirs = banks[1 - me]
        if paid:
            theirs = theirs[:rank] + (theirs[rank] - change,) + theirs[rank + 1 :]
        return (mine, theirs) if me == 0 else (theirs, mine)

    def search(
        self,
        stacks: Stacks,
        banks: Banks,
        ended: str | None,
        free: tuple[int, ...],
        budget: tuple[int, int, int, bool],
        actions: tuple[Action, ...],
    ) -> None:
        """Note this outcome, then try every action still allowed: ``free`` are the matched
        coins not yet used; ``budget`` the placements, moves and captures left and whether
        a coin may still be paid."""
        # The same position can be reached with different allowances left (move a dime
        # away and capture it, or capture it where it stands and still move a stack): it is
        # listed once, but searched again for each allowance.
        key = (stacks, banks, ended)
        if key not in self.seen:
            self.seen[key] = actions
        if ended or (key, free, budget) in self.searched:
            return
        self.searched.add((key, free, budget))
        for after, after_banks, rest, left, action in self.actions(stacks, banks, free, budget):
            ended = self.ending(after, after_banks[self.me])
            self.search(after, after_banks, ended, rest, left, actions + (action,))

    def actions(
        self, stacks: Stacks, banks: Banks, free: tuple[int, ...], budget: tuple[int, int, int, bool]
    ) -> Iterator[tuple[Stacks, Banks, tuple[int, ...], tuple[int, int, int, bool], Action]]:
        """Each action still allowed, in :meth:`CoinAgeRules._candidate_actions`' order, as
        (stacks, banks, matched coins unused, allowance left, the action) after it."""
        placements, moves, captures, can_pay = budget
        if can_pay:
            for rank in free:
                rest = tuple(r for r in free if r != rank)
                paid = self.banks_with(banks, rank, -1, paid=True)
                yield stacks, paid, rest, (placements + 1, moves, captures, False), ("pay", rank)
        if placements > 0:
            for rank in free:
                rest = tuple(r for r in free if r != rank)
                spent = self.banks_with(banks, rank, -1)
                left = (placements - 1, moves, captures, can_pay)
                for space, stack in enumerate(stacks):
                    if not stack or stack[-1][0] > rank:
                        after = stacks[:space] + (stack + (self.coin[rank],),) + stacks[space + 1 :]
                        yield after, spent, rest, left, ("place", rank, space)
        if moves > 0:
            left = (placements, moves - 1, captures, can_pay)
            for source, stack in enumerate(stacks):
                for target in self.neighbours[source] if stack else ():
                    if not stacks[target]:
                        shifted = list(stacks)
                        shifted[target], shifted[source] = stack, ()
                        yield tuple(shifted), banks, free, left, ("move", source, target)
        if captures > 0:
            left = (placements, moves, captures - 1, can_pay)
            for space, stack in enumerate(stacks):
                if stack:
                    after = stacks[:space] + (stack[:-1],) + stacks[space + 1 :]
                    yield after, self.banks_with(banks, stack[-1][0], +1), free, left, ("capture", space)

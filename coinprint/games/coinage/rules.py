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
from typing import Any

from coinprint.engine import IllegalMoveError, InvalidMoveError, Result, Rules
from coinprint.errors import UsageError
from coinprint.games.coinage.coins import DENOMINATIONS, NAMES, PLAYERS, START_BANK, VALUES
from coinprint.games.coinage.state import Action, Allowance, CoinAgeState, Throw, Turn
from coinprint.games.coinage.turns import TurnSearch
from coinprint.layout import Layout

NO_THROW = "no throw yet this turn; call begin_turn first (the throw comes before any action)"
"""Why turns cannot be listed before the throw."""

_THROWS: dict[Throw, tuple[int, int]] = {
    tuple((rank, bool(hits >> rank & 1)) for rank in (3, 2, 1, 0) if held >> rank & 1): (held, hits & held)
    for held in range(16)
    for hits in range(16)
    if hits & ~held == 0
}
"""Every throw written highest first (as every turn read or thrown is): the ranks thrown
and the ranks matched, as bits."""

_ALLOWANCE_BY_MATCHES = ((0, 1, 1, False), (1, 1, 0, False), (2, 0, 0, False), (2, 0, 0, False), (2, 0, 0, True))
"""(placements, moves, captures, may pay) by the number of matches (:class:`Allowance`)."""


class CoinAgeRules(Rules[CoinAgeState, Turn]):
    """Coin Age on a map layout. Options: none yet (an unknown option is a usage error)."""

    players = PLAYERS

    def __init__(self, layout: Layout, options: dict[str, Any] | None = None) -> None:
        options = dict(options or {})
        if options:
            raise UsageError(f"unknown coinage option(s) {', '.join(sorted(options))}; Coin Age has no options")
        self.layout = layout
        self.ids = [s.id for s in layout.spaces]
        self.index = {sid: i for i, sid in enumerate(self.ids)}
        self.labels = [s.name for s in layout.spaces]
        adjacency = layout.adjacency
        self.neighbours = [frozenset(self.index[n] for n in adjacency[sid]) for sid in self.ids]
        regions: dict[str, list[int]] = {}
        for i, space in enumerate(layout.spaces):
            regions.setdefault(space.region or space.id, []).append(i)
        self.regions = [tuple(v) for _, v in sorted(regions.items())]
        self.region_names = sorted(regions)

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
        is). The same rules as :meth:`_illegal` and :meth:`do_action`, with the empty spaces and
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
        allowance = Allowance.for_throw(turn.throw)
        for number, action in enumerate(turn.actions, start=1):
            if checked:
                if state.ended:
                    raise IllegalMoveError(
                        f"action {number} ({self.action_text(action)}): the game ended at once ({state.ended}); nothing more may be done"
                    )
                why = self._illegal(state, allowance, action)
                if why:
                    raise IllegalMoveError(f"action {number} ({self.action_text(action)}): {why}")
            self.do_action(state, allowance, action)
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

    def _illegal(self, state: CoinAgeState, allowance: Allowance, action: Action) -> str | None:
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

    def do_action(self, state: CoinAgeState, allowance: Allowance, action: Action) -> None:
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
        return [turn for turn, _ in self.turns_after(state)]

    def turns_after(self, state: CoinAgeState) -> list[tuple[Turn, CoinAgeState]]:
        """:meth:`legal_moves` with the position after each turn (no throw pending), found in
        one depth-first search (:class:`~coinprint.games.coinage.turns.TurnSearch`)."""
        if state.ended:
            return []
        if state.throw is None:
            raise IllegalMoveError(NO_THROW)
        return TurnSearch(self.neighbours, state).run()

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

"""Every distinct turn of one throw in Coin Age, found depth first: the referee lists its legal
turns with it, and the search the positions after them."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from coinprint.games.coinage.coins import PLAYERS
from coinprint.games.coinage.state import Action, Allowance, Banks, CoinAgeState, Stacks, Turn


class TurnSearch:
    """Every distinct outcome of one throw, depth first, over immutable stacks and banks.

    The actions are tried in the order :meth:`~coinprint.games.coinage.search.CoinAgeSearch.candidate_actions` gives them
    (pay, place, move, capture), so each outcome keeps the first action sequence that reaches
    it. A state here is (stacks, banks, how the game ended) and is its own key."""

    def __init__(self, neighbours: list[frozenset[int]], state: CoinAgeState) -> None:
        assert state.throw is not None
        self.state = state
        self.throw = state.throw
        self.me = state.mover
        self.coin = [(rank, self.me) for rank in range(4)]
        self.neighbours = [sorted(n) for n in neighbours]
        self.placed_all = f"{PLAYERS[self.me]} has placed every coin"
        self.seen: dict[tuple[Any, ...], tuple[Action, ...]] = {}
        """Every outcome found, with the first action sequence found to it."""
        self.searched: set[tuple[Any, ...]] = set()
        """(outcome, free coins, allowance left) already searched from."""

    def run(self) -> list[tuple[Turn, CoinAgeState]]:
        state, allowance = self.state, Allowance.for_throw(self.throw)
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
        """How the game ends after an action, as :meth:`~coinprint.games.coinage.rules.CoinAgeRules.do_action` says it, or None."""
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
        """Each action still allowed, in :meth:`~coinprint.games.coinage.search.CoinAgeSearch.candidate_actions`' order, as
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

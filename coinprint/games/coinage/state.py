"""Coin Age's positions and turns as data: what the referee, the legal-turn listing and the
search share."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

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


@dataclass
class Allowance:
    """What is left of a turn's allowance while its actions are checked one by one."""

    matched: list[int]
    placements: int
    moves: int
    captures: int
    can_pay: bool
    paid: bool = False
    used: list[int] = field(default_factory=list)

    @classmethod
    def for_throw(cls, throw: Throw) -> Allowance:
        matched = [rank for rank, hit in throw if hit]
        count = len(matched)
        if count == 4:
            return cls(matched, 2, 0, 0, True)
        if count >= 2:
            return cls(matched, 2, 0, 0, False)
        if count == 1:
            return cls(matched, 1, 1, 0, False)
        return cls(matched, 0, 1, 1, False)

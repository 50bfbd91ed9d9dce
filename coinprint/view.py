"""How a position is shown: the :class:`View` a game may provide beside its referee.

The referee (:class:`~coinprint.engine.Rules`) knows what is legal; a view says what a picture
of a position holds — the coins on each space, who holds which space, a caption, and what a
replay shows beside a move — as data (:class:`~coinprint.layout.Mark`), never as drawing:
``render/`` draws the marks. A game gets its view from :meth:`coinprint.game.Game.view`; this
class is the default.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Generic, TypeVar

if TYPE_CHECKING:
    from coinprint.engine import Rules
    from coinprint.layout import Layout, Mark

S = TypeVar("S")
M = TypeVar("M")


class View(Generic[S, M]):
    """What pictures of positions of ``rules``' game hold. The defaults show no coins."""

    def __init__(self, rules: Rules[S, M]) -> None:
        self.rules = rules

    def board(self, state: S) -> Layout:
        """The board ``state`` is played on: the layout, unless the game grows its board as it
        is played (the Map drawn together: the countries drawn so far)."""
        return self.rules.layout

    def marks(self, state: S) -> list[Mark]:
        """What lies on each space, for drawing the position (coins, faces, stacks, rings);
        this is what puts coins on positions, replays and time-lapses."""
        return []

    def holders(self, state: S) -> dict[str, str]:
        """Who holds each space now: space id → player; spaces no one holds are left out.
        By default a space is held by the side of the coin shown on it."""
        players = self.rules.players
        return {mark.space: mark.side for mark in self.marks(state) if mark.side in players}

    def title(self, state: S) -> str:
        """A one-line caption for a picture of ``state``."""
        return f"{self.rules.layout.game}: {self.rules.result(state).describe()}"

    def move_note(self, state: S, move: M) -> str:
        """A line shown beside a move in a replay (Coin Age: the turn's throw); "" by default.
        ``state`` is the position before the move."""
        return ""

    def move_aside(self, state: S, move: M) -> list[Mark]:
        """Coins a replay shows beside the board with this move, top down (Coin Age: the
        turn's throw, each coin in the colour of the face it landed on); none by default.
        ``state`` is the position before the move; the marks' ``space`` is ""."""
        return []

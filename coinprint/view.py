"""How a position is shown: the :class:`View` a game may provide beside its referee.

The referee (:class:`~coinprint.engine.Rules`) knows what is legal; a view says what a picture
of a position holds — the coins on each space, who holds which space, a caption, and what a
replay shows beside a move — as data (:class:`~coinprint.layout.Mark`), never as drawing:
``render/`` draws the marks. A game gets its view from :meth:`coinprint.game.Game.view`; this
class is the default.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from coinprint.units import coin

if TYPE_CHECKING:
    from coinprint.engine import Rules
    from coinprint.layout import Layout, Mark, Space

S = TypeVar("S")
M = TypeVar("M")


@dataclass(frozen=True)
class TrayCoin:
    """A coin shown beside the board on the table (in a bank, a supply, a throw): ``count``
    coins alike; ``pick`` is what choosing it means in :meth:`View.move_picks` ("" when it
    cannot be picked); ``scale`` its size against the largest coin of the game."""

    text: str
    side: str = ""
    count: int = 1
    pick: str = ""
    scale: float = 1.0
    ring: str = ""
    caption: str = ""
    """A word under the coin ("heads" for a thrown coin's face), or ""."""


@dataclass(frozen=True)
class Tray:
    """A row of coins beside the board on the table: a player's bank, the supply, a throw."""

    title: str
    coins: tuple[TrayCoin, ...]
    player: str = ""
    """Whose tray it is ("" for one shared by all)."""


@dataclass(frozen=True)
class Preview:
    """A move being made, as the table shows it live (:meth:`View.preview`)."""

    refusal: str | None
    """Why the rules would refuse the move as it stands (None: they would accept it)."""
    shape: tuple[tuple[float, float], ...] = ()
    """The area the move would make (a ring in layout mm), or () when it makes none."""
    spaces: tuple[str, ...] = ()
    """The spaces it would touch (the countries a new one borders)."""
    lines: tuple[str, ...] = ()
    """What is shown beside it, a line each (its neighbour count, its coin's fit)."""


_WORD = re.compile(r"[^\s;,:()]+")

MOTION_FRAME_S = 0.04
"""Time between two pictures of a move in motion (25 a second: the coins slide as they did)."""


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
        return {mark.space: mark.side for mark in self.marks(state) if mark.side in players and mark.space}

    def title(self, state: S) -> str:
        """A one-line caption for a picture of ``state``."""
        return f"{self.rules.layout.game}: {self.rules.result(state).describe()}"

    def move_note(self, state: S, move: M) -> str:
        """A line shown beside a move in a replay (Coin Age: the turn's throw); "" by default.
        ``state`` is the position before the move."""
        return ""

    def move_words(self, state: S, move: M) -> str:
        """How ``move`` is said to a person on the studio's table (announced, listed) when its
        notation would not read well (the Map's arc: "draws country 8", not its points); ""
        (the default) says it by its notation. ``state`` is the position before the move."""
        return ""

    def motion(self, state: S, move: M) -> list[list[Mark]]:
        """The positions a time-lapse shows while ``move`` happens, before the one after it
        (a Flick shot: the coins sliding, a picture every :data:`MOTION_FRAME_S` seconds of
        the shot); none by default. ``state`` is the position before the move."""
        return []

    def move_aside(self, state: S, move: M) -> list[Mark]:
        """Coins a replay shows beside the board with this move, top down (Coin Age: the
        turn's throw, each coin in the colour of the face it landed on); none by default.
        ``state`` is the position before the move; the marks' ``space`` is ""."""
        return []

    # -- the studio's table: what a person sees and points at ------------------------------------
    def pieces(self, state: S) -> list[Mark]:
        """The coins on the table, each as a coin: ``text`` its own letter, ``side`` its owner
        (who holds a space is :meth:`holders`); by default :meth:`marks`."""
        return self.marks(state)

    def free_coin_radius(self, mark: Mark) -> float:
        """The radius in mm of a coin lying anywhere on the board (a mark with ``at``): by
        default a US quarter's."""
        return coin("quarter").radius_mm

    def interaction(self, state: S) -> str:
        """How a person makes a move on the studio's table in ``state``: "pick" (pointing at
        spaces, coins and choices one after another, :meth:`move_picks`), "sling" (pulling a
        coin back to shoot it: a dexterity game's shot, with :meth:`table_facts`) or "draw"
        (drawing a line, judged live by :meth:`preview`: the Map's arcs)."""
        return "pick"

    def table_facts(self, state: S) -> dict[str, Any]:
        """What the table's interaction needs beyond the board in ``state`` (the sling: the
        table's friction, the fastest shot, the goal; drawing: the outline to draw from); a
        ``polygon`` (layout points) is turned into the table's coordinates. None by default."""
        return {}

    def table_area(self, state: S) -> tuple[float, float, float, float] | None:
        """The part of the plane the table shows (minx, miny, maxx, maxy in layout mm) when the
        board grows as it is played, so the paper stays put while it grows (the Map drawn
        together); None (the default): the board's own extent."""
        return None

    def preview(self, state: S, move: M) -> Preview | None:
        """What the table shows of ``move`` while a person is still making it, before it is
        played (a country being drawn: its shape, its neighbours, whether its coin fits, and
        why the rules would refuse it); None when the game shows nothing."""
        return None

    def coin_scale(self, mark: Mark) -> float:
        """How large a coin is drawn against the game's largest coin (1.0: all alike)."""
        return 1.0

    def fill(self, space: Space) -> tuple[str, int | None]:
        """Which palette fills ``space`` on the table as it is printed ("space" or "region")
        and its colour number there."""
        return ("space", space.properties.get("color"))

    def trays(self, state: S) -> list[Tray]:
        """The coins beside the board (banks, the supply, a throw); none by default."""
        return []

    def score_lines(self, state: S) -> list[str]:
        """What makes the score so far, a line each (the result's own line by default)."""
        return [self.rules.result(state).describe()]

    def move_picks(self, state: S, move: M) -> list[list[str]]:
        """The ways a person makes ``move`` by pointing, each an ordered list of picks: a
        space id (a space, or the coin on it) or a word for something off the board (a coin
        of a tray, whose ``pick`` it is, or a choice such as "flip", shown as a button named by
        :meth:`pick_words`). By default one way: the spaces the move's text names, in order."""
        layout = self.rules.layout
        picks = []
        for word in _WORD.findall(str(self.rules.move_text(state, move))):
            try:
                picks.append(layout.space(word).id)
            except KeyError:
                continue
        return [picks]

    def pick_words(self, state: S, pick: str) -> str:
        """How a pick is named on a button and to a screen reader."""
        try:
            return f"space {self.rules.layout.space(pick).name}"
        except KeyError:
            return pick

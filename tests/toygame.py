"""A fifth game that exists only for the tests: "Strip", a row of squares where players take
turns claiming an empty square; most squares wins. It is built from its parts and one
:class:`GameSpec`, as CONTRIBUTING.md says a new game is, so the conformance suite can show
that a game is picked up from the registry alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from coinprint.boards.checks import Problem, common_problems
from coinprint.errors import UsageError
from coinprint.games.core import IllegalMoveError, InvalidMoveError, Result, Rules
from coinprint.layout import Layout, Mark, Space, close_ring
from coinprint.registry import GameParts, GameSpec

NAME = "strip"
SQUARE_MM = 30.0


def build(params: dict[str, str]) -> Layout:
    """``strip:squares=N`` (2 to 9 squares, default 5)."""
    try:
        squares = int(params.get("squares", 5))
    except ValueError:
        raise UsageError(f"strip squares must be a whole number, not {params['squares']!r}") from None
    if not 2 <= squares <= 9:
        raise UsageError(f"strip squares {squares} is out of range; use 2 to 9")
    spaces = []
    for k in range(squares):
        x = k * SQUARE_MM
        ring = close_ring([(x, 0), (x + SQUARE_MM, 0), (x + SQUARE_MM, SQUARE_MM), (x, SQUARE_MM)])
        spaces.append(Space(f"s{k + 1}", (ring,), label=str(k + 1)))
    return Layout(NAME, spaces, meta={"params": {"squares": squares}})


def check(layout: Layout, *, tolerance_mm: float = 0.2) -> list[Problem]:
    return common_problems(layout)


@dataclass
class StripState:
    owner: list[str | None]
    mover: int = 0

    def copy(self) -> StripState:
        return StripState(list(self.owner), self.mover)


class StripRules(Rules[StripState, int]):
    name = NAME
    players = ("heads", "tails")

    def __init__(self, layout: Layout, options: dict[str, Any] | None = None) -> None:
        if options:
            raise UsageError(f"strip has no options, not {sorted(options)}")
        self.layout = layout
        self.labels = [space.name for space in layout.spaces]

    def initial_state(self) -> StripState:
        return StripState([None] * len(self.labels))

    def to_move(self, state: StripState) -> str:
        return self.players[state.mover]

    def legal_moves(self, state: StripState) -> list[int]:
        return [i for i, owner in enumerate(state.owner) if owner is None]

    def check(self, state: StripState, move: int) -> None:
        if state.owner[move] is not None:
            raise IllegalMoveError(f"square {self.labels[move]} is taken")

    def apply_unchecked(self, state: StripState, move: int) -> None:
        state.owner[move] = self.to_move(state)
        state.mover = 1 - state.mover

    def is_over(self, state: StripState) -> bool:
        return None not in state.owner

    def result(self, state: StripState) -> Result:
        score = {p: state.owner.count(p) for p in self.players}
        winner = None if score["heads"] == score["tails"] else max(score, key=score.__getitem__)
        return Result(winner, score, "every square claimed", finished=self.is_over(state))

    def parse_move(self, state: StripState, text: Any) -> int:
        words = str(text).split()
        if len(words) != 2 or words[0] != "claim" or words[1] not in self.labels:
            raise InvalidMoveError(f"{text!r} is not a move; write 'claim N' with N from 1 to {len(self.labels)}")
        return self.labels.index(words[1])

    def move_text(self, state: StripState, move: int) -> str:
        return f"claim {self.labels[move]}"

    def marks(self, state: StripState) -> list[Mark]:
        ids = [space.id for space in self.layout.spaces]
        return [Mark(ids[i], owner[0].upper(), owner) for i, owner in enumerate(state.owner) if owner]


def _parts() -> GameParts:
    from coinprint.kit import board_pages
    from coinprint.render.board import position_sheet

    def draw_board(layout: Layout, style: str) -> Any:
        return position_sheet(layout, [], StripRules.players, title="Strip")

    def kit_pages(settings: Any, lang: str) -> list[Any]:
        return board_pages(draw_board(build({}), settings.style), settings)

    return GameParts(build, check, StripRules, draw_board, position_sheet, kit_pages)


SPEC = GameSpec(NAME, "Strip", _parts, default_layout="strip:squares=5")

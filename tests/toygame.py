"""A fifth game that exists only for the tests: "Strip", a row of squares where players take
turns claiming an empty square; most squares wins. It is one :class:`~coinprint.game.Game`
subclass (with its rule-sheet texts in ``tests/toygame_texts/``) registered with one line, as
CONTRIBUTING.md says a new game is, so the conformance suite can show that a game gets every
command and check from the registry alone.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from coinprint.checks import Problem, common_problems
from coinprint.engine import IllegalMoveError, InvalidMoveError, Result, Rules
from coinprint.errors import UsageError
from coinprint.game import Game, Option, Seat
from coinprint.kit import PrintSettings, SheetParts
from coinprint.layout import Layout, Mark, Space, close_ring
from coinprint.render.pages import Sheet
from coinprint.render.scene import Scene

NAME = "strip"
SQUARE_MM = 30.0


def build(params: Mapping[str, str]) -> Layout:
    """``strip:squares=N`` (2 to 9 squares, default 5)."""
    unknown = set(params) - {"squares"}
    if unknown:
        raise UsageError(f"unknown strip layout parameter(s) {', '.join(sorted(unknown))}; use squares")
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


class Strip(Game):
    name = NAME
    title = "Strip"
    default_layout = "strip:squares=5"
    template_folder = Path(__file__).parent / "toygame_texts"
    board_options = (Option("--squares", "Squares in the row (2 to 9).", 5, "int"),)
    rules_options = (Option("--squares", "Squares the sheet describes (2 to 9).", 5, "int"),)
    play_options = (Option("--squares", "Squares in the row (2 to 9).", 5, "int"),)
    seats = (Seat("heads", "--heads"), Seat("tails", "--tails"))

    def build(self, params: Mapping[str, str]) -> Layout:
        return build(params)

    def problems(self, layout: Layout, *, tolerance_mm: float = 0.2) -> list[Problem]:
        return common_problems(layout)

    def rules(self, layout: Layout, options: Mapping[str, Any] | None = None) -> StripRules:
        return StripRules(layout, dict(options or {}))

    def board_sheet(self, layout: Layout, style: str) -> Sheet:
        return self.position_sheet(layout, [], StripRules.players, title="Strip")

    def kit_pages(self, settings: PrintSettings, lang: str) -> list[Scene]:
        from coinprint.kit import board_pages, rule_sheet

        sheet = rule_sheet(NAME, settings.paper, lang)
        return sheet + board_pages(self.board_sheet(self.build({}), settings.style), settings)

    def sheet_values(self, template: dict[str, Any], source: str, **params: Any) -> SheetParts:
        return SheetParts({"squares": params.get("squares", 5)}, {}, {})

    def play_layout(self, values: Mapping[str, Any]) -> str:
        return f"strip:squares={values['squares']}"

    def rules_params(self, values: Mapping[str, Any]) -> dict[str, Any]:
        return {"squares": values["squares"]}


GAME = Strip()

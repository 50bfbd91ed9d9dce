"""Strip, a fifth game that exists only for the tests: a row of squares on which two players
take turns claiming an empty square; most squares wins.

It is written exactly as CONTRIBUTING.md says a game is added, and lives once, here:

- ``tests/test_wheel.py`` copies this folder to ``coinprint/games/strip/`` of a copy of the
  source tree, with its English texts (``tests/scratch_game/strip.en.json``) as
  ``templates/strip.en.json`` and one line in ``BUILT_IN``, builds a wheel and runs every
  command of the installed copy on it;
- ``tests/toygame.py`` loads this same class from this file and registers it in the checkout
  (pointing :attr:`~coinprint.game.Game.template_folder` at ``tests/scratch_game/``), so the
  conformance suite checks it beside the built-in games.

So it imports only coinprint's shared modules, never ``tests``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from coinprint.checks import Problem, common_problems
from coinprint.engine import IllegalMoveError, InvalidMoveError, Result, Rules
from coinprint.errors import UsageError
from coinprint.game import Game, RuleSheetParts, Seat
from coinprint.layout import Layout, Mark, Space, close_ring
from coinprint.params import Param, Values
from coinprint.printing import PrintJob
from coinprint.render.board import layout_scene
from coinprint.render.sheet import Sheet
from coinprint.view import View

NAME = "strip"
SQUARE_MM = 30.0


def build(squares: int, game: str = NAME) -> Layout:
    """A row of ``squares`` squares (the schema checks the range), a layout of ``game`` (a
    variant of Strip may be called otherwise)."""
    spaces = []
    for k in range(squares):
        x = k * SQUARE_MM
        ring = close_ring([(x, 0), (x + SQUARE_MM, 0), (x + SQUARE_MM, SQUARE_MM), (x, SQUARE_MM)])
        spaces.append(Space(f"s{k + 1}", (ring,), label=str(k + 1)))
    return Layout(game, spaces, meta={"params": {"squares": squares}})


@dataclass
class StripState:
    owner: list[str | None]
    mover: int = 0

    def copy(self) -> StripState:
        return StripState(list(self.owner), self.mover)


class StripRules(Rules[StripState, int]):
    players = ("heads", "tails")

    def __init__(self, layout: Layout, options: dict[str, Any] | None = None) -> None:
        if options:
            raise UsageError(f"{layout.game} has no options, not {sorted(options)}")
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


class StripView(View[StripState, int]):
    """A claimed square shows its owner's coin."""

    def marks(self, state: StripState) -> list[Mark]:
        ids = [space.id for space in self.rules.layout.spaces]
        return [Mark(ids[i], owner[0].upper(), owner) for i, owner in enumerate(state.owner) if owner]


class Strip(Game):
    name = NAME
    title = "Strip"
    params = (
        Param(
            "squares",
            "int",
            "Squares in the row.",
            5,
            frozenset({"board", "rules", "play", "spec"}),
            low=2,
            high=9,
            named=True,
        ),
    )
    seats = (Seat("heads", "--heads"), Seat("tails", "--tails"))

    def build(self, values: Values) -> Layout:
        return build(values["squares"], self.name)

    def problems(self, layout: Layout, *, tolerance_mm: float = 0.2) -> list[Problem]:
        return common_problems(layout)

    def rules(self, layout: Layout, options: Mapping[str, Any] | None = None) -> StripRules:
        return StripRules(layout, dict(options or {}))

    def view(self, rules: Rules[Any, Any]) -> StripView:
        return StripView(rules)

    def sheet(self, layout: Layout, job: PrintJob) -> Sheet:
        # The row as drawn in the job's style; the page's own words are in the job's language.
        return Sheet(layout_scene(layout, job.settings.style), self.title, lang=job.lang)

    def rule_sheet_parts(
        self, template: Mapping[str, Any], values: Values, layout: Callable[[], Layout]
    ) -> RuleSheetParts:
        return RuleSheetParts({"squares": values["squares"]})

"""Flick (the seed's "coin game"): flick quarters into a square goal marked by four dimes.

There is no ``play flick``: Flick is a dexterity game, and agents choosing table events at
random would only produce penalties. The engine (``rules``) referees a log of observed events.
The package: ``board`` (the mat), ``rules`` (the referee), ``draw`` and ``sheet``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from coinprint.game import BoardPrint, Game, Option
from coinprint.games.flick import board
from coinprint.games.flick.draw import marks_sheet, mat_sheet
from coinprint.games.flick.rules import FlickRules
from coinprint.games.flick.sheet import kit_pages, sheet_parts

if TYPE_CHECKING:
    from coinprint.checks import Problem
    from coinprint.engine import Rules
    from coinprint.kit import PrintSettings, SheetParts
    from coinprint.layout import Layout, Mark
    from coinprint.render.pages import Sheet
    from coinprint.render.scene import Scene


class Flick(Game):
    name = "flick"
    board_noun = "mat"
    title = "Flick"
    simulated = False
    drawing = None
    board_options = (
        Option("--sides", "Corners of the goal: 3 (triangle) to 8 (octagon).", 4, "int"),
        Option(
            "--width",
            "Length of each side of the goal, goal-coin centre to centre (e.g. 15cm, 6in).",
            "15cm",
            "length",
            metavar="LENGTH",
        ),
        Option("--goal-coin", "Coin at every corner of the goal.", "dime", metavar="COIN"),
        Option("--score-coin", "Coin each player flicks.", "quarter", metavar="COIN"),
        Option("--coins", "Score coins per player (2 to 12).", 2, "int"),
        Option(
            "--players",
            "Players, one per side (2 up to --sides); more than 2 is a team game, Heads and Tails alternating.",
            2,
            "int",
        ),
    )

    def build(self, params: Mapping[str, str]) -> Layout:
        return board.from_params(dict(params))

    def problems(self, layout: Layout, *, tolerance_mm: float = board.TOLERANCE_MM) -> list[Problem]:
        return board.check(layout, tolerance_mm=tolerance_mm)

    def rules(self, layout: Layout, options: Mapping[str, Any] | None = None) -> Rules[Any, Any]:
        return FlickRules(layout, dict(options or {}))

    def board_sheet(self, layout: Layout, style: str) -> Sheet:
        return mat_sheet(layout, style)

    def position_sheet(
        self, layout: Layout, marks: Sequence[Mark], players: Sequence[str], *, title: str = ""
    ) -> Sheet:
        return marks_sheet(layout, marks, players, title=title)

    def kit_pages(self, settings: PrintSettings, lang: str) -> list[Scene]:
        return kit_pages(settings, lang)

    def sheet_values(self, template: dict[str, Any], source: str, **params: Any) -> SheetParts:
        return sheet_parts(template, source, **params)

    def board_layout(self, values: Mapping[str, Any]) -> Layout:
        return board.build(
            values["sides"],
            values["width"],
            values["goal_coin"],
            values["score_coin"],
            values["coins"],
            values["players"],
        )

    def board_print(self, layout: Layout, values: Mapping[str, Any], settings: PrintSettings, pdf: bool) -> BoardPrint:
        return BoardPrint(layout, self.board_sheet(layout, settings.style), "flick-mat")

"""Coin Table: a hexagon of hexes (61 at side 5, 1.25 in each); place, touch, flip, castle.

The package: ``board`` (generator and checker), ``rules`` (the engine), ``playout`` (the fast
random play-outs tree search runs), ``draw`` (the board at true size) and ``sheet`` (the rule
sheet's values and drawn boards completed for print).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, cast

from coinprint import caps
from coinprint.checks import DEFAULT_TOLERANCE_MM
from coinprint.game import Game, RuleSheetParts, Seat
from coinprint.games.cointable import board
from coinprint.games.cointable.draw import board_sheet
from coinprint.games.cointable.rules import CoinTableRules
from coinprint.games.cointable.search import CoinTableSearch
from coinprint.games.cointable.sheet import printable, rule_sheet_parts
from coinprint.games.cointable.view import CoinTableView
from coinprint.params import Param, Values
from coinprint.printing import PrintJob
from coinprint.units import Length

if TYPE_CHECKING:
    from coinprint.checks import Problem
    from coinprint.engine import Rules
    from coinprint.layout import Layout
    from coinprint.render.sheet import Sheet
    from coinprint.search import Search
    from coinprint.view import View


class CoinTable(Game):
    name = "cointable"
    title = "Coin Table"
    params = (
        Param(
            "size",
            "int",
            "Hexes along each side of the board.",
            board.STANDARD_SIDE,
            frozenset({"board", "rules", "play", "spec"}),
            low=board.MIN_SIDE,
            high=board.MAX_SIDE,
            named=True,
        ),
        Param(
            "hex",
            "length",
            "Size of one hex (e.g. 1.25in, 32mm).",
            Length.parse(board.STANDARD_HEX),
            metavar="LENGTH",
        ),
        Param("measure", "choice", "How --hex is measured across a hex.", "flat-to-flat", choices=board.MEASURES),
        Param(
            "orientation",
            "choice",
            "pointy: rows of hexes run left to right; flat: the board turned a quarter turn.",
            "pointy",
            choices=board.ORIENTATIONS,
        ),
        Param("coin", "coin", "Coin whose faint outline guides each hex ('none' for no guide).", "penny", none=True),
        Param(
            "supply",
            "int",
            "Coins in the shared supply.",
            100,
            frozenset({"rules", "play"}),
            role="rules",
            low=1,
            high=caps.MAX_SUPPLY,
            check=caps.check_supply,
        ),
    )
    seats = (Seat("heads", "--heads"), Seat("tails", "--tails"))
    play_max_turns = 2000
    """Random games take about 330 moves on the standard board, but two agents can touch back
    and forth for ever."""

    def build(self, values: Values) -> Layout:
        return board.build(values["size"], values["hex"], values["measure"], values["orientation"], values["coin"])

    def problems(self, layout: Layout, *, tolerance_mm: float = DEFAULT_TOLERANCE_MM) -> list[Problem]:
        return board.check(layout, tolerance_mm=tolerance_mm)

    def rules(self, layout: Layout, options: Mapping[str, Any] | None = None) -> CoinTableRules:
        return CoinTableRules(layout, dict(options or {}))

    def search(self, rules: Rules[Any, Any]) -> Search[Any, Any]:
        return CoinTableSearch(cast(CoinTableRules, rules))

    def view(self, rules: Rules[Any, Any]) -> View[Any, Any]:
        return CoinTableView(cast(CoinTableRules, rules))

    def sheet(self, layout: Layout, job: PrintJob) -> Sheet:
        return board_sheet(layout, job.settings.style, texts=dict(job.texts) or None, lang=job.lang)

    def rule_sheet_parts(
        self, template: Mapping[str, Any], values: Values, layout: Callable[[], Layout]
    ) -> RuleSheetParts:
        return rule_sheet_parts(template, layout(), supply=values["supply"], side=values["size"])

    def named(self, layout: Layout) -> Layout:
        return board.named_cells(layout)

    def printable(self, layout: Layout) -> Layout:
        return printable(layout)

"""Coin Table: a hexagon of hexes (61 at side 5, 1.25 in each); place, touch, flip, castle.

The package: ``board`` (generator and checker), ``rules`` (the engine), ``fast`` (batched
play-outs), ``draw`` (the board at true size) and ``sheet`` (the rule sheet and kit).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from coinprint import caps
from coinprint.checks import DEFAULT_TOLERANCE_MM
from coinprint.errors import UsageError
from coinprint.game import Game, Option, Seat
from coinprint.games.cointable import board
from coinprint.games.cointable.draw import board_sheet
from coinprint.games.cointable.rules import CoinTableRules
from coinprint.games.cointable.sheet import kit_pages, printable, sheet_parts

if TYPE_CHECKING:
    from coinprint.checks import Problem
    from coinprint.engine import Rules
    from coinprint.kit import PrintSettings, SheetParts
    from coinprint.layout import Layout
    from coinprint.render.pages import Sheet
    from coinprint.render.scene import Scene

_SIZE = Option("--size", "Hexes along each side of the board (2 to 13).", 5, "int")
_SUPPLY = Option(
    "--supply", f"Coins in the shared supply. (1 to {caps.MAX_SUPPLY:,})", 100, "int", check=caps.check_supply
)


class CoinTable(Game):
    name = "cointable"
    title = "Coin Table"
    default_layout = "cointable:size=5"
    board_options = (
        _SIZE,
        Option("--hex", "Size of one hex (e.g. 1.25in, 32mm).", "1.25in", "length", metavar="LENGTH", dest="hex_size"),
        Option(
            "--measure",
            "How --hex is measured across a hex.",
            "flat-to-flat",
            "choice",
            ("flat-to-flat", "corner-to-corner"),
        ),
        Option(
            "--orientation",
            "pointy: rows of hexes run left to right; flat: the board turned a quarter turn.",
            "pointy",
            "choice",
            ("pointy", "flat"),
        ),
        Option("--coin", "Coin whose faint outline guides each hex ('none' for no guide).", "penny"),
    )
    rules_options = (
        Option("--size", "Board side the sheet describes (2 to 13).", 5, "int"),
        Option(
            "--supply",
            f"Coins in the shared supply, as the sheet states it. (1 to {caps.MAX_SUPPLY:,})",
            100,
            "int",
            check=caps.check_supply,
        ),
    )
    play_options = (_SIZE, _SUPPLY)
    seats = (Seat("heads", "--heads"), Seat("tails", "--tails"))
    play_seed = 1
    play_max_turns = 2000
    """Random games take about 330 moves on the standard board, but two agents can touch back
    and forth for ever."""

    def build(self, params: Mapping[str, str]) -> Layout:
        return board.from_params(dict(params))

    def problems(self, layout: Layout, *, tolerance_mm: float = DEFAULT_TOLERANCE_MM) -> list[Problem]:
        return board.check(layout, tolerance_mm=tolerance_mm)

    def rules(self, layout: Layout, options: Mapping[str, Any] | None = None) -> Rules[Any, Any]:
        return CoinTableRules(layout, dict(options or {}))

    def board_sheet(self, layout: Layout, style: str) -> Sheet:
        return board_sheet(layout, style)

    def drawn_values(self, layout: Layout) -> dict[str, Any]:
        return {"side": self.printable(layout).params["size"]}

    def named(self, layout: Layout) -> Layout:
        return board.named_cells(layout)

    def printable(self, layout: Layout) -> Layout:
        return printable(layout)

    def kit_pages(self, settings: PrintSettings, lang: str) -> list[Scene]:
        return kit_pages(settings, lang)

    def sheet_values(self, template: dict[str, Any], source: str, **params: Any) -> SheetParts:
        return sheet_parts(template, source, **params)

    def board_layout(self, values: Mapping[str, Any]) -> Layout:
        coin = values["coin"]
        return board.build(
            values["size"],
            values["hex_size"],
            values["measure"],
            values["orientation"],
            None if coin.lower() == "none" else coin,
        )

    def play_layout(self, values: Mapping[str, Any]) -> str:
        return f"cointable:size={values['size']}"

    def rule_options(self, values: Mapping[str, Any]) -> dict[str, Any]:
        return {"supply": values["supply"]}

    def rules_params(self, values: Mapping[str, Any]) -> dict[str, Any]:
        size = values["size"]
        if not board.MIN_SIDE <= size <= board.MAX_SIDE:
            raise UsageError(
                f"board size {size} is out of range; use a side from {board.MIN_SIDE} to {board.MAX_SIDE} hexes"
            )
        return {"supply": values["supply"], "side": size}

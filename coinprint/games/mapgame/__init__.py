"""Map: players draw 21 countries by appending arcs to a circle, then two coins chase each
other and claim countries.

The package: ``board`` (the arc-by-arc generator and the checker), ``rules`` (the chase),
``fast`` (play-outs), ``draw`` (the map and the blank sheet) and ``sheet`` (the rule sheet and kit).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from coinprint import caps
from coinprint.game import CANDIDATES, FAIR_AGENT, FAIR_GAMES, BoardPrint, Game, Option, Seat
from coinprint.games.mapgame import board
from coinprint.games.mapgame.draw import blank_sheet, map_sheet
from coinprint.games.mapgame.rules import MapRules
from coinprint.games.mapgame.sheet import kit_pages, rules_extra_pages, sheet_parts
from coinprint.io import Conventions

if TYPE_CHECKING:
    from coinprint.checks import Problem
    from coinprint.engine import Rules
    from coinprint.kit import PrintSettings, SheetParts
    from coinprint.layout import Layout
    from coinprint.render.pages import Sheet
    from coinprint.render.scene import Scene
    from coinprint.units import PaperSize


class MapGame(Game):
    name = "mapgame"
    board_noun = "map"
    title = "Map"
    default_layout = "mapgame:countries=21,seed=0,growth=packed,starts=apart"
    generated = {}  # every Map is generated from a seed, with no parameter asking for it
    drawing = Conventions(numbered=True)
    board_options = (
        Option("--countries", "Countries on the map: an odd number from 3 to 401.", 21, "int"),
        Option("--seed", "Seed of the map; the same seed gives the same map.", 0, "int", check=caps.check_seed),
        Option("--max-neighbours", "Most countries a new country may border when drawn.", 4, "int"),
        Option(
            "--coin",
            "O's coin and X's coin (one name for both); the larger must fit every country.",
            "penny/nickel",
            metavar="NAME[/NAME]",
        ),
        Option(
            "--growth",
            "packed wraps each arc along the map (more borders, no bays); sprawling is 0.1.0's look.",
            "packed",
            "choice",
            ("packed", "sprawling"),
        ),
        Option(
            "--blank", "Print the blank sheet instead: the circle and the rules, to draw your own map.", False, "flag"
        ),
        Option(
            "--fair",
            "Self-play --candidates maps from --seed on and print the one whose first player wins closest "
            "to 50 % (the figure is printed on the map).",
            False,
            "flag",
        ),
        CANDIDATES,
        FAIR_GAMES,
        FAIR_AGENT,
    )
    seats = (Seat("O", "--o-agent", "greedy"), Seat("X", "--x-agent", "random"))
    play_seed = 0
    play_max_turns = 400

    def build(self, params: Mapping[str, str]) -> Layout:
        return board.from_params(dict(params))

    def problems(self, layout: Layout, *, tolerance_mm: float = board.COIN_TOLERANCE_MM) -> list[Problem]:
        return board.check(layout, tolerance_mm=tolerance_mm)

    def rules(self, layout: Layout, options: Mapping[str, Any] | None = None) -> Rules[Any, Any]:
        return MapRules(layout, dict(options or {}))

    def layout_name(self, layout: Layout) -> str:
        return board.layout_name(layout)

    def drawn_values(self, layout: Layout) -> dict[str, Any]:
        return {"countries": len(layout)}

    def summary_line(self, layout: Layout) -> str:
        return board.summary(layout).describe()

    def board_sheet(self, layout: Layout, style: str) -> Sheet:
        return map_sheet(layout, style)

    def kit_pages(self, settings: PrintSettings, lang: str) -> list[Scene]:
        return kit_pages(settings, lang)

    def sheet_values(self, template: dict[str, Any], source: str, **params: Any) -> SheetParts:
        return sheet_parts(template, source, **params)

    def rules_extra_pages(self, paper: PaperSize, lang: str) -> list[Scene]:
        return rules_extra_pages(paper, lang)

    def board_layout(self, values: Mapping[str, Any]) -> Layout:
        coins = board.parse_coins(values["coin"])
        if values["blank"]:
            return board.blank_layout(coins)
        return board.build(
            values["countries"], values["seed"], values["max_neighbours"], coins, growth=values["growth"]
        )

    def board_print(self, layout: Layout, values: Mapping[str, Any], settings: PrintSettings, pdf: bool) -> BoardPrint:
        if values["blank"]:
            return BoardPrint(layout, blank_sheet(layout), "mapgame-blank")
        seed, growth = layout.meta["seed"], values["growth"]
        said = (f"seed {seed}, {growth}: {board.summary(layout).describe()}",)
        name = f"mapgame-{values['countries']}-seed{seed}"
        return BoardPrint(layout, map_sheet(layout, settings.style), name, said)

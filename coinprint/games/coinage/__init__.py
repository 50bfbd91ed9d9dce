"""Coin Age: a 10-space map card split into regions; throws of your own coins decide what you
may do (place, move, capture).

The package: ``board`` (built-in and random maps, the checker), ``rules`` (the engine),
``fast`` (play-outs on bitmasks), ``draw`` (the cards) and ``sheet`` (the rule sheet and kit).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from coinprint import caps
from coinprint.checks import DEFAULT_TOLERANCE_MM
from coinprint.errors import UsageError
from coinprint.game import BLEED, CANDIDATES, COPIES, FAIR_AGENT, FAIR_GAMES, BoardPrint, Game, Option, Seat
from coinprint.games.coinage import board
from coinprint.games.coinage.draw import board_sheet
from coinprint.games.coinage.rules import CoinAgeRules
from coinprint.games.coinage.sheet import kit_pages, printable, replay_note, sheet_parts
from coinprint.io import Conventions

if TYPE_CHECKING:
    from coinprint.checks import Problem
    from coinprint.engine import Rules
    from coinprint.kit import PrintSettings, SheetParts
    from coinprint.layout import Layout
    from coinprint.render.pages import Sheet
    from coinprint.render.scene import Scene


class CoinAge(Game):
    name = "coinage"
    board_noun = "map card"
    title = "Coin Age"
    default_layout = "coinage:map=classic"
    generated = {"map": "random"}
    drawing = Conventions(outline_role="card", regions=True)
    board_options = (
        Option(
            "--map",
            "A built-in map, or random (with --regions and --seed).",
            "classic",
            "choice",
            board.MAP_NAMES,
            dest="map_name",
        ),
        Option(
            "--regions",
            "Random maps: region sizes, e.g. 3,3,2,2 (6 to 20 spaces in all; default 4,3,2,1).",
            metavar="SIZES",
        ),
        Option("--seed", "Random maps: the seed (same seed, same map; default 0).", None, "int", check=caps.check_seed),
        Option(
            "--card",
            "Card size (default: A6, larger for more than 10 spaces, so a quarter fits every space).",
            metavar="a6|poker|credit|WxH",
        ),
        COPIES,
        Option(
            "--fair",
            "Random maps: self-play --candidates maps from --seed on and print the one whose first player "
            "wins closest to 50 % (the figure is printed on the card).",
            False,
            "flag",
        ),
        CANDIDATES,
        FAIR_GAMES,
        FAIR_AGENT,
        BLEED,
    )
    play_options = (
        Option("--map", "The map to play on.", "classic", "choice", board.MAP_NAMES, dest="map_name"),
        Option("--regions", "Random maps: region sizes, e.g. 4,3,2,1.", metavar="SIZES"),
        Option(
            "--map-seed",
            "Random maps: the map's seed (default 0).",
            None,
            "int",
            dest="map_seed",
            check=caps.check_seed,
        ),
    )
    seats = (Seat("heads", "--heads", "random"), Seat("tails", "--tails", "greedy"))
    play_seed = 1
    play_max_turns = 200

    def build(self, params: Mapping[str, str]) -> Layout:
        return board.from_params(dict(params))

    def problems(self, layout: Layout, *, tolerance_mm: float = DEFAULT_TOLERANCE_MM) -> list[Problem]:
        return board.check(layout, tolerance_mm=tolerance_mm)

    def rules(self, layout: Layout, options: Mapping[str, Any] | None = None) -> Rules[Any, Any]:
        return CoinAgeRules(layout, dict(options or {}))

    def replay_note(self, rules: Rules[Any, Any], state: Any, move: Any) -> str:
        return replay_note(rules, state, move)

    def layout_name(self, layout: Layout) -> str:
        return board.layout_name(layout)

    def board_sheet(self, layout: Layout, style: str) -> Sheet:
        return board_sheet(layout, style)

    def drawn_sheet(self, layout: Layout, settings: PrintSettings, *, copies: int | None, for_pdf: bool) -> Sheet:
        paper = settings.paper if for_pdf else None
        return board_sheet(layout, settings.style, paper=paper, margin=settings.margin_mm, copies=copies)

    def printable(self, layout: Layout) -> Layout:
        return printable(layout)

    def kit_pages(self, settings: PrintSettings, lang: str) -> list[Scene]:
        return kit_pages(settings, lang)

    def sheet_values(self, template: dict[str, Any], source: str, **params: Any) -> SheetParts:
        return sheet_parts(template, source, **params)

    def board_layout(self, values: Mapping[str, Any]) -> Layout:
        map_name, seed = values["map_name"], values["seed"]
        if values["fair"] and map_name != "random":
            raise UsageError("--fair needs --map random")
        seed = seed if seed is not None or map_name != "random" else 0
        return board.build(map_name, regions=values["regions"], seed=seed, card=values["card"])

    def board_print(self, layout: Layout, values: Mapping[str, Any], settings: PrintSettings, pdf: bool) -> BoardPrint:
        random_map = values["map_name"] == "random"
        sheet = board_sheet(
            layout,
            settings.style,
            paper=settings.paper if pdf else None,
            margin=settings.margin_mm,
            copies=values["copies"],
            bleed=settings.bleed_mm,
        )
        name = f"coinage-{values['map_name']}"
        if random_map:
            name += f"-{layout.params['regions']}-{layout.meta['seed']}"
        said = (f"seed {layout.meta['seed']}",) if random_map else ()
        warnings = tuple(str(p) for p in board.check(layout) if p.severity == "warning")
        return BoardPrint(layout, sheet, name, said, warnings)

    def play_layout(self, values: Mapping[str, Any]) -> str:
        map_name, map_seed = values["map_name"], values["map_seed"]
        random_map = map_name == "random"
        layout = board.build(
            map_name, regions=values["regions"], seed=map_seed if map_seed is not None or not random_map else 0
        )
        return board.layout_name(layout)

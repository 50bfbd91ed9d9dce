"""Coin Age: a 10-space map card split into regions; throws of your own coins decide what you
may do (place, move, capture).

The package: ``board`` (built-in and random maps, the checker), ``rules`` (the engine),
``fast`` (play-outs on bitmasks), ``draw`` (the cards) and ``sheet`` (the rule sheet's values
and drawn maps completed for print).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, cast

from coinprint.checks import DEFAULT_TOLERANCE_MM
from coinprint.game import Game, Generated, RuleSheetParts, Seat
from coinprint.games.coinage import board
from coinprint.games.coinage.draw import board_sheet
from coinprint.games.coinage.rules import CoinAgeRules
from coinprint.games.coinage.search import CoinAgeSearch
from coinprint.games.coinage.sheet import printable, rule_sheet_parts
from coinprint.games.coinage.view import CoinAgeView
from coinprint.io import Conventions
from coinprint.params import Param, Values
from coinprint.printing import PrintJob

if TYPE_CHECKING:
    from coinprint.checks import Problem
    from coinprint.engine import Rules
    from coinprint.layout import Layout
    from coinprint.render.sheet import Sheet
    from coinprint.search import Search
    from coinprint.view import View

_BOARD_PLAY_SPEC = frozenset({"board", "play", "spec"})


class CoinAge(Game):
    name = "coinage"
    board_noun = "map card"
    title = "Coin Age"
    params = (
        Param(
            "map",
            "choice",
            "A built-in map, or random (with --regions and --seed).",
            "classic",
            _BOARD_PLAY_SPEC,
            choices=board.MAP_NAMES,
            named=True,
        ),
        Param(
            "regions",
            "text",
            "Random maps: region sizes, e.g. 3,3,2,2 (6 to 20 spaces in all; default 4,3,2,1).",
            None,
            _BOARD_PLAY_SPEC,
            metavar="SIZES",
        ),
        Param(
            "seed",
            "seed",
            "Random maps: the seed (same seed, same map; default 0).",
            None,
            _BOARD_PLAY_SPEC,
            flags={"play": "--map-seed"},
        ),
        Param(
            "card",
            "text",
            "Card size (default: A6, larger for more than 10 spaces, so a quarter fits every space).",
            None,
            metavar="a6|poker|credit|WxH",
        ),
    )
    generated = Generated({"map": "random"})
    cards = True
    drawing = Conventions(outline_role="card", regions=True)
    seats = (Seat("heads", "--heads", "random"), Seat("tails", "--tails", "greedy"))
    play_max_turns = 200

    def build(self, values: Values) -> Layout:
        return board.build(values["map"], regions=values["regions"], seed=values["seed"], card=values["card"])

    def problems(self, layout: Layout, *, tolerance_mm: float = DEFAULT_TOLERANCE_MM) -> list[Problem]:
        return board.check(layout, tolerance_mm=tolerance_mm)

    def rules(self, layout: Layout, options: Mapping[str, Any] | None = None) -> CoinAgeRules:
        return CoinAgeRules(layout, dict(options or {}))

    def search(self, rules: Rules[Any, Any]) -> Search[Any, Any]:
        return CoinAgeSearch(cast(CoinAgeRules, rules))

    def view(self, rules: Rules[Any, Any]) -> View[Any, Any]:
        return CoinAgeView(cast(CoinAgeRules, rules))

    def sheet(self, layout: Layout, job: PrintJob) -> Sheet:
        settings = job.settings
        return board_sheet(
            layout,
            settings.style,
            paper=settings.paper if job.paged else None,
            margin=settings.margin_mm,
            copies=job.copies,
            texts=dict(job.texts) or None,
            bleed=settings.bleed_mm,
            lang=job.lang,
        )

    def rule_sheet_parts(
        self, template: Mapping[str, Any], values: Values, layout: Callable[[], Layout]
    ) -> RuleSheetParts:
        return rule_sheet_parts(template, layout())

    def file_stem(self, layout: Layout) -> str:
        params = layout.params
        name = f"coinage-{params.get('map', 'custom')}"
        if params.get("map") == "random":
            name += f"-{params['regions']}"
        return name

    def printable(self, layout: Layout) -> Layout:
        return printable(layout)

    def layout_spec(self, layout: Layout) -> str:
        return board.layout_name(layout)

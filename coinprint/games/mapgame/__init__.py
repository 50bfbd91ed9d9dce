"""Map: players draw 21 countries by appending arcs to a circle, then two coins chase each
other and claim countries.

The package: ``board`` (the map's parameters, the arc-by-arc growth, its name and summary),
``grow`` (the outline and sprawling growth), ``packed`` (packed growth), ``check`` (the checker
of hand-made maps), ``rules`` (the chase), ``fast`` (play-outs), ``draw`` (the map and the
blank sheet) and ``sheet`` (the rule sheet's values).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, cast

from coinprint.game import Game, Generated, RuleSheetParts, Seat
from coinprint.games.mapgame import board, check, drawn
from coinprint.games.mapgame.draw import blank_sheet, map_sheet, texts
from coinprint.games.mapgame.rules import MapRules
from coinprint.games.mapgame.search import DrawSearch, MapSearch
from coinprint.games.mapgame.sheet import printable, rule_sheet_parts
from coinprint.games.mapgame.view import MapView
from coinprint.io import Conventions
from coinprint.params import Param, Values
from coinprint.printing import PrintJob
from coinprint.render.words import GAP_MM, info_block
from coinprint.search import Search
from coinprint.view import View

if TYPE_CHECKING:
    from coinprint.checks import Problem
    from coinprint.engine import Rules
    from coinprint.layout import Layout
    from coinprint.render.sheet import Sheet

BLANK_PAGES = "blank_pages"
"""The place of the blank sheet in the kit (the template value ``{blank_pages}``)."""


def _blank_room(job: PrintJob) -> tuple[tuple[float, float] | None, float]:
    """The page inside its margins the blank sheet must fit on a PDF (None for one SVG
    sheet), and the height its info block (title and bars) takes under it."""
    if not job.paged:
        return None, 0.0
    paper, margin = job.settings.paper, job.settings.margin_mm
    block = info_block(texts(job.lang)["blank_title"], [], job.lang)
    return (paper.width_mm - 2 * margin, paper.height_mm - 2 * margin), block.height + GAP_MM


class MapGame(Game):
    name = "mapgame"
    board_noun = "map"
    title = "Map"
    params = (
        Param(
            "countries",
            "int",
            "Countries on the map: an odd number.",
            board.DEFAULT_COUNTRIES,
            frozenset({"board", "rules", "spec"}),
            low=board.MIN_COUNTRIES,
            high=board.MAX_COUNTRIES,
            named=True,
        ),
        Param("seed", "seed", "Seed of the map; the same seed gives the same map.", 0, named=True),
        Param("max_neighbours", "int", "Most countries a new country may border when drawn.", 4, low=1, high=8),
        Param(
            "coin",
            "text",
            "O's coin and X's coin (one name for both); the larger must fit every country.",
            "/".join(board.DEFAULT_COINS),
            metavar="NAME[/NAME]",
        ),
        Param(
            "growth",
            "choice",
            "packed wraps each arc along the map (more borders, no bays); sprawling is 0.1.0's look.",
            board.DEFAULT_GROWTH,
            choices=board.GROWTHS,
            spec_default=board.SPEC_GROWTH,
        ),
        Param(
            "starts",
            "choice",
            "apart: X's start country never borders O's; any: 0.1.0's maps, where it may.",
            board.DEFAULT_STARTS,
            choices=board.STARTS,
            spec_default=board.SPEC_STARTS,
        ),
        Param(
            "arcs",
            "choice",
            "forward: arcs never fold back on themselves (no notches); folded: the maps before that fix.",
            board.DEFAULT_ARCS,
            choices=board.ARCS,
            spec_default=board.SPEC_ARCS,
        ),
        Param(
            "draw",
            "flag",
            "The players draw the map: the game starts from the circle alone, the arcs are moves.",
            False,
            frozenset({"spec", "play"}),
        ),
        Param(
            "blank",
            "flag",
            "Print the blank sheet instead: the circle and the rules, to draw your own map.",
            False,
            frozenset({"board"}),
        ),
    )
    generated = Generated()
    drawing = Conventions(numbered=True)
    kit_places = (BLANK_PAGES, "board_pages")
    seats = (Seat("O", "--o-agent", "greedy"), Seat("X", "--x-agent", "random"))
    play_max_turns = 400
    questions = "coinprint.games.mapgame.questions"

    def build(self, values: Values) -> Layout:
        coins = board.parse_coins(values["coin"])
        if values["draw"]:
            return board.blank_layout(coins, values["max_neighbours"], values["countries"])
        if values["blank"]:
            return board.blank_layout(coins)
        return board.build(
            values["countries"],
            values["seed"],
            values["max_neighbours"],
            coins,
            growth=values["growth"],
            starts=values["starts"],
            arcs=values["arcs"],
        )

    def problems(self, layout: Layout, *, tolerance_mm: float = check.COIN_TOLERANCE_MM) -> list[Problem]:
        if drawn.is_drawing_start(layout):
            return drawn.start_problems(layout)
        return check.check(layout, tolerance_mm=tolerance_mm)

    def rules(self, layout: Layout, options: Mapping[str, Any] | None = None) -> Rules[Any, Any]:
        if drawn.is_drawing_start(layout):
            return drawn.DrawRules(layout, dict(options or {}))
        return MapRules(layout, dict(options or {}))

    def search(self, rules: Rules[Any, Any]) -> Search[Any, Any]:
        if isinstance(rules, drawn.DrawRules):
            return DrawSearch(rules)
        return MapSearch(cast(MapRules, rules))

    def view(self, rules: Rules[Any, Any]) -> View[Any, Any]:
        if isinstance(rules, drawn.DrawRules):
            return drawn.DrawView(rules)
        return MapView(cast(MapRules, rules))

    def sheet(self, layout: Layout, job: PrintJob) -> Sheet:
        # The blank sheet's layout is the first circle alone; a map has at least three countries.
        if len(layout) == 1:
            return blank_sheet(layout, job.lang, *_blank_room(job))
        return map_sheet(layout, job.settings.style, job.lang)

    def extra_sheets(self, job: PrintJob) -> dict[str, Sheet]:
        return {BLANK_PAGES: blank_sheet(board.blank_layout(), job.lang, *_blank_room(job))}

    def rule_sheet_parts(
        self, template: Mapping[str, Any], values: Values, layout: Callable[[], Layout]
    ) -> RuleSheetParts:
        return rule_sheet_parts(countries=values["countries"])

    def file_stem(self, layout: Layout) -> str:
        if len(layout) == 1:
            return "mapgame-blank"
        return f"mapgame-{layout.params['countries']}"

    def printable(self, layout: Layout) -> Layout:
        return printable(layout)

    def layout_spec(self, layout: Layout) -> str:
        return board.layout_name(layout)

    def summary(self, layout: Layout) -> str:
        return board.summary(layout).describe()

"""Flick (the seed's "coin game"): flick quarters into a square goal marked by four dimes.

Flick is a dexterity game: the referee (``rules``) judges a log of events seen at the table,
and the physics (``physics``, on the ``table``) makes that log from a shot, so agents play it
through ``search`` (a shot meant, executed by a hand with noise). The package: ``board`` (the
mat), ``rules``, ``table``, ``physics``, ``search``, ``view``, ``draw``, ``sheet`` and
``measure`` (the sheet to measure your own table).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

from coinprint.game import Game, RuleSheetParts, Seat
from coinprint.games.flick import board
from coinprint.games.flick.draw import marks_sheet, mat_sheet
from coinprint.games.flick.rules import SKILLS, FlickRules
from coinprint.games.flick.search import FlickSearch
from coinprint.games.flick.sheet import goal_area, rule_sheet_parts
from coinprint.games.flick.view import FlickView
from coinprint.params import Param, Values
from coinprint.printing import PrintJob
from coinprint.render.sheet import ink_footprint
from coinprint.units import Length

if TYPE_CHECKING:
    from coinprint.checks import Problem
    from coinprint.engine import Rules
    from coinprint.layout import Layout, Mark
    from coinprint.render.sheet import Sheet
    from coinprint.search import Search
    from coinprint.view import View


class Flick(Game):
    name = "flick"
    board_noun = "mat"
    title = "Flick"
    drawing = None
    seats = (Seat("heads", "--heads", "random"), Seat("tails", "--tails", "greedy"))
    play_max_turns = 200
    questions = "coinprint.games.flick.questions"
    params = (
        Param(
            "sides",
            "int",
            "Corners of the goal: 3 (triangle) to 8 (octagon).",
            board.STANDARD_SIDES,
            low=board.MIN_SIDES,
            high=board.MAX_SIDES,
        ),
        Param(
            "width",
            "length",
            "Length of each side of the goal, goal-coin centre to centre (e.g. 15cm, 6in).",
            Length.parse(board.STANDARD_WIDTH),
            metavar="LENGTH",
        ),
        Param("goal_coin", "coin", "Coin at every corner of the goal.", board.STANDARD_GOAL_COIN, metavar="COIN"),
        Param("score_coin", "coin", "Coin each player flicks.", board.STANDARD_SCORE_COIN, metavar="COIN"),
        Param(
            "coins",
            "int",
            "Score coins per player.",
            board.STANDARD_COINS,
            low=board.MIN_COINS,
            high=board.MAX_COINS,
        ),
        Param(
            "arsenal",
            "text",
            "Coins each player's score coins are, in turn (e.g. quarter+penny: the seed's note 2); "
            "empty: all the score coin.",
            "",
            metavar="COIN+COIN",
        ),
        Param(
            "players",
            "int",
            "Players, one per side (2 up to --sides); more than 2 is a team game, Heads and Tails alternating.",
            2,
            low=2,
            high=board.MAX_SIDES,
        ),
        Param(
            "skill",
            "choice",
            "How steady every player's hand is: the noise on a shot's direction and speed.",
            "club",
            frozenset({"play"}),
            role="rules",
            choices=tuple(SKILLS),
        ),
    )

    def build(self, values: Values) -> Layout:
        return board.build(
            values["sides"],
            values["width"],
            values["goal_coin"],
            values["score_coin"],
            values["coins"],
            values["players"],
            values["arsenal"] or "",
        )

    def problems(self, layout: Layout, *, tolerance_mm: float = board.TOLERANCE_MM) -> list[Problem]:
        return board.check(layout, tolerance_mm=tolerance_mm)

    def rules(self, layout: Layout, options: Mapping[str, Any] | None = None) -> FlickRules:
        return FlickRules(layout, dict(options or {}))

    def search(self, rules: Rules[Any, Any]) -> Search[Any, Any]:
        return FlickSearch(cast(FlickRules, rules))

    def view(self, rules: Rules[Any, Any]) -> View[Any, Any]:
        return FlickView(cast(FlickRules, rules))

    def sheet(self, layout: Layout, job: PrintJob) -> Sheet:
        sheet = mat_sheet(layout, job.settings.style, dict(job.texts) or None, lang=job.lang)
        # The goal is played on: pages are not cut through it, and no words are put on it;
        # they may go between the mat's parts (beside the zones).
        ink = ink_footprint(sheet.content)
        sheet.footprint = ink if sheet.footprint is None else sheet.footprint.intersection(ink)
        sheet.whole = goal_area(layout)
        sheet.whole_note = str(job.texts.get("seamless", ""))
        return sheet

    def rule_sheet_parts(
        self, template: Mapping[str, Any], values: Values, layout: Callable[[], Layout]
    ) -> RuleSheetParts:
        return rule_sheet_parts(template, layout())

    def position_sheet(
        self, layout: Layout, marks: Sequence[Mark], players: Sequence[str], *, title: str = ""
    ) -> Sheet:
        return marks_sheet(layout, marks, title=title)

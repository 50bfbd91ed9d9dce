"""The Flick kit: the rule sheet (``templates/flick.<lang>.json`` through
:func:`coinprint.kit.rule_sheet`, with the mat and the example diagrams whose event logs the
tests referee) and the standard goal mat (a 15 cm square marked by dimes)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from coinprint.games.flick.board import build
from coinprint.games.flick.draw import example_figures, mat_scene, mat_sheet
from coinprint.kit import SheetParts, board_pages, rule_sheet, sheet_template, with_rule_sheet
from coinprint.units import coin, format_mm

if TYPE_CHECKING:
    from coinprint.kit import PrintSettings, SheetParts
    from coinprint.render.scene import Scene
    from coinprint.units import PaperSize


def rule_sheet_template(lang: str = "en") -> dict[str, Any]:
    """The parsed rule-sheet template ``templates/flick.<lang>.json``."""

    return sheet_template("flick", lang)


def rule_sheet_pages(paper: PaperSize, lang: str = "en") -> list[Scene]:
    """The rule sheet as pages: the template's text, the mat and the example diagrams."""

    return rule_sheet("flick", paper, lang)


def sheet_parts(template: dict[str, Any], source: str) -> SheetParts:
    """The standard mat's sizes and coins, the mat (without its words) and the examples."""

    layout = build()
    params = layout.params
    values = {
        "width": format_mm(float(params["width_mm"])),
        "goal_coin": coin(params["goal_coin"]).title,
        "score_coin": coin(params["score_coin"]).title,
    }
    # The mat's picture names the players' lines and the goal; the longer notes stay on the mat.
    words = {**template["board"], "zone_note": "", "goal_width": "", "side": ""}
    # Goal coins keep their true size against the goal: their tiny names would grow them.
    figures = {"mat": mat_scene(layout, words=words, coin_names=False), **example_figures(layout, template)}
    return SheetParts(values, figures, {})


def kit_pages(settings: PrintSettings, lang: str = "en") -> list[Scene]:
    """The rule sheet, then the standard mat at true size."""

    layout = build()
    sheet = mat_sheet(layout, settings.style, rule_sheet_template(lang)["board"], lang=lang)
    return with_rule_sheet("flick", settings.paper, lang, {"board_pages": board_pages(sheet, settings)})

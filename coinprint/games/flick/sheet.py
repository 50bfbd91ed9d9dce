"""The Flick rule sheet's values (the words are ``templates/flick.<lang>.json``): the mat and
the example diagrams whose event logs the tests referee."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from coinprint.game import RuleSheetParts
from coinprint.games.flick.draw import example_figures, mat_scene, said_length
from coinprint.units import coin

if TYPE_CHECKING:
    from coinprint.layout import Layout


def rule_sheet_parts(template: Mapping[str, Any], layout: Layout) -> RuleSheetParts:
    """The mat ``layout``'s sizes and coins, the mat (without its words) and the examples."""

    params = layout.params
    values = {
        "width": said_length(float(params["width_mm"])),  # "15 cm", as players say it
        "goal_coin": coin(params["goal_coin"]).title,
        "score_coin": coin(params["score_coin"]).title,
    }
    # The mat's picture names the players' lines and the goal; the longer notes stay on the mat.
    words = {**template["board"], "zone_note": ""}
    figures = {"mat": mat_scene(layout, words=words), **example_figures(layout, template)}
    return RuleSheetParts(values, figures, {})

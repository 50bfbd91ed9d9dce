"""The Flick rule sheet's values (the words are ``templates/flick.<lang>.json``): the mat and
the example diagrams whose event logs the tests referee."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from coinprint.game import RuleSheetParts
from coinprint.games.flick.draw import example_figures, mat_scene, said_length
from coinprint.render.board import Frame
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


def goal_area(layout: Layout) -> Any:
    """The goal with its corner coins, in the mat sheet's content mm (shapely; None for a
    mat without a goal): kept whole on the pages, and nothing else printed on it."""
    import shapely

    goals = layout.features_with_role("goal")
    if not goals:
        return None
    frame = Frame(layout)
    radius = coin(str(layout.params.get("goal_coin", "dime"))).diameter_mm / 2
    return shapely.affinity.translate(goals[0].shape, frame.dx, frame.dy).buffer(radius)

"""The Coin Table kit: the rule sheet (``templates/cointable.<lang>.json`` through
:func:`coinprint.kit.rule_sheet`, with example positions replayed from the template's move
lists) and the board.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from coinprint.kit import PrintSettings, SheetParts
    from coinprint.render.scene import Scene
    from coinprint.units import PaperSize


def kit_pages(settings: PrintSettings, lang: str = "en") -> list[Scene]:
    """The rule sheet, then the standard board tiled on the kit's paper."""
    from coinprint.boards.cointable import build
    from coinprint.kit import board_pages, sheet_template, with_rule_sheet
    from coinprint.render.cointable import board_sheet

    layout = build()
    sheet = board_sheet(layout, settings.style, texts=sheet_template("cointable", lang)["board"], lang=lang)
    return with_rule_sheet("cointable", settings.paper, lang, {"board_pages": board_pages(sheet, settings)})


def rule_sheet_pages(paper: PaperSize, lang: str = "en", supply: int = 100, side: int = 5) -> list[Scene]:
    """The rule sheet as page scenes for ``paper``, for a board of ``side`` hexes a side."""
    from coinprint.kit import rule_sheet

    return rule_sheet("cointable", paper, lang, supply=supply, side=side)


def sheet_parts(template: dict[str, Any], source: str, supply: int = 100, side: int = 5) -> SheetParts:
    """The values of the Coin Table sheet: the board's size, the supply, the centre cell."""
    from coinprint.boards.cointable import build, cell_count, cell_name
    from coinprint.kit import SheetParts
    from coinprint.render.cointable import where_is

    board_command = "coinprint board cointable" + ("" if side == 5 else f" --size {side}")
    values: dict[str, Any] = {
        "supply": supply,
        "side": side,
        "cells": cell_count(side),
        "centre": cell_name(side - 1, side),
        "board_command": board_command,
        "a1_where": template["board"].get("where", {}).get(where_is(build(side), "a1"), ""),
    }
    return SheetParts(values, {}, {})

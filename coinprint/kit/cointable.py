"""The Coin Table kit: the rule sheet (the text of ``templates/cointable.<lang>.json``
flowed onto pages by :mod:`coinprint.render.document`, with example positions drawn from
move lists) and the standard board.

The template holds everything a reader sees: the blocks, and for each figure a board, the
moves that lead to the position, and its caption. The moves are replayed by the rules
engine (so an example can never show an illegal game) and drawn from the engine's marks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from coinprint.kit import PrintSettings
    from coinprint.render.scene import Scene
    from coinprint.units import PaperSize


def kit_pages(settings: PrintSettings, lang: str = "en") -> list[Scene]:
    """The rule sheet, then the standard board tiled on the kit's paper."""
    from coinprint.boards.cointable import build
    from coinprint.kit import board_pages
    from coinprint.render.cointable import board_sheet

    layout = build()
    return rule_sheet_pages(settings.paper, lang) + board_pages(board_sheet(layout, settings.style), settings)


def rule_sheet_pages(paper: PaperSize, lang: str = "en", supply: int = 100, side: int = 5) -> list[Scene]:
    """The rule sheet as page scenes for ``paper`` (for :func:`coinprint.render.pdf.pages_to_pdf`)."""
    from coinprint.boards.cointable import cell_count, cell_name
    from coinprint.render.document import blocks_from_json, layout_document, load_template

    name = f"cointable.{lang}.json"
    template = load_template(name)
    figures = {key: example_scene(spec, source=name) for key, spec in template["figures"].items()}
    values: dict[str, Any] = {
        "supply": supply,
        "side": side,
        "cells": cell_count(side),
        "centre": cell_name(side - 1, side),
        **{f"{key}_caption": spec.get("caption", "") for key, spec in template["figures"].items()},
    }
    blocks = blocks_from_json(template["blocks"], values=values, figures=figures, source=name)
    return layout_document(blocks, paper, title=template["title"])


def example_scene(spec: dict[str, Any], *, source: str = "template") -> Scene:
    """The position after ``spec["moves"]`` on ``spec["layout"]`` (a ``cointable:…`` name)."""
    from coinprint.kit import example_position

    return example_position("cointable", spec, source=source)

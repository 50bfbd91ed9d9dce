"""The Map kit: the rule sheet (``templates/mapgame.<lang>.json`` flowed onto pages by
:mod:`coinprint.render.document`, with an example position replayed by the rules engine),
the blank sheet for drawing a map by hand, and a ready-made map."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from coinprint.kit import PrintSettings
    from coinprint.render.scene import Scene
    from coinprint.units import PaperSize


def kit_pages(settings: PrintSettings, lang: str = "en", seed: int = 0) -> list[Scene]:
    """The rule sheet, the blank sheet, then the 21-country map of ``seed``."""
    from coinprint.boards.mapgame import build
    from coinprint.kit import board_pages
    from coinprint.render.mapgame import map_sheet

    layout = build(seed=seed)
    return (
        rule_sheet_pages(settings.paper, lang)
        + blank_pages(settings)
        + board_pages(map_sheet(layout, settings.style), settings)
    )


def blank_pages(settings: PrintSettings, coins: tuple[str, str] | None = None) -> list[Scene]:
    """The blank sheet (the circle and the rules summary) on the paper of ``settings``."""
    from coinprint.boards.mapgame import DEFAULT_COINS, blank_layout
    from coinprint.kit import board_pages
    from coinprint.render.mapgame import blank_sheet

    layout = blank_layout(coins or DEFAULT_COINS)
    return board_pages(blank_sheet(layout), settings)


def rule_sheet_pages(paper: PaperSize, lang: str = "en", countries: int = 21) -> list[Scene]:
    """The rule sheet as page scenes for ``paper``."""
    from coinprint.boards.mapgame import DEFAULT_COINS
    from coinprint.render.document import blocks_from_json, layout_document, load_template
    from coinprint.units import coin

    name = f"mapgame.{lang}.json"
    template = load_template(name)
    figures = {key: example_scene(spec, source=name) for key, spec in template.get("figures", {}).items()}
    values: dict[str, Any] = {
        "countries": countries,
        "start_o": countries - 1,
        "start_x": countries,
        "coin_o": coin(DEFAULT_COINS[0]).title,
        "coin_x": coin(DEFAULT_COINS[1]).title,
        **{f"{key}_caption": spec.get("caption", "") for key, spec in template.get("figures", {}).items()},
    }
    blocks = blocks_from_json(template["blocks"], values=values, figures=figures, source=name)
    return layout_document(blocks, paper, title=template.get("sheet_title", "Map — rules"))


def example_scene(spec: dict[str, Any], *, source: str = "template") -> Scene:
    """The position after ``spec["moves"]`` on ``spec["layout"]`` (a ``mapgame:…`` name)."""
    from coinprint.kit import example_position

    return example_position("mapgame", spec, source=source)

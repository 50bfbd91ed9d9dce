"""The Map kit: the rule sheet (``templates/mapgame.<lang>.json`` flowed onto pages by
:mod:`coinprint.render.document`, with an example position replayed by the rules engine),
the blank sheet for drawing a map by hand, and a ready-made map."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from coinprint.errors import CoinprintError

if TYPE_CHECKING:
    from coinprint.kit import PrintSettings
    from coinprint.render.scene import Scene
    from coinprint.units import PaperSize


def kit_pages(settings: "PrintSettings", lang: str = "en", seed: int = 0) -> list["Scene"]:
    """The rule sheet, the blank sheet, then the 21-country map of ``seed``."""
    from coinprint.boards.mapgame import build
    from coinprint.kit import board_pages
    from coinprint.render.mapgame import map_sheet

    layout = build(seed=seed)
    return rule_sheet_pages(settings.paper, lang) + blank_pages(settings) + board_pages(map_sheet(layout, settings.style), settings)


def blank_pages(settings: "PrintSettings", coins: tuple[str, str] | None = None) -> list["Scene"]:
    """The blank sheet (the circle and the rules summary) on the paper of ``settings``."""
    from coinprint.boards.mapgame import DEFAULT_COINS, blank_layout
    from coinprint.kit import board_pages
    from coinprint.render.mapgame import blank_sheet

    layout = blank_layout(coins or DEFAULT_COINS)
    return board_pages(blank_sheet(layout), settings)


def rule_sheet_pages(paper: "PaperSize", lang: str = "en", countries: int = 21) -> list["Scene"]:
    """The rule sheet as page scenes for ``paper``."""
    from coinprint.boards.mapgame import DEFAULT_COINS
    from coinprint.render.document import blocks_from_json, layout_document, load_template
    from coinprint.units import coin

    name = f"mapgame.{lang}.json"
    template = load_template(name)
    figures = {key: example_scene(spec, source=name) for key, spec in template.get("figures", {}).items()}
    values: dict[str, Any] = {
        "countries": countries, "start_o": countries - 1, "start_x": countries,
        "coin_o": coin(DEFAULT_COINS[0]).title, "coin_x": coin(DEFAULT_COINS[1]).title,
        **{f"{key}_caption": spec.get("caption", "") for key, spec in template.get("figures", {}).items()},
    }
    blocks = blocks_from_json(template["blocks"], values=values, figures=figures, source=name)
    return layout_document(blocks, paper, title=template.get("sheet_title", "Map — rules"))


def example_scene(spec: dict[str, Any], *, source: str = "template") -> "Scene":
    """The position after ``spec["moves"]`` on ``spec["layout"]`` (a ``mapgame:…`` name)."""
    from coinprint.boards.mapgame import from_params
    from coinprint.games.core import IllegalMoveError, InvalidMoveError, parse_layout_name
    from coinprint.games.mapgame import MapRules
    from coinprint.render.board import position_sheet

    game, params = parse_layout_name(spec.get("layout", "mapgame"))
    if game != "mapgame":
        raise CoinprintError(f"{source}: an example must be on a mapgame map, not {spec.get('layout')!r}")
    layout = from_params(params)
    rules = MapRules(layout, {})
    state = rules.initial_state()
    for number, text in enumerate(spec.get("moves", []), start=1):
        try:
            rules.apply(state, rules.parse_move(state, text))
        except (InvalidMoveError, IllegalMoveError) as exc:
            raise CoinprintError(f"{source}: example move {number} ({text}) is not legal: {exc}") from None
    return position_sheet(layout, rules.marks(state), rules.players).content

"""The one list of games: a typed :class:`GameSpec` per game, and how to find its parts.

Every list of games in coinprint (the command line's choices, ``kit all``, ``balance``, the
layouts named in records, the cross-game tests) derives from :data:`GAMES`. A game's parts
live in one module per layer (``boards/<game>.py``, ``games/<game>.py``, ``render/…``,
``kit/<game>.py``, ``cli/<game>.py``); its entry here names them through a loader function
that imports them on first use, so ``import coinprint`` and ``coinprint --help`` stay fast.

Adding a game is its modules plus one :class:`GameSpec` line in :data:`GAMES`
(CONTRIBUTING.md walks through it).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any, Protocol

from coinprint.errors import UsageError

if TYPE_CHECKING:
    from coinprint.boards.checks import Problem
    from coinprint.games.core import Rules
    from coinprint.kit import PrintSettings, SheetParts
    from coinprint.layout import Layout, Mark
    from coinprint.render.pages import Sheet
    from coinprint.render.scene import Scene
    from coinprint.units import PaperSize


class Checker(Protocol):
    """A game's layout check: every problem found, never an exception; lengths may be off by
    ``tolerance_mm`` (a hand-drawn or rounded layout) where the check compares lengths."""

    def __call__(self, layout: Layout, *, tolerance_mm: float = ...) -> list[Problem]: ...


@dataclass(frozen=True)
class GameParts:
    """The functions and classes that make up one game, imported when first needed."""

    build: Callable[[dict[str, str]], Layout]
    """The built-in layout from ``game:key=value,…`` parameters (strings, as in a record)."""
    check: Checker
    """Every problem with a layout of this game; never raises on a bad layout."""
    rules: Callable[[Layout, dict[str, Any]], Rules[Any, Any]]
    """The rules engine: ``rules(layout, options)``."""
    draw_board: Callable[[Layout, str], Sheet]
    """The board, card or mat at true size: ``draw_board(layout, style)``."""
    draw_position: Callable[..., Sheet]
    """A position: ``draw_position(layout, marks, players, title=…)``."""
    kit_pages: Callable[[PrintSettings, str], list[Scene]]
    """The print-and-play kit: ``kit_pages(settings, lang)``, rule sheet first."""
    sheet_parts: Callable[..., SheetParts] | None = None
    """What the game adds to the words of ``templates/<game>.<lang>.json`` to make its rule
    sheet: ``sheet_parts(template, source, **params)``; None for a game with no sheet."""
    rules_extra_pages: Callable[[PaperSize, str], list[Scene]] | None = None
    """Pages ``coinprint rules`` prints after the sheet (the Map's blank sheet), if any."""
    summary_line: Callable[[Layout], str] | None = None
    """One line of figures about a valid layout, printed by ``validate layout`` (the Map's
    borders, dead ends and solidity), if the game has one."""
    replay_note: Callable[[Rules[Any, Any], Any, Any], str] | None = None
    """A line a replay page shows under a move (Coin Age: the turn's throw), if any:
    ``replay_note(rules, state_before, move)``."""


@dataclass(frozen=True)
class GameSpec:
    """One game: its command-line name, its title, and where its parts are."""

    name: str
    """The name the command line, layout files and records use (``cointable``)."""
    title: str
    """The name printed on sheets (``Coin Table``)."""
    load: Callable[[], GameParts] = field(repr=False, compare=False)
    """Imports the game's modules and returns its parts (see :attr:`parts`)."""
    simulated: bool = True
    """Whether agents can play it (``play``, ``balance``); Flick is refereed, not simulated."""
    default_layout: str = ""
    """The layout spec ``play`` and ``balance`` use when none is given (default: the name)."""
    generated: dict[str, str] | None = field(default=None, compare=False)
    """For games whose layouts are generated from a seed: the spec parameters that ask for a
    generated layout (``{"map": "random"}`` for Coin Age); None when every layout is fixed."""

    @property
    def parts(self) -> GameParts:
        return _parts(self.load)

    @property
    def layout_spec(self) -> str:
        return self.default_layout or self.name

    def build(self, **params: Any) -> Layout:
        """The built-in layout with the parameters of its layout spec (``build(size=4)``);
        values may be numbers or text, as in ``cointable:size=4``."""
        return self.parts.build({key: str(value) for key, value in params.items()})

    def rules(self, layout: Layout, options: dict[str, Any] | None = None) -> Rules[Any, Any]:
        return self.parts.rules(layout, dict(options or {}))

    @property
    def players(self) -> tuple[str, ...]:
        """The seats of a standard game, first to move first."""
        return tuple(self.rules(self.build()).players)

    def draw_position(self, layout: Layout, marks: Sequence[Mark], players: Sequence[str], *, title: str = "") -> Sheet:
        return self.parts.draw_position(layout, marks, players, title=title)


@cache
def _parts(load: Callable[[], GameParts]) -> GameParts:
    return load()


def _cointable() -> GameParts:
    from coinprint.boards import cointable
    from coinprint.games.cointable import CoinTableRules
    from coinprint.kit.cointable import kit_pages, sheet_parts
    from coinprint.render.board import position_sheet
    from coinprint.render.cointable import board_sheet

    return GameParts(
        cointable.from_params, cointable.check, CoinTableRules, board_sheet, position_sheet, kit_pages, sheet_parts
    )


def _coinage() -> GameParts:
    from coinprint.boards import coinage
    from coinprint.games.coinage import CoinAgeRules
    from coinprint.kit.coinage import kit_pages, replay_note, sheet_parts
    from coinprint.render.board import position_sheet
    from coinprint.render.coinage import board_sheet

    return GameParts(
        coinage.from_params,
        coinage.check,
        CoinAgeRules,
        board_sheet,
        position_sheet,
        kit_pages,
        sheet_parts,
        replay_note=replay_note,
    )


def _mapgame() -> GameParts:
    from coinprint.boards import mapgame
    from coinprint.games.mapgame import MapRules
    from coinprint.kit.mapgame import kit_pages, rules_extra_pages, sheet_parts
    from coinprint.render.board import position_sheet
    from coinprint.render.mapgame import map_sheet

    return GameParts(
        mapgame.from_params,
        mapgame.check,
        MapRules,
        map_sheet,
        position_sheet,
        kit_pages,
        sheet_parts,
        rules_extra_pages,
        summary_line=lambda layout: mapgame.summary(layout).describe(),
    )


def _flick() -> GameParts:
    from coinprint.boards import flick
    from coinprint.games.flick import FlickRules
    from coinprint.kit.flick import kit_pages, sheet_parts
    from coinprint.render.flick import marks_sheet, mat_sheet

    return GameParts(flick.from_params, flick.check, FlickRules, mat_sheet, marks_sheet, kit_pages, sheet_parts)


class Registry:
    """The games by name, in the order the command line lists them."""

    def __init__(self, specs: Sequence[GameSpec]) -> None:
        self._specs = {spec.name: spec for spec in specs}

    def __iter__(self) -> Iterator[GameSpec]:
        return iter(self._specs.values())

    def __len__(self) -> int:
        return len(self._specs)

    def __contains__(self, name: object) -> bool:
        return name in self._specs

    def __getitem__(self, name: str) -> GameSpec:
        """The game called ``name``; :class:`UsageError` naming the games there are if none."""
        try:
            return self._specs[name]
        except KeyError:
            raise UsageError(f"unknown game {name!r}; use one of: {', '.join(self.names())}") from None

    def names(self) -> tuple[str, ...]:
        return tuple(self._specs)

    def simulated(self) -> tuple[str, ...]:
        """The games agents can play (``play``, ``balance``)."""
        return tuple(spec.name for spec in self if spec.simulated)

    def register(self, spec: GameSpec) -> None:
        """Add a game (a plug-in, or a test's toy game); its name must be new."""
        if spec.name in self._specs:
            raise UsageError(f"a game called {spec.name!r} is registered already")
        self._specs[spec.name] = spec

    def unregister(self, name: str) -> None:
        self._specs.pop(name, None)


GAMES = Registry(
    [
        GameSpec("cointable", "Coin Table", _cointable, default_layout="cointable:size=5"),
        GameSpec("coinage", "Coin Age", _coinage, default_layout="coinage:map=classic", generated={"map": "random"}),
        GameSpec(
            "mapgame",
            "Map",
            _mapgame,
            default_layout="mapgame:countries=21,seed=0,growth=packed,starts=apart",
            generated={},
        ),
        GameSpec("flick", "Flick", _flick, simulated=False),
    ]
)
"""Every game coinprint knows, by its command-line name."""

"""coinprint: print and play coin games.

True-scale boards and rule sheets, generated maps that are always valid, and rules engines
that check recorded games move by move.

>>> import coinprint
>>> board = coinprint.build_board("cointable", size=3)
>>> len(board)
19
>>> rules = coinprint.rules_for(board)
>>> state = rules.initial_state()
>>> rules.apply(state, rules.parse_move(state, "place c3"))
>>> rules.to_move(state)
'tails'

The names below are imported on first use, so ``import coinprint`` and ``coinprint --help``
stay fast; the heavy libraries (shapely, reportlab, svgwrite, networkx) load only when a
board is built or drawn. ``docs/api.md`` has more examples.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

__all__ = [
    "GAMES",
    "AmbiguousMoveError",
    "CoinprintError",
    "IllegalMoveError",
    "InvalidInputError",
    "InvalidMoveError",
    "Layout",
    "MoveError",
    "Record",
    "UnreadableInputError",
    "UsageError",
    "__version__",
    "build_board",
    "load_layout",
    "play_game",
    "read_record",
    "replay",
    "rules_for",
]

_LAZY = {
    "GAMES": "coinprint.registry",
    "Layout": "coinprint.layout",
    "Record": "coinprint.games.core",
    "read_record": "coinprint.games.core",
    "replay": "coinprint.games.core",
    "CoinprintError": "coinprint.errors",
    "UsageError": "coinprint.errors",
    "UnreadableInputError": "coinprint.errors",
    "InvalidInputError": "coinprint.errors",
    "MoveError": "coinprint.errors",
    "InvalidMoveError": "coinprint.errors",
    "IllegalMoveError": "coinprint.errors",
    "AmbiguousMoveError": "coinprint.errors",
}

if TYPE_CHECKING:
    from coinprint.errors import (
        AmbiguousMoveError,
        CoinprintError,
        IllegalMoveError,
        InvalidInputError,
        InvalidMoveError,
        MoveError,
        UnreadableInputError,
        UsageError,
    )
    from coinprint.games.core import Outcome, Record, Rules, read_record, replay
    from coinprint.layout import Layout
    from coinprint.registry import GAMES


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'coinprint' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(__all__)


def build_board(game: str, **params: Any) -> Layout:
    """The built-in layout of ``game`` with the parameters of its layout spec.

    ``build_board("cointable", size=4)`` is the layout a record names ``cointable:size=4``.
    Raises :class:`UsageError` naming the bad parameter and what is allowed.
    """
    from coinprint.registry import GAMES

    return GAMES[game].build(**params)


def load_layout(source: str | dict[str, Any], *, game: str | None = None, units: str = "mm") -> Layout:
    """A layout from a built-in spec (``"mapgame:countries=21,seed=3"``), a layout file, or a
    parsed GeoJSON document. A file may also be an SVG drawing or GeoJSON from QGIS, read for
    ``game`` with coordinates in ``units`` (``docs/formats.md``, "Reading drawings"). The
    layout is read, not judged: ``check`` it before trusting it."""
    from coinprint.analysis import resolve_layout

    return resolve_layout(source, game=game, units=units)


def rules_for(layout: Layout | str, options: dict[str, Any] | None = None) -> Rules[Any, Any]:
    """The rules engine for a layout (or a layout spec such as ``"coinage:map=classic"``)."""
    from coinprint.analysis import resolve_layout
    from coinprint.registry import GAMES

    board = resolve_layout(layout) if isinstance(layout, str) else layout
    return GAMES[board.game].rules(board, options)


def play_game(rules: Rules[Any, Any], agents: dict[str, str], *, seed: int = 1, max_turns: int = 2000) -> Outcome:
    """Play one game between named agents (``{"heads": "greedy", "tails": "random"}``).

    The same seed gives the same game. A game cut at ``max_turns`` moves is a timeout.
    """
    import random

    from coinprint.games.core import make_agent
    from coinprint.games.core import play_game as play

    chosen = {player: make_agent(agent, player) for player, agent in agents.items()}
    return play(rules, chosen, random.Random(seed), max_turns)

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
import os
from typing import TYPE_CHECKING, Any

from coinprint.errors import UsageError

__version__ = "0.3.0"

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
    "RunFailedError",
    "UnknownSpaceError",
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
    "Record": "coinprint.engine",
    "read_record": "coinprint.engine",
    "replay": "coinprint.engine",
    "CoinprintError": "coinprint.errors",
    "UsageError": "coinprint.errors",
    "UnreadableInputError": "coinprint.errors",
    "InvalidInputError": "coinprint.errors",
    "MoveError": "coinprint.errors",
    "InvalidMoveError": "coinprint.errors",
    "IllegalMoveError": "coinprint.errors",
    "AmbiguousMoveError": "coinprint.errors",
    "RunFailedError": "coinprint.errors",
    "UnknownSpaceError": "coinprint.errors",
}

if TYPE_CHECKING:
    from coinprint.engine import Record, Rules, read_record, replay
    from coinprint.errors import (
        AmbiguousMoveError,
        CoinprintError,
        IllegalMoveError,
        InvalidInputError,
        InvalidMoveError,
        MoveError,
        RunFailedError,
        UnknownSpaceError,
        UnreadableInputError,
        UsageError,
    )
    from coinprint.layout import Layout
    from coinprint.registry import GAMES
    from coinprint.search import Outcome


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
    from coinprint import arguments
    from coinprint.registry import GAMES
    from coinprint.source import game_named

    arguments.choice(game, "game", GAMES.names())
    for key, value in params.items():
        arguments.text(key, "a parameter name", name=True)
        if isinstance(value, bool) or not isinstance(value, (str, int, float)):
            raise UsageError(f"parameter {key} must be text or a number, not {arguments.kind(value)}")
        arguments.plain_data(value, f"parameter {key}")  # no number too long to print
        arguments.text(str(value) if not isinstance(value, str) else value, f"parameter {key}")
    return game_named(game).layout_from_spec({key: str(value) for key, value in params.items()})


def load_layout(
    source: str | os.PathLike[str] | dict[str, Any], *, game: str | None = None, units: str = "mm"
) -> Layout:
    """A layout from a built-in spec (``"mapgame:countries=21,seed=3"``), a layout file, or a
    parsed GeoJSON document. A file may also be an SVG drawing or GeoJSON from QGIS, read for
    ``game`` with coordinates in ``units`` (``docs/formats.md``, "Reading drawings"). The
    layout is read, not judged: ``check`` it before trusting it."""
    from coinprint import arguments
    from coinprint.errors import UnreadableInputError
    from coinprint.io import UNIT_MM
    from coinprint.registry import GAMES
    from coinprint.source import resolve_layout

    if isinstance(source, os.PathLike):
        source = os.fspath(source)
    if isinstance(source, dict):
        arguments.plain_data(source, "the layout document")
    else:
        arguments.text(source, "the layout (a built-in spec or a file path)", limit=arguments.MAX_PATH_CHARS)
    if game is not None:
        arguments.choice(game, "game", GAMES.names())
    arguments.choice(units, "units", tuple(UNIT_MM))
    try:
        return resolve_layout(source, game=game, units=units)
    except OSError as exc:  # a path the system cannot even look at (too long, a loop)
        raise UnreadableInputError(f"cannot read the layout: {exc.strerror or exc}") from None


def rules_for(layout: Layout | str, options: dict[str, Any] | None = None) -> Rules[Any, Any]:
    """The rules engine for a layout (or a layout spec such as ``"coinage:map=classic"``)."""
    from coinprint import arguments
    from coinprint.layout import Layout as LayoutType
    from coinprint.source import rules_for as source_rules

    if options is not None:
        arguments.mapping(options, "options")
    board = (
        layout
        if isinstance(layout, LayoutType)
        else load_layout(arguments.text(layout, "the layout", limit=arguments.MAX_PATH_CHARS))
    )
    return source_rules(board, options)


def play_game(rules: Rules[Any, Any], agents: dict[str, str], *, seed: int = 1, max_turns: int = 2000) -> Outcome:
    """Play one game between named agents (``{"heads": "greedy", "tails": "random"}``).

    The same seed gives the same game. A game cut at ``max_turns`` moves is a timeout.
    """
    import random

    from coinprint import arguments
    from coinprint.agents import make_agent
    from coinprint.caps import MAX_SEED, MAX_TURNS
    from coinprint.engine import Rules as RulesType
    from coinprint.search import play_game as play
    from coinprint.source import game_named

    if not isinstance(rules, RulesType):
        raise UsageError(f"rules must be a rules engine (from coinprint.rules_for), not {arguments.kind(rules)}")
    arguments.mapping(agents, "agents")
    if set(agents) != set(rules.players):
        raise UsageError(
            f"agents must name exactly the players {' and '.join(rules.players)}, not {', '.join(map(str, agents)) or 'none'}"
        )
    for player, agent in agents.items():
        arguments.text(agent, f"the agent for {player}")
    arguments.whole(seed, "seed", -MAX_SEED, MAX_SEED, cap="seed")
    arguments.whole(max_turns, "max_turns", 1, MAX_TURNS, cap="turns")
    search = game_named(rules.layout.game).search(rules)
    chosen = {player: make_agent(agent, player, search.agents) for player, agent in agents.items()}
    return play(search, chosen, random.Random(seed), max_turns)

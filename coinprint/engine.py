"""The referee: the game protocol (:class:`Rules`), move errors, results, records and replay.

Every game implements :class:`Rules` over a mutable state object that has ``copy()``:

>>> rules = SomeRules(layout, options)          # doctest: +SKIP
>>> state = rules.initial_state()               # doctest: +SKIP
>>> move = rules.parse_move(state, "place e5")  # doctest: +SKIP
>>> rules.apply(state, move)                    # checked: raises IllegalMoveError saying why
>>> rules.move_text(state, move)                # back to notation (round trip)

Records are JSON (docs/formats.md, Game records); :func:`replay` checks one move by move.
Agents and self-play are in :mod:`coinprint.search`; what pictures of a position hold, in
:mod:`coinprint.view`.
"""

from __future__ import annotations

import json
import random
from abc import ABC, abstractmethod
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from coinprint import arguments
from coinprint.caps import MAX_INPUT_BYTES, MAX_RECORD_MOVES
from coinprint.errors import AmbiguousMoveError as AmbiguousMoveError  # the move errors are this module's API too
from coinprint.errors import IllegalMoveError as IllegalMoveError
from coinprint.errors import InvalidMoveError as InvalidMoveError
from coinprint.errors import MoveError as MoveError
from coinprint.errors import UnreadableInputError, UsageError
from coinprint.fileio import parse_json
from coinprint.layout import Layout

RECORD_FORMAT = "coinprint-record/1"

S = TypeVar("S")  # a game's state type; it has copy()
M = TypeVar("M", bound=Hashable)  # a game's move type


@dataclass(frozen=True)
class Result:
    """How a game stands: ``winner`` is a player name or ``None`` (a tie, or unfinished)."""

    winner: str | None
    score: dict[str, int]
    reason: str
    finished: bool = True

    def to_json(self) -> dict[str, Any]:
        return {"winner": self.winner, "score": dict(self.score), "reason": self.reason}

    def describe(self) -> str:
        score = ", ".join(f"{p} {n}" for p, n in self.score.items())
        if not self.finished:
            return f"unfinished; score so far: {score}"
        outcome = f"{self.winner} wins" if self.winner else "a tie"
        return f"{outcome} ({self.reason}); score: {score}"


class Rules(ABC, Generic[S, M]):
    """The referee of one game on one layout: what is legal, what a move does, who won, and
    the notation. Subclasses set ``players`` and ``layout``; the game's name is its
    :class:`~coinprint.game.Game`'s (and the layout's), never the rules' own.

    What agents need besides (evaluations, play-outs, paired chance) is the game's
    :class:`~coinprint.search.Search`, and what pictures show (coins on spaces, notes beside
    moves) its :class:`~coinprint.view.View`: both come from the game
    (:meth:`coinprint.game.Game.search`, :meth:`coinprint.game.Game.view`).

    ``options`` are the game's options (e.g. ``{"supply": 100}``); unknown or bad options
    raise :class:`coinprint.errors.UsageError` from the constructor.
    """

    players: tuple[str, str] = ("heads", "tails")
    layout: Layout
    """The layout the game is played on (set by the subclass's constructor)."""

    @abstractmethod
    def initial_state(self) -> S:
        """The position before the first move (a new state, with ``copy()``)."""

    @abstractmethod
    def to_move(self, state: S) -> str:
        """The player whose turn it is."""

    def begin_turn(self, state: S, rng: random.Random) -> None:
        """Chance before a turn in simulation (Coin Age throws here); most games do nothing."""

    @abstractmethod
    def legal_moves(self, state: S) -> list[M]:
        """Every legal move now (empty when the game is over)."""

    @abstractmethod
    def check(self, state: S, move: M) -> None:
        """Raise :class:`IllegalMoveError` saying why ``move`` is illegal now; else return."""

    @abstractmethod
    def apply_unchecked(self, state: S, move: M) -> None:
        """Play a move known to be legal, changing ``state`` in place (the fast path)."""

    def apply(self, state: S, move: M) -> None:
        """Play ``move`` on ``state`` in place after checking it (raises IllegalMoveError)."""
        self.check(state, move)
        self.apply_unchecked(state, move)

    @abstractmethod
    def is_over(self, state: S) -> bool:
        """Whether the game has ended."""

    @abstractmethod
    def result(self, state: S) -> Result:
        """The outcome, or for a game still going the score so far with ``finished=False``."""

    @abstractmethod
    def parse_move(self, state: S, text: Any) -> M:
        """A move from its notation (raises :class:`InvalidMoveError`)."""

    @abstractmethod
    def move_text(self, state: S, move: M) -> Any:
        """A move in notation; ``parse_move(state, move_text(state, m)) == m``."""

    def describe(self, state: S) -> str:
        """The position as text, for error messages and ``validate game --show``."""
        return repr(state)


# -- records ------------------------------------------------------------------------------------------
@dataclass
class Record:
    """A game record (docs/formats.md, Game records). ``layout`` is a built-in name with parameters
    (``"cointable:size=5"``), a path to a GeoJSON layout, or an inline layout (a dict)."""

    game: str
    layout: str | dict[str, Any]
    moves: list[Any] = field(default_factory=list)
    options: dict[str, Any] = field(default_factory=dict)
    players: dict[str, str] = field(default_factory=dict)
    seed: int | None = None
    result: dict[str, Any] | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        doc: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "game": self.game,
            "layout": self.layout,
            "options": self.options,
            "players": self.players,
        }
        if self.seed is not None:
            doc["seed"] = self.seed
        doc["moves"] = self.moves
        if self.result is not None:
            doc["result"] = self.result
        doc.update(self.extra)
        return doc

    def dumps(self) -> str:
        """The record as indented JSON text."""
        return json.dumps(self.to_json(), indent=2, ensure_ascii=False) + "\n"


def read_record(text: str, *, source: str = "record") -> Record:
    """Parse a record; raises :class:`UnreadableInputError` when it is not one, or when it
    breaks a cap (``coinprint.caps``: JSON limits, ``MAX_RECORD_MOVES``)."""

    arguments.text(source, "source", limit=arguments.MAX_PATH_CHARS, name=True)
    arguments.text(text, "the record text", limit=MAX_INPUT_BYTES)
    doc = parse_json(text, source=source)
    if not isinstance(doc, dict):
        raise UnreadableInputError(f"{source} is not a game record: expected a JSON object")
    if doc.get("format") != RECORD_FORMAT:
        raise UnreadableInputError(f'{source} is not a game record: "format" must be "{RECORD_FORMAT}"')
    known = {"format", "game", "layout", "options", "players", "seed", "moves", "result"}
    game, layout, moves = doc.get("game"), doc.get("layout"), doc.get("moves", [])
    if not isinstance(game, str):
        raise UnreadableInputError(f'{source}: "game" must name the game')
    if not isinstance(layout, (str, dict)):
        raise UnreadableInputError(f'{source}: "layout" must be a built-in name, a path or a layout object')
    if not isinstance(moves, list):
        raise UnreadableInputError(f'{source}: "moves" must be a list')
    if len(moves) > MAX_RECORD_MOVES:
        raise UnreadableInputError(f"{source} has {len(moves):,} moves, over the {MAX_RECORD_MOVES:,}-move cap")
    if isinstance(layout, str) and not layout.strip():
        raise UnreadableInputError(f'{source}: "layout" is empty; give a built-in name, a path or a layout object')
    options, players = doc.get("options", {}) or {}, doc.get("players", {}) or {}
    if not isinstance(options, dict) or not isinstance(players, dict):
        raise UnreadableInputError(f'{source}: "options" and "players" must be objects')
    if not all(isinstance(name, str) for name in players.values()):
        raise UnreadableInputError(f'{source}: "players" must map each player to a name (text)')
    seed, result = doc.get("seed"), doc.get("result")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise UnreadableInputError(f'{source}: "seed" must be a whole number')
    if result is not None and not isinstance(result, dict):
        raise UnreadableInputError(f'{source}: "result" must be an object')
    extra = {k: v for k, v in doc.items() if k not in known}
    return Record(game, layout, moves, options, players, seed, result, extra)


@dataclass(frozen=True)
class Position(Generic[S]):
    """A game state with the rules it belongs to: what a person looks at.

    ``str(position)`` is the rules' text diagram; in Jupyter a position shows as the board with
    its coins, drawn as ``validate game --svg`` draws it.
    """

    rules: Rules[S, Any]
    state: S

    def __str__(self) -> str:
        return self.rules.describe(self.state)

    def _repr_svg_(self) -> str:
        # The game draws it (found in the registry only when a notebook asks).
        from coinprint.registry import game_of

        return game_of(self.rules.layout.game).position_svg(self.rules, self.state).decode("utf-8")


# -- replay -----------------------------------------------------------------------------------------------
@dataclass
class Replay(Generic[S]):
    """What replaying a record found. ``error`` is ``None`` when every move was legal."""

    state: S
    moves_played: int
    result: Result
    error: str | None = None
    result_mismatch: str | None = None

    @property
    def valid(self) -> bool:
        return self.error is None and self.result_mismatch is None

    def report(self) -> str:
        """One line per finding, as the ``validate game`` command prints them."""
        if self.error:
            return self.error
        lines = []
        if self.result_mismatch:
            lines.append(self.result_mismatch)
        status = "valid" if not lines else "invalid"
        lines.insert(0, f"{status}: {self.moves_played} moves; {self.result.describe()}")
        return "\n".join(lines)


def replay(rules: Rules[S, M], moves: Sequence[Any], claimed: dict[str, Any] | None = None) -> Replay[S]:
    """Replay ``moves`` from the start, checking each; stop at the first illegal one.

    The error reads ``move N (player): TEXT — why``. A ``claimed`` result (the record's)
    is compared with the replay's outcome.
    """

    if not isinstance(rules, Rules):
        raise UsageError(f"rules must be a rules engine (from coinprint.rules_for), not {arguments.kind(rules)}")
    if not isinstance(moves, (list, tuple)):
        raise UsageError(f"moves must be a list of moves, not {arguments.kind(moves)}")
    if not all(isinstance(move, str) for move in moves):  # events (Flick) are plain data
        arguments.plain_data(list(moves), "moves")
    if claimed is not None:
        arguments.mapping(claimed, "the claimed result")
    state = rules.initial_state()
    for number, text in enumerate(moves, start=1):
        player = rules.to_move(state)
        try:
            if rules.is_over(state):
                raise IllegalMoveError(f"the game is already over ({rules.result(state).reason})")
            move = rules.parse_move(state, text)
            rules.apply(state, move)
        except (InvalidMoveError, IllegalMoveError, AmbiguousMoveError) as exc:
            shown = text if isinstance(text, str) and text.isprintable() else json.dumps(text, ensure_ascii=False)
            shown = shown if len(shown) <= 200 else shown[:190] + "…"
            error = f"move {number} ({player}): {shown} — {exc}"
            return Replay(state, number - 1, rules.result(state), error=error)
    replayed = Replay(state, len(moves), rules.result(state))
    if claimed is not None:
        replayed.result_mismatch = compare_result(replayed.result, claimed)
    return replayed


def compare_result(actual: Result, claimed: dict[str, Any]) -> str | None:
    """Say how the record's claimed result differs from the replay, or None if it agrees."""
    if not actual.finished:
        return f"the record claims a result, but the game is unfinished after its moves ({actual.describe()})"
    problems = []
    if "winner" in claimed and claimed["winner"] != actual.winner:
        problems.append(f"winner {claimed['winner']!r}, the moves give {actual.winner!r}")
    if "score" in claimed and claimed["score"] != actual.score:
        problems.append(f"score {claimed['score']}, the moves give {actual.score}")
    if not problems:
        return None
    return "result: the record claims " + "; ".join(problems)

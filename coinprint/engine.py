"""The shared rules-engine core: the game protocol, move errors, results, records, replay,
agents and self-play.

Every game implements :class:`Rules` over a mutable state object that has ``copy()``:

>>> rules = SomeRules(layout, options)          # doctest: +SKIP
>>> state = rules.initial_state()               # doctest: +SKIP
>>> move = rules.parse_move(state, "place e5")  # doctest: +SKIP
>>> rules.apply(state, move)                    # checked: raises IllegalMoveError saying why
>>> rules.move_text(state, move)                # back to notation (round trip)

Records are JSON (docs/formats.md, Game records); :func:`replay` checks one move by move.
"""

from __future__ import annotations

import json
import random
from abc import ABC, abstractmethod
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, NamedTuple, TypeVar

from coinprint import arguments
from coinprint.caps import MAX_INPUT_BYTES, MAX_RECORD_MOVES
from coinprint.errors import AmbiguousMoveError as AmbiguousMoveError  # the move errors are this module's API too
from coinprint.errors import IllegalMoveError as IllegalMoveError
from coinprint.errors import InvalidMoveError as InvalidMoveError
from coinprint.errors import MoveError as MoveError
from coinprint.errors import UnreadableInputError, UsageError
from coinprint.fileio import parse_json
from coinprint.layout import Layout, Mark

RECORD_FORMAT = "coinprint-record/1"

S = TypeVar("S")  # a game's state type; it has copy()
M = TypeVar("M", bound=Hashable)  # a game's move type


class SearchMove(NamedTuple):
    """A move as tree search lists it (:meth:`Rules.search_moves`)."""

    move: Any
    value: float
    """:meth:`Rules.search_evaluate` of the position after the move, for the player making it
    (0 when the move ends the game)."""
    outcome: float | None
    """When the move ends the game, its value for the player making it: 1 a win, 0.5 a tie,
    0 a loss; else None."""


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
    """One game's rules over one layout. Subclasses set ``name`` and ``players``.

    ``options`` are the game's options (e.g. ``{"supply": 100}``); unknown or bad options
    raise :class:`coinprint.errors.UsageError` from the constructor.
    """

    name: str = ""
    players: tuple[str, str] = ("heads", "tails")
    layout: Layout
    """The layout the game is played on (set by the subclass's constructor)."""

    @abstractmethod
    def initial_state(self) -> S: ...

    @abstractmethod
    def to_move(self, state: S) -> str:
        """The player whose turn it is."""

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

    def successors(self, state: S) -> list[tuple[M, S]]:
        """Every legal move, in :meth:`legal_moves`' order, with the position after it (a new
        state each). Agents that weigh every move use this; a game that finds the positions
        while listing its moves overrides it to save playing each move again."""
        found = []
        for move in self.legal_moves(state):
            after: S = state.copy()  # type: ignore[attr-defined]
            self.apply_unchecked(after, move)
            found.append((move, after))
        return found

    @abstractmethod
    def is_over(self, state: S) -> bool: ...

    @abstractmethod
    def result(self, state: S) -> Result:
        """The outcome, or for a game still going the score so far with ``finished=False``."""

    @abstractmethod
    def parse_move(self, state: S, text: Any) -> M:
        """A move from its notation (raises :class:`InvalidMoveError`)."""

    @abstractmethod
    def move_text(self, state: S, move: M) -> Any:
        """A move in notation; ``parse_move(state, move_text(state, m)) == m``."""

    def move_note(self, state: S, move: M) -> str:
        """A line shown beside a move in a replay (Coin Age: the turn's throw); "" by default."""
        return ""

    def move_aside(self, state: S, move: M) -> list[Mark]:
        """Coins a replay shows beside the board with this move, top down (Coin Age: the
        turn's throw, each coin in the colour of the face it landed on); none by default.
        ``state`` is the position before the move; the marks' ``space`` is ""."""
        return []

    def random_move(self, state: S, rng: random.Random) -> M:
        """A uniformly random legal move (games with very many moves may do this faster)."""
        return rng.choice(self.legal_moves(state))

    def playout_move(self, state: S, rng: random.Random) -> M:
        """A cheap random legal move for Monte Carlo play-outs. It need not be uniform: a game
        whose moves are costly to list (Coin Age's whole turns) builds one directly."""
        return self.random_move(state, rng)

    def describe(self, state: S) -> str:
        """The position as text, for error messages and ``--show``."""
        return repr(state)

    def position(self, state: S) -> Position[S]:
        """``state`` with these rules: prints as text, and Jupyter draws it (the board and coins)."""
        return Position(self, state)

    def marks(self, state: S) -> list[Mark]:
        """What lies on each space, for drawing the position (coins, faces, stacks, rings)."""
        return []

    def describe_title(self, state: S) -> str:
        """A one-line caption for a picture of ``state``."""
        return f"{self.name}: {self.result(state).describe()}"

    def playout_total(self, state: S, move: M, player: str, rng: random.Random, depth: int, count: int) -> float:
        """The sum of ``count`` random play-out values for ``player`` after ``move`` in ``state``
        (each 1 a win, 0.5 a tie, 0 a loss; a play-out cut at ``depth`` moves is judged by the
        sign of :meth:`evaluate`: 0.75, 0.5 or 0.25). ``state`` is left as it was.

        This is the reference; a game may override it with a fast path that plays only legal
        moves by the same policy (the same random process), deterministic for a given ``rng``
        state; it may draw its random numbers differently (the Map's draws the same ones, Coin
        Age's does not)."""
        total = 0.0
        for _ in range(count):
            game = state.copy()  # type: ignore[attr-defined]
            self.apply_unchecked(game, move)
            total += _playout_value(self, game, player, rng, depth)
        return total

    def begin_turn(self, state: S, rng: random.Random) -> None:
        """Chance before a turn in simulation (Coin Age throws here); most games do nothing."""

    def begin_paired_turn(self, state: S, chance_seed: int, turn: int) -> None:
        """Chance before turn number ``turn`` (0 first) of a paired game: every game with the
        same ``chance_seed`` meets the same luck turn by turn, whoever plays it. By default
        :meth:`begin_turn` with a generator seeded by both; a game whose chance depends on
        the position (Coin Age throws the coins in the bank) draws each part of it from a
        stream of its own, so the games stay paired when their positions differ."""
        self.begin_turn(state, random.Random(f"chance {chance_seed} {turn}"))

    def search_moves(self, state: S) -> list[SearchMove]:
        """Every legal move with what tree search orders and values it by: the search
        evaluation of the position after it, or the game's outcome when it ends the game.
        By default from :meth:`successors`; a game may list and judge its moves faster
        (Coin Age does so on packed positions), finding the same moves in the same order."""
        mover = self.to_move(state)
        listed = []
        for move, after in self.successors(state):
            if self.is_over(after):
                winner = self.result(after).winner
                listed.append(SearchMove(move, 0.0, 0.5 if winner is None else float(winner == mover)))
            else:
                listed.append(SearchMove(move, self.search_evaluate(after, mover), None))
        return listed

    def chance_key(self, state: S) -> Hashable:
        """The chance outcome :meth:`begin_turn` set on ``state`` (Coin Age's throw), which
        decides what :meth:`legal_moves` lists; None for games without chance. Tree search
        keeps its untried moves per outcome."""
        return None

    def recorded_chance(self, state: S, move: M) -> None:
        """Set on ``state`` the chance outcome a recorded ``move`` carries (Coin Age's throw),
        so :meth:`legal_moves` can be listed while replaying; most games have none."""

    def holders(self, state: S) -> dict[str, str]:
        """Who holds each space now: space id → player; spaces no one holds are left out.
        By default a space is held by the side of the coin shown on it."""
        return {mark.space: mark.side for mark in self.marks(state) if mark.side in self.players}

    def decision_key(self, move: M) -> Hashable:
        """What a player decides with ``move``, leaving out details decided after it (the Map:
        the country moved to, not where a captured coin is sent). Branching counts these."""
        return move

    def position_key(self, state: S) -> Hashable:
        """What makes two positions the same (for agents that avoid repeating themselves): by
        default the text of :meth:`describe`; games override it with something cheaper."""
        return self.describe(state)

    def search_defaults(self) -> dict[str, float]:
        """Tree-search settings that suit this game better than the search's own (mcts's
        parameters by name, e.g. ``{"mix": 1.0}``); a parameter the agent is given wins. None
        by default."""
        return {}

    def search_evaluate(self, state: S, player: str) -> float:
        """The evaluation tree search judges its leaves and orders its moves by, on the scale
        of :meth:`evaluate` (points ahead: the search reads ``x`` as a chance of winning of
        0.5 + 0.5·tanh(x / 4)); by default :meth:`evaluate` itself. A game may judge better
        here without changing what greedy agents play."""
        return self.evaluate(state, player)

    def evaluate(self, state: S, player: str) -> float:
        """A quick guess of how good ``state`` is for ``player`` (for greedy agents)."""
        score = self.result(state).score
        other = self.other(player)
        return float(score.get(player, 0) - score.get(other, 0))

    def other(self, player: str) -> str:
        return self.players[1] if player == self.players[0] else self.players[0]


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


# -- agents and self-play ---------------------------------------------------------------------------
class Agent(ABC, Generic[S, M]):
    """Chooses moves for the rules of a game with states ``S`` and moves ``M``. Agents are
    seeded through the ``rng`` they are given; the ones here play any game."""

    name = ""

    @abstractmethod
    def choose(self, rules: Rules[S, M], state: S, rng: random.Random) -> M: ...


class RandomAgent(Agent[S, M]):
    """Uniform over the legal moves."""

    name = "random"

    def choose(self, rules: Rules[S, M], state: S, rng: random.Random) -> M:
        return rules.random_move(state, rng)


class GreedyAgent(Agent[S, M]):
    """The move with the best one-ply evaluation for the mover; ties broken at random.

    Repetition-aware, so it never stalls: a move back into a position this agent has already
    seen in the game counts :data:`REPEAT_PENALTY` less for each time it was seen (two greedy
    Map players would otherwise chase each other round a ring of claimed countries for ever)."""

    name = "greedy"

    REPEAT_PENALTY = 0.25

    def __init__(self) -> None:
        self.seen: dict[Hashable, int] = {}

    def choose(self, rules: Rules[S, M], state: S, rng: random.Random) -> M:
        player = rules.to_move(state)
        seen = self.seen
        here = rules.position_key(state)
        seen[here] = seen.get(here, 0) + 1
        best: list[tuple[M, Hashable]] = []
        best_value = float("-inf")
        for move, after in rules.successors(state):
            key = rules.position_key(after)
            value = rules.evaluate(after, player) - self.REPEAT_PENALTY * seen.get(key, 0)
            if value > best_value:
                best, best_value = [(move, key)], value
            elif value == best_value:
                best.append((move, key))
        move, key = best[0] if len(best) == 1 else rng.choice(best)
        seen[key] = seen.get(key, 0) + 1
        return move


class MonteCarloAgent(Agent[S, M]):
    """Flat Monte Carlo: the budget of ``playouts`` random games is shared equally among the
    legal moves, each getting at least ``playouts / moves`` (rounded up) and never fewer than
    ``min_per_move``; a play-out runs to the end of the game, or is cut at ``depth`` moves and
    judged by the sign of the evaluation. The best average wins; equal averages are broken at
    random."""

    name = "montecarlo"

    def __init__(self, playouts: int = 1000, depth: int = 1000, min_per_move: int = 2) -> None:
        self.playouts = playouts
        self.depth = depth
        self.min_per_move = min_per_move

    def choose(self, rules: Rules[S, M], state: S, rng: random.Random) -> M:
        player = rules.to_move(state)
        moves = rules.legal_moves(state)
        if len(moves) == 1:
            return moves[0]
        per_move = max(self.min_per_move, -(-self.playouts // len(moves)))
        best: list[M] = []
        best_total = float("-inf")
        for move in moves:
            total = rules.playout_total(state, move, player, rng, self.depth, per_move)
            if total > best_total:
                best, best_total = [move], total
            elif total == best_total:
                best.append(move)
        return best[0] if len(best) == 1 else rng.choice(best)


def _playout_value(rules: Rules[Any, Any], state: Any, player: str, rng: random.Random, depth: int) -> float:
    for _ in range(depth):
        if rules.is_over(state):
            winner = rules.result(state).winner
            return 1.0 if winner == player else (0.5 if winner is None else 0.0)
        rules.begin_turn(state, rng)
        rules.apply_unchecked(state, rules.playout_move(state, rng))
    value = rules.evaluate(state, player)
    return 0.5 + (0.25 if value > 0 else -0.25 if value < 0 else 0.0)


@dataclass
class Outcome:
    """One self-played game: its moves (notation), its result, and whether it timed out."""

    moves: list[Any]
    result: Result
    timeout: bool


def play_game(
    rules: Rules[S, M],
    agents: dict[str, Agent[S, M]],
    rng: random.Random,
    max_turns: int,
    chance_seed: int | None = None,
) -> Outcome:
    """Play one game between ``agents`` (keyed by player) up to ``max_turns`` moves.

    A game cut at the limit is a timeout: its result is unfinished, never a win. Chance
    (:meth:`Rules.begin_turn`: Coin Age's throws) comes from ``rng`` like the agents' choices;
    with a ``chance_seed`` it comes instead from :meth:`Rules.begin_paired_turn`, seeded by
    ``chance_seed`` and the turn's number, so two games with the same ``chance_seed`` meet
    the same throws turn by turn whoever plays them (paired games, as duplicate bridge deals
    both tables the same cards).
    """
    state = rules.initial_state()
    moves: list[Any] = []
    while not rules.is_over(state):
        if len(moves) >= max_turns:
            return Outcome(moves, rules.result(state), timeout=True)
        if chance_seed is None:
            rules.begin_turn(state, rng)
        else:
            rules.begin_paired_turn(state, chance_seed, len(moves))
        move = agents[rules.to_move(state)].choose(rules, state, rng)
        moves.append(rules.move_text(state, move))
        rules.apply_unchecked(state, move)
    return Outcome(moves, rules.result(state), timeout=False)

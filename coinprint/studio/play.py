"""Games played in the studio: a person against an agent, or two people at one screen, on
the game's rules engine, so every move is checked by the same code that checks records.

A :class:`Session` keeps the position, the moves in the record notation and a copy of the
position before each move (so undo restores the very throw Coin Age had), and writes a
normal record (:meth:`Session.record`) that ``coinprint validate game`` accepts.
"""

from __future__ import annotations

import hashlib
import random
import secrets
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from coinprint.agents import checked_agent, make_agent
from coinprint.engine import AmbiguousMoveError, IllegalMoveError, InvalidMoveError, Record
from coinprint.errors import UsageError
from coinprint.registry import GAME_AGENTS
from coinprint.render.table import table_board, table_motion, table_position, table_preview

if TYPE_CHECKING:
    from coinprint.engine import Rules
    from coinprint.game import Game
    from coinprint.layout import Layout
    from coinprint.search import Agent, Search
    from coinprint.view import View

PERSON = "person"
"""How a record names a seat played by a person in the studio."""
MAX_SESSIONS = 200
"""Most games the studio keeps at once (the oldest is dropped for a new one)."""
HINT_AGENT = "mcts"
"""The agent that gives hints: the strongest level the Play page offers."""


class RefusedMove(UsageError):
    """A move the engine refuses, with its reason (answered with 422)."""


class Stopped(Exception):
    """The computer's thinking was stopped (a new game, the stop button, the studio ending)."""


class _Stoppable:
    """A search whose every call first checks the stop signal: agents think by calling their
    search, so setting the signal ends their thinking at its next step."""

    def __init__(self, search: Search[Any, Any], stop: threading.Event) -> None:
        self._search, self._stop = search, stop

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._search, name)
        if not callable(value):
            return value
        stop = self._stop

        def checked(*args: Any, **kwargs: Any) -> Any:
            if stop.is_set():
                raise Stopped
            return value(*args, **kwargs)

        return checked


@dataclass
class Session:
    """One game in the studio."""

    id: str
    game: Game
    rules: Rules[Any, Any]
    recorded_layout: str | dict[str, Any]
    layout_name: str
    agents: dict[str, str]
    """The agent spec of each seat the computer plays (none: two people)."""
    options: dict[str, Any]
    seed: int
    max_turns: int
    state: Any = None
    moves: list[Any] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    words: list[str] = field(default_factory=list)
    """Each move as the table says it (:meth:`~coinprint.view.View.move_words`; "" for its notation)."""
    before: list[Any] = field(default_factory=list)
    thinking: bool = False
    touched: list[list[str]] = field(default_factory=list)
    """The picks that made each move (the last move is marked on the table with them)."""
    decided: list[bool] = field(default_factory=list)
    """Whether each move was a player's decision, not one that followed from it (the table's
    events after a Flick shot, played by themselves)."""
    motion: list[list[dict[str, Any]]] = field(default_factory=list)
    """The last decision under way, for the page to animate (a shot's coins sliding)."""
    stop: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)
    _rng: random.Random = field(default_factory=random.Random)
    _agents: dict[str, Agent[Any, Any]] = field(default_factory=dict)
    search: Search[Any, Any] = field(init=False)
    view: View[Any, Any] = field(init=False)
    _board: tuple[str, dict[str, Any]] | None = None
    layout_spec: str = ""
    """The layout as the request to start named it (a rematch starts on it again)."""

    def __post_init__(self) -> None:
        self._rng = random.Random(self.seed)
        self.search, self.view = self.game.search(self.rules), self.game.view(self.rules)
        self._agents = {player: make_agent(spec, player, self.search.agents) for player, spec in self.agents.items()}
        self.state = self.rules.initial_state()
        self._begin_turn()

    # -- what the page shows ---------------------------------------------------------------------
    @property
    def over(self) -> bool:
        """Whether the game has ended (or was cut at the move limit: a timeout)."""
        return self.rules.is_over(self.state) or self.timeout

    @property
    def timeout(self) -> bool:
        return sum(self.decided) >= self.max_turns and not self.rules.is_over(self.state)

    def legal_moves(self) -> list[Any]:
        """The moves a person may choose now (:meth:`~coinprint.search.Search.candidates`: every
        legal move, Coin Age's whole turns; for Flick the shots the computer weighs, while the
        sling makes any other); none once the game is over."""
        return [] if self.over else self.search.candidates(self.state)

    def to_json(self) -> dict[str, Any]:
        """The game as ``GET /api/play/{id}`` describes it."""
        rules, state = self.rules, self.state
        result = rules.result(state)
        moves = self.legal_moves()
        legal = [rules.move_text(state, move) for move in moves]
        turn = None if self.over else rules.to_move(state)
        chance = None
        if turn is not None and self.search.chance_key(state) is not None and moves:
            # Every move of the turn carries the same throw: any one of them says what it was.
            chance = self.view.move_note(state, moves[0])
        return {
            "id": self.id,
            "game": self.game.name,
            "title": self.game.title,
            "layout": self.layout_name,
            "layout_spec": self.layout_spec,
            "players": list(rules.players),
            "agents": dict(self.agents),
            "turn": turn,
            "computer_to_move": turn is not None and turn in self.agents,
            "thinking": self.thinking,
            "chance": chance,
            "legal": legal,
            "over": self.over,
            "timeout": self.timeout,
            "score": dict(result.score),
            "result": result.describe(),
            "winner": result.winner if result.finished else None,
            "moves": [
                {"number": n, "player": player, "move": move, "note": note, "words": words}
                for n, ((player, move, note), words) in enumerate(zip(self._history(), self.words), start=1)
            ],
            "can_undo": any(self.decided) and not self.thinking,
            "motion": self.motion,
            "board_key": self.board_key(),
            **self._table(moves),
        }

    def _table(self, moves: list[Any]) -> dict[str, Any]:
        """What the table shows and lets a person point at: the position's coins, trays and
        score, the last move, and the picks that make each legal move (parallel to ``legal``)
        with the words for the picks off the board."""
        state, view = self.state, self.view
        pointing = view.interaction(state) == "pick" and not self.computer_to_move()
        picks = [view.move_picks(state, move) for move in moves] if pointing else []
        off_board = {pick for ways in picks for way in ways for pick in way if not self._is_space(pick)}
        last = None
        if self.moves:  # the last decision (not the table's events after a Flick shot)
            index = max(i for i, decided in enumerate(self.decided) if decided) if any(self.decided) else -1
            player, move, note = self._history()[index]
            last = {
                "player": player,
                "move": move,
                "note": note,
                "words": self.words[index],
                "picks": self.touched[index],
            }
        return {
            **table_position(view, state),
            "picks": picks,
            "pick_words": {pick: view.pick_words(state, pick) for pick in sorted(off_board)},
            "last": last,
        }

    def computer_to_move(self) -> bool:
        return not self.over and self.rules.to_move(self.state) in self.agents

    def _is_space(self, pick: str) -> bool:
        try:
            self.view.board(self.state).space(pick)
        except KeyError:
            return False
        return True

    def board_key(self) -> str:
        """Names the table's board as it is now: it changes when the board grows (a country
        drawn) or the way of moving on it changes, and the page then fetches the board again."""
        state = self.state
        board = self.view.board(state)
        if board is self.rules.layout:
            return self.view.interaction(state)
        digest = hashlib.sha1(usedforsecurity=False)
        for space in board.spaces:
            digest.update(space.polygon.wkb)
            digest.update(f"{space.id}:{space.start}".encode())
        return f"{self.view.interaction(state)}:{digest.hexdigest()[:16]}"

    def table_board(self) -> dict[str, Any]:
        """The board drawn for play as it is now (:func:`~coinprint.render.table.table_board`),
        made again only when it changes (:meth:`board_key`)."""
        with self.lock:
            key = self.board_key()
            if self._board is None or self._board[0] != key:
                self._board = (key, table_board(self.view, self.state))
            return self._board[1]

    def preview(self, text: Any) -> dict[str, Any]:
        """A move being made (record notation), as the table shows it live
        (:func:`~coinprint.render.table.table_preview`): RefusedMove when it cannot be read or
        the game previews nothing now."""
        with self.lock:
            if self.over:
                raise RefusedMove("the game is over")
            try:
                move = self.rules.parse_move(self.state, text)
            except (InvalidMoveError, AmbiguousMoveError) as exc:
                raise RefusedMove(f"{_quoted(text)}: {exc}") from None
            shown = table_preview(self.view, self.state, move)
        if shown is None:
            raise RefusedMove(f"{self.game.title} shows no preview of a move now")
        return shown

    def _history(self) -> list[tuple[str, Any, str]]:
        return [
            (self.rules.to_move(before), move, note) for before, move, note in zip(self.before, self.moves, self.notes)
        ]

    def board_svg(self) -> bytes:
        """The position drawn as ``validate game --svg`` draws it."""
        return self.game.position_svg(self.rules, self.state)

    # -- moves -----------------------------------------------------------------------------------
    def play(self, text: Any) -> None:
        """Play ``text`` (record notation) for whoever is to move; :class:`RefusedMove` with
        the engine's reason when it is not legal now."""
        with self.lock:
            if self.thinking:
                raise RefusedMove("the computer is thinking; wait for its move")
            if self.over:
                raise RefusedMove(f"the game is over ({self.rules.result(self.state).describe()})")
            try:
                self._apply(self.rules.parse_move(self.state, text))
            except (InvalidMoveError, IllegalMoveError, AmbiguousMoveError) as exc:
                raise RefusedMove(f"{_quoted(text)}: {exc}") from None

    def computer(self) -> None:
        """Let the agent of the seat to move choose and play (run it off the event loop: a
        strong agent takes its time). Refused when a person is to move."""
        with self.lock:
            if self.over:
                raise RefusedMove("the game is over")
            player = self.rules.to_move(self.state)
            agent = self._agents.get(player)
            if agent is None:
                raise RefusedMove(f"{player} is played by a person here, not the computer")
            if self.thinking:
                raise RefusedMove("the computer is thinking already")
            self.thinking = True
            self.stop.clear()
            position = self.state.copy()
        try:
            move = agent.choose(cast("Search[Any, Any]", _Stoppable(self.search, self.stop)), position, self._rng)
        except Stopped:
            raise RefusedMove("the computer's thinking was stopped; ask for its move again") from None
        finally:
            with self.lock:
                self.thinking = False
        with self.lock:
            # The move as the computer's hand plays it (a Flick shot with its noise); what
            # follows from it is then played by itself.
            self._apply(self.search.execute(position, move, self._rng)[0])

    def hint(self) -> dict[str, Any]:
        """The move the strongest agent would play for whoever is to move, and the picks that
        make it (stopped as the computer's thinking is)."""
        with self.lock:
            if self.over:
                raise RefusedMove("the game is over")
            if self.thinking:
                raise RefusedMove("the computer is thinking; ask for a hint after its move")
            self.stop.clear()
            position = self.state.copy()
        agent = make_agent(HINT_AGENT, self.rules.to_move(position))
        try:
            move = agent.choose(cast("Search[Any, Any]", _Stoppable(self.search, self.stop)), position, self._rng)
        except Stopped:
            raise RefusedMove("the hint was stopped") from None
        return {"move": self.rules.move_text(position, move), "picks": self.view.move_picks(position, move)[0]}

    def halt(self) -> None:
        """Stop the computer's thinking (and a hint's) at its next step."""
        self.stop.set()

    def undo(self) -> None:
        """Take back the last move, and the computer's before it, so the person who undoes is
        to move again (with the same throw as before)."""
        with self.lock:
            if self.thinking:
                raise RefusedMove("the computer is thinking; undo after its move")
            if not any(self.decided):
                raise RefusedMove("there is no move to take back")
            self._pop_turn()
            while self.moves and self.rules.to_move(self.state) in self.agents:
                self._pop_turn()
            self.motion = []

    def _pop_turn(self) -> None:
        """Take back the last decision and every move that followed from it."""
        while self.moves and not self.decided[-1]:
            self._pop()
        if self.moves:
            self._pop()

    def _pop(self) -> None:
        self.moves.pop()
        self.notes.pop()
        self.words.pop()
        self.touched.pop()
        self.decided.pop()
        self.state = self.before.pop()

    def _apply(self, move: Any) -> None:
        """Play ``move`` (checked once, by the rules as they play it: IllegalMoveError saying
        why, the position left as it was), then what follows from it by itself, and begin the
        next turn."""
        decision = self.search.is_decision(self.state, move)
        motion = table_motion(self.view, self.state, self.view.motion(self.state, move)) if decision else []
        self._play_one(move, decision)
        if decision:
            self.motion = motion
        self._follow()
        self._begin_turn()

    def _play_one(self, move: Any, decision: bool) -> None:
        before = self.state.copy()
        text, note = self.rules.move_text(self.state, move), self.view.move_note(self.state, move)
        words = self.view.move_words(self.state, move)
        picks = self.view.move_picks(self.state, move)[0]
        try:
            self.rules.apply(self.state, move)
        except IllegalMoveError:
            self.state = before
            raise
        self.before.append(before)
        self.moves.append(text)
        self.notes.append(note)
        self.words.append(words)
        self.touched.append(picks)
        self.decided.append(decision)

    def _follow(self) -> None:
        """Play the moves no one chooses (:meth:`~coinprint.search.Search.forced`: the table's
        events after a Flick shot, as the physics says)."""
        while not self.rules.is_over(self.state):
            forced = self.search.forced(self.state)
            if forced is None:
                return
            self._play_one(forced, False)

    def _begin_turn(self) -> None:
        """Make the turn's chance (Coin Age throws its coins) as the turn starts."""
        if not self.rules.is_over(self.state):
            self.rules.begin_turn(self.state, self._rng)

    # -- the record --------------------------------------------------------------------------------
    def record(self) -> Record:
        """The game as a record (docs/formats.md, Game records): ``validate game`` accepts it."""
        players = {player: self.agents.get(player, PERSON) for player in self.rules.players}
        finished = self.rules.is_over(self.state)
        extra: dict[str, Any] = {"timeout": True} if self.timeout else {}
        return Record(
            self.game.name,
            self.recorded_layout,
            list(self.moves),
            dict(self.options),
            players,
            self.seed,
            self.rules.result(self.state).to_json() if finished else None,
            extra,
        )


QUOTED_CHARS = 60
"""How much of a refused move a message repeats (an arc may have thousands of points)."""


def _quoted(text: Any) -> str:
    """A move as a refusal repeats it: whole when short, else its start and an ellipsis."""
    shown = str(text)
    return shown if len(shown) <= QUOTED_CHARS else shown[: QUOTED_CHARS - 1] + "…"


def rules_options(game: Game, given: Mapping[str, Any]) -> dict[str, Any]:
    """The rules options (a record's ``options``) among ``given`` (text or JSON values, by
    parameter name), each read through the game's schema; unknown names are refused."""
    shown = {param.name: param for param in game.schema.shown_in("play") if param.role == "rules"}
    values: dict[str, Any] = {}
    for key, value in given.items():
        name = key.replace("-", "_")
        if name not in shown:
            raise UsageError(f"{game.name} takes no option {key!r}; use {', '.join(sorted(shown)) or 'none'}")
        values[name] = shown[name].parse(value, name)
    typed = {p.name: values.get(p.name, p.parse(p.default, p.name)) for p in game.schema.shown_in("play")}
    return game.schema.rules_options(game.schema.from_options("play", typed, values))


class Sessions:
    """The games being played, by id (random, so one cannot be guessed)."""

    def __init__(self) -> None:
        self._sessions: dict[str, Session] = {}
        self._lock = threading.Lock()

    def start(
        self,
        game: Game,
        layout: Layout,
        recorded_layout: str | dict[str, Any],
        layout_name: str,
        *,
        opponent: str | None,
        seat: str | None,
        options: Mapping[str, Any],
        seed: int | None,
    ) -> Session:
        """A new game of ``game`` on ``layout``: the person plays ``seat`` (default: the first
        to move) against ``opponent`` (an agent spec), or both seats when it is None."""
        if not game.simulated:
            raise UsageError(f"{game.title} cannot be played here: it has no seats for agents")
        players = tuple(seat_.player for seat_ in game.seats)
        person = seat or players[0]
        if person not in players:
            raise UsageError(f"seat {person!r} is not a {game.title} seat; use one of: {', '.join(players)}")
        agents: dict[str, str] = {}
        if opponent is not None:
            spec = checked_agent(str(opponent), "opponent", GAME_AGENTS)
            agents = {player: spec for player in players if player != person}
        rules = game.rules(layout, dict(options))
        session = Session(
            secrets.token_hex(12),
            game,
            rules,
            recorded_layout,
            layout_name,
            agents,
            dict(options),
            random.SystemRandom().randrange(1, 10**9) if seed is None else seed,
            game.play_max_turns,
        )
        with self._lock:
            while len(self._sessions) >= MAX_SESSIONS:
                self._sessions.pop(next(iter(self._sessions)))
            self._sessions[session.id] = session
        return session

    def get(self, session_id: str) -> Session | None:
        return self._sessions.get(session_id)

    def in_progress(self) -> list[Session]:
        """The games not over, newest first."""
        with self._lock:
            kept = list(self._sessions.values())
        return [session for session in reversed(kept) if not session.over]

    def halt_all(self) -> None:
        """Stop every computer's thinking (the studio is ending)."""
        with self._lock:
            kept = list(self._sessions.values())
        for session in kept:
            session.halt()

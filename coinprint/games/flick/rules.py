"""The Flick referee: the seed's numbered rules and penalties A–G (and the variants of its
notes) over a log of what was seen at the table.

Flick is a dexterity game, so a record's ``moves`` list holds *events*, JSON objects:

============================================  ===================================================
``{"shot": PLAYER, "coin": ID}``              a coin of PLAYER's, outside the goal, started moving
                                              without touching them: a shot begins (5.1)
``{"enter": ID, "edge": PLAYER or SIDE}``     the coin's centre crossed into the goal over that
                                              player's line (or over side SIDE, a number 1…n)
``{"leave": ID}``                             the coin's centre left the goal; it flips (3.3)
``{"stop": true}``                            nothing moves: the shot ends (5.2)
``{"touch": PLAYER, "what": "table"|ID}``     a player touched the table or a coin on it
``{"flip": ID}``                              a coin was turned over, other than by rules 3.3/5.3
``{"move": ID}``                              a coin moved outside a shot
``{"goal-coin-moved": N}``                    goal coin N (1…n) moved
``{"contact": [ID, ID]}``                     two score coins touched during a shot (penalty H)
============================================  ===================================================

Score coins are named by face and number: ``h1``, ``h2``, … start showing heads, ``t1``,
``t2``, … tails; in a team game each player's coins follow their team mate's (``h3``, ``h4``
for ``heads-2``). A coin is owned by the team whose face it shows (3.1).

A penalty ends the game: :meth:`FlickRules.is_over` turns true and the result's reason says
``penalty C: … (event 3); heads loses``. An event that cannot have happened (a shot by a player who is not
active, a coin that is not on the table, a coin leaving the goal it is not in) is an
:class:`IllegalMoveError`: the log is wrong, not the player. A malformed event is an
:class:`InvalidMoveError`.

Readings (docs/formats.md, How coinprint reads the seed rules): the flips that rules 3.3 and 5.3 order are done by the referee and
are not penalty D. A coin entering or leaving the goal outside a shot is a coin in the goal
moving outside a shot: penalty C (the seed's example 4). Penalty H is judged when the shot
ends, since a coin's "at some point in the goal during the shot" is known only then.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import Any

from coinprint.engine import IllegalMoveError, InvalidMoveError, Result, Rules
from coinprint.errors import UsageError
from coinprint.games.flick.physics import Outcome, Scene, Shot, scene_of, simulate
from coinprint.games.flick.table import TABLE_OPTIONS, shot_problem, table_of
from coinprint.layout import Layout

FACES = ("heads", "tails")
OPTIONS = {
    "penalty_h": False,
    "without_f": False,
    "first": "heads",
    "coins": None,
    "skill": "club",
    **{name: default for name, (default, _) in TABLE_OPTIONS.items()},
}
"""Options and defaults: ``penalty_h`` adds penalty H (seed note 1); ``without_f`` drops
penalty F (note 3); ``first`` is the player (or face) active first, the winner of the previous
game (rule 5); ``coins`` overrides the layout's score coins per player; ``friction``,
``restitution`` and ``coin_friction`` are the table's physics (:mod:`coinprint.games.flick.table`);
``skill`` is how steady every player's hand is when agents play (:data:`SKILLS`)."""
SKILLS = {"exact": (0.0, 0.0), "expert": (0.5, 0.02), "club": (1.5, 0.05), "beginner": (3.0, 0.10)}
"""Execution noise by skill level: the standard deviation of a shot's direction (degrees) and
of its speed (a fraction of the speed intended), drawn as Gaussian noise on the shot the player
meant. Our assumptions, not measurements (docs/games/flick.md, Playing Flick)."""
SHOT_FIELDS = ("at", "direction", "speed")
"""A simulated shot's own parameters, carried by its ``shot`` event: all three or none."""

KINDS = ("shot", "enter", "leave", "stop", "touch", "flip", "move", "goal-coin-moved", "contact")


@dataclass(frozen=True)
class Event:
    """One observed event. ``kind`` is one of :data:`KINDS`; the other fields hold what that
    kind needs (``coin``; ``player``; ``side`` for enter; ``what`` for touch; ``number`` for a
    goal coin; ``other`` for the second coin of a contact)."""

    kind: str
    coin: str = ""
    player: str = ""
    side: int = 0
    what: str = ""
    number: int = 0
    other: str = ""
    aim: tuple[float, float, float, float] | None = None
    """A simulated shot's start (x, y in mm), direction (degrees) and speed (m/s)."""


@dataclass(frozen=True)
class Player:
    name: str
    face: str
    side: int


@dataclass
class FlickState:
    """Where every coin is and what it shows, whose turn it is, and the shot under way."""

    faces: dict[str, str]
    in_goal: dict[str, bool]
    active: int
    events: int = 0
    in_shot: bool = False
    shot_coin: str = ""
    shot_entered: bool = False
    been_in_goal: set[str] = field(default_factory=set)
    contacts: list[tuple[int, str, str]] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    """Players skipped (rule 7) since the last shot ended."""
    over: bool = False
    loser: str = ""
    penalty: str = ""
    reason: str = ""
    scene: Scene | None = None
    """Where every coin lies, while it is known: from the start, as long as every shot carries
    its parameters and the physics follows it (None after a shot without them)."""
    expected: list[dict[str, Any]] | None = None
    """The events the physics says the simulated shot under way still holds."""
    after: Scene | None = None
    """Where the coins lie when the simulated shot under way ends."""

    def copy(self) -> FlickState:
        return FlickState(
            dict(self.faces),
            dict(self.in_goal),
            self.active,
            self.events,
            self.in_shot,
            self.shot_coin,
            self.shot_entered,
            set(self.been_in_goal),
            list(self.contacts),
            list(self.skipped),
            self.over,
            self.loser,
            self.penalty,
            self.reason,
            self.scene,
            None if self.expected is None else list(self.expected),
            self.after,
        )


def flipped(face: str) -> str:
    return FACES[1] if face == FACES[0] else FACES[0]


class FlickRules(Rules[FlickState, Event]):
    """The referee for one mat (its players, sides and score coins come from the layout)."""

    def __init__(self, layout: Layout, options: dict[str, Any] | None = None) -> None:
        self.layout = layout
        options = dict(options or {})
        unknown = set(options) - set(OPTIONS)
        if unknown:
            raise UsageError(f"unknown flick option(s) {', '.join(sorted(unknown))}; use {', '.join(OPTIONS)}")
        self.options = {**OPTIONS, **options}
        for flag in ("penalty_h", "without_f"):
            if not isinstance(self.options[flag], bool):
                raise UsageError(f"flick option {flag} must be true or false, not {self.options[flag]!r}")
        self.table = table_of(self.options)
        self.seated = _players_of(layout)
        self.players = tuple(p.name for p in self.seated)  # type: ignore[assignment]
        self.sides = _sides_of(layout)
        self.coins = self._coins_per_player(layout)
        self.start_faces: dict[str, str] = {}
        counters = {face: 0 for face in FACES}
        for player in self.seated:
            for _ in range(self.coins):
                counters[player.face] += 1
                self.start_faces[f"{player.face[0]}{counters[player.face]}"] = player.face
        self.first = self._first_player(self.options["first"])
        if self.options["skill"] not in SKILLS:
            raise UsageError(f"flick option skill must be one of: {', '.join(SKILLS)}, not {self.options['skill']!r}")
        self._start_scene: Scene | None = None
        self._last: tuple[Scene, Event, Outcome] | None = None

    def _coins_per_player(self, layout: Layout) -> int:
        value = self.options["coins"]
        if value is None:
            zones = layout.features_with_role("zone")
            value = layout.params.get("coins") or (zones[0].properties.get("coins") if zones else None) or 2
        if not isinstance(value, int) or isinstance(value, bool) or not 2 <= value <= 50:
            raise UsageError(f"flick option coins must be a whole number from 2 to 50, not {value!r}")
        return value

    def _first_player(self, who: Any) -> int:
        for index, player in enumerate(self.seated):
            if who in (player.name, player.face):
                return index
        raise UsageError(f"flick option first must be one of: {', '.join(FACES + self.players)}, not {who!r}")

    # -- the protocol -------------------------------------------------------------------------------
    def initial_state(self) -> FlickState:
        return FlickState(
            dict(self.start_faces), {c: False for c in self.start_faces}, self.first, scene=self.start_scene()
        )

    def start_scene(self) -> Scene | None:
        """The table at the start, each score coin on its zone's spot (None for a mat the
        physics cannot read: no goal, or coins without spots)."""
        if self._start_scene is None:
            try:
                scene = scene_of(self.layout)
            except UsageError:
                return None
            if sorted(scene.ids) != sorted(self.start_faces):
                return None
            self._start_scene = scene
        return self._start_scene

    def simulated(self, state: FlickState, shot: Event) -> Outcome:
        """What the physics makes of ``shot`` (a shot event with its parameters) from where the
        coins lie in ``state``. A coin knocked off the table earlier is put back where the shot
        starts. Raises :class:`UsageError` for a shot that cannot be played from there."""
        given, aim = state.scene, shot.aim
        assert given is not None and aim is not None
        if self._last is not None and self._last[0] is given and self._last[1] == shot:
            return self._last[2]
        outcome = simulate(self.shot_scene(state, shot), Shot(shot.coin, *aim), shot.player, self.table)
        self._last = (given, shot, outcome)
        return outcome

    def shot_scene(self, state: FlickState, shot: Event) -> Scene:
        """Where the coins lie when ``shot`` is played: ``state``'s scene, with the shot coin
        put back on the table when it was knocked off earlier (the shot places it anew)."""
        scene = state.scene
        assert scene is not None
        if shot.coin in scene.ids:
            return scene
        start = self.start_scene()
        assert start is not None
        return replace(scene, coins=(*scene.coins, start.coin(shot.coin)))

    def to_move(self, state: FlickState) -> str:
        return self.seated[state.active].name

    def face_of(self, player: str) -> str:
        return next(p.face for p in self.seated if p.name == player)

    def is_over(self, state: FlickState) -> bool:
        return state.over

    def score(self, state: FlickState) -> dict[str, int]:
        """Coins in the goal by the face they show (3.2)."""
        return {face: sum(1 for c, f in state.faces.items() if f == face and state.in_goal[c]) for face in FACES}

    def result(self, state: FlickState) -> Result:
        score = self.score(state)
        if not state.over:
            return Result(None, score, "", finished=False)
        if state.penalty:
            winner = flipped(self.face_of(state.loser))
            return Result(winner, score, state.reason)
        leader = max(FACES, key=score.__getitem__) if score["heads"] != score["tails"] else None
        return Result(leader, score, state.reason)

    def parse_move(self, state: FlickState, text: Any) -> Event:
        """An event from its JSON object (see the module docstring)."""
        if not isinstance(text, dict):
            raise InvalidMoveError('an event is a JSON object such as {"shot": "heads", "coin": "h1"}')
        kinds = [k for k in KINDS if k in text]
        if len(kinds) != 1:
            raise InvalidMoveError(f"an event names exactly one of: {', '.join(KINDS)}")
        kind = kinds[0]
        allowed = {"shot": {"coin", *SHOT_FIELDS}, "enter": {"edge"}, "touch": {"what"}}.get(kind, set()) | {kind}
        extra = set(text) - allowed
        if extra:
            raise InvalidMoveError(f"a {kind} event has no field(s) {', '.join(sorted(extra))}")
        value = text[kind]
        if kind == "shot":
            return Event("shot", coin=_text_field(text, "coin"), player=_text_value(value, kind), aim=_aim(text))
        if kind == "enter":
            if "edge" not in text:
                raise InvalidMoveError(
                    'an enter event needs an "edge": the player whose line it crossed, or a side number'
                )
            return Event("enter", coin=_text_value(value, kind), side=self._side(text.get("edge")))
        if kind in ("leave", "flip", "move"):
            return Event(kind, coin=_text_value(value, kind))
        if kind == "stop":
            if value is not True:
                raise InvalidMoveError('a stop event is written {"stop": true}')
            return Event("stop")
        if kind == "touch":
            return Event("touch", player=_text_value(value, kind), what=_text_field(text, "what"))
        if kind == "goal-coin-moved":
            if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= self.sides:
                raise InvalidMoveError(f"goal-coin-moved names a goal coin from 1 to {self.sides}, not {value!r}")
            return Event(kind, number=value)
        if not (isinstance(value, list) and len(value) == 2 and all(isinstance(v, str) for v in value)):
            raise InvalidMoveError('a contact event names two coins: {"contact": ["h1", "t2"]}')
        return Event("contact", coin=value[0], other=value[1])

    def _side(self, edge: Any) -> int:
        if isinstance(edge, int) and not isinstance(edge, bool) and 1 <= edge <= self.sides:
            return edge
        for player in self.seated:
            if edge == player.name:
                return player.side
        raise InvalidMoveError(
            f"edge {edge!r} is neither a player ({', '.join(self.players)}) nor a side number from 1 to {self.sides}"
        )

    def move_text(self, state: FlickState, move: Event) -> dict[str, Any]:
        if move.kind == "shot":
            aim = {} if move.aim is None else {"at": list(move.aim[:2]), "direction": move.aim[2], "speed": move.aim[3]}
            return {"shot": move.player, "coin": move.coin, **aim}
        if move.kind == "enter":
            owner = next((p.name for p in self.seated if p.side == move.side), None)
            return {"enter": move.coin, "edge": owner or move.side}
        if move.kind == "stop":
            return {"stop": True}
        if move.kind == "touch":
            return {"touch": move.player, "what": move.what}
        if move.kind == "goal-coin-moved":
            return {"goal-coin-moved": move.number}
        if move.kind == "contact":
            return {"contact": [move.coin, move.other]}
        return {move.kind: move.coin}

    def check(self, state: FlickState, move: Event) -> None:
        """Raise IllegalMoveError when the event cannot have happened now. Penalties are not
        illegal: they are events that end the game."""
        if state.over:
            raise IllegalMoveError(f"the game is already over ({state.reason})")
        if state.expected is not None:
            logged = self.move_text(state, move)
            if not state.expected:
                raise IllegalMoveError(f"the log says {_json(logged)}; the physics says the shot has stopped")
            if logged != state.expected[0]:
                raise IllegalMoveError(f"the log says {_json(logged)}; the physics says {_json(state.expected[0])}")
            return
        for coin in (move.coin, move.other):
            if coin and coin not in state.faces:
                raise IllegalMoveError(
                    f"there is no coin {coin!r} on the table; the coins are {', '.join(state.faces)}"
                )
        if move.kind in ("shot", "touch") and move.player not in self.players:
            raise IllegalMoveError(f"{move.player!r} is not a player; the players are {', '.join(self.players)}")
        active = self.to_move(state)
        if move.kind == "shot":
            if state.in_shot:
                raise IllegalMoveError(f"a shot (of {state.shot_coin}) is already under way; log a stop first")
            if move.player != active:
                raise IllegalMoveError(f"{active} is the active player, not {move.player}")
            if state.faces[move.coin] != self.face_of(active):
                raise IllegalMoveError(f"{move.coin} shows {state.faces[move.coin]}: {active} does not own it (3.1)")
            if state.in_goal[move.coin]:
                raise IllegalMoveError(f"{move.coin} is in the goal; a shot starts with a coin outside it (5.1)")
        elif move.kind == "enter" and state.in_goal[move.coin]:
            raise IllegalMoveError(f"{move.coin} is already in the goal")
        elif move.kind == "leave" and not state.in_goal[move.coin]:
            raise IllegalMoveError(f"{move.coin} is not in the goal")
        elif move.kind == "stop" and not state.in_shot:
            raise IllegalMoveError("no shot is under way")
        elif move.kind == "move" and state.in_shot:
            raise IllegalMoveError("during a shot coins may move; log only what enters or leaves the goal")
        elif move.kind == "touch" and move.what not in self._touchable(state):
            raise IllegalMoveError(
                f'a touch is of "table", a coin ({", ".join(state.faces)}) or a goal coin ("goal-coin", g1…g{self.sides}), '
                f"not {move.what!r}"
            )
        elif move.kind == "contact" and move.coin == move.other:
            raise IllegalMoveError("a coin cannot touch itself")
        self._check_simulated_shot(state, move)

    def _touchable(self, state: FlickState) -> set[str]:
        return {"table", "goal-coin", *state.faces, *(f"g{k}" for k in range(1, self.sides + 1))}

    def _check_simulated_shot(self, state: FlickState, move: Event) -> None:
        if move.kind == "shot" and move.aim is not None and state.scene is not None and not state.in_shot:
            try:
                self.simulated(state, move)
            except UsageError as bad:
                raise InvalidMoveError(str(bad)) from None

    def apply_unchecked(self, state: FlickState, move: Event) -> None:
        self._follow_the_table(state, move)
        state.events += 1
        number = state.events
        active = self.to_move(state)
        kind = move.kind
        if kind == "shot":
            state.in_shot, state.shot_coin, state.shot_entered = True, move.coin, False
            state.been_in_goal = {c for c, inside in state.in_goal.items() if inside}
            state.contacts = []
            state.skipped = []
        elif kind == "enter":
            face = state.faces[move.coin]
            state.in_goal[move.coin] = True
            if not state.in_shot:
                self._penalty(state, "C", active, number, f"{move.coin} entered the goal outside a shot")
            elif face != self.face_of(active):
                self._penalty(state, "E", active, number, f"{move.coin}, showing {face}, entered the goal")
            elif not self.options["without_f"] and move.side != self.seated[state.active].side:
                self._penalty(
                    state, "F", active, number, f"{move.coin} entered the goal over {self._side_name(move.side)}"
                )
            state.been_in_goal.add(move.coin)
            if move.coin == state.shot_coin:
                state.shot_entered = True
        elif kind == "leave":
            state.in_goal[move.coin] = False
            state.faces[move.coin] = flipped(state.faces[move.coin])  # 3.3
            if not state.in_shot:
                self._penalty(state, "C", active, number, f"{move.coin} left the goal outside a shot")
        elif kind == "stop":
            self._end_shot(state, active, number)
        elif kind == "touch":
            what = "the table" if move.what == "table" else move.what
            if move.player != active:
                self._penalty(
                    state, "A", move.player, number, f"{move.player} touched {what} while {active} was active"
                )
            elif state.in_shot:
                self._penalty(state, "B", active, number, f"{active} touched {what} during the shot")
        elif kind == "flip":
            state.faces[move.coin] = flipped(state.faces[move.coin])
            self._penalty(state, "D", active, number, f"{move.coin} was flipped over by hand")
        elif kind == "move":
            if state.in_goal[move.coin]:
                self._penalty(state, "C", active, number, f"{move.coin} moved in the goal outside a shot")
        elif kind == "goal-coin-moved":
            self._penalty(state, "G", active, number, f"goal coin {move.number} moved")
        elif kind == "contact" and state.in_shot:
            state.contacts.append((number, move.coin, move.other))

    def _follow_the_table(self, state: FlickState, move: Event) -> None:
        """Keep where the coins lie: a simulated shot's expected events, and the coins'
        places when it stops; a shot without parameters, or a coin moved by hand, leaves them
        unknown."""
        if state.expected is not None:
            if state.expected:
                state.expected.pop(0)
            if move.kind == "stop":
                state.scene, state.expected, state.after = state.after, None, None
            return
        if move.kind == "shot":
            if move.aim is not None and state.scene is not None:
                outcome = self.simulated(state, move)
                state.expected = list(outcome.events[1:])
                state.after = self.shot_scene(state, move).at_rest(outcome)
            else:
                state.scene = None
        elif move.kind == "move":
            state.scene = None

    def _end_shot(self, state: FlickState, active: str, number: int) -> None:
        state.in_shot = False
        if not state.shot_entered:
            state.faces[state.shot_coin] = flipped(state.faces[state.shot_coin])  # 5.3
        if self.options["penalty_h"]:
            for at, a, b in state.contacts:
                if (a in state.been_in_goal) != (b in state.been_in_goal):
                    inside, outside = (a, b) if a in state.been_in_goal else (b, a)
                    self._penalty(
                        state,
                        "H",
                        active,
                        at,
                        f"{inside} (in the goal during the shot) touched {outside} (never in it)",
                    )
                    return
        self._next_active(state)

    def _next_active(self, state: FlickState) -> None:
        """Rule 6 and 7: the next player becomes active, and is skipped if they own no coin
        outside the goal; rule 8: when every player has been skipped in a row, the game ends."""
        state.skipped = []
        for _ in range(len(self.seated)):
            state.active = (state.active + 1) % len(self.seated)
            player = self.seated[state.active]
            if any(face == player.face and not state.in_goal[c] for c, face in state.faces.items()):
                return
            state.skipped.append(player.name)
        state.over = True
        state.reason = "every player was skipped (8)"

    def _penalty(self, state: FlickState, letter: str, loser: str, number: int, what: str) -> None:
        state.over, state.loser, state.penalty = True, loser, letter
        state.in_shot = False
        state.reason = f"penalty {letter}: {what} (event {number}); {loser} loses"

    def _side_name(self, side: int) -> str:
        owner = next((p.name for p in self.seated if p.side == side), None)
        return f"{owner}'s line" if owner else f"side {side}, no player's line"

    def legal_moves(self, state: FlickState) -> list[Event]:
        """Every event the log could hold next: not a choice of play (Flick is a dexterity
        game, so ``coinprint play`` does not offer it) but the events that can happen now."""
        if state.over:
            return []
        if state.expected:
            return [self.parse_move(state, state.expected[0])]  # the physics decides a simulated shot
        coins = list(state.faces)
        active = self.to_move(state)
        events: list[Event] = []
        if state.in_shot:
            events.append(Event("stop"))
            events += [Event("contact", coin=a, other=b) for i, a in enumerate(coins) for b in coins[i + 1 :]]
        else:
            face = self.face_of(active)
            events += [
                Event("shot", coin=c, player=active) for c in coins if state.faces[c] == face and not state.in_goal[c]
            ]
            events += [Event("move", coin=c) for c in coins]
        for coin in coins:
            if state.in_goal[coin]:
                events.append(Event("leave", coin=coin))
            else:
                events += [Event("enter", coin=coin, side=side) for side in range(1, self.sides + 1)]
            events.append(Event("flip", coin=coin))
        events += [Event("touch", player=p, what=w) for p in self.players for w in ("table", *coins)]
        events += [Event("goal-coin-moved", number=n) for n in range(1, self.sides + 1)]
        return events

    # -- for people -----------------------------------------------------------------------------------
    def describe(self, state: FlickState) -> str:
        lines = []
        for face in FACES:
            inside = [c for c in state.faces if state.faces[c] == face and state.in_goal[c]]
            outside = [c for c in state.faces if state.faces[c] == face and not state.in_goal[c]]
            lines.append(f"{face}: in the goal {' '.join(inside) or '-'}; outside {' '.join(outside) or '-'}")
        if state.over:
            lines.append(self.result(state).describe())
        else:
            shot = f", shooting {state.shot_coin}" if state.in_shot else ""
            if state.expected is not None:
                shot += f" ({len(state.expected)} more events by the physics)"
            skipped = f" ({', '.join(state.skipped)} skipped)" if state.skipped else ""
            lines.append(f"active: {self.to_move(state)}{shot}{skipped}")
        return "\n".join(lines)


def _json(event: dict[str, Any]) -> str:
    return json.dumps(event, separators=(", ", ": "))


def _text_value(value: Any, kind: str) -> str:
    if not isinstance(value, str) or not value:
        raise InvalidMoveError(
            f"a {kind} event names a {'player' if kind in ('shot', 'touch') else 'coin'} as text, not {value!r}"
        )
    return value


def _aim(event: dict[str, Any]) -> tuple[float, float, float, float] | None:
    """A shot event's own parameters, if it carries them (a simulated shot)."""
    given = [key for key in SHOT_FIELDS if key in event]
    if not given:
        return None
    if len(given) != len(SHOT_FIELDS):
        raise InvalidMoveError(f"a simulated shot carries all of {', '.join(SHOT_FIELDS)}, not only {', '.join(given)}")
    at = event["at"]
    if not (isinstance(at, list) and len(at) == 2):
        raise InvalidMoveError(f'a shot\'s "at" is its start [x, y] in mm, not {at!r}')
    problem = shot_problem(at[0], at[1], event["direction"], event["speed"])
    if problem:
        raise InvalidMoveError(problem)
    return (float(at[0]), float(at[1]), float(event["direction"]), float(event["speed"]))


def _text_field(event: dict[str, Any], key: str) -> str:
    if key not in event:
        raise InvalidMoveError(f'this event needs a "{key}" field')
    value = event[key]
    if not isinstance(value, str) or not value:
        raise InvalidMoveError(f'"{key}" must be text, not {value!r}')
    return value


def _players_of(layout: Layout) -> list[Player]:
    """The players in turn order, from the mat's lines."""
    lines = layout.features_with_role("line")
    found = []
    for index, line in enumerate(sorted(lines, key=lambda f: (f.properties.get("seat", 0), lines.index(f)))):
        name = str(line.properties.get("player"))
        face = line.properties.get("face", name.partition("-")[0])
        side = line.properties.get("side")
        if not isinstance(side, int):
            side = _side_of_line(layout, line) or index + 1
        found.append(Player(name, face, side))
    if len(found) < 2:
        raise UsageError("a Flick mat needs at least two players' lines")
    return found


def _sides_of(layout: Layout) -> int:
    goals = layout.features_with_role("goal")
    if goals and isinstance(goals[0].properties.get("sides"), int):
        return int(goals[0].properties["sides"])
    coins = layout.features_with_role("goal-coin")
    return len(coins) or int(layout.params.get("sides", 4))


def _side_of_line(layout: Layout, line: Any) -> int | None:
    """For a hand-made mat without ``side`` properties: the goal edge the line lies on."""
    import math

    goals = layout.features_with_role("goal")
    if not goals:
        return None
    ring = goals[0].geometry["coordinates"][0][:-1]
    mid = line.shape.interpolate(0.5, normalized=True)
    distances = []
    for k in range(len(ring)):
        a, b = ring[k - 1], ring[k]
        distances.append(math.dist(((a[0] + b[0]) / 2, (a[1] + b[1]) / 2), (mid.x, mid.y)))
    if not distances:
        return None
    nearest = min(range(len(distances)), key=distances.__getitem__)
    return nearest or len(ring)  # the edge ending at corner 0 is side n

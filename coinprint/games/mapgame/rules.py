"""The Map game's chase (docs/formats.md, How coinprint reads the seed rules): two coins on the country graph.

O starts in the country marked ``start: "O"`` (country N-1), X in ``start: "X"`` (country N);
each start country is claimed by its player. O moves first. A move goes to an adjacent
country and claims it if unclaimed; walking onto a claimed country changes nothing. Moving
onto the opponent's coin captures it: the mover claims that country (scrubbing out the
opponent's mark) and sends the captured coin to any other country — any country but the
one the capture happened on, claimed or not, by either player (the sent coin claims
nothing where it lands). The game ends when every country is claimed; most countries wins.

Notation (countries by label, the drawing-order numbers): ``move 7``, ``move 12 send 3``.

>>> from coinprint.games.mapgame.board import build
>>> rules = MapRules(build(5, seed=1), {})
>>> state = rules.initial_state()
>>> rules.to_move(state)
'O'
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from coinprint.engine import IllegalMoveError, InvalidMoveError, Result, Rules
from coinprint.errors import UsageError
from coinprint.layout import Layout
from coinprint.search import other_player

PLAYERS = ("O", "X")
_MOVE = re.compile(r"^\s*move\s+(\S+)(?:\s+send\s+(\S+))?\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class MapMove:
    """Move the mover's coin to ``to`` (a space id); ``send`` is where a captured coin goes."""

    to: str
    send: str | None = None


@dataclass
class MapState:
    """Where the coins are, who claimed what, whose turn it is."""

    coins: dict[str, str]
    owner: dict[str, str | None]
    turn: int = 0
    """Moves played so far; O moves on even turns."""
    claimed: dict[str, int] = field(default_factory=dict)

    def copy(self) -> MapState:
        return MapState(dict(self.coins), dict(self.owner), self.turn, dict(self.claimed))


class MapRules(Rules[MapState, MapMove]):
    """The Map chase over a mapgame layout. No options are taken."""

    players = PLAYERS

    def __init__(
        self,
        layout: Layout,
        options: dict[str, Any] | None = None,
        *,
        neighbours: Mapping[str, frozenset[str]] | None = None,
    ) -> None:
        """``neighbours``: each country's neighbours when they are known already (a map a
        search's play-out drew: as its countries bordered when drawn), else the layout's."""
        if options:
            raise UsageError(f"mapgame takes no options, not {', '.join(sorted(options))}")
        self.layout = layout
        self.ids = [s.id for s in layout.spaces]
        self.neighbours = (
            {sid: frozenset(layout.neighbours(sid)) for sid in self.ids} if neighbours is None else dict(neighbours)
        )
        starts = {}
        for player in PLAYERS:
            found = [s.id for s in layout.spaces if s.start == player]
            if len(found) != 1:
                raise UsageError(f'the map needs exactly one country with start "{player}", it has {len(found)}')
            starts[player] = found[0]
        self.starts = starts
        self.near = {sid: sorted(self.neighbours[sid], key=self.ids.index) for sid in self.ids}
        """Each country's neighbours in layout order (the order :meth:`legal_moves` lists them)."""
        # Each country's name as the notation writes it, read once by the layout's own look-up
        # (records replay thousands of moves).
        self._countries = {s.name: layout.space(s.name).id for s in layout.spaces}

    # -- positions -----------------------------------------------------------------------------
    def initial_state(self) -> MapState:
        owner: dict[str, str | None] = {sid: None for sid in self.ids}
        for player, sid in self.starts.items():
            owner[sid] = player
        claimed = {p: 1 for p in PLAYERS}
        return MapState(dict(self.starts), owner, 0, claimed)

    def to_move(self, state: MapState) -> str:
        return PLAYERS[state.turn % 2]

    def is_over(self, state: MapState) -> bool:
        return state.claimed["O"] + state.claimed["X"] == len(self.ids)

    def result(self, state: MapState) -> Result:
        score = {p: state.claimed[p] for p in PLAYERS}
        if not self.is_over(state):
            return Result(None, score, "unfinished", finished=False)
        winner = max(PLAYERS, key=score.__getitem__) if score["O"] != score["X"] else None
        return Result(winner, score, "every country claimed")

    # -- moves ---------------------------------------------------------------------------------------
    def legal_moves(self, state: MapState) -> list[MapMove]:
        if self.is_over(state):
            return []
        player = self.to_move(state)
        rival = state.coins[PLAYERS[1 - PLAYERS.index(player)]]
        moves = []
        for to in sorted(self.neighbours[state.coins[player]], key=self.ids.index):
            if to == rival:
                moves += [MapMove(to, send) for send in self.ids if send != to]
            else:
                moves.append(MapMove(to))
        return moves

    def check(self, state: MapState, move: MapMove) -> None:
        if self.is_over(state):
            raise IllegalMoveError("the game is over: every country is claimed")
        player = self.to_move(state)
        here = state.coins[player]
        rival = state.coins[other_player(PLAYERS, player)]
        if move.to == here:
            raise IllegalMoveError(
                f"your coin is already in country {self._name(here)}; move to a neighbouring country"
            )
        if move.to not in self.neighbours[here]:
            near = ", ".join(self._name(s) for s in sorted(self.neighbours[here], key=self.ids.index))
            raise IllegalMoveError(
                f"country {self._name(move.to)} does not border country {self._name(here)} (its neighbours: {near})"
            )
        if move.to == rival and move.send is None:
            raise IllegalMoveError(
                f"you capture {other_player(PLAYERS, player)}'s coin in country {self._name(move.to)}: say where it goes, e.g. 'move {self._name(move.to)} send N'"
            )
        if move.to != rival and move.send is not None:
            raise IllegalMoveError(f"there is no coin to capture in country {self._name(move.to)}, so nothing to send")
        if move.send is not None and move.send == move.to:
            raise IllegalMoveError("the captured coin must be sent to another country, not back where it was taken")

    def apply_unchecked(self, state: MapState, move: MapMove) -> None:
        player = self.to_move(state)
        rival = other_player(PLAYERS, player)
        if move.send is not None:
            state.coins[rival] = move.send
        state.coins[player] = move.to
        previous = state.owner[move.to]
        # Claim an unclaimed country; a capture also takes over the opponent's claim.
        if previous is None or (move.send is not None and previous != player):
            if previous is not None:
                state.claimed[previous] -= 1
            state.owner[move.to] = player
            state.claimed[player] += 1
        state.turn += 1

    # -- notation ----------------------------------------------------------------------------------------
    def parse_move(self, state: MapState, text: Any) -> MapMove:
        if not isinstance(text, str):
            raise InvalidMoveError(f"a move is text like 'move 7' or 'move 12 send 3', not {text!r}")
        match = _MOVE.match(text)
        if not match:
            raise InvalidMoveError(f"'{text}' is not a move; write 'move N' or 'move N send M' (N, M country numbers)")
        to = self._country(match.group(1))
        send = self._country(match.group(2)) if match.group(2) else None
        return MapMove(to, send)

    def move_text(self, state: MapState, move: MapMove) -> str:
        text = f"move {self._name(move.to)}"
        return text + (f" send {self._name(move.send)}" if move.send else "")

    def _country(self, name: str) -> str:
        known = self._countries.get(name)
        if known is not None:
            return known
        try:
            return self.layout.space(name).id
        except KeyError:
            raise InvalidMoveError(
                f"there is no country '{name}' on this map (countries 1 to {len(self.ids)})"
            ) from None

    def _name(self, sid: str) -> str:
        return self.layout.space(sid).name

    # -- text ------------------------------------------------------------------------------------
    def describe(self, state: MapState) -> str:
        lines = []
        for player in PLAYERS:
            mine = [self._name(s) for s in self.ids if state.owner[s] == player]
            lines.append(f"{player}: coin in {self._name(state.coins[player])}; claimed {len(mine)}: {' '.join(mine)}")
        free = [self._name(s) for s in self.ids if state.owner[s] is None]
        lines.append(f"unclaimed {len(free)}: {' '.join(free)}")
        lines.append(f"{self.to_move(state)} to move" if not self.is_over(state) else self.result(state).describe())
        return "\n".join(lines)

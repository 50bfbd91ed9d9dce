"""The whole Map game in one record: the players draw the map, then chase on it.

A record whose layout is ``mapgame:draw=1`` (with ``countries``, ``max_neighbours`` and
``coin`` as for a generated map) starts from the circle alone. Its first moves are arcs: O
draws countries 2, 4, …, N-1 and X countries 3, 5, …, N, each arc judged when it is drawn
(:func:`~coinprint.games.mapgame.arcs.judge_arc`). As in the seed, X's start may border O's
(the generator's ``starts=apart`` is a choice of the generator, not a rule). Then O's coin starts in country N-1, X's in country N, and
the chase (:class:`~coinprint.games.mapgame.rules.MapRules`) is played on the map drawn.

Notation of an arc: ``arc X,Y X,Y …``, its points in mm in the map's frame (the circle's
centre at 0,0, y up), from one end to the other, e.g. ``arc 15.09,0 30,12 20.5,24 4.8,14.3``.
The chase's moves are written as always (``move 7``, ``move 12 send 3``).

>>> from coinprint.games.mapgame.board import blank_layout
>>> rules = DrawRules(blank_layout(countries=3, max_neighbours=4), {})
>>> state = rules.initial_state()
>>> rules.to_move(state), rules.phase(state)
('O', 'draw')
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any

from coinprint.caps import MAX_ARC_POINTS
from coinprint.checks import Problem, common_problems
from coinprint.engine import IllegalMoveError, InvalidMoveError, Result, Rules
from coinprint.errors import UsageError
from coinprint.games.mapgame.arcs import END_TOLERANCE_MM, DrawnMap, propose_arc
from coinprint.games.mapgame.board import PLAYERS, coins_of
from coinprint.games.mapgame.rules import MapMove, MapRules, MapState
from coinprint.games.mapgame.view import MapView
from coinprint.layout import Layout, Mark
from coinprint.view import Preview, View

_NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
_ARC = re.compile(r"^\s*arc((?:\s+" + _NUMBER + r"\s*,\s*" + _NUMBER + r")+)\s*$", re.IGNORECASE)
_POINT = re.compile(r"(" + _NUMBER + r")\s*,\s*(" + _NUMBER + r")")
PROPOSALS = 3
"""Arcs the drawing phase lists as its legal moves (the generator's proposals): what the
random player picks from. A person may draw any arc the rules accept."""
PROPOSAL_ROUNDS = 6
"""Proposals tried for those PROPOSALS (two may be the same arc)."""


def is_drawing_start(layout: Layout) -> bool:
    """The layout is the circle a drawn game starts from (``mapgame:draw=1``)."""
    return len(layout.spaces) == 1 and isinstance(layout.params.get("draw"), dict)


def start_problems(layout: Layout) -> list[Problem]:
    """A drawing start needs only a valid circle."""
    return common_problems(layout)


@dataclass(frozen=True)
class Arc:
    """An arc drawn as the next country: its points in mm."""

    points: tuple[tuple[float, float], ...]


DrawMove = Arc | MapMove


@dataclass
class DrawState:
    """The map drawn so far; once it is whole, the chase on it."""

    drawn: DrawnMap
    chase: MapRules | None = None
    position: MapState | None = None

    def copy(self) -> DrawState:
        drawn = DrawnMap.__new__(DrawnMap)
        drawn.__dict__.update(self.drawn.__dict__)
        drawn.steps, drawn.arcs = list(self.drawn.steps), list(self.drawn.arcs)
        return DrawState(drawn, self.chase, self.position.copy() if self.position is not None else None)


class DrawRules(Rules[DrawState, DrawMove]):
    """The Map drawn together and then chased: arcs first, then the chase's moves. No options."""

    players = PLAYERS

    def __init__(self, layout: Layout, options: dict[str, Any] | None = None) -> None:
        if options:
            raise UsageError(f"mapgame takes no options, not {', '.join(sorted(options))}")
        if not is_drawing_start(layout):
            raise UsageError("a drawn Map game starts from the circle alone (layout mapgame:draw=1)")
        draw = layout.params["draw"]
        self.layout = layout
        self.countries = int(draw["countries"])
        self.max_neighbours = int(draw["max_neighbours"])
        o, x = coins_of(layout)
        self.coins = (o.name, x.name)

    def phase(self, state: DrawState) -> str:
        """``draw`` while the map is being drawn, then ``chase``."""
        return "draw" if state.position is None else "chase"

    # -- positions -----------------------------------------------------------------------------
    def initial_state(self) -> DrawState:
        return DrawState(DrawnMap(self.coins, self.max_neighbours))

    def to_move(self, state: DrawState) -> str:
        if state.chase is None or state.position is None:
            # Country k (k ≥ 2) is drawn by O when k is even: the next is len + 1.
            return PLAYERS[(len(state.drawn) + 1) % 2]
        return state.chase.to_move(state.position)

    def is_over(self, state: DrawState) -> bool:
        return state.chase is not None and state.position is not None and state.chase.is_over(state.position)

    def result(self, state: DrawState) -> Result:
        if state.chase is None or state.position is None:
            return Result(None, {p: 0 for p in PLAYERS}, "unfinished", finished=False)
        return state.chase.result(state.position)

    # -- moves ---------------------------------------------------------------------------------------
    def legal_moves(self, state: DrawState) -> list[DrawMove]:
        if state.chase is not None and state.position is not None:
            return list(state.chase.legal_moves(state.position))
        # The generator's proposals, from a seed the map itself gives: the same map lists the
        # same arcs.
        rng = random.Random(len(state.drawn) * 7919 + len(state.drawn.outline.points))
        found: list[DrawMove] = []
        for _ in range(PROPOSAL_ROUNDS):
            if len(found) == PROPOSALS:
                break
            points = propose_arc(state.drawn, rng)
            if points is not None:
                move = Arc(tuple(points))
                if self._refusal(state, move) is None and move not in found:
                    found.append(move)
        return found

    def check(self, state: DrawState, move: DrawMove) -> None:
        if state.chase is not None and state.position is not None:
            if not isinstance(move, MapMove):
                raise IllegalMoveError("the map is drawn: the chase's moves are 'move N' (or 'move N send M')")
            state.chase.check(state.position, move)
            return
        if not isinstance(move, Arc):
            raise IllegalMoveError(
                f"the map is still being drawn: draw country {len(state.drawn) + 1} with 'arc X,Y X,Y …'"
            )
        why = self._refusal(state, move)
        if why is not None:
            raise IllegalMoveError(why)

    def _refusal(self, state: DrawState, move: Arc) -> str | None:
        judged = state.drawn.judge([list(p) for p in move.points])
        if judged.refusal is not None:
            return f"arc for country {len(state.drawn) + 1}: {judged.refusal}"
        return None

    def apply_unchecked(self, state: DrawState, move: DrawMove) -> None:
        if state.chase is not None and state.position is not None:
            state.chase.apply_unchecked(state.position, move)  # type: ignore[arg-type]
            return
        state.drawn.draw([list(p) for p in move.points])  # type: ignore[union-attr]
        if len(state.drawn) == self.countries:
            # The borders as the arcs drew them: the layout's own adjacency, without its geometry.
            state.chase = MapRules(state.drawn.layout(), {}, neighbours=state.drawn.neighbours())
            state.position = state.chase.initial_state()

    # -- notation ----------------------------------------------------------------------------------------
    def parse_move(self, state: DrawState, text: Any) -> DrawMove:
        if state.chase is not None and state.position is not None:
            return state.chase.parse_move(state.position, text)
        if not isinstance(text, str):
            raise InvalidMoveError(f"an arc is text like 'arc 15,0 30,12 4.8,14.3', not {str(text)[:40]!r}")
        if text.count(",") > MAX_ARC_POINTS:  # refused before the points are read
            raise InvalidMoveError(f"an arc has 2 to {MAX_ARC_POINTS} points, not {text.count(',')}")
        match = _ARC.match(text)
        if not match:
            raise InvalidMoveError(
                f"'{text[:60]}' is not an arc; write 'arc X,Y X,Y …' (its points in mm, from one end on the outline to the other)"
            )
        points = tuple((float(x), float(y)) for x, y in _POINT.findall(match.group(1)))
        return Arc(points)

    def move_text(self, state: DrawState, move: DrawMove) -> str:
        if isinstance(move, MapMove):
            assert state.chase is not None and state.position is not None
            return state.chase.move_text(state.position, move)
        return "arc " + " ".join(f"{_number(x)},{_number(y)}" for x, y in move.points)

    # -- text ------------------------------------------------------------------------------------
    def describe(self, state: DrawState) -> str:
        if state.chase is not None and state.position is not None:
            return state.chase.describe(state.position)
        return f"{len(state.drawn)} of {self.countries} countries drawn; {self.to_move(state)} draws country {len(state.drawn) + 1}"


def _number(value: float) -> str:
    """A coordinate as the notation writes it: at most 4 decimals, no trailing zeros."""
    text = f"{round(value, 4):.4f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


TABLE_REACH_MM = 115.0
"""How far from the circle's centre the studio's table reaches each way: the paper a map is
drawn on (the generator's 21-country maps reach 90–111 mm); it grows when a map does."""
TABLE_MARGIN_MM = 10.0
"""Paper kept beyond the map when a map outgrows TABLE_REACH_MM."""


class DrawView(View[DrawState, DrawMove]):
    """Pictures of a drawn game: the countries drawn so far; in the chase, the Map's claims
    and coins on the map drawn. On the studio's table the arcs are drawn by hand (the "draw"
    interaction), each judged live (:meth:`preview`)."""

    rules: DrawRules

    def board(self, state: DrawState) -> Layout:
        return state.drawn.layout() if state.chase is None else state.chase.layout

    def _chase_view(self, state: DrawState) -> tuple[MapView, MapState] | None:
        if state.chase is None or state.position is None:
            return None
        return MapView(state.chase), state.position

    # -- the studio's table ----------------------------------------------------------------------
    def interaction(self, state: DrawState) -> str:
        """Arcs are drawn by hand; the chase is played by pointing at countries."""
        return "draw" if state.chase is None else "pick"

    def table_area(self, state: DrawState) -> tuple[float, float, float, float]:
        """A square of paper round the circle, TABLE_REACH_MM each way, grown to hold the map."""
        minx, miny, maxx, maxy = self.board(state).bounds
        reach, margin = TABLE_REACH_MM, TABLE_MARGIN_MM
        return (
            min(-reach, minx - margin),
            min(-reach, miny - margin),
            max(reach, maxx + margin),
            max(reach, maxy + margin),
        )

    def table_facts(self, state: DrawState) -> dict[str, Any]:
        """While drawing: the map's outline (``polygon``, where an arc starts and ends), how
        near it an end must be, the disc each country must hold, the neighbour limit, and the
        country drawn next and by whom."""
        if state.chase is not None:
            return {}
        return {
            "polygon": [list(p) for p in state.drawn.outline.points.tolist()],
            "end_tolerance_mm": END_TOLERANCE_MM,
            "need_mm": round(state.drawn.need_mm, 2),
            "max_neighbours": self.rules.max_neighbours,
            "country": len(state.drawn) + 1,
            "drawer": self.rules.to_move(state),
            "countries": self.rules.countries,
        }

    def preview(self, state: DrawState, move: DrawMove) -> Preview | None:
        """The country an arc would close, its neighbours and its coin's fit, and the rule
        that refuses it (shaded even when refused for its neighbours or its coin)."""
        if state.chase is not None or not isinstance(move, Arc):
            return None
        judged = state.drawn.judge([list(p) for p in move.points])
        number = len(state.drawn) + 1
        lines = []
        if judged.country:
            limit = self.rules.max_neighbours
            listed = ", ".join(str(n) for n in judged.neighbours) or "none"
            lines.append(f"country {number} borders {len(judged.neighbours)} of at most {limit}: {listed}")
            fits = "fits" if judged.coin_mm >= judged.need_mm else "does not fit"
            lines.append(f"the coin {fits}: {judged.coin_mm:.1f} mm across, {judged.need_mm:.1f} mm needed")
        refusal = None if judged.refusal is None else f"arc for country {number}: {judged.refusal}"
        return Preview(
            refusal,
            tuple((float(x), float(y)) for x, y in judged.country),
            tuple(f"c{n}" for n in judged.neighbours),
            tuple(lines),
        )

    def move_picks(self, state: DrawState, move: DrawMove) -> list[list[str]]:
        """An arc is drawn, not pointed at: it names the country it makes (the table outlines
        it as the last move); the chase's moves as the Map's."""
        chase = self._chase_view(state)
        if chase is not None:
            return chase[0].move_picks(chase[1], move)  # type: ignore[arg-type]
        return [[f"c{len(state.drawn) + 1}"]]

    def move_words(self, state: DrawState, move: DrawMove) -> str:
        """An arc is said by the country it draws; the chase's moves by their notation."""
        if state.chase is not None or not isinstance(move, Arc):
            return ""
        return f"draws country {len(state.drawn) + 1}"

    def pick_words(self, state: DrawState, pick: str) -> str:
        chase = self._chase_view(state)
        return pick if chase is None else chase[0].pick_words(chase[1], pick)

    def pieces(self, state: DrawState) -> list[Mark]:
        chase = self._chase_view(state)
        return [] if chase is None else chase[0].pieces(chase[1])

    def score_lines(self, state: DrawState) -> list[str]:
        chase = self._chase_view(state)
        if chase is None:
            return [self.title(state)]
        return chase[0].score_lines(chase[1])

    def marks(self, state: DrawState) -> list[Mark]:
        if state.chase is None or state.position is None:
            return []
        return MapView(state.chase).marks(state.position)

    def holders(self, state: DrawState) -> dict[str, str]:
        if state.chase is None or state.position is None:
            return {}
        return MapView(state.chase).holders(state.position)

    def title(self, state: DrawState) -> str:
        if state.chase is None or state.position is None:
            return f"Map being drawn: {len(state.drawn)} of {self.rules.countries} countries"
        return MapView(state.chase).title(state.position)

"""The Coin Table rules engine (seed rules, read as docs/formats.md says).

Two players, ``heads`` (moves first) and ``tails``, share a supply of coins (100 by
default). On a turn a player does exactly one of:

- ``place e5``: put a coin from the supply, own face up, on an empty space;
- ``touch e5``: touch any coin on a space (it becomes safe);
- ``flip d4``: turn an opponent's coin to your face; at least two of your coins must be on
  spaces next to it, and it must be neither safe nor part of a castle;
- ``castle d4 e4 e5``: put a coin from the supply on three mutually adjacent spaces that all
  show your face, where no castle stands yet; castled coins never flip again.

The coin placed, touched or flipped on the opponent's latest turn is *safe* (it cannot be
flipped); a castle is a coin put on the board, so after a castle nothing is safe. The game
ends when every space holds a coin or the supply is empty; the player whose face shows on
more spaces wins, equal counts tie.

The engine sees a layout only through its spaces (ids and labels) and adjacency graph, so it
plays on any Coin Table board. Cells are named by their labels, read case-insensitively.

Moves are plain ints for speed (see :class:`CoinTableRules` for the encoding); use
:meth:`CoinTableRules.parse_move` and :meth:`CoinTableRules.move_text` to go to and from the
notation.
"""

from __future__ import annotations

import re
from itertools import compress
from typing import Any

from coinprint import caps
from coinprint.engine import IllegalMoveError, InvalidMoveError, Result, Rules
from coinprint.errors import UsageError
from coinprint.layout import Layout

DEFAULT_SUPPLY = 100
MAX_SUPPLY = caps.MAX_SUPPLY

EMPTY, HEADS, TAILS = 0, 1, 2
"""What a space shows: no coin, a heads coin, a tails coin (also the player numbers)."""

PLAYERS = ("heads", "tails")
FACE_LETTER = ("", "H", "T")

# How the safe coin became safe, for the messages that explain a refused flip.
PLACED, TOUCHED, FLIPPED = "placed", "touched", "flipped"

VERBS = ("place", "touch", "flip", "castle")
OPTIONS = {"supply": DEFAULT_SUPPLY}

_LABEL = re.compile(r"^([a-z])(\d+)$")


class CoinTableState:
    """A Coin Table position. Everything is indexed by space number (layout order).

    ``faces[i]`` is EMPTY, HEADS or TAILS; ``basic[i]`` the place or touch move on space i
    (``i`` while it is empty, ``n + i`` once it holds a coin); ``castled[i]`` how many castles stand on space i;
    ``castles`` the set of castled triangle numbers; ``ready[p]`` the uncastled triangles
    whose three spaces all show player ``p``'s face (where ``p`` may castle); ``near[p][i]`` how many coins showing
    player ``p``'s face lie next to space i (kept up to date for fast flip checks);
    ``safe`` the safe space (-1 for none) and ``safe_how`` how it became safe; ``player`` is
    HEADS or TAILS, the player to move; ``counts[p]`` the spaces showing ``p``'s face.
    """

    __slots__ = (
        "faces",
        "basic",
        "castled",
        "castles",
        "ready",
        "near",
        "safe",
        "safe_how",
        "player",
        "supply",
        "empty",
        "counts",
        "plies",
    )

    def __init__(self, spaces: int, supply: int) -> None:
        self.faces = [EMPTY] * spaces
        self.basic = list(range(spaces))
        self.castled = [0] * spaces
        self.castles: set[int] = set()
        self.ready: list[set[int]] = [set(), set(), set()]
        self.near = [[], [0] * spaces, [0] * spaces]
        self.safe = -1
        self.safe_how = ""
        self.player = HEADS
        self.supply = supply
        self.empty = spaces
        self.counts = [0, 0, 0]
        self.plies = 0

    def copy(self) -> CoinTableState:
        other = CoinTableState.__new__(CoinTableState)
        other.faces = self.faces[:]
        other.basic = self.basic[:]
        other.castled = self.castled[:]
        other.castles = set(self.castles)
        other.ready = [self.ready[0], set(self.ready[1]), set(self.ready[2])]
        other.near = [[], self.near[1][:], self.near[2][:]]
        other.safe = self.safe
        other.safe_how = self.safe_how
        other.player = self.player
        other.supply = self.supply
        other.empty = self.empty
        other.counts = self.counts[:]
        other.plies = self.plies
        return other

    def __repr__(self) -> str:
        return f"<CoinTableState {PLAYERS[self.player - 1]} to move, supply {self.supply}, faces {''.join('.HT'[f] for f in self.faces)}>"


class CoinTableRules(Rules[CoinTableState, int]):
    """Coin Table on ``layout`` with ``options`` (``{"supply": 100}``).

    A move is an int: ``i`` places on space ``i``, ``n + i`` touches it, ``2n + i`` flips it
    (``n`` spaces), and ``3n + t`` castles on triangle ``t`` (``self.triangles[t]`` holds its
    three space numbers, in layout order).
    """

    players = PLAYERS

    def __init__(self, layout: Layout, options: dict[str, Any] | None = None) -> None:
        self.layout = layout
        self.supply = _supply_option(options or {})
        self.names = [space.name for space in layout.spaces]
        self.index: dict[str, int] = {}
        for i, name in enumerate(self.names):
            key = name.lower()
            if not name or any(ch.isspace() for ch in name):
                raise UsageError(f"cell name {name!r} cannot be used in moves; cell names must be one word")
            if key in self.index:
                raise UsageError(f"two cells are both named {name!r} (names are read without case)")
            self.index[key] = i
        ids = {space.id: i for i, space in enumerate(layout.spaces)}
        adjacency = layout.adjacency
        n = self.size = len(self.names)
        self.neighbours: list[tuple[int, ...]] = [
            tuple(sorted(ids[other] for other in adjacency[space.id])) for space in layout.spaces
        ]
        self.triangles: list[tuple[int, int, int]] = [
            (a, b, c)
            for a in range(n)
            for b in self.neighbours[a]
            if b > a
            for c in self.neighbours[b]
            if c > b and c in self.neighbours[a]
        ]
        self.triangle_index = {tri: t for t, tri in enumerate(self.triangles)}
        self.triangles_of: list[list[int]] = [[] for _ in range(n)]
        for t, tri in enumerate(self.triangles):
            for i in tri:
                self.triangles_of[i].append(t)
        self._flip, self.first_castle = 2 * n, 3 * n
        self.places = range(n)
        self.grid = _grid_positions(self.names, self.neighbours)

    # -- the protocol -------------------------------------------------------------------------
    def initial_state(self) -> CoinTableState:
        return CoinTableState(self.size, self.supply)

    def to_move(self, state: CoinTableState) -> str:
        return PLAYERS[state.player - 1]

    def is_over(self, state: CoinTableState) -> bool:
        return state.empty == 0 or state.supply == 0

    def legal_moves(self, state: CoinTableState) -> list[int]:
        """A place or a touch for every space (in layout order), then flips, then castles;
        empty when the game is over."""
        if state.empty == 0 or state.supply == 0:
            return []
        faces, n, me = state.faces, self.size, state.player
        moves = state.basic[:]  # a place on every empty space, a touch on every coin
        if state.empty < n:
            them = 3 - me
            near, castled, safe, flip = state.near[me], state.castled, state.safe, self._flip
            # compress() walks the board in C; only the opponent's coins are looked at here.
            moves += [
                flip + i
                for i in compress(self.places, map(them.__eq__, faces))
                if near[i] >= 2 and not castled[i] and i != safe
            ]
            ready = state.ready[me]
            if ready:
                base = self.first_castle
                moves += [base + t for t in sorted(ready)]
        return moves

    def check(self, state: CoinTableState, move: int) -> None:
        if self.is_over(state):
            raise IllegalMoveError(f"the game is already over ({self._end_reason(state)})")
        n, me = self.size, state.player
        faces = state.faces
        if not isinstance(move, int) or not 0 <= move < self.first_castle + len(self.triangles):
            raise IllegalMoveError(f"{move!r} is not a move on this board")
        if move < n:
            if faces[move]:
                raise IllegalMoveError(f"{self.names[move]} already holds a coin ({PLAYERS[faces[move] - 1]} up)")
            return
        if move < 2 * n:
            cell = move - n
            if not faces[cell]:
                raise IllegalMoveError(f"{self.names[cell]} is empty: there is no coin to touch")
            return
        if move < 3 * n:
            self._check_flip(state, move - 2 * n)
            return
        t = move - self.first_castle
        tri = self.triangles[t]
        cells = " ".join(self.names[i] for i in tri)
        if t in state.castles:
            raise IllegalMoveError(f"there is already a castle on {cells}; a triangle holds one castle")
        for i in tri:
            if faces[i] != me:
                shows = "is empty" if not faces[i] else f"shows {PLAYERS[faces[i] - 1]}"
                raise IllegalMoveError(
                    f"{self.names[i]} {shows}; a castle needs three spaces showing your face ({PLAYERS[me - 1]})"
                )

    def _check_flip(self, state: CoinTableState, cell: int) -> None:
        name, face, me = self.names[cell], state.faces[cell], state.player
        if not face:
            raise IllegalMoveError(f"{name} is empty: there is no coin to flip")
        if face == me:
            raise IllegalMoveError(f"{name} already shows your face ({PLAYERS[me - 1]})")
        if state.castled[cell]:
            castle = next(tri for t, tri in enumerate(self.triangles) if t in state.castles and cell in tri)
            cells = " ".join(self.names[i] for i in castle)
            raise IllegalMoveError(f"{name} is part of the castle on {cells}: castled coins never flip")
        if cell == state.safe:
            raise IllegalMoveError(f"{name} is safe: it was {state.safe_how} on the previous turn")
        mine = state.near[me][cell]
        if mine < 2:
            count = "none of your coins touches" if mine == 0 else "only 1 of your coins touches"
            raise IllegalMoveError(f"{count} {name}; a flip needs 2")

    def apply_unchecked(self, state: CoinTableState, move: int) -> None:
        n = self.size
        me = state.player
        if move < n:  # place
            state.faces[move] = me
            state.basic[move] = n + move
            near = state.near[me]
            for j in self.neighbours[move]:
                near[j] += 1
            state.counts[me] += 1
            state.empty -= 1
            state.supply -= 1
            state.safe, state.safe_how = move, PLACED
            self._gain_triangles(state, move, me)
        elif move < 2 * n:  # touch
            state.safe, state.safe_how = move - n, TOUCHED
        elif move < 3 * n:  # flip
            cell = move - 2 * n
            them = 3 - me
            state.faces[cell] = me
            mine, theirs = state.near[me], state.near[them]
            for j in self.neighbours[cell]:
                mine[j] += 1
                theirs[j] -= 1
            state.counts[me] += 1
            state.counts[them] -= 1
            state.safe, state.safe_how = cell, FLIPPED
            ready = state.ready[them]
            for t in self.triangles_of[cell]:
                ready.discard(t)
            self._gain_triangles(state, cell, me)
        else:  # castle
            t = move - self.first_castle
            state.castles.add(t)
            state.ready[me].discard(t)
            castled = state.castled
            for i in self.triangles[t]:
                castled[i] += 1
            state.supply -= 1
            state.safe, state.safe_how = -1, ""
        state.player = 3 - me
        state.plies += 1

    def _gain_triangles(self, state: CoinTableState, cell: int, me: int) -> None:
        """Note the triangles through ``cell`` that now show ``me``'s face on all three spaces."""
        faces, castles, ready = state.faces, state.castles, state.ready[me]
        triangles = self.triangles
        for t in self.triangles_of[cell]:
            a, b, c = triangles[t]
            if faces[a] == me and faces[b] == me and faces[c] == me and t not in castles:
                ready.add(t)

    def result(self, state: CoinTableState) -> Result:
        heads, tails = state.counts[HEADS], state.counts[TAILS]
        score = {"heads": heads, "tails": tails}
        if not self.is_over(state):
            return Result(None, score, "in progress", finished=False)
        winner = "heads" if heads > tails else "tails" if tails > heads else None
        return Result(winner, score, self._end_reason(state))

    def _end_reason(self, state: CoinTableState) -> str:
        return "board full" if state.empty == 0 else "supply empty"

    # -- notation -------------------------------------------------------------------------------
    def cell(self, name: str) -> int:
        """The space number of the cell called ``name`` (any case); InvalidMoveError if none."""
        try:
            return self.index[name.lower()]
        except KeyError:
            raise InvalidMoveError(
                f"there is no cell '{name}' on this board (cells {self.names[0]} to {self.names[-1]})"
            ) from None

    def parse_move(self, state: CoinTableState, text: Any) -> int:
        """``place e5``, ``touch e5``, ``flip d4`` or ``castle d4 e4 e5`` (cells in any order).

        Raises InvalidMoveError for text that is not a move, and IllegalMoveError for a castle
        on three cells that are not a triangle of the board (no position allows it).
        """
        if not isinstance(text, str):
            raise InvalidMoveError("a move is text such as 'place e5'")
        words = text.split()
        if not words:
            raise InvalidMoveError("the move is empty; write e.g. 'place e5'")
        verb = words[0].lower()
        if verb not in VERBS:
            raise InvalidMoveError(f"unknown move '{words[0]}'; use place, touch, flip or castle")
        if verb != "castle":
            if len(words) != 2:
                raise InvalidMoveError(f"'{verb}' takes one cell, e.g. '{verb} e5'")
            cell = self.cell(words[1])
            return cell + (0, self.size, 2 * self.size)[VERBS.index(verb)]
        if len(words) != 4:
            raise InvalidMoveError("'castle' takes three cells, e.g. 'castle d4 e4 e5'")
        cells = [self.cell(word) for word in words[1:]]
        if len(set(cells)) != 3:
            raise InvalidMoveError("a castle needs three different cells")
        tri = tuple(sorted(cells))
        t = self.triangle_index.get(tri)  # type: ignore[arg-type]
        if t is None:
            a, b, c = tri
            apart = next((x, y) for x, y in ((a, b), (a, c), (b, c)) if y not in self.neighbours[x])
            raise IllegalMoveError(
                f"{' '.join(self.names[i] for i in tri)} is not a triangle: "
                f"{self.names[apart[0]]} and {self.names[apart[1]]} do not touch"
            )
        return self.first_castle + t

    def move_text(self, state: CoinTableState, move: int) -> str:
        n = self.size
        if move < 3 * n:
            return f"{VERBS[move // n]} {self.names[move % n]}"
        return "castle " + " ".join(self.names[i] for i in self.triangles[move - self.first_castle])

    # -- text ------------------------------------------------------------------------------------
    def describe(self, state: CoinTableState) -> str:
        """The position as text: a header line, then the board (rows of cells) and a key."""
        heads, tails = state.counts[HEADS], state.counts[TAILS]
        if self.is_over(state):
            status = f"game over ({self._end_reason(state)})"
        else:
            status = f"{PLAYERS[state.player - 1]} to move"
        lines = [f"{status}; heads {heads}, tails {tails}; supply {state.supply}; castles {len(state.castles)}"]
        cells = [self._cell_text(state, i) for i in range(self.size)]
        if self.grid is not None:
            lines += _hex_diagram(self.names, self.grid, cells)
        else:
            width = max(len(name) for name in self.names)
            lines += [f"{name:>{width}} {text}".rstrip() for name, text in zip(self.names, cells)]
        lines.append("key: H heads, T tails, . empty, [H] castled, (H) safe")
        return "\n".join(lines)

    def _cell_text(self, state: CoinTableState, i: int) -> str:
        face = state.faces[i]
        if not face:
            return " . "
        letter = FACE_LETTER[face]
        if state.castled[i]:
            return f"[{letter}]"
        if i == state.safe:
            return f"({letter})"
        return f" {letter} "


def _supply_option(options: dict[str, Any]) -> int:
    unknown = set(options) - set(OPTIONS)
    if unknown:
        raise UsageError(
            f"unknown Coin Table option(s) {', '.join(sorted(map(str, unknown)))}; the only option is supply"
        )
    return caps.check_supply(options.get("supply", DEFAULT_SUPPLY), "supply")


def _grid_positions(names: list[str], neighbours: list[tuple[int, ...]]) -> list[tuple[int, int]] | None:
    """(column, row) for every cell when all names read as a column letter and a row number
    that agree with the adjacency (as on the built-in boards); else None, and the position
    is shown as a list."""
    grid = []
    for name in names:
        match = _LABEL.match(name.lower())
        if not match:
            return None
        grid.append((ord(match.group(1)) - ord("a"), int(match.group(2))))
    if len(set(grid)) != len(grid):
        return None
    steps = {(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1)}
    for i, near in enumerate(neighbours):
        for j in near:
            if (grid[j][0] - grid[i][0], grid[j][1] - grid[i][1]) not in steps:
                return None
    return grid


def _hex_diagram(names: list[str], grid: list[tuple[int, int]], cells: list[str]) -> list[str]:
    """Rows top to bottom; a cell (column, row) sits at ``2·column − row`` half-cells across,
    so each row is offset half a cell from the next, as on the board. Each row starts with the
    name of its first cell."""
    offsets = [2 * c - r for c, r in grid]
    left = min(offsets)
    rows: dict[int, list[int]] = {}
    for i, (_, r) in enumerate(grid):
        rows.setdefault(r, []).append(i)
    width = max(len(name) for name in names)
    lines = []
    for r in sorted(rows, reverse=True):
        members = sorted(rows[r], key=lambda i: grid[i][0])
        line = ""
        for i in members:
            column = 2 * (offsets[i] - left)
            line = line.ljust(column) + cells[i]
        lines.append(f"{names[members[0]]:>{width}}  {line.rstrip()}")
    return lines

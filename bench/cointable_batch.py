"""Many random Coin Table games at once, with NumPy: a batch simulator for statistics over
very many play-outs (first-player edge, game lengths, how often the supply runs out).

It is a benchmark's tool, not part of coinprint: no command uses it (Coin Table's play-outs
for the search are ``coinprint.games.cointable.playout``). ``bench/cointable_engine.py``
measures it, and ``tests/games/cointable/test_batch.py`` replays its games in the engine.

Each game picks uniformly among its legal moves at every turn, as the random agent does, and
moves are numbered as in :class:`~coinprint.games.cointable.rules.CoinTableRules` (``i`` place or
touch on space ``i``, ``2n + i`` flip, ``3n + t`` castle on triangle ``t``), so a game played
here is a list of moves the reference engine replays: the tests replay them and compare the
results. The position of every game is a row of a few arrays; one step plays one move in
every unfinished game:

- each game keeps, per face, how many coins showing it lie next to each space and how many
  spaces of each triangle show it (updated when a coin is placed or flipped), so flips and
  castles are a few comparisons over the whole batch;
- a uniform draw below the number of legal moves (a place or a touch on every space, then
  flips, then castles) picks one: a place or touch directly, else the k-th flip or castle.

Finished games are dropped from the arrays now and then, so a batch does not slow to the pace
of its longest game.

>>> from coinprint.source import builtin_layout, rules_for
>>> from bench.cointable_batch import BatchSimulator
>>> batch = BatchSimulator(rules_for(builtin_layout("cointable:size=3")))
>>> games = batch.play(8, seed=1)
>>> len(games.lengths), int(games.lengths.min()) > 0
(8, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from coinprint.games.cointable.rules import EMPTY, HEADS, TAILS

if TYPE_CHECKING:
    from coinprint.games.cointable.rules import CoinTableRules

DEFAULT_MAX_MOVES = 2000
"""Moves after which a game is cut (a timeout), as ``play cointable`` cuts it."""


@dataclass
class BatchGames:
    """What a batch played: per game its length, final counts, whether it was cut at the move
    limit (a timeout, never a win), and with ``record=True`` its moves (a row padded with -1)."""

    lengths: np.ndarray
    heads: np.ndarray
    tails: np.ndarray
    timeouts: np.ndarray
    moves: np.ndarray | None = None

    def winners(self) -> list[str | None]:
        """Each game's winner: "heads", "tails", or None for a tie or a timeout."""
        found: list[str | None] = []
        for heads, tails, cut in zip(self.heads.tolist(), self.tails.tolist(), self.timeouts.tolist()):
            found.append(None if cut or heads == tails else ("heads" if heads > tails else "tails"))
        return found

    def game_moves(self, game: int) -> list[int]:
        """The moves of one game (needs ``record=True``)."""
        if self.moves is None:
            raise ValueError("the batch was played without record=True")
        moves: list[int] = self.moves[game, : int(self.lengths[game])].tolist()
        return moves


class BatchSimulator:
    """Random Coin Table games on one board, many at a time."""

    def __init__(self, rules: CoinTableRules) -> None:
        n = rules.size
        self.size = n
        self.supply = rules.supply
        triangles = len(rules.triangles)
        self.triangle_count = triangles
        # Padded tables: a missing neighbour is the dummy space n (always empty), a missing
        # triangle the dummy triangle ``triangles`` (whose spaces are all the dummy space).
        degree = max((len(near) for near in rules.neighbours), default=0)
        self.neighbours = np.full((n, max(degree, 1)), n, dtype=np.intp)
        for i, near in enumerate(rules.neighbours):
            self.neighbours[i, : len(near)] = near
        self.spaces_of = np.array(rules.triangles, dtype=np.intp).reshape(-1, 3)
        through = max((len(ts) for ts in rules.triangles_of), default=0)
        self.triangles_of = np.full((n, max(through, 1)), triangles, dtype=np.intp)
        for i, ts in enumerate(rules.triangles_of):
            self.triangles_of[i, : len(ts)] = ts

    def play(
        self, games: int, seed: int, *, max_moves: int = DEFAULT_MAX_MOVES, record: bool = False, chunk: int = 4096
    ) -> BatchGames:
        """Play ``games`` random games from seed ``seed`` (the same seed, the same games), at
        most ``chunk`` at a time."""
        rng = np.random.default_rng(seed)
        parts = [self._play_chunk(min(chunk, games - s), rng, max_moves, record) for s in range(0, games, chunk)]
        return BatchGames(
            np.concatenate([p.lengths for p in parts]),
            np.concatenate([p.heads for p in parts]),
            np.concatenate([p.tails for p in parts]),
            np.concatenate([p.timeouts for p in parts]),
            np.concatenate([p.moves for p in parts if p.moves is not None]) if record else None,
        )

    def _play_chunk(self, games: int, rng: np.random.Generator, max_moves: int, record: bool) -> BatchGames:
        n, triangles = self.size, self.triangle_count
        # Per game still playing; rows are dropped as games end and ``ids`` says which game a
        # row is. Index 0/1 of a player axis is heads/tails; the last column of ``faces``,
        # ``near``, ``showing`` and ``castles`` is the dummy the padded tables point at.
        ids = np.arange(games)
        faces = np.zeros((games, n + 1), dtype=np.int8)
        near = np.zeros((games, 2, n + 1), dtype=np.int8)  # coins showing each face next to a space
        showing = np.zeros((games, 2, triangles + 1), dtype=np.int8)  # spaces of a triangle showing each face
        castles = np.zeros((games, triangles + 1), dtype=bool)
        castled = np.zeros((games, n), dtype=bool)
        safe = np.full(games, -1, dtype=np.intp)
        supply = np.full(games, self.supply, dtype=np.int64)
        empty = np.full(games, n, dtype=np.int64)
        # Results, by game.
        lengths = np.zeros(games, dtype=np.int64)
        heads = np.zeros(games, dtype=np.int64)
        tails = np.zeros(games, dtype=np.int64)
        timeouts = np.zeros(games, dtype=bool)
        moves = np.full((games, max_moves), -1, dtype=np.int16) if record else None
        ply = 0
        while len(ids):
            # Every game makes one move a ply and heads moves first in all: the mover is the
            # same in every row, so the mover's counts are plain slices, not gathers.
            me = ply & 1  # 0 heads, 1 tails
            face = HEADS if me == 0 else TAILS
            count = len(ids)
            flips = faces[:, :n] == 3 - face
            flips &= near[:, me, :n] >= 2
            flips &= ~castled
            held = np.flatnonzero(safe >= 0)  # the safe coin (none after a castle) may not flip
            flips[held, safe[held]] = False
            castling = showing[:, me, :triangles] == 3
            castling &= ~castles[:, :triangles]
            others = _count(flips) + _count(castling)
            choice = (rng.random(count) * (n + others)).astype(np.int64)
            # A place or touch is the drawn space itself; else the draw picks the k-th of the
            # game's flips and castles (np.nonzero lists them row by row, in column order).
            later = np.flatnonzero(choice >= n)
            if len(later):
                _, column = np.nonzero(np.concatenate([flips[later], castling[later]], axis=1))
                counts = others[later]
                starts = np.cumsum(counts) - counts
                choice[later] = n + column[starts + choice[later] - n]
            basic, castle = choice < n, choice >= 2 * n
            cell = np.where(basic, choice, choice - n)
            place = basic & (faces[np.arange(count), np.minimum(cell, n - 1)] == EMPTY)
            flip = ~basic & ~castle
            if moves is not None:
                # The reference's numbers: i place, n + i touch, 2n + i flip, 3n + t castle.
                moves[ids, ply] = np.where(place, choice, choice + n)
            self._turn(np.flatnonzero(place | flip), cell, me, face, faces, near, showing)
            self._unturn(np.flatnonzero(flip), cell, me, near, showing)
            if castle.any():
                built = np.flatnonzero(castle)
                which = choice[built] - 2 * n
                castles[built, which] = True
                castled[np.repeat(built, 3), self.spaces_of[which].ravel()] = True
            safe = np.where(castle, -1, cell)
            supply -= place | castle
            empty -= place
            ply += 1
            over = (empty == 0) | (supply == 0)
            cut = ~over & (ply >= max_moves)
            done = over | cut
            if done.any():
                finished = ids[done]
                lengths[finished] = ply
                heads[finished] = _count(faces[done] == HEADS)
                tails[finished] = _count(faces[done] == TAILS)
                timeouts[finished] = cut[done]
                keep = ~done
                ids, faces, near, showing = ids[keep], faces[keep], near[keep], showing[keep]
                castles, castled, safe = castles[keep], castled[keep], safe[keep]
                supply, empty = supply[keep], empty[keep]
        return BatchGames(lengths, heads, tails, timeouts, moves)

    def _turn(
        self,
        rows: np.ndarray,
        cell: np.ndarray,
        me: int,
        face: int,
        faces: np.ndarray,
        near: np.ndarray,
        showing: np.ndarray,
    ) -> None:
        """A coin in each of ``rows`` now shows the mover's ``face`` on ``cell`` (placed or
        flipped; ``me`` the mover's index): count it next to the cell's neighbours and in
        the triangles through the cell."""
        if not len(rows):
            return
        at = cell[rows]
        faces[rows, at] = face
        near[rows[:, None], me, self.neighbours[at]] += 1
        showing[rows[:, None], me, self.triangles_of[at]] += 1

    def _unturn(self, rows: np.ndarray, cell: np.ndarray, me: int, near: np.ndarray, showing: np.ndarray) -> None:
        """The flipped coins in ``rows`` no longer show the opponent's face: uncount them."""
        if not len(rows):
            return
        at, other = cell[rows], 1 - me
        near[rows[:, None], other, self.neighbours[at]] -= 1
        showing[rows[:, None], other, self.triangles_of[at]] -= 1


def _count(flags: np.ndarray) -> np.ndarray:
    """True values per row (a byte sum: much faster than count_nonzero along rows)."""
    counts: np.ndarray = flags.view(np.uint8).sum(axis=1, dtype=np.int32)
    return counts

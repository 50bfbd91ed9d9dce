"""The layer above boards/ and games/: layouts named in records, layout
checks, record validation and self-play. The command line calls into this module (and
``kit``); nothing here draws.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from coinprint.boards.checks import Problem
from coinprint.errors import UnreadableInputError, UsageError
from coinprint.layout import Layout, from_geojson
from coinprint.registry import GAMES, GameSpec


def game_entry(name: str) -> GameSpec:
    """The registry entry of game ``name`` (UsageError naming the games there are if none)."""
    return GAMES[name]


def builtin_layout(spec: str) -> Layout:
    """The built-in layout named ``game:key=value,…`` (e.g. ``cointable:size=5``)."""
    from coinprint.games.core import parse_layout_name

    name, params = parse_layout_name(spec)
    return GAMES[name].parts.build(params)


def resolve_layout(
    spec: str | dict[str, Any], *, base: Path | None = None, game: str | None = None, units: str = "mm"
) -> Layout:
    """A layout named by a record or a ``--layout`` option: a built-in name, a file (relative
    to ``base``: coinprint GeoJSON, foreign GeoJSON or an SVG drawing, read for ``game`` with
    foreign coordinates in ``units``), or an inline GeoJSON layout. Raises
    UnreadableInputError / UsageError when it cannot be had."""
    from coinprint.io import read_layout

    if isinstance(spec, dict):
        return from_geojson(spec, source="the inline layout")
    if not spec.strip():
        raise UsageError("the layout is empty; give a built-in name (e.g. cointable:size=5) or a GeoJSON file")
    name = spec.partition(":")[0]
    if name in GAMES:
        return builtin_layout(spec)
    path = Path(spec)
    if base is not None and not path.is_absolute():
        path = base / path
    if not path.exists():
        raise UnreadableInputError(
            f"layout '{spec}' is neither a built-in name ({', '.join(f'{g}:…' for g in GAMES.names())}) nor an existing file"
        )
    return read_layout(path, game=game, units=units).layout


def check_layout(layout: Layout, *, tolerance_mm: float | None = None) -> list[Problem]:
    """Every problem with ``layout`` for its game (errors and warnings). ``tolerance_mm`` is
    how far lengths may be off (rounded drawings) where a check compares lengths; None keeps
    each game's default."""
    if layout.game not in GAMES:
        return [Problem(None, f"unknown game {layout.game!r}; coinprint knows {', '.join(GAMES.names())}")]
    checker = GAMES[layout.game].parts.check
    return checker(layout) if tolerance_mm is None else checker(layout, tolerance_mm=tolerance_mm)


def playable_layout(spec: str, game: str | None = None) -> Layout:
    """The layout named by ``spec`` (see :func:`resolve_layout`), refused with
    InvalidInputError naming its first problem when it is not a valid layout of its game."""
    from coinprint.boards.checks import errors
    from coinprint.errors import InvalidInputError

    layout = resolve_layout(spec, game=game)
    if game is not None and layout.game != game:
        raise UsageError(f"--layout {spec} is a {layout.game} layout, not {game}")
    if spec.partition(":")[0] not in GAMES:
        bad = errors(check_layout(layout))
        if bad:
            raise InvalidInputError(
                f"{spec} is not a valid {layout.game} layout: {bad[0]} ({len(bad)} problem(s); see 'validate layout')"
            )
    return layout


def position_drawer(game: str) -> Callable[..., Any]:
    """The function that draws a position of ``game`` from its marks."""
    return GAMES[game].parts.draw_position


def rules_for(layout: Layout, options: dict[str, Any] | None = None):
    """The rules engine for ``layout``'s game, with ``options``."""
    return GAMES[layout.game].rules(layout, options)


def validate_record(path: str):
    """Read the record at ``path`` and replay it; returns a :class:`coinprint.games.core.Replay`."""
    from coinprint.boards.checks import errors
    from coinprint.errors import InvalidInputError
    from coinprint.fileio import read_text
    from coinprint.games.core import read_record, replay

    text = read_text(path)
    record = read_record(text, source=path)
    game_entry(record.game)
    layout = resolve_layout(record.layout, base=Path(path).parent, game=record.game)
    if layout.game != record.game:
        raise InvalidInputError(f"the record is a {record.game} game but its layout is for {layout.game}")
    bad = errors(check_layout(layout))
    if bad:
        raise InvalidInputError(f"the record's layout is invalid: {bad[0]}")
    rules = rules_for(layout, record.options)
    return record, rules, replay(rules, record.moves, record.result)


@dataclass
class PlaySummary:
    games: int
    wins: dict[str, int]
    ties: int
    timeouts: int
    mean_length: float

    def describe(self) -> str:
        wins = ", ".join(f"{p} {n}" for p, n in self.wins.items())
        return (
            f"{self.games} games: wins {wins}; ties {self.ties}; timeouts {self.timeouts}; "
            f"mean length {self.mean_length:.1f} moves"
        )


def self_play(
    layout_spec: str,
    agents: dict[str, str],
    games: int,
    seed: int,
    max_turns: int,
    options: dict[str, Any] | None = None,
    *,
    game: str | None = None,
):
    """Play ``games`` seeded games on the layout ``layout_spec`` (read for ``game`` when it
    is a drawing); yields (record, outcome) pairs, then nothing more.

    Game ``i`` uses seed ``seed + i``, so any one game can be replayed on its own. The
    layout is checked first (see :func:`playable_layout`); ``games`` and ``max_turns`` are
    checked against their caps.
    """
    from coinprint.caps import check_games, check_max_turns, check_seed
    from coinprint.games.core import AGENTS, Record, play_game

    check_games(games)
    check_max_turns(max_turns)
    check_seed(seed)
    check_seed(seed + games - 1, "--seed + --games")
    layout = playable_layout(layout_spec, game)
    rules = rules_for(layout, options)
    if set(agents) != set(rules.players):
        raise UsageError(
            f"layout {layout_spec} is a {layout.game} layout; its players are {' and '.join(rules.players)}"
        )
    for player, agent in agents.items():
        if agent not in AGENTS:
            raise UsageError(f"unknown agent '{agent}' for {player}; use one of: {', '.join(AGENTS)}")
    for index in range(games):
        game_seed = seed + index
        rng = random.Random(game_seed)
        outcome = play_game(rules, {p: AGENTS[a]() for p, a in agents.items()}, rng, max_turns)
        result = outcome.result.to_json() if not outcome.timeout else None
        extra = {"timeout": True} if outcome.timeout else {}
        record = Record(
            rules.name,
            layout_spec,
            outcome.moves,
            dict(options or {}),
            {p: a for p, a in agents.items()},
            game_seed,
            result,
            extra,
        )
        yield record, outcome


def summarise(outcomes: Iterable[Any], players: tuple[str, str]) -> PlaySummary:
    """Count the outcomes as they come (they are not kept: a long run stays small)."""
    wins = {p: 0 for p in players}
    ties = timeouts = games = moves = 0
    for outcome in outcomes:
        games += 1
        moves += len(outcome.moves)
        if outcome.timeout:
            timeouts += 1
        elif outcome.result.winner is None:
            ties += 1
        else:
            wins[outcome.result.winner] += 1
    return PlaySummary(games, wins, ties, timeouts, moves / games if games else 0.0)


def play_to_folder(
    layout_spec: str,
    agents: dict[str, str],
    games: int,
    seed: int,
    max_turns: int,
    folder: str,
    options: dict[str, Any] | None = None,
    *,
    game: str | None = None,
) -> tuple[list[Path], PlaySummary]:
    """Self-play ``games`` games and write one record per game into ``folder``
    (``<game>-<seed>.json``); returns the paths and the summary."""
    from coinprint.fileio import write_atomic

    if folder == "-":
        raise UsageError("play writes one record per game; -o needs a folder, not standard output")
    target = Path(folder)
    if target.exists() and not target.is_dir():
        raise UsageError(f"-o {folder} is a file; give a folder for the records")
    paths: list[Path] = []
    # Records name a layout file relative to themselves, as validate_record reads it.
    recorded = layout_spec
    if layout_spec.partition(":")[0] not in GAMES and Path(layout_spec).is_file():
        recorded = Path(os.path.relpath(Path(layout_spec).resolve(), target.resolve())).as_posix()

    def written() -> Iterator[Any]:
        for record, outcome in self_play(layout_spec, agents, games, seed, max_turns, options, game=game):
            record.layout = recorded
            paths.append(write_atomic(target / f"{record.game}-{record.seed}.json", record.dumps()))
            yield outcome

    summary = summarise(written(), tuple(agents))  # type: ignore[arg-type]
    return paths, summary


@dataclass
class Balance:
    """How fair a board looks from self-play between equal agents."""

    layout: str
    agent: str
    first: str
    summary: PlaySummary

    @property
    def decided(self) -> int:
        return self.summary.games - self.summary.ties - self.summary.timeouts

    def first_player_share(self) -> tuple[float, float, float]:
        """The first player's share of decided games, with a 95 % Wilson interval."""
        n = self.decided
        if n == 0:
            return (0.5, 0.0, 1.0)
        p = self.summary.wins[self.first] / n
        z = 1.96
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / (1 + z * z / n)
        return (p, max(0.0, centre - half), min(1.0, centre + half))

    def describe(self) -> str:
        share, low, high = self.first_player_share()
        verdict = (
            "no clear first-player edge"
            if low <= 0.5 <= high
            else (
                f"{self.first} (moving first) has the edge" if low > 0.5 else f"{self.first} (moving first) is behind"
            )
        )
        return (
            f"{self.layout}, {self.agent} v {self.agent}: {self.summary.describe()}\n"
            f"{self.first} won {share:.1%} of {self.decided} decided games "
            f"(95% interval {low:.1%} to {high:.1%}): {verdict}"
        )


def balance(
    game: str,
    layout_spec: str,
    agent: str,
    games: int,
    seed: int,
    max_turns: int,
    options: dict[str, Any] | None = None,
) -> Balance:
    """Self-play ``games`` games of ``agent`` against itself on ``layout_spec`` (a layout of
    ``game``; no records written) and judge the first player's edge."""
    if not game_entry(game).simulated:
        raise UsageError(f"{GAMES[game].title} is not simulated; balance works for {', '.join(GAMES.simulated())}")
    from coinprint.caps import check_games, check_max_turns

    check_games(games)
    check_max_turns(max_turns)
    players = rules_for(playable_layout(layout_spec, game), options).players
    played = self_play(layout_spec, {p: agent for p in players}, games, seed, max_turns, options, game=game)
    return Balance(layout_spec, agent, players[0], summarise((o for _, o in played), players))

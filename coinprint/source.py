"""Layouts named by records and ``--layout`` options, resolved and checked once: built-in specs
(``cointable:size=5``), layout files and drawings, inline GeoJSON; and records replayed on them.

Everything after this module (self-play workers, reports, replay pages) gets a layout already
resolved, never a spec to resolve again.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from coinprint.checks import DEFAULT_TOLERANCE_MM, Problem, errors
from coinprint.engine import read_record, replay
from coinprint.errors import InvalidInputError, UnreadableInputError, UsageError
from coinprint.fileio import STDIN, read_bytes, read_text
from coinprint.io import parse_layout
from coinprint.layout import Layout, from_geojson
from coinprint.params import parse_layout_name
from coinprint.registry import GAMES

if TYPE_CHECKING:
    from coinprint.engine import Record, Replay, Rules
    from coinprint.game import Engines, Game
    from coinprint.io import Conventions


@dataclass(frozen=True)
class LayoutSource:
    """A layout named by a ``--layout`` option or a record, read and checked once: what was
    given (``spec``: a built-in name or a file), and the valid layout it names.

    Everything after it works from this object: self-play workers get the layout itself
    (:attr:`shipped`), records name it the way that replays (:meth:`recorded`)."""

    spec: str
    layout: Layout
    built_in: bool
    read_as_given: bool = True
    """False when a file was read with other than the default units or tolerance: its records
    then carry the layout inline, since the file alone would not read the same."""

    @classmethod
    def resolve(
        cls, spec: str, *, game: str | None = None, units: str = "mm", tolerance_mm: float | None = None
    ) -> LayoutSource:
        """Read and check ``spec`` (for ``game``; a file with ``units`` and ``tolerance_mm``);
        :class:`~coinprint.errors.InvalidInputError` when it is not a valid layout."""
        layout = playable_layout(spec, game, units=units, tolerance_mm=tolerance_mm)
        built_in = spec.partition(":")[0] in GAMES
        return cls(spec, layout, built_in, built_in or (units == "mm" and tolerance_mm is None))

    @property
    def shipped(self) -> str | dict[str, Any]:
        """What a worker builds the board from: a built-in name (rebuilt byte for byte), else
        the layout inline as GeoJSON, so remote workers need no files."""
        return self.spec if self.built_in else self.layout.to_geojson()

    def recorded(self, folder: Path | None = None) -> str | dict[str, Any]:
        """What a record written into ``folder`` names the layout by: the built-in name, the
        file relative to the folder (as ``validate game`` reads it), or the layout inline."""
        if self.built_in:
            return self.spec
        if not self.read_as_given:
            return self.layout.to_geojson()
        if folder is not None and Path(self.spec).is_file():
            return Path(os.path.relpath(Path(self.spec).resolve(), Path(folder).resolve())).as_posix()
        return self.spec


def game_named(name: str) -> Game:
    """The game a spec, a record or a layout file names; :class:`UsageError` naming the
    games there are when none is called ``name``. Shared code that reads a name from its
    input asks here, and passes the :class:`~coinprint.game.Game` on."""
    return GAMES[name]


def game_of_spec(spec: str) -> Game | None:
    """The game a built-in layout spec (``cointable:size=5``) is of; None for a file name."""
    name = spec.partition(":")[0]
    return GAMES[name] if name in GAMES else None


def builtin_layout(spec: str) -> Layout:
    """The built-in layout named ``game:key=value,…`` (e.g. ``cointable:size=5``)."""

    name, params = parse_layout_name(spec)
    return GAMES[name].layout_from_spec(params)


def resolve_layout(
    spec: str | dict[str, Any],
    *,
    base: Path | None = None,
    game: str | None = None,
    units: str = "mm",
    tolerance_mm: float | None = None,
) -> Layout:
    """A layout named by a record or a ``--layout`` option: a built-in name, a file (relative
    to ``base``: coinprint GeoJSON, foreign GeoJSON or an SVG drawing, read for ``game`` with
    foreign coordinates in ``units`` and borders joined within ``tolerance_mm``, None: the
    default), or an inline GeoJSON layout. Raises UnreadableInputError / UsageError when it
    cannot be had."""
    if isinstance(spec, dict):
        return from_geojson(spec, source="the inline layout")
    if not spec.strip():
        raise UsageError("the layout is empty; give a built-in name (e.g. cointable:size=5) or a GeoJSON file")
    name = spec.partition(":")[0]
    if name in GAMES:
        return builtin_layout(spec)
    if spec == STDIN:
        return read_layout_data(read_bytes(spec), source=spec, game=game, units=units, tolerance_mm=tolerance_mm).layout
    path = Path(spec)
    if base is not None and not path.is_absolute():
        path = base / path
    if not path.exists():
        raise UnreadableInputError(
            f"layout {spec!r} is neither a built-in name ({', '.join(f'{g}:…' for g in GAMES.names())}) nor an existing file"
        )
    data = read_bytes(path)
    return read_layout_data(data, source=str(path), game=game, units=units, tolerance_mm=tolerance_mm).layout


@dataclass
class LayoutFile:
    """A layout file read: the layout, with the names its game gives spaces drawn without one
    (Coin Table cells: ``a1`` …); its game, looked up once (None when coinprint knows no game
    by the layout's name); and notes on what was left out of it ("2 text objects ignored")."""

    layout: Layout
    game: Game | None
    notes: list[str] = field(default_factory=list)


def read_layout_data(
    data: bytes, *, source: str, game: str | None = None, units: str = "mm", tolerance_mm: float | None = None
) -> LayoutFile:
    """The layout in the bytes of a file called ``source`` (coinprint GeoJSON, an SVG drawing
    or foreign GeoJSON, read for ``game`` with foreign coordinates in ``units`` and borders
    joined within ``tolerance_mm``, None: the default), as :func:`coinprint.io.parse_layout`
    reads it with every registered game's drawing conventions."""
    limit = DEFAULT_TOLERANCE_MM if tolerance_mm is None else tolerance_mm
    read = parse_layout(
        data, source=source, conventions=drawing_conventions(), game=game, units=units, tolerance_mm=limit
    )
    found = GAMES[read.layout.game] if read.layout.game in GAMES else None
    layout = read.layout if found is None else found.named(read.layout)
    return LayoutFile(layout, found, read.notes)


def drawing_conventions() -> dict[str, Conventions]:
    """How drawings name their parts, for every game a drawing can be read for."""
    return {game.name: game.drawing for game in GAMES if game.drawing is not None}


def check_layout(layout: Layout, *, game: Game | None = None, tolerance_mm: float | None = None) -> list[Problem]:
    """Every problem with ``layout`` for its ``game`` (looked up by the layout's name when
    not given; errors and warnings). ``tolerance_mm`` is how far lengths may be off (rounded
    drawings) where a check compares lengths; None keeps each game's default."""
    if game is None:
        if layout.game not in GAMES:
            return [Problem(None, f"unknown game {layout.game!r}; coinprint knows {', '.join(GAMES.names())}")]
        game = GAMES[layout.game]
    return game.problems(layout) if tolerance_mm is None else game.problems(layout, tolerance_mm=tolerance_mm)


def playable_layout(
    spec: str, game: str | None = None, *, units: str = "mm", tolerance_mm: float | None = None
) -> Layout:
    """The layout named by ``spec`` (see :func:`resolve_layout`; a file is read with ``units``
    and ``tolerance_mm``), refused with InvalidInputError naming its first problem when it is
    not a valid layout of its game."""

    layout = resolve_layout(spec, game=game, units=units, tolerance_mm=tolerance_mm)
    if game is not None and layout.game != game:
        raise UsageError(f"--layout {spec} is a {layout.game} layout, not {game}")
    if spec.partition(":")[0] not in GAMES:
        bad = errors(check_layout(layout, tolerance_mm=tolerance_mm))
        if bad:
            raise InvalidInputError(
                f"{spec} is not a valid {layout.game} layout: {bad[0]} ({len(bad)} problem(s); see 'validate layout')"
            )
    return layout


def rules_for(layout: Layout, options: dict[str, Any] | None = None) -> Rules[Any, Any]:
    """The rules engine for ``layout``'s game, with ``options``."""
    return GAMES[layout.game].rules(layout, options)


def engines_for(layout: Layout, options: dict[str, Any] | None = None) -> Engines:
    """``layout``'s game set up on it with ``options``: its referee, search and view."""
    return GAMES[layout.game].engines(layout, options)


def validate_record(path: str) -> tuple[Record, Rules[Any, Any], Replay[Any]]:
    """Read the record at ``path`` and replay it: the record, its rules engine and the
    :class:`~coinprint.engine.Replay`."""

    text = read_text(path)
    record = read_record(text, source=path)
    GAMES[record.game]  # an unknown game is a usage error naming the games there are
    layout = resolve_layout(record.layout, base=Path(path).parent, game=record.game)
    if layout.game != record.game:
        raise InvalidInputError(f"the record is a {record.game} game but its layout is for {layout.game}")
    bad = errors(check_layout(layout))
    if bad:
        raise InvalidInputError(f"the record's layout is invalid: {bad[0]}")
    rules = rules_for(layout, record.options)
    return record, rules, replay(rules, record.moves, record.result)

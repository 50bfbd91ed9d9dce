"""What ``board GAME``, ``kit`` and ``validate layout`` do, below both front doors (the
command line and the studio call the same functions): check the bytes of a layout file,
compose and print a game's board from its options (with ``--fair``, the fairest of several
generated maps) or from a file, print kits.

Messages go through ``say`` (standard output) and ``warn`` (standard error), so the command
line only parses options and passes them on.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from coinprint.checks import DEFAULT_TOLERANCE_MM, errors
from coinprint.errors import InterruptedRunError, UsageError, stop_code
from coinprint.fair import FAIR_GAMES, SEARCH_GAMES, fairest_map, search_games
from coinprint.fileio import STDIN, Interrupted, read_bytes
from coinprint.kit.board import export_board
from coinprint.kit.kit import make_kit
from coinprint.kit.output import board_file_name, file_name, resolve_output
from coinprint.kit.rulesheet import print_job, rule_sheet_language
from coinprint.source import check_layout, read_layout_data

if TYPE_CHECKING:
    from coinprint.checks import Problem
    from coinprint.game import Game
    from coinprint.layout import Layout
    from coinprint.params import Values
    from coinprint.printing import PrintSettings
    from coinprint.render.sheet import Sheet

Say = Callable[[str], None]


@dataclass(frozen=True)
class CheckedLayout:
    """A layout file read and checked: the layout, its game (None when coinprint knows none
    by the layout's name), every problem, and the verdict line."""

    layout: Layout
    game: Game | None
    problems: list[Problem]
    verdict: str
    valid: bool

    @property
    def summary(self) -> str | None:
        """What the game says of a valid layout in one line (its size, its regions); None for
        an invalid one, or when the game says nothing."""
        return self.game.summary(self.layout) if self.valid and self.game is not None else None


def check_layout_data(
    data: bytes, source: str, game: str | None, units: str, tolerance_mm: float | None, say: Say
) -> CheckedLayout:
    """Read and check the bytes of the layout file called ``source`` (read once, by the
    caller: a file named on the command line, an upload) for ``game`` when it is a drawing,
    lengths compared within ``tolerance_mm`` (None: the default), saying each note and
    problem in one line."""
    limit = DEFAULT_TOLERANCE_MM if tolerance_mm is None else tolerance_mm
    read = read_layout_data(data, source=source, game=game, units=units, tolerance_mm=limit)
    layout = read.layout
    problems = check_layout(layout, game=read.game, tolerance_mm=limit)
    for note in read.notes:
        say(f"{source}: note: {note}")
    for problem in problems:
        say(f"{source}: {problem}")
    bad = errors(problems)
    if bad:
        verdict = f"invalid {layout.game} layout: {len(bad)} problem(s)"
    else:
        counted = f"{len(layout)} spaces" if layout.spaces else f"{len(layout.features)} features"
        verdict = f"valid {layout.game} layout with {counted}"
    return CheckedLayout(layout, read.game, problems, verdict, not bad)


FAIR_CANDIDATES = 10
"""Maps a fair search tries (``--candidates``)."""


@dataclass(frozen=True)
class FairOptions:
    """``board … --fair``: how many maps to try, who plays them, and how many fresh games the
    chosen one is re-measured on."""

    candidates: int = FAIR_CANDIDATES
    agent: str = "random"
    fair_games: int = FAIR_GAMES
    progress: Callable[[int], None] | None = None
    """Hears each game the search plays (:attr:`games` of them)."""
    workers: int | None = None
    """Worker processes (None: one a core); the search finds the same map on any number."""

    @property
    def games(self) -> int:
        """How many games the search plays, the re-measure included."""
        return search_games(self.candidates, SEARCH_GAMES, self.fair_games)


def game_values(game: Game, command: str, typed: Mapping[str, Any], given: Iterable[str]) -> Values:
    """The values of ``game``'s parameters shown in ``command``: ``typed`` (each already read
    as its option reads it, by name), of which those named in ``given`` count as given."""
    values = game.schema.from_options(command, typed, given)
    # A generated map given no seed gets a fresh one (said and stored, so it can be repeated).
    return game.schema.with_fresh_seeds(command, values, game.generated is not None and game.generated.of(values))


def options_asked(game: Game, asks: Mapping[str, Any]) -> str:
    """The parameters a generated map asks for, as ``board``'s options (``--map random``)."""
    return " ".join(f"{game.schema[key].flag('board')} {value}" for key, value in asks.items())


def check_fair(
    game: Game,
    values: Values,
    *,
    what: str = "--fair",
    spell: Callable[[Game, Mapping[str, Any]], str] = options_asked,
) -> None:
    """Refuse a fair search (``what``) of a layout that is not generated, naming the
    parameters that ask for one as ``spell`` writes them."""
    generated = game.generated
    if generated is None:
        raise UsageError(f"{what} needs a generated map; {game.title} layouts are fixed")
    if not generated.of(values):
        raise UsageError(f"{what} needs {spell(game, generated.asks)}")


def fairest(game: Game, layout: Layout, fair: FairOptions) -> tuple[Layout, str]:
    """The fairest map of the search ``fair`` from ``layout`` on, and its line (the
    re-measured figure), as ``board … --fair`` prints it."""
    return fairest_map(
        game,
        layout,
        fair.candidates,
        agent=fair.agent,
        fair_games=fair.fair_games,
        workers=fair.workers,
        progress=fair.progress,
    )


@dataclass(frozen=True)
class BoardToPrint:
    """A board laid out and drawn on its sheet, with what ``board`` says of it."""

    layout: Layout
    sheet: Sheet
    name: str
    """The default file name, without its suffix."""
    seed: int | None
    """The seed of a generated map; None for a fixed layout."""
    lines: list[str]
    """What ``board`` says, in order: the fair search's figure, the seed and summary."""
    warnings: list[str]
    notes: list[str]
    """Lines printed under the sheet's own (the fair search's figure)."""


def compose_board(
    game: Game,
    values: Values,
    settings: PrintSettings,
    fmt: str,
    *,
    copies: int | None = None,
    fair: FairOptions | None = None,
    lang: str = "en",
) -> BoardToPrint:
    """``board GAME`` before anything is written: the layout the parameter ``values``
    describe (with ``fair``, the fairest of several maps generated from the same seed on),
    on the game's sheet for ``fmt`` with its words in ``lang``, and what is said of it."""
    if fair is not None:
        check_fair(game, values)
    layout = game.layout(values)
    lines: list[str] = []
    notes: list[str] = []
    if fair is not None:
        layout, fair_line = fairest(game, layout, fair)
        lines.append(fair_line)
        notes.append(fair_line)
    seed = layout.meta.get("seed") if game.generated is not None else None
    if seed is not None:
        summary = game.summary(layout)
        lines.append(f"seed {seed}" + (f": {summary}" if summary else ""))
    warnings = [str(problem) for problem in game.problems(layout) if problem.severity == "warning"]
    sheet = board_sheet(game, layout, settings, fmt, copies=copies, lang=lang)
    name = board_file_name(game, layout, fmt, settings.paper)
    return BoardToPrint(layout, sheet, name, seed, lines, warnings, notes)


def board_sheet(
    game: Game, layout: Layout, settings: PrintSettings, fmt: str, *, copies: int | None = None, lang: str = "en"
) -> Sheet:
    """``layout`` drawn by ``game``'s print hook for ``fmt``, with its words in ``lang``."""
    return game.sheet(layout, print_job(game, settings, lang, copies=copies, paged=fmt == "pdf"))


def print_board(
    game: Game,
    values: Values,
    settings: PrintSettings,
    output: str | None,
    fmt: str | None,
    say: Say,
    warn: Say,
    *,
    copies: int | None = None,
    fair: FairOptions | None = None,
    lang: str = "en",
) -> int:
    """``board GAME``: :func:`compose_board`, its lines said and its warnings warned, then
    written to ``output``."""
    _, chosen = resolve_output(output, fmt, f"{game.name}-board")
    board = compose_board(game, values, settings, chosen, copies=copies, fair=fair, lang=lang)
    for line in board.lines:
        say(line)
    for warning in board.warnings:
        warn(warning)
    for path in export_board(board.layout, board.sheet, settings, output, fmt, board.name, board.notes):
        say(f"wrote {path}")
    return 0


def print_layout_file(
    game: Game,
    path: str,
    units: str,
    tolerance_mm: float | None,
    settings: PrintSettings,
    output: str | None,
    fmt: str | None,
    say: Say,
    copies: int | None = None,
    lang: str = "en",
) -> int:
    """``board GAME --layout FILE``: check the file, then print it like a built-in board
    with its words in ``lang`` (exit 1 with the check's report when it is invalid)."""

    checked = check_layout_data(read_bytes(path), path, game.name, units, tolerance_mm, say)
    if not checked.valid:
        say(f"{path}: {checked.verdict}")
        return 1
    _, chosen = resolve_output(output, fmt, game.name)
    stem = "stdin" if path == STDIN else Path(path).stem
    name = file_name(game.name, stem, settings.paper.name if chosen == "pdf" else "")
    layout = game.printable(checked.layout)
    sheet = board_sheet(game, layout, settings, chosen, copies=copies, lang=lang)
    for written in export_board(layout, sheet, settings, output, fmt, name):
        say(f"wrote {written}")
    return 0


def make_kits(
    games: Sequence[Game],
    settings: PrintSettings,
    lang: str,
    output: str | None,
    layout: Layout | None,
    say: Say,
    progress: Callable[[int], None] | None = None,
    note: Say | None = None,
    options: Values | None = None,
) -> list[Path]:
    """``kit GAME|all``: each game's kit as one PDF (``output`` a folder, or one .pdf file or
    ``-`` for a single game); a game without texts in ``lang`` is printed in English, said
    to ``note``; ``options``: a single game's layout options (see
    :func:`~coinprint.kit.kit.kit_values`). Ctrl-C raises :class:`InterruptedRunError`
    saying how many were written."""

    single = output is not None and (output == "-" or output.lower().endswith(".pdf"))
    if len(games) > 1 and single:
        raise UsageError("kit all writes one PDF per game; give a folder for -o")
    if len(games) > 1 and options is not None and options.given:
        raise UsageError("kit all prints each game's standard kit; give one game for its layout options")
    folder = output if output is None or single else output.rstrip("/\\") + "/"
    langs = [rule_sheet_language(game, lang, note) for game in games]
    written: list[Path] = []
    try:
        for game, game_lang in zip(games, langs):
            path = make_kit(game, settings, game_lang, folder, layout=layout, options=options)
            written.append(path)
            if progress:
                progress(1)
            say(f"wrote {path}")
    except (KeyboardInterrupt, Interrupted) as stop:
        raise InterruptedRunError(f"interrupted: wrote {len(written)} of {len(games)} kits", stop_code(stop)) from None
    return written

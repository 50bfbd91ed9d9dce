"""What ``board GAME``, ``kit`` and ``validate layout`` do, below the command line: read and
check a layout file, print a game's board from its options (with ``--fair``, the fairest of
several generated maps) or from a file, print kits.

Messages go through ``say`` (standard output) and ``warn`` (standard error), so the command
line only parses options and passes them on.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from coinprint.checks import DEFAULT_TOLERANCE_MM, errors
from coinprint.errors import InterruptedRunError, UsageError, stop_code
from coinprint.fair import SEARCH_GAMES, fairest_map, search_games
from coinprint.fileio import STDIN, Interrupted
from coinprint.kit.board import export_board
from coinprint.kit.kit import make_kit
from coinprint.kit.output import board_file_name, file_name, resolve_output
from coinprint.kit.rulesheet import print_job, rule_sheet_language
from coinprint.source import check_layout, read_layout_data, read_layout_file

if TYPE_CHECKING:
    from coinprint.checks import Problem
    from coinprint.game import Game
    from coinprint.io import ReadLayout
    from coinprint.layout import Layout
    from coinprint.params import Values
    from coinprint.printing import PrintSettings

Say = Callable[[str], None]


@dataclass(frozen=True)
class CheckedLayout:
    """A layout file read and checked: the layout, every problem, and the verdict line."""

    layout: Layout
    problems: list[Problem]
    verdict: str
    valid: bool


def check_layout_file(path: str, game: str | None, units: str, tolerance_mm: float | None, say: Say) -> CheckedLayout:
    """Read and check the layout file at ``path`` (for ``game`` when it is a drawing; lengths
    compared within ``tolerance_mm``, None: the default), saying each note and problem in one
    line."""

    limit = DEFAULT_TOLERANCE_MM if tolerance_mm is None else tolerance_mm
    return _checked(read_layout_file(path, game=game, units=units, tolerance_mm=limit), path, limit, say)


def check_layout_data(
    data: bytes, source: str, game: str | None, units: str, tolerance_mm: float | None, say: Say
) -> CheckedLayout:
    """:func:`check_layout_file` for the bytes of a file called ``source`` (an upload): the
    same reading, check, messages and verdict."""

    limit = DEFAULT_TOLERANCE_MM if tolerance_mm is None else tolerance_mm
    return _checked(
        read_layout_data(data, source=source, game=game, units=units, tolerance_mm=limit), source, limit, say
    )


def _checked(read: ReadLayout, path: str, limit: float, say: Say) -> CheckedLayout:
    layout = read.layout
    problems = check_layout(layout, tolerance_mm=limit)
    for note in read.notes:
        say(f"{path}: note: {note}")
    for problem in problems:
        say(f"{path}: {problem}")
    bad = errors(problems)
    if bad:
        verdict = f"invalid {layout.game} layout: {len(bad)} problem(s)"
    else:
        counted = f"{len(layout)} spaces" if layout.spaces else f"{len(layout.features)} features"
        verdict = f"valid {layout.game} layout with {counted}"
    return CheckedLayout(layout, problems, verdict, not bad)


@dataclass(frozen=True)
class FairOptions:
    """``board … --fair``: how many maps to try, who plays them, and how many fresh games the
    chosen one is re-measured on."""

    candidates: int
    agent: str
    fair_games: int
    progress: Callable[[int], None] | None = None
    """Hears each game the search plays (:func:`coinprint.fair.search_games` of them)."""

    @property
    def games(self) -> int:
        """How many games the search plays, the re-measure included."""
        return search_games(self.candidates, SEARCH_GAMES, self.fair_games)


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
    """``board GAME``: the layout the parameter ``values`` describe, printed through the game's
    print hook with its words in ``lang``; with ``fair``, the fairest of several maps
    generated from the same seed on."""
    _, chosen = resolve_output(output, fmt, f"{game.name}-board")
    if fair is not None:
        _check_fair(game, values)
    layout = game.layout(values)
    notes: list[str] = []
    if fair is not None:
        layout, fair_line = fairest_map(
            game, layout, fair.candidates, agent=fair.agent, fair_games=fair.fair_games, progress=fair.progress
        )
        say(fair_line)
        notes.append(fair_line)
    if game.generated is not None and layout.meta.get("seed") is not None:
        summary = game.summary(layout)
        say(f"seed {layout.meta['seed']}" + (f": {summary}" if summary else ""))
    for problem in game.problems(layout):
        if problem.severity == "warning":
            warn(str(problem))
    sheet = game.sheet(layout, print_job(game, settings, lang, copies=copies, paged=chosen == "pdf"))
    name = board_file_name(game, layout, chosen, settings.paper)
    for path in export_board(layout, sheet, settings, output, fmt, name, notes):
        say(f"wrote {path}")
    return 0


def _check_fair(game: Game, values: Values) -> None:
    """Refuse ``--fair`` for a layout that is not generated, naming the options that ask for one."""
    generated = game.generated
    if generated is None:
        raise UsageError(f"--fair needs a generated map; {game.title} layouts are fixed")
    if not generated.of(values):
        asks = " ".join(f"{game.schema[key].flag('board')} {value}" for key, value in generated.asks.items())
        raise UsageError(f"--fair needs {asks}")


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

    checked = check_layout_file(path, game.name, units, tolerance_mm, say)
    if not checked.valid:
        say(f"{path}: {checked.verdict}")
        return 1
    _, chosen = resolve_output(output, fmt, game.name)
    stem = "stdin" if path == STDIN else Path(path).stem
    name = file_name(game.name, stem, settings.paper.name if chosen == "pdf" else "")
    layout = game.printable(checked.layout)
    sheet = game.sheet(layout, print_job(game, settings, lang, copies=copies, paged=chosen == "pdf"))
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
) -> list[Path]:
    """``kit GAME|all``: each game's kit as one PDF (``output`` a folder, or one .pdf file or
    ``-`` for a single game); a game without texts in ``lang`` is printed in English, said
    to ``note``. Ctrl-C raises :class:`InterruptedRunError` saying how many were written."""

    single = output is not None and (output == "-" or output.lower().endswith(".pdf"))
    if len(games) > 1 and single:
        raise UsageError("kit all writes one PDF per game; give a folder for -o")
    folder = output if output is None or single else output.rstrip("/\\") + "/"
    langs = [rule_sheet_language(game, lang, note) for game in games]
    written: list[Path] = []
    try:
        for game, game_lang in zip(games, langs):
            path = make_kit(game, settings, game_lang, folder, layout=layout)
            written.append(path)
            if progress:
                progress(1)
            say(f"wrote {path}")
    except (KeyboardInterrupt, Interrupted) as stop:
        raise InterruptedRunError(f"interrupted: wrote {len(written)} of {len(games)} kits", stop_code(stop)) from None
    return written

"""What ``board GAME``, ``kit`` and ``validate layout`` do, below the command line: read and
check a layout file, print a game's board from its options (with ``--fair``, the fairest of
several generated maps) or from a file, print kits.

Messages go through ``say`` (standard output) and ``warn`` (standard error), so the command
line only parses options and passes them on.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from coinprint.checks import DEFAULT_TOLERANCE_MM, errors
from coinprint.errors import InterruptedRunError, UsageError, stop_code
from coinprint.fair import fairest_map
from coinprint.fileio import Interrupted
from coinprint.kit import PrintSettings, check_language, export_board, make_kit, resolve_output
from coinprint.kit.custom import board_sheet, printable
from coinprint.source import check_layout, read_layout_file

if TYPE_CHECKING:
    from coinprint.checks import Problem
    from coinprint.game import Game
    from coinprint.layout import Layout

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
    read = read_layout_file(path, game=game, units=units, tolerance_mm=limit)
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


def print_board(
    game: Game,
    values: Mapping[str, Any],
    settings: PrintSettings,
    output: str | None,
    fmt: str | None,
    say: Say,
    warn: Say,
) -> int:
    """``board GAME``: the game's board from the values of its declared options; with a true
    ``fair`` value, the fairest of ``candidates`` maps generated from the same seed on."""
    _, chosen = resolve_output(output, fmt, f"{game.name}-board")
    layout = game.board_layout(values)
    notes: list[str] = []
    if values.get("fair"):
        layout, fair_line = fairest_map(
            layout, values["candidates"], agent=values["agent"], fair_games=values["fair_games"]
        )
        say(fair_line)
        notes.append(fair_line)
    printed = game.board_print(layout, values, settings, chosen == "pdf")
    for line in printed.said:
        say(line)
    for line in printed.warnings:
        warn(line)
    for path in export_board(printed.layout, printed.sheet, settings, output, fmt, printed.name, notes):
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
) -> int:
    """``board GAME --layout FILE``: check the file, then print it like a built-in board
    (exit 1 with the check's report when it is invalid)."""

    checked = check_layout_file(path, game.name, units, tolerance_mm, say)
    if not checked.valid:
        say(f"{path}: {checked.verdict}")
        return 1
    name = f"{game.name}-{Path(path).stem}"
    _, chosen = resolve_output(output, fmt, name)
    sheet = board_sheet(checked.layout, settings, copies=copies, for_pdf=chosen == "pdf")
    for written in export_board(printable(checked.layout), sheet, settings, output, fmt, name):
        say(f"wrote {written}")
    return 0


def make_kits(
    names: tuple[str, ...],
    settings: PrintSettings,
    lang: str,
    output: str | None,
    layout: Layout | None,
    say: Say,
    progress: Callable[[int], None] | None = None,
) -> list[Path]:
    """``kit GAME|all``: each game's kit as one PDF (``output`` a folder, or one .pdf file or
    ``-`` for a single game). Ctrl-C raises :class:`InterruptedRunError` saying how many were
    written."""

    single = output is not None and (output == "-" or output.lower().endswith(".pdf"))
    if len(names) > 1 and single:
        raise UsageError("kit all writes one PDF per game; give a folder for -o")
    folder = output if output is None or single else output.rstrip("/\\") + "/"
    for name in names:
        check_language(name, lang)
    written: list[Path] = []
    try:
        for name in names:
            path = make_kit(name, settings, lang, folder, layout=layout)
            written.append(path)
            if progress:
                progress(1)
            say(f"wrote {path}")
    except (KeyboardInterrupt, Interrupted) as stop:
        raise InterruptedRunError(f"interrupted: wrote {len(written)} of {len(names)} kits", stop_code(stop)) from None
    return written

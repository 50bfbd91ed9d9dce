"""Where outputs go and what they are called: ``-o`` and ``--format`` resolved to a file and
a format, standard output and devices written through, the one pattern of default file names,
and the suffix check that refuses a misspelt output name before any work."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from coinprint.errors import UsageError
from coinprint.fileio import STDOUT

if TYPE_CHECKING:
    from coinprint.game import Game
    from coinprint.layout import Layout
    from coinprint.units import PaperSize

Say = Callable[[str], None]
DEFAULT_FOLDER = Path("output")
SUFFIXES = {".pdf": "pdf", ".svg": "svg", ".geojson": "geojson", ".json": "geojson"}


def resolve_output(
    output: str | None, fmt: str | None, default_name: str, formats: tuple[str, ...] = ("pdf", "svg", "geojson")
) -> tuple[Path, str]:
    """The file to write and its format, from ``-o`` and ``--format``.

    ``-o`` may be a file (its suffix gives the format unless ``--format`` is given) or a
    folder (an existing one, or a path ending in ``/``), where ``default_name`` is used.
    ``-`` (standard output) and devices such as ``/dev/null`` take ``--format``, else the
    first of ``formats``.
    """
    if output is not None and is_stream(output):
        chosen = fmt or formats[0]
        if chosen not in formats:
            raise UsageError(f"format {chosen} is not available here; use one of: {', '.join(formats)}")
        return Path(output), chosen
    if output is None or output.endswith(("/", "\\")) or Path(output).is_dir():
        folder = DEFAULT_FOLDER if output is None else Path(output)
        default = fmt or formats[0]
        return folder / f"{default_name}.{default}", default
    path = Path(output)
    inferred = SUFFIXES.get(path.suffix.lower())
    picked = fmt or inferred
    if picked is None:
        raise UsageError(
            f"cannot tell the format of '{output}'; end it in {', '.join('.' + f for f in formats)} or give --format"
        )
    chosen = picked
    if chosen not in formats:
        raise UsageError(f"format {chosen} is not available here; use one of: {', '.join(formats)}")
    if inferred and fmt and inferred != fmt and not (inferred == "geojson" and fmt == "geojson"):
        raise UsageError(f"-o '{output}' ends in {path.suffix} but --format is {fmt}; make them agree")
    return path, chosen


def is_stream(output: str) -> bool:
    """``-``, or an existing character device or FIFO (written through, never replaced)."""
    import stat

    if output == STDOUT:
        return True
    try:
        mode = os.stat(output).st_mode
    except (OSError, ValueError):
        return False
    return stat.S_ISCHR(mode) or stat.S_ISFIFO(mode)


def file_name(*parts: object) -> str:
    """A default file name (without suffix) in the one pattern every output follows: what it
    is, then what makes it differ from its siblings (paper, language, seed), joined by ``-``
    (``cointable-kit-letter-sv``, ``mapgame-21-seed8-a4``); empty parts are left out."""
    return "-".join(str(part) for part in parts if part not in (None, ""))


def board_file_name(game: Game, layout: Layout, fmt: str, paper: PaperSize) -> str:
    """The default name of a printed board: the game's name for it, the seed of a generated
    layout, and the paper of a PDF."""
    seed = layout.meta.get("seed") if game.generated is not None else None
    return file_name(
        game.file_stem(layout), f"seed{seed}" if seed is not None else "", paper.name if fmt == "pdf" else ""
    )


REPORT_SUFFIXES = (".svg", ".pdf")
"""What ``validate layout --report`` writes."""


def require_suffix(path: str, option: str, suffixes: tuple[str, ...], *, stdout: bool = False) -> str:
    """``path`` when it ends in one of ``suffixes`` (``.svg``…), or is ``-`` where ``stdout``
    is allowed; else a :class:`UsageError` naming ``option``. Commands call it before any
    work, so a misspelt output name never costs a whole run."""
    if (stdout and path == STDOUT) or str(path).lower().endswith(suffixes):
        return path
    allowed = " or ".join(suffixes) + (" (or - for standard output)" if stdout else "")
    raise UsageError(f"{option} needs a file name ending in {allowed}, not '{path}'")

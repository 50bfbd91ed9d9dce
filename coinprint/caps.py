"""Every limit coinprint puts on input and work, in one place.

A cap is checked up front, before any work starts, and the message that refuses an input
names the cap, so a user learns what is allowed rather than waiting for memory to run out.
``docs/formats.md`` lists them for users. This module imports only
``coinprint.errors``: every layer may use it.
"""

from __future__ import annotations

from coinprint.errors import UsageError

# -- input files ---------------------------------------------------------------------------------
MAX_INPUT_BYTES = 50 * 1024 * 1024
"""Largest file coinprint reads (a layout, a record, an event log, an SVG drawing): 50 MB."""
MAX_JSON_DEPTH = 64
"""Deepest nesting of arrays and objects in a JSON input (a layout needs 6)."""
MAX_JSON_INT_DIGITS = 100
"""Most digits in a whole number written in a JSON input."""
MAX_JSON_ARRAYS = 400_000
"""Most arrays in a JSON input, counted before it is parsed (each point of a layout is one,
so a layout far over the point cap is refused at once)."""
MAX_JSON_ARRAY_RUN = 25_000
"""Most arrays side by side in one JSON list (the points of one ring), counted before it is
parsed, so a space far over the point cap is refused at once."""

# -- drawings (SVG, foreign GeoJSON) -------------------------------------------------------------
MAX_DRAWING_SHAPES = 5000
"""Most shapes (paths, rectangles, circles, …) coinprint reads from one drawing."""
MAX_DRAWING_NUMBERS = 400_000
"""Most numbers in the path data and point lists of one drawing (about 200,000 points),
counted before any path is parsed, so a huge path is refused at once."""
MAX_SPACE_NUMBERS = 50_000
"""Most numbers in the path data of one shape (about 25,000 points), counted before the path
is parsed: a shape far over the point cap is refused at once."""
MAX_SPACE_POINTS = 10_000
"""Most points of one space (a drawn space over it is first simplified within 0.01 mm); the
largest built-in space has a few hundred."""
MAX_FLATTENED_POINTS = 500_000
"""Most points all shapes of one drawing may have once curves are flattened into lines."""
MAX_GEOJSON_FEATURES = 20_000
"""Most features coinprint reads from one GeoJSON file."""
MAX_DRAWING_ELEMENTS = 100_000
"""Most XML elements in one drawing, counted as it is parsed and again once its clones
(``<use>``) are expanded, so a small file whose clones of clones fan out is refused at once."""
MAX_TRANSFORM_STEPS = 32
"""Most steps (``translate(…)``, ``rotate(…)``, …) in one element's ``transform``."""

# -- layouts ----------------------------------------------------------------------------------------
MAX_FEATURES = 2_000
"""Most features (spaces and others) in one layout; the largest built-in board has 469."""
MAX_VERTICES = 250_000
"""Most coordinate points in one layout, over all its features."""
MAX_COORDINATE_MM = 1_000_000.0
"""Largest coordinate (absolute value) in a layout or a drawing: a kilometre from the origin."""
MAX_TEXT_CHARS = 200
"""Longest id, label, region or role of a feature, in characters."""

MAX_ARC_POINTS = 2_000
"""Most points of one arc a player draws on the Map (a pointer stroke is simplified before it
is sent; the generator's arcs have at most 60)."""
MAX_ARC_REACH_MM = 1_000.0
"""Farthest (mm, from the circle's centre) a point of a drawn Map arc may lie: off the page."""

# -- records -----------------------------------------------------------------------------------------
MAX_RECORD_MOVES = 1_000_000
"""Most moves (or turns, or events) in one record."""

# -- time-lapses -----------------------------------------------------------------------------------
MAX_TIMELAPSE_FRAMES = 2_000
"""Most frames (positions, and the Map being drawn) in one time-lapse: GIF and MP4 frames are
drawn and encoded one at a time, so this bounds the time a time-lapse takes, not its memory."""
MAX_HELD_TIMELAPSE_PIXELS = 200_000_000
"""Most pixels, over all frames, of a WebP or APNG time-lapse: Pillow's encoders hold every
frame of those until the end (200 megapixels: about 600 MB), so a long game is refused rather
than exhausting memory."""

# -- work a command may be asked to do ------------------------------------------------------------
MAX_GAMES = 100_000
"""Most games one ``play`` or ``balance`` run may play (``--games``)."""
MAX_WORKERS = 256
"""Most worker processes one ``play`` or ``balance`` run starts (``--workers``)."""
MAX_TURNS = 100_000
"""Largest ``--max-turns`` (moves before a simulated game counts as a timeout)."""
MAX_SUPPLY = 100_000
"""Largest Coin Table supply (``--supply``, the record option ``supply``)."""
MAX_COPIES = 100
"""Most cards per page (``--copies``)."""
MAX_PAGES = 200
"""Most pages in one PDF (a board tiled over small paper, a huge board)."""
MAX_PAPER_MM = 10_000.0
"""Longest paper side (``--paper WxH``): 10 m (a plotter roll is 1–2 m wide)."""
MIN_CARD_MM = 40.0
"""Shortest Coin Age card side (``--card WxH``)."""
MAX_CARD_MM = 1_000.0
"""Longest Coin Age card side (``--card WxH``)."""
MAX_MAPS = 1_000
"""Most generated maps one ``analyse --maps`` run analyses."""
MAX_CANDIDATES = 200
"""Most candidate maps one ``board … --fair`` search tries (``--candidates``)."""
MAX_AGENT_BUDGET = 1_000_000
"""Most iterations (``mcts``) or play-outs (``montecarlo``) an agent spec may ask for a move."""
MAX_LADDER_LEVELS = 12
"""Most rungs of one ``coinprint ladder``."""
MAX_SEED = 10**18
"""Largest seed, either sign (``--seed``, ``--map-seed``): 19 digits."""
MAX_LANG_CHARS = 16
"""Longest ``--lang`` code."""
MAX_BLEED_MM = 6.0
"""Widest ``--bleed``: the printed picture runs this far past the trim line."""
DEFAULT_TOLERANCE_MM = 0.2
"""The ``--tolerance`` when none is given: a drawing rounded to 0.1 mm passes."""
MAX_TOLERANCE_MM = 2.0
"""Largest ``--tolerance``: beyond it a check would pass boards that are plainly wrong."""
MAX_DASK_TIMEOUT_S = 3600
"""Longest ``--dask-timeout``: how long a run waits for a Dask scheduler that does not answer
or a cluster without workers before it gives up (an hour)."""


def check_range(option: str, value: int, low: int, high: int, *, cap: str = "") -> int:
    """``value`` if it is a whole number with ``low <= value <= high``; else a
    :class:`UsageError` naming ``option``, the range allowed and the cap behind the top."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        named = f" (the {cap} cap)" if cap and isinstance(value, int) and value > high else ""
        shown = f"{value:,}" if isinstance(value, int) and abs(value) < 10**30 else _short(repr(value))
        raise UsageError(f"{option} must be a whole number from {low:,} to {high:,}{named}, not {shown}")
    return value


def _short(text: str) -> str:
    return text if len(text) <= 40 else text[:30] + "…"


def check_games(value: int, option: str = "--games") -> int:
    return check_range(option, value, 1, MAX_GAMES, cap="games")


def check_workers(value: int, option: str = "--workers") -> int:
    return check_range(option, value, 1, MAX_WORKERS, cap="workers")


def check_max_turns(value: int, option: str = "--max-turns") -> int:
    return check_range(option, value, 1, MAX_TURNS, cap="turns")


def check_supply(value: int, option: str = "--supply") -> int:
    return check_range(option, value, 1, MAX_SUPPLY, cap="supply")


def check_copies(value: int, option: str = "--copies") -> int:
    return check_range(option, value, 1, MAX_COPIES, cap="copies")


def check_seed(value: int, option: str = "--seed") -> int:
    return check_range(option, value, -MAX_SEED, MAX_SEED, cap="seed")


def check_skill_games(value: int, option: str = "--skill-games") -> int:
    return check_range(option, value, 0, MAX_GAMES, cap="games")


def check_maps(value: int, option: str = "--maps") -> int:
    return check_range(option, value, 1, MAX_MAPS, cap="maps")


def check_candidates(value: int, option: str = "--candidates") -> int:
    return check_range(option, value, 1, MAX_CANDIDATES, cap="candidates")


def check_dask_timeout(value: int, option: str = "--dask-timeout") -> int:
    return check_range(option, value, 1, MAX_DASK_TIMEOUT_S, cap="Dask timeout")


def check_tolerance(value_mm: float, option: str = "--tolerance") -> float:
    """A length tolerance from 0 to :data:`MAX_TOLERANCE_MM`."""
    if not 0.0 <= value_mm <= MAX_TOLERANCE_MM:
        raise UsageError(f"{option} must be from 0 to {MAX_TOLERANCE_MM:g} mm (the tolerance cap), not {value_mm:g} mm")
    return value_mm


def check_pages(count: int, what: str) -> None:
    """Refuse a PDF of more than :data:`MAX_PAGES` pages before any page is drawn."""
    if count > MAX_PAGES:
        raise UsageError(
            f"{what} would take {count:,} pages, over the {MAX_PAGES}-page cap; use larger paper or a smaller board"
        )


def check_lang(code: str) -> str:
    """A language code: letters, digits and hyphens, at most :data:`MAX_LANG_CHARS` long."""
    if not code or len(code) > MAX_LANG_CHARS or not all(c.isascii() and (c.isalnum() or c == "-") for c in code):
        shown = code if len(code) <= 40 else code[:40] + "…"
        raise UsageError(
            f"--lang {shown!r} is not a language code; use letters, digits and '-' "
            f"(at most {MAX_LANG_CHARS} characters), e.g. en or sv"
        )
    return code

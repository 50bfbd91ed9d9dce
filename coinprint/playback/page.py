"""Replay pages: a recorded game as one self-contained HTML file that steps through it.

The record is replayed by the rules engine and every position is drawn by the game's
position drawer when the page is written; the page's little script only shows and hides
what was drawn. To keep pages small the board is drawn once, and each frame lists the
pieces drawn on top of it (coins, rings, labels), each piece written once.

A Map layout (spaces with a drawing ``order``) starts with the map being drawn, one country
at a time, before the chase. An invalid record replays up to its first illegal move, which
the page shows in red with the reason.
"""

from __future__ import annotations

import html
import json
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from coinprint.errors import UsageError
from coinprint.fileio import write_atomic
from coinprint.kit.output import is_stream
from coinprint.render.board import Frame as Placement
from coinprint.render.board import aside_items, aside_width, held_items, space_items
from coinprint.render.scene import Path as ScenePath
from coinprint.render.scene import Style, Text
from coinprint.render.style import palette
from coinprint.render.svg import svg_elements
from coinprint.resources import template_path
from coinprint.source import game_named, validate_record
from coinprint.view import View

if TYPE_CHECKING:
    from coinprint.engine import Record, Replay, Rules
    from coinprint.game import Game
    from coinprint.layout import Mark
    from coinprint.render.scene import Item

TEMPLATE = "replay.html"
INDEX_TEMPLATE = "replay-index.html"
HIGHLIGHT = "#e8a33d"
"""Fill of the country just drawn while a Map is being drawn."""


@dataclass
class Row:
    """One line of the move list: a move (or a country drawn, or the illegal move)."""

    number: str
    player: str
    text: str
    note: str = ""
    error: str = ""

    def to_json(self) -> dict[str, str]:
        doc = {"n": self.number, "p": self.player, "t": self.text}
        if self.note:
            doc["note"] = self.note
        if self.error:
            doc["error"] = self.error
        return doc


@dataclass
class Frame:
    """One step of the replay: which pieces are drawn over the board (in drawing order),
    which board items are hidden, the move list row it stands for (-1 for none) and a
    caption (in red when ``bad``: the illegal move)."""

    pieces: list[int]
    row: int
    caption: str
    hidden: list[int] = field(default_factory=list)
    bad: bool = False
    drawn: tuple[int, ...] | None = None
    """While a Map is being drawn, the spaces (layout indices) drawn so far; else None."""
    motion: bool = False
    """A picture of the move under way (coins sliding), shown before the position after it."""


@dataclass
class Frames:
    """Everything a replay page shows: the board's SVG elements, the pieces, the frames."""

    width_mm: float
    height_mm: float
    board: list[str]
    pieces: list[str]
    frames: list[Frame]
    rows: list[Row]
    legend: list[str]


@dataclass
class SceneFrames:
    """The replay as scene items: the board's items, the pieces drawn over it, the frames
    (which pieces, which board items hidden), the move list and the legend. Replay pages
    write the items as SVG; time-lapses draw them with the raster backend."""

    width_mm: float
    height_mm: float
    board: list[Item]
    pieces: list[Item]
    frames: list[Frame]
    rows: list[Row]
    legend: list[str]
    board_layout: Any = None
    """The layout the board is drawn from, when the game grew it as it was played (else None:
    the rules' layout)."""


@dataclass
class ReplayPage:
    """A written (or ready) replay page and what the replay found."""

    html: str
    valid: bool
    report: str
    record: Record
    result: str
    moves: int


# -- frames ---------------------------------------------------------------------------------------------
class _Pieces:
    """Scene items drawn over the board, each stored once and referred to by number."""

    def __init__(self, board: Sequence[Item]) -> None:
        self.board = list(board)
        self.counts = Counter(self.board)
        self.places: dict[Item, list[int]] = {}
        for index, item in enumerate(self.board):
            self.places.setdefault(item, []).append(index)
        self.items: list[Item] = []
        self.numbers: dict[Item, int] = {}

    def number(self, item: Item) -> int:
        found = self.numbers.get(item)
        if found is None:
            found = self.numbers[item] = len(self.items)
            self.items.append(item)
        return found

    def split(self, items: list[Item]) -> tuple[list[int], list[int]]:
        """A drawing of a position as (pieces over the board, board items it leaves out)."""
        size = len(self.board)
        if items[:size] == self.board:  # the usual case: the board, then the marks
            return [self.number(i) for i in items[size:]], []
        left = Counter(self.counts)
        extra = []
        for item in items:
            if left[item] > 0:
                left[item] -= 1
            else:
                extra.append(self.number(item))
        hidden = sorted(i for item, n in left.items() if n > 0 for i in self.places[item][-n:])
        return extra, hidden


@dataclass
class _LastDrawing:
    """The position drawn last: its marks, its sheet, and the sheet as pieces over the board
    and board items it hides (kept, since many Flick events change nothing on the mat)."""

    marks: list[Mark] | None = None
    sheet: Any = None
    pieces: list[int] = field(default_factory=list)
    hidden: list[int] = field(default_factory=list)


def compute_frames(game: Game, record: Record, rules: Rules[Any, Any], replayed: Replay[Any]) -> Frames:
    """Replay ``record`` (already checked: ``replayed``) move by move and draw every position
    as ``game`` draws them, as SVG elements."""
    found = scene_frames(game, record, rules, replayed)
    return Frames(
        found.width_mm,
        found.height_mm,
        svg_elements(found.board, found.height_mm),
        svg_elements(found.pieces, found.height_mm),
        found.frames,
        found.rows,
        found.legend,
    )


def scene_frames(
    game: Game, record: Record, rules: Rules[Any, Any], replayed: Replay[Any], *, motion: bool = False
) -> SceneFrames:
    """Replay ``record`` (already checked: ``replayed``) move by move and draw every position
    as ``game`` draws them, as scene items; with ``motion``, also the pictures of each move
    under way that the game's view gives (:meth:`~coinprint.view.View.motion`: Flick's coins
    sliding), each before the position after its move."""

    view = game.view(rules)
    # A game that grows its board as it is played (the Map drawn together) is shown on the
    # board of its last position, the spaces not yet made hidden, the newest tinted in the
    # colour of the player who made it.
    layout = view.board(replayed.state)
    grown = layout is not rules.layout
    draw = game.position_sheet
    players = rules.players
    empty = draw(layout, [], players)
    pieces = _Pieces(empty.content.items)
    frames: list[Frame] = []
    rows: list[Row] = []
    owner = _space_owners(layout, pieces) if grown else {}
    if not grown and layout.spaces and all(s.order is not None for s in layout.spaces):
        _map_drawing(layout, pieces, frames, rows)

    drawn = _LastDrawing()
    content = empty.content
    widest = 0  # the most coins shown beside the board with one move
    # A game that says who holds a space otherwise than by the coin on it (the Map's claims)
    # has its held spaces tinted in the holder's colour, under the coins.
    claims = type(view).holders is not View.holders
    placement = Placement(layout)

    def add_frame(state: Any, row: int, aside: Sequence[Mark] = (), shown: list[Mark] | None = None) -> Any:
        nonlocal widest
        marks = view.marks(state) if shown is None else shown
        if marks != drawn.marks:  # many Flick events change nothing on the mat
            drawn.marks, drawn.sheet = marks, draw(layout, marks, players)
            drawn.pieces, drawn.hidden = pieces.split(drawn.sheet.content.items)
            if claims:
                tints = held_items(layout, placement, view.holders(state), players)
                drawn.pieces = [pieces.number(item) for item in tints] + drawn.pieces
        extra = list(drawn.pieces)
        if aside:
            widest = max(widest, len(aside))
            extra += [pieces.number(i) for i in aside_items(aside, players, content.width_mm, content.height_mm)]
        hidden = list(drawn.hidden)
        if grown:
            made = len(view.board(state).spaces)
            hidden = sorted(set(hidden) | {i for i, space in owner.items() if space >= made})
            if row >= 0 and made > made_before[0]:
                extra = _maker_tint(layout, placement, made - 1, players, pieces) + extra
            made_before[0] = made
        frames.append(Frame(extra, row, view.title(state), hidden, motion=shown is not None))
        return drawn.sheet

    made_before = [0]  # spaces on the board of the frame before

    state = rules.initial_state()
    last = add_frame(state, -1)
    for number, text in enumerate(record.moves[: replayed.moves_played], start=1):
        player = rules.to_move(state)
        move = rules.parse_move(state, text)
        note = view.move_note(state, move)
        aside = view.move_aside(state, move)
        sliding = view.motion(state, move) if motion else []
        rules.apply(state, move)
        if rules.is_over(state):
            ending = rules.result(state).reason
            note = f"{note}; {ending}" if note and ending else note or ending
        rows.append(Row(str(number), player, _shown(text), note))
        for marks in sliding:
            add_frame(state, len(rows) - 1, shown=marks)
        last = add_frame(state, len(rows) - 1, aside)
    if replayed.error:
        number = replayed.moves_played + 1
        text = _shown(record.moves[number - 1])
        player = rules.to_move(state)
        prefix = f"move {number} ({player}): {text} — "
        reason = replayed.error[len(prefix) :] if replayed.error.startswith(prefix) else replayed.error
        rows.append(Row(str(number), player, text, error=reason))
        frames.append(Frame(list(frames[-1].pieces), len(rows) - 1, replayed.error, list(frames[-1].hidden), bad=True))
    width = content.width_mm + aside_width(widest)
    board_layout = layout if grown else None
    return SceneFrames(
        width, content.height_mm, pieces.board, pieces.items, frames, rows, list(last.lines), board_layout
    )


def _space_owners(layout: Any, pieces: _Pieces) -> dict[int, int]:
    """Board item → the space (layout index) it draws: outlines, and labels when unique."""
    placement = Placement(layout)
    outlines = space_items(layout, placement, palette("ink-saver"))
    names = [s.name for s in layout.spaces]
    unique_names = len(set(names)) == len(names)
    owner: dict[int, int] = {}
    for space_index, outline in enumerate(outlines):
        for board_index in pieces.places.get(outline, []):
            owner[board_index] = space_index
    if unique_names:
        for board_index, item in enumerate(pieces.board):
            if isinstance(item, Text) and item.text in names:
                owner[board_index] = names.index(item.text)
    return owner


def _maker_tint(layout: Any, placement: Placement, index: int, players: Sequence[str], pieces: _Pieces) -> list[int]:
    """The space made by the last move (a grown board), tinted in its maker's colour (its
    ``drawn_by`` property); none when it names no player."""
    space = layout.spaces[index]
    maker = str(space.properties.get("drawn_by", ""))
    if maker not in players:
        return []
    return [pieces.number(item) for item in held_items(layout, placement, {space.id: maker}, players)]


def _map_drawing(layout: Any, pieces: _Pieces, frames: list[Frame], rows: list[Row]) -> None:
    """Frames that draw the map one country at a time in drawing order: the board with the
    countries not yet drawn hidden, the newest one highlighted."""

    placement = Placement(layout)
    owner = _space_owners(layout, pieces)
    order = sorted(range(len(layout.spaces)), key=lambda i: layout.spaces[i].order)
    drawn: set[int] = set()
    for step, space_index in enumerate(order, start=1):
        drawn.add(space_index)
        space = layout.spaces[space_index]
        newest = ScenePath(
            tuple(placement.ring(r) for r in space.rings),
            Style(fill=HIGHLIGHT, stroke=None, opacity=0.45),
        )
        hidden = [i for i, s in owner.items() if s not in drawn]
        rows.append(Row("", "", f"country {space.name} drawn"))
        caption = f"drawing the map: country {space.name}, {step} of {len(order)}"
        frames.append(
            Frame([pieces.number(newest)], len(rows) - 1, caption, sorted(hidden), drawn=tuple(sorted(drawn)))
        )


def _shown(text: Any) -> str:
    return text if isinstance(text, str) else json.dumps(text, ensure_ascii=False)


# -- the page ------------------------------------------------------------------------------------------------
def script_json(value: Any) -> str:
    """JSON that is safe inside an HTML ``<script>`` element: no ``<``, ``>`` or ``&`` (so
    no ``</script>`` and no ``<!--``) and no U+2028/U+2029 line separators."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    for raw, escaped in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026")):
        text = text.replace(raw, escaped)
    return text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def _frames_json(frames: Sequence[Frame]) -> list[dict[str, Any]]:
    """Each frame's piece list as a change from the previous frame's: the length of the
    common start, the length of the common end, and the pieces in between."""
    out = []
    previous: list[int] = []
    for frame in frames:
        current = frame.pieces
        start = 0
        while start < min(len(previous), len(current)) and previous[start] == current[start]:
            start += 1
        end = 0
        while (
            end < min(len(previous), len(current)) - start
            and previous[len(previous) - 1 - end] == current[len(current) - 1 - end]
        ):
            end += 1
        doc: dict[str, Any] = {"d": [start, end, current[start : len(current) - end]], "r": frame.row}
        doc["c"] = frame.caption
        if frame.hidden:
            doc["h"] = frame.hidden
        if frame.bad:
            doc["bad"] = 1
        out.append(doc)
        previous = current
    return out


def _fill(template: str, values: dict[str, str]) -> str:
    """Put ``values`` into the ``<!--@NAME@-->`` markers, in one pass (inserted text is never
    scanned again)."""
    return re.sub(r"<!--@([A-Z]+)@-->", lambda m: values[m.group(1)], template)


def _template(name: str) -> str:
    return template_path(name).read_text(encoding="utf-8")


def _players_text(record: Record, players: Sequence[str]) -> str:
    names = record.players or {}
    sides = [f"{names[p]} ({p})" if p in names and str(names[p]) != p else p for p in players]
    sides += [f"{v} ({k})" for k, v in names.items() if k not in players]
    return " v ".join(str(s) for s in sides)


def _result_text(record: Record, replayed: Replay[Any]) -> str:
    if replayed.error:
        return f"invalid record: {replayed.error}"
    text = replayed.result.describe()
    if record.extra.get("timeout"):
        text = f"cut at {replayed.moves_played} moves (a timeout); {text}"
    if replayed.result_mismatch:
        text += f"; invalid: {replayed.result_mismatch}"
    return text


def _layout_text(record: Record) -> str:
    return record.layout if isinstance(record.layout, str) else "an inline layout"


def page_from_record(path: str, download: str | Sequence[str] | None = None) -> ReplayPage:
    """Read, check and draw the record at ``path`` (a game record or a Flick event log) as a
    replay page; ``download`` names the time-lapse (or time-lapses, one a format) that the
    page offers, by link. Unreadable or unusable records raise the usual coinprint errors."""

    record, rules, replayed = validate_record(path)
    game = game_named(record.game)
    frames = compute_frames(game, record, rules, replayed)
    title = game.title
    players = _players_text(record, rules.players)
    result = _result_text(record, replayed)
    layout = _layout_text(record)
    svg = (
        f'<svg id="board" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {frames.width_mm:.3f} '
        f'{frames.height_mm:.3f}" role="img" aria-label="{html.escape(title)} board">'
        f'<defs id="pieces">{"".join(frames.pieces)}</defs>'
        f'<g id="base">{"".join(frames.board)}</g><g id="marks"></g></svg>'
    )
    data = {"frames": _frames_json(frames.frames), "rows": [r.to_json() for r in frames.rows]}
    page = _fill(
        _template(TEMPLATE),
        {
            "TITLE": html.escape(f"{title}: {players} — {result}"),
            "GAME": html.escape(title),
            "PLAYERS": html.escape(players),
            "RESULT": html.escape(result),
            "RESULTCLASS": "bad" if not replayed.valid else "",
            "LAYOUT": html.escape(layout),
            "DOWNLOAD": _download_link(download),
            "LEGEND": html.escape(" ".join(frames.legend)),
            "SVG": svg,
            "DATA": script_json(data),
        },
    )
    return ReplayPage(page, replayed.valid, replayed.report(), record, result, replayed.moves_played)


def _download_link(download: str | Sequence[str] | None) -> str:
    names = [download] if isinstance(download, str) else list(download or ())
    if not names:
        return ""
    links = []
    for name in names:
        kind = html.escape(Path(name).suffix.lstrip(".").upper())
        links.append(f'<a href="{html.escape(name, quote=True)}" download>{kind}</a>')
    return f'\n<p id="download">Download the time-lapse: {" · ".join(links)}</p>'


def replay_output(path: str, output: str | None) -> Path:
    """Where ``replay`` writes: ``-o`` (an .html file or a folder), else output/NAME.html."""
    name = f"{Path(path).stem}.html"
    if output is None:
        return Path("output") / name

    if is_stream(output):  # "-" (standard output), /dev/null, a named pipe
        return Path(output)
    if output.endswith(("/", "\\")) or Path(output).is_dir():
        return Path(output) / name
    if Path(output).suffix.lower() not in (".html", ".htm"):
        raise UsageError(
            f"-o '{output}' must end in .html, or .gif, .webp, .apng or .mp4 for a time-lapse (or be a folder)"
        )
    return Path(output)


def write_replay(path: str, output: str | None) -> tuple[Path, ReplayPage]:
    """Write the replay page of the record at ``path``; returns where and the page."""
    target = replay_output(path, output)
    page = page_from_record(path)
    return write_atomic(target, page.html), page


def write_replays(records: Sequence[Path], folder: str | Path, video: str | None = None) -> Path:
    """A replay page beside each record (``NAME.json`` → ``NAME.html``, offering the
    time-lapse ``NAME.<video>`` when one is written beside it) and ``index.html`` listing them
    with their results; returns the index's path."""
    rows = []
    for record_path in records:
        page = page_from_record(str(record_path), f"{Path(record_path).stem}.{video}" if video else None)
        # Named by coinprint inside the play folder: a link planted there is replaced, not followed.
        written = write_atomic(Path(record_path).with_suffix(".html"), page.html, follow_symlinks=False)
        link = html.escape(written.name, quote=True)
        players = html.escape(_players_text(page.record, list(page.record.players)))
        seed = "" if page.record.seed is None else str(page.record.seed)
        status = "" if page.valid else ' class="bad"'
        rows.append(
            f'<tr{status}><td><a href="{link}">{html.escape(written.stem)}</a></td><td>{seed}</td>'
            f"<td>{players}</td><td>{page.moves}</td><td>{html.escape(page.result)}</td></tr>"
        )
    index = _fill(
        _template(INDEX_TEMPLATE),
        {"COUNT": str(len(rows)), "ROWS": "\n".join(rows)},
    )
    return write_atomic(Path(folder) / "index.html", index, follow_symlinks=False)

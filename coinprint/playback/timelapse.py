"""Time-lapses: a recorded game as an animated GIF, WebP or APNG, or an MP4 video, to share.

The record is replayed exactly as for a replay page (:func:`coinprint.playback.page.scene_frames`:
the Map drawn country by country first, then the position after every move, an invalid
record up to its first illegal move) and every frame is drawn from the same scene items by
the raster backend (:mod:`coinprint.render.raster`), with a caption strip under the board:
the game and players, the move in the record's notation with its note, the result at the end.

- GIF: one palette for the whole game, made from the scene's colours and their blends (the
  antialiased edges), no dithering; every frame after the first holds only the rectangle
  that changed, with unchanged pixels transparent when that is smaller; frames are left in
  place (disposal 1); the bytes depend on the record and the options alone.
- WebP: lossless; APNG: Pillow's; MP4: H.264 in yuv420p (plays in browsers and phones), at
  ``fps`` frames a second, the last frame repeated for the hold, encoded on two threads
  whatever the machine so that the same record gives the same bytes.

Pillow and PyAV are imported when a time-lapse is written (the ``video`` extra).
"""

from __future__ import annotations

import io
import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from coinprint.caps import MAX_HELD_TIMELAPSE_PIXELS, MAX_TIMELAPSE_FRAMES
from coinprint.errors import UsageError
from coinprint.fileio import write_atomic
from coinprint.kit.output import is_stream
from coinprint.playback.page import SceneFrames, _players_text, _result_text, scene_frames
from coinprint.render.board import Frame as Placement
from coinprint.render.pdf import text_width_mm
from coinprint.render.raster import SUPERSAMPLE, draw_items, hex_rgb, item_box, reduce, scene_colours
from coinprint.render.scene import Item, Style, Text
from coinprint.render.scene import Path as ScenePath
from coinprint.source import game_named, validate_record
from coinprint.view import MOTION_FRAME_S

if TYPE_CHECKING:
    from PIL import Image

    from coinprint.engine import Record, Replay, Rules
    from coinprint.game import Game

FORMATS = ("gif", "webp", "apng", "mp4")
"""What ``replay -o`` writes besides a page, by ``--format`` name."""
SUFFIXES = {".gif": "gif", ".webp": "webp", ".apng": "apng", ".png": "apng", ".mp4": "mp4"}
EXTRA = 'pip install "coinprint[video]"'
BACKGROUND = "#ffffff"
PAPER = "#f1ead6"
"""Under the countries of a Map drawn so far (the table is white, the drawn map paper)."""
CAPTION_BACKGROUND = "#f4f4f4"
CAPTION_INK = "#222222"
CAPTION_BAD = "#b00020"
MAX_WIDTH = 4096
MIN_WIDTH = 160


@dataclass(frozen=True)
class TimelapseOptions:
    """How a time-lapse is made: the format, the width in pixels, frames a second (one
    position a frame), how long the last frame is held (seconds), how many times it plays
    (0: for ever), and the moves shown (``start``: the position after that move first, 0
    the start with any drawing of the board; ``end``: the last move shown, None the last)."""

    fmt: str = "gif"
    width: int = 720
    fps: float = 2.0
    hold: float = 3.0
    loop: int = 0
    start: int = 0
    end: int | None = None

    def check(self) -> None:
        if self.fmt not in FORMATS:
            raise UsageError(f"--format {self.fmt}: use one of {', '.join(FORMATS)}")
        if not MIN_WIDTH <= self.width <= MAX_WIDTH:
            raise UsageError(f"--width {self.width}: give {MIN_WIDTH} to {MAX_WIDTH} pixels")
        if self.fmt == "mp4" and self.width % 2:
            raise UsageError(f"--width {self.width}: an MP4 (yuv420p) needs an even width")
        if not (math.isfinite(self.fps) and 0.1 <= self.fps <= 60):
            raise UsageError(f"--fps {self.fps:g}: give 0.1 to 60 frames a second")
        if not (math.isfinite(self.hold) and 0 <= self.hold <= 60):
            raise UsageError(f"--hold {self.hold:g}: give 0 to 60 seconds")
        if self.loop < 0:
            raise UsageError(f"--loop {self.loop}: give how many times it plays (0: for ever)")
        if self.fmt == "mp4" and self.loop:
            raise UsageError(
                "--loop is for animated pictures (gif, webp, apng); a video player decides whether an MP4 loops"
            )
        if self.start < 0 or (self.end is not None and self.end < self.start):
            raise UsageError(f"--from {self.start} --to {self.end}: give 0 ≤ --from ≤ --to")

    @property
    def delay_ms(self) -> int:
        """Each frame's duration, in the GIF's hundredths of a second."""
        return max(20, 10 * round(100 / self.fps))

    @property
    def hold_ms(self) -> int:
        """The last frame's duration: the hold, never shorter than a frame."""
        return max(self.delay_ms, 10 * round(100 * self.hold))

    @property
    def hold_frames(self) -> int:
        """How many frames an MP4 shows the last position for (at least one)."""
        return max(1, round(self.hold * self.fps))


@dataclass
class Shot:
    """One frame to draw: board items left out, pieces over it, the Map drawn so far, and
    the caption's lines."""

    hidden: tuple[int, ...]
    pieces: tuple[int, ...]
    drawn: tuple[int, ...] | None
    lines: tuple[str, str, str]
    bad: bool = False
    motion: bool = False
    """A picture of a move under way, shown for :data:`~coinprint.view.MOTION_FRAME_S`."""


@dataclass
class Timelapse:
    """A written (or ready) time-lapse and what the replay found."""

    data: bytes
    fmt: str
    frames: int
    """Frames in the file (an MP4's hold repeats the last one)."""
    durations_ms: list[int]
    size: tuple[int, int]
    valid: bool
    report: str
    moves: int
    setup: int = 0
    """Frames before the first position (the Map being drawn)."""
    colours: list[str] = field(default_factory=list)


def need(module: str, fmt: str) -> Any:
    """``module`` imported, or a one-line UsageError naming the extra to install."""
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError:
        library = "PyAV" if module == "av" else "Pillow"
        raise UsageError(f"writing {fmt.upper()} needs {library}: {EXTRA}") from None


def require(fmt: str) -> None:
    """Refuse in one line, before any work, a format whose library is not installed."""
    need("PIL", fmt)
    if fmt == "mp4":
        need("av", fmt)


# -- frames ---------------------------------------------------------------------------------------------
def shots(
    found: SceneFrames,
    record: Record,
    rules: Rules[Any, Any],
    replayed: Replay[Any],
    title: str,
    options: TimelapseOptions,
) -> tuple[list[Shot], int]:
    """The frames ``options`` asks for, with their captions, and how many are setup (the
    Map's drawing)."""
    head = f"{title}: {_players_text(record, rules.players)}"
    played = replayed.moves_played
    end = played if options.end is None else options.end
    if options.end is not None and options.end > played + (1 if replayed.error else 0):
        raise UsageError(f"--to {options.end}: the record has {played} moves{' that replay' if replayed.error else ''}")
    if options.start > played:
        raise UsageError(
            f"--from {options.start}: the record has {played} moves{' that replay' if replayed.error else ''}"
        )
    result = _result_text(record, replayed)
    chosen: list[Shot] = []
    setup = 0
    move = -1  # frames before the first position belong to "move -1"
    for frame in found.frames:
        if frame.drawn is None and not frame.bad and not frame.motion:
            move += 1
        row = found.rows[frame.row] if frame.row >= 0 else None
        if frame.motion:  # the move after ``move``, under way
            if not options.start < move + 1 <= end:
                continue
            line = f"move {row.number} ({row.player}): {row.text}" if row is not None else ""
        elif frame.drawn is not None:
            if options.start > 0:
                continue
            setup += 1
            line = frame.caption
        elif frame.bad:
            if end < played:
                continue
            line = frame.caption
        else:
            if move < options.start or move > end:
                continue
            line = "the start" if row is None else f"move {row.number} ({row.player}): {row.text}"
            if row is not None and row.note:
                line += f" — {row.note}"
        chosen.append(
            Shot(tuple(frame.hidden), tuple(frame.pieces), frame.drawn, (head, line, ""), frame.bad, frame.motion)
        )
    check_frame_count(len(chosen))
    last = chosen[-1]
    closing = result if (end == played or last.bad) else _cut_line(last)
    chosen[-1] = Shot(last.hidden, last.pieces, last.drawn, (last.lines[0], last.lines[1], closing), last.bad)
    return chosen, setup


def check_frame_count(frames: int) -> None:
    """Refuse, before any frame is drawn, a time-lapse of more than :data:`MAX_TIMELAPSE_FRAMES`."""
    if frames > MAX_TIMELAPSE_FRAMES:
        raise UsageError(
            f"the time-lapse would have {frames:,} frames, over the {MAX_TIMELAPSE_FRAMES:,}-frame cap; "
            "choose the moves to show with --from and --to"
        )


def check_held_pixels(fmt: str, frames: int, size: tuple[int, int]) -> None:
    """Refuse a WebP or APNG whose frames, which Pillow holds until the end, would pass
    :data:`MAX_HELD_TIMELAPSE_PIXELS` (GIF and MP4 are written a frame at a time)."""
    pixels = frames * size[0] * size[1]
    if fmt in ("webp", "apng") and pixels > MAX_HELD_TIMELAPSE_PIXELS:
        raise UsageError(
            f"a {fmt.upper()} of {frames:,} frames of {size[0]}×{size[1]} px is over the "
            f"{MAX_HELD_TIMELAPSE_PIXELS // 1_000_000:,}-megapixel cap of a time-lapse held in memory; "
            "write a GIF or MP4 (drawn a frame at a time), or use a smaller --width or fewer moves (--from, --to)"
        )


def _cut_line(shot: Shot) -> str:
    """The closing line of a time-lapse that stops before the record ends (``--to``)."""
    return f"cut at {shot.lines[1].split(':', 1)[0]}"


class Painter:
    """Draws shots as RGB images ``width`` pixels wide: the board (drawn once per set of
    hidden items), the pieces over it, then the caption strip."""

    def __init__(self, game: Game, rules: Rules[Any, Any], found: SceneFrames, width: int) -> None:
        self.found = found
        self.width = width
        self.scale = width / found.width_mm
        self.board_px = (width, max(1, round(found.height_mm * self.scale)))
        self.font_px = max(10, round(width / 48))
        self.line_px = round(self.font_px * 1.4)
        strip = 3 * self.line_px + round(self.font_px * 0.6)
        self.strip_px = strip + (self.board_px[1] + strip) % 2  # even heights (yuv420p)
        self.size = (width, self.board_px[1] + self.strip_px)
        layout = found.board_layout if found.board_layout is not None else rules.layout
        # A board grown as it was played has no paper laid under it: the paper would show the
        # countries to come.
        self.map_drawn = (
            found.board_layout is None and bool(layout.spaces) and all(s.order is not None for s in layout.spaces)
        )
        placement = Placement(layout)
        self.paper = [
            ScenePath(tuple(placement.ring(r) for r in space.rings), Style(fill=PAPER, stroke=None))
            for space in layout.spaces
        ]
        self.boards: dict[tuple[tuple[int, ...], tuple[int, ...] | None], Image.Image] = {}
        self.piece_boxes: dict[int, tuple[float, float, float, float] | None] = {}
        self.last: tuple[Shot, Image.Image | None] | None = None

    def colours(self) -> list[str]:
        """Every colour a frame is painted with, before antialiasing blends them."""
        items: list[Item] = [*self.paper, *self.found.board, *self.found.pieces]
        found = [BACKGROUND, CAPTION_BACKGROUND, CAPTION_INK, CAPTION_BAD, *scene_colours(items)]
        for item in self.found.pieces:  # a translucent highlight over paper and table
            style = getattr(item, "style", None)
            if style is not None and style.fill is not None and style.opacity < 1.0:
                for under in (BACKGROUND, PAPER):
                    found.append(blend(style.fill, under, style.opacity))
        return list(dict.fromkeys(c.lower() for c in found))

    def _board(self, shot: Shot) -> Image.Image:
        drawn = shot.drawn if shot.drawn is not None else (tuple(range(len(self.paper))) if self.map_drawn else None)
        key = (shot.hidden, drawn)
        board = self.boards.get(key)
        if board is None:
            hidden = set(shot.hidden)
            under = [self.paper[i] for i in drawn] if drawn is not None else []
            items = under + [item for i, item in enumerate(self.found.board) if i not in hidden]
            board = draw_items(items, self.board_px, self.scale, self.found.height_mm, background=BACKGROUND)
            if len(self.boards) > 64:
                self.boards.clear()
            self.boards[key] = board
        return board

    def draw(self, shot: Shot) -> Image.Image:
        from PIL import Image

        image = Image.new("RGB", self.size, hex_rgb(CAPTION_BACKGROUND))
        image.paste(self._board_with_pieces(shot), (0, 0))
        image.paste(self._caption(shot), (0, self.board_px[1]))
        return image

    def _box(self, piece: int) -> tuple[float, float, float, float] | None:
        if piece not in self.piece_boxes:
            self.piece_boxes[piece] = item_box(self.found.pieces[piece], self.scale * SUPERSAMPLE, self.found.height_mm)
        return self.piece_boxes[piece]

    def _board_with_pieces(self, shot: Shot) -> Image.Image:
        """The board with the shot's pieces, output size. When only pieces changed since the
        last shot, only the rectangle they cover is drawn again (the same pixels: the tile
        is aligned to whole output pixels, and every piece over it is drawn in order)."""
        previous, self.last = self.last, (shot, None)
        base = self._board(shot)
        region = None
        if previous is not None and (previous[0].hidden, previous[0].drawn) == (shot.hidden, shot.drawn):
            region = self._changed(previous[0].pieces, shot.pieces)
        if region is None or previous is None or previous[1] is None:
            pieces = [self.found.pieces[i] for i in shot.pieces]
            board = reduce(draw_items(pieces, self.board_px, self.scale, self.found.height_mm, base=base))
        else:
            board = previous[1].copy()
            if region[2] > region[0] and region[3] > region[1]:
                # The tile holds every piece over the region whole: Pillow rounds coordinates
                # left of or above an image's corner differently, so no shape may start there.
                chosen = [i for i in shot.pieces if _meets(self._box(i), region)]
                boxes = [b for b in (self._box(i) for i in chosen) if b is not None]
                step = SUPERSAMPLE
                width, height = base.size
                outer = (
                    max(0, math.floor(min([region[0], *(b[0] for b in boxes)]) / step) * step),
                    max(0, math.floor(min([region[1], *(b[1] for b in boxes)]) / step) * step),
                    min(width, math.ceil(max([region[2], *(b[2] for b in boxes)]) / step) * step),
                    min(height, math.ceil(max([region[3], *(b[3] for b in boxes)]) / step) * step),
                )
                over = [self.found.pieces[i] for i in chosen]
                tile = draw_items(
                    over, self.board_px, self.scale, self.found.height_mm, base=base.crop(outer), offset=outer[:2]
                )
                left, top = outer[0], outer[1]
                inner = (
                    (region[0] - left) // step,
                    (region[1] - top) // step,
                    (region[2] - left) // step,
                    (region[3] - top) // step,
                )
                board.paste(reduce(tile).crop(inner), (region[0] // SUPERSAMPLE, region[1] // SUPERSAMPLE))
        self.last = (shot, board)
        return board

    def _changed(self, before: tuple[int, ...], after: tuple[int, ...]) -> tuple[int, int, int, int] | None:
        """The supersampled rectangle, on whole output pixels, that holds every piece added
        or taken away; None when it cannot be told (a piece without a box, a new order)."""
        from collections import Counter

        gone, added = Counter(before) - Counter(after), Counter(after) - Counter(before)
        if not gone and not added:
            return None if before != after else (0, 0, 0, 0)
        common = [p for p in after if p in set(before)]
        if common != [p for p in before if p in set(after)]:
            return None
        boxes = [self._box(p) for p in (*gone, *added)]
        if any(b is None for b in boxes):
            return None
        known = [b for b in boxes if b is not None]
        step = SUPERSAMPLE
        width, height = self.board_px[0] * step, self.board_px[1] * step
        x0 = max(0, math.floor(min(b[0] for b in known) / step) * step)
        y0 = max(0, math.floor(min(b[1] for b in known) / step) * step)
        x1 = min(width, math.ceil(max(b[2] for b in known) / step) * step)
        y1 = min(height, math.ceil(max(b[3] for b in known) / step) * step)
        return (x0, y0, max(x0, x1), max(y0, y1))

    def _caption(self, shot: Shot) -> Image.Image:
        height = self.strip_px
        items: list[Item] = []
        pad = self.font_px * 0.6
        for number, line in enumerate(shot.lines):
            if not line:
                continue
            bold = number == 0
            colour = CAPTION_BAD if shot.bad and number > 0 else CAPTION_INK
            y = height - pad * 0.6 - self.line_px * (number + 1) + self.line_px * 0.3
            text = fitted(line, self.width - 2 * pad, self.font_px, bold)
            items.append(Text((pad, y), text, self.font_px, "start", colour, bold=bold))
        # Text is antialiased by the font renderer itself: the strip needs no supersampling.
        return draw_items(items, (self.width, height), 1.0, height, background=CAPTION_BACKGROUND, supersample=1)


def _meets(box: tuple[float, float, float, float] | None, region: tuple[int, int, int, int]) -> bool:
    if box is None:
        return True
    return box[0] < region[2] and box[2] > region[0] and box[1] < region[3] and box[3] > region[1]


def fitted(text: str, width: float, size: float, bold: bool) -> str:
    """``text`` cut with an ellipsis to fit ``width`` at ``size`` (same units)."""
    if text_width_mm(text, size, bold) <= width:
        return text
    low, high = 0, len(text)
    while low < high:
        middle = (low + high + 1) // 2
        if text_width_mm(text[:middle] + "…", size, bold) <= width:
            low = middle
        else:
            high = middle - 1
    return text[:low] + "…"


def blend(top: str, under: str, alpha: float) -> str:
    """``top`` painted at ``alpha`` over ``under``, as ``#rrggbb`` (as Pillow's blend rounds)."""
    a, b = hex_rgb(top), hex_rgb(under)
    return "#" + "".join(f"{min(255, max(0, int(v + (u - v) * alpha + 0.5))):02x}" for u, v in zip(a, b))


# -- the palette and the GIF ----------------------------------------------------------------------------
def gif_palette(colours: list[str]) -> list[tuple[int, int, int]]:
    """At most 255 colours (index 255 is kept for transparency): the scene's own colours,
    then the steps between them that antialiased edges need, the pairs with the background
    and the darkest ink first."""
    base = [hex_rgb(c) for c in colours][:255]
    chosen = list(dict.fromkeys(base))
    if len(chosen) < 2:
        return chosen

    def light(c: tuple[int, int, int]) -> int:
        return sum(c)

    anchors = [base[0], min(base, key=light)]
    pairs = [(a, b) for a in anchors for b in chosen if a != b]
    pairs += [
        (a, b) for i, a in enumerate(chosen) for b in chosen[i + 1 :] if (a, b) not in pairs and (b, a) not in pairs
    ]
    seen = set(chosen)
    for steps in ((2,), (1, 3), (1, 2, 3, 4, 5, 6, 7)):
        for a, b in pairs:
            for step in steps:
                t = step / (4 if len(steps) < 7 else 8)
                mixed = tuple(round(x + (y - x) * t) for x, y in zip(a, b))
                if mixed not in seen and len(chosen) < 255:
                    seen.add(mixed)  # type: ignore[arg-type]
                    chosen.append(mixed)  # type: ignore[arg-type]
    return chosen


def _palette_image(colours: list[tuple[int, int, int]]) -> Image.Image:
    from PIL import Image

    image = Image.new("P", (1, 1))
    flat = [v for c in colours for v in c]
    image.putpalette(flat + [0, 0, 0] * (256 - len(colours)))
    return image


class PaletteMap:
    """RGB images as palette images, each pixel the nearest palette colour (no dithering):
    a colour in the palette stays exactly itself. Nearest colours are worked out once per
    colour met, in a table of every 24-bit colour."""

    def __init__(self, palette: list[tuple[int, int, int]]) -> None:
        import numpy as np

        self.palette = np.array(palette, dtype=np.int32)
        self.index = np.full(1 << 24, -1, dtype=np.int16)  # -1: not worked out yet
        self.table = _palette_image(palette)

    def __call__(self, image: Image.Image) -> Image.Image:
        import numpy as np
        from PIL import Image

        packed = np.asarray(image.convert("RGBX")).view(np.uint32)[..., 0] & 0xFFFFFF
        found = self.index[packed]
        if (found < 0).any():
            new = np.unique(packed[found < 0]).astype(np.int64)
            colours = np.stack([new & 255, (new >> 8) & 255, (new >> 16) & 255], axis=1)
            for start in range(0, len(new), 4096):
                part = colours[start : start + 4096]
                distance = ((part[:, None, :] - self.palette[None, :, :]) ** 2).sum(axis=2)
                self.index[new[start : start + 4096]] = distance.argmin(axis=1)
            found = self.index[packed]
        mapped = Image.fromarray(found.astype(np.uint8), "P")
        mapped.putpalette(self.table.getpalette() or [])
        return mapped


def write_gif(
    images: Iterable[Image.Image], durations: Sequence[int], loop: int, palette: list[tuple[int, int, int]]
) -> bytes:
    """The frames as a GIF89a with one global palette: each frame after the first is the
    rectangle that changed, its unchanged pixels transparent when that encodes smaller.
    ``images`` is read one frame at a time: only the previous frame is kept."""
    from PIL import GifImagePlugin, ImageChops

    transparent = 255
    to_palette = PaletteMap(palette)
    out = io.BytesIO()
    previous: Image.Image | None = None
    shown: Image.Image | None = None  # the previous frame as palette indices
    for image, duration in zip(images, durations):
        if previous is None:
            _gif_header(out, image.size, loop, palette)
        if previous is None or shown is None:
            shown = to_palette(image)
            chunks = GifImagePlugin.getdata(shown, (0, 0), duration=duration, disposal=1)
        else:
            # Only the rectangle that changed is mapped to the palette and written.
            box = ImageChops.difference(image, previous).getbbox() or (0, 0, 1, 1)
            crop = to_palette(image.crop(box))
            before = shown.crop(box)
            unchanged = ImageChops.difference(crop, before).point([255] + [0] * 255, "1")
            holed = crop.copy()
            holed.paste(transparent, mask=unchanged)
            chunks = GifImagePlugin.getdata(holed, box[:2], duration=duration, disposal=1, transparency=transparent)
            kept = unchanged.histogram()[-1] if unchanged.mode == "1" else 0
            if kept * 2 < crop.width * crop.height:  # mostly changed: the plain rectangle may be smaller
                plain = GifImagePlugin.getdata(crop, box[:2], duration=duration, disposal=1)
                chunks = chunks if sum(map(len, chunks)) < sum(map(len, plain)) else plain
            shown = shown.copy()
            shown.paste(crop, box[:2])
        for chunk in chunks:
            out.write(chunk)
        previous = image
    out.write(b";")
    return out.getvalue()


def _gif_header(out: io.BytesIO, size: tuple[int, int], loop: int, palette: list[tuple[int, int, int]]) -> None:
    width, height = size
    out.write(b"GIF89a" + width.to_bytes(2, "little") + height.to_bytes(2, "little"))
    out.write(bytes([0xF7, 0, 0]))  # a global table of 256 colours, 8 bits, background 0
    flat = bytes(v for c in palette for v in c)
    out.write(flat + bytes(768 - len(flat)))
    if loop != 1:  # NETSCAPE2.0: repeat count (0: for ever); playing once needs none
        repeats = 0 if loop == 0 else loop - 1
        out.write(b"!\xff\x0bNETSCAPE2.0\x03\x01" + repeats.to_bytes(2, "little") + b"\x00")


def write_animation(fmt: str, images: list[Image.Image], durations: list[int], loop: int) -> bytes:
    """WebP (lossless) or APNG through Pillow."""
    out = io.BytesIO()
    first, rest = images[0], images[1:]
    if fmt == "webp":
        first.save(
            out,
            "WEBP",
            save_all=True,
            append_images=rest,
            duration=durations,
            loop=loop,
            lossless=True,
            quality=50,
            method=4,
        )
    else:
        first.save(out, "PNG", save_all=True, append_images=rest, duration=durations, loop=loop, default_image=False)
    return out.getvalue()


def write_mp4(images: Iterable[Image.Image], fps: float, hold_frames: int) -> bytes:
    """H.264 in an MP4, yuv420p, ``fps`` frames a second, the last image shown ``hold_frames``
    times. ``images`` is read and encoded one frame at a time."""
    import tempfile
    from fractions import Fraction

    av = need("av", "mp4")
    rate = Fraction(fps).limit_denominator(1000)
    with tempfile.TemporaryDirectory(prefix="coinprint-mp4-") as folder:
        # A file, not memory: moving the index to the front (faststart, for the web) rereads it.
        target = Path(folder) / "video.mp4"
        _encode_mp4(av, str(target), images, rate, hold_frames)
        return target.read_bytes()


def _repeated(images: Iterable[Image.Image], repeats: Sequence[int]) -> Iterator[Image.Image]:
    """Each of ``images`` as many times as ``repeats`` says."""
    for image, times in zip(images, repeats, strict=True):
        for _ in range(times):
            yield image


def _held(images: Iterable[Image.Image], hold_frames: int) -> Iterator[Image.Image]:
    """``images``, then the last one again until it has been shown ``hold_frames`` times."""
    last: Image.Image | None = None
    for last in images:
        yield last
    if last is not None:
        for _ in range(hold_frames - 1):
            yield last


def _encode_mp4(av: Any, target: str, images: Iterable[Image.Image], rate: Any, hold_frames: int) -> None:
    with av.open(target, "w", format="mp4", options={"movflags": "+faststart"}) as container:
        stream = container.add_stream(
            # Two threads on every machine: x264's output is repeatable for a given thread count.
            "libx264",
            rate=rate,
            options={"crf": "20", "preset": "veryfast", "tune": "animation", "threads": "2"},
        )
        stream.pix_fmt = "yuv420p"
        for index, image in enumerate(_held(images, hold_frames)):
            if index == 0:
                stream.width, stream.height = image.size
            frame = av.VideoFrame.from_image(image)
            frame.pts = index
            frame.time_base = 1 / rate
            for packet in stream.encode(frame):
                container.mux(packet)
        for packet in stream.encode():
            container.mux(packet)


# -- the whole ------------------------------------------------------------------------------------------
def timelapse_from_record(path: str, options: TimelapseOptions) -> Timelapse:
    """Read, check and draw the record at ``path`` as a time-lapse in ``options.fmt``."""
    options.check()
    require(options.fmt)
    record, rules, replayed = validate_record(path)
    last = replayed.moves_played if options.end is None else min(options.end, replayed.moves_played)
    check_frame_count(last - options.start + 1)  # the positions alone, before the scene is built
    game = game_named(record.game)
    found = scene_frames(game, record, rules, replayed, motion=True)
    chosen, setup = shots(found, record, rules, replayed, game.title, options)
    painter = Painter(game, rules, found, options.width)
    check_held_pixels(options.fmt, len(chosen), painter.size)
    # Frames are drawn as the encoder asks for them: a GIF or MP4 never holds more than two.
    images = (painter.draw(shot) for shot in chosen)
    motion_ms = round(MOTION_FRAME_S * 1000)
    durations = [motion_ms if shot.motion else options.delay_ms for shot in chosen]
    durations[-1] = options.hold_ms
    colours = painter.colours()
    if options.fmt == "gif":
        data = write_gif(images, durations, options.loop, gif_palette(colours))
        count = len(chosen)
    elif options.fmt == "mp4" and any(shot.motion for shot in chosen):
        # One rate for the whole video, the motion's: each position is shown as many frames
        # as make its time.
        rate = 1 / MOTION_FRAME_S
        still = max(1, round(rate / options.fps))
        repeats = [1 if shot.motion else still for shot in chosen]
        repeats[-1] = max(1, round(options.hold * rate))
        data = write_mp4(_repeated(images, repeats), rate, 1)
        count = sum(repeats)
        durations = [motion_ms] * count
    elif options.fmt == "mp4":
        data = write_mp4(images, options.fps, options.hold_frames)
        count = len(chosen) - 1 + options.hold_frames
        durations = [round(1000 / options.fps)] * count
    else:
        data = write_animation(options.fmt, list(images), durations, options.loop)
        count = len(chosen)
    return Timelapse(
        data,
        options.fmt,
        count,
        durations,
        painter.size,
        replayed.valid,
        replayed.report(),
        replayed.moves_played,
        setup,
        colours,
    )


def timelapse_output(path: str, output: str | None, fmt: str | None) -> tuple[Path, str]:
    """Where ``replay -o`` writes a time-lapse and in which format: ``--format``, else the
    suffix of ``-o`` (a folder gets RECORD.<format>)."""
    if output is not None and not is_stream(output) and not output.endswith(("/", "\\")) and not Path(output).is_dir():
        suffix = Path(output).suffix.lower()
        named = SUFFIXES.get(suffix)
        if fmt is not None and named is not None and named != fmt:
            raise UsageError(f"-o '{output}' is a .{suffix[1:]} file but --format says {fmt}")
        chosen = fmt or named
        if chosen is None:
            raise UsageError(f"-o '{output}': end it in .gif, .webp, .apng or .mp4 (or give --format)")
        return Path(output), chosen
    chosen = fmt or "gif"
    name = f"{Path(path).stem}.{chosen}"
    if output is None:
        return Path("output") / name, chosen
    if is_stream(output):
        return Path(output), chosen
    return Path(output) / name, chosen


def write_timelapse(path: str, target: Path, options: TimelapseOptions) -> tuple[Path, Timelapse]:
    """Write the time-lapse of the record at ``path`` to ``target`` (whole or not at all);
    returns where and what was written."""
    lapse = timelapse_from_record(path, options)
    return write_atomic(target, lapse.data), lapse


def write_timelapses(records: list[Path], options: TimelapseOptions) -> list[Path]:
    """A time-lapse beside each record (``NAME.json`` → ``NAME.gif``)."""
    written = []
    for record_path in records:
        lapse = timelapse_from_record(str(record_path), options)
        target = Path(record_path).with_suffix(f".{options.fmt}")
        written.append(write_atomic(target, lapse.data, follow_symlinks=False))
    return written

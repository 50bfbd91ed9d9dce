"""Time-lapse figures: how long a GIF and an MP4 take to write at 720 px, how big they are,
and the bytes per frame beside lila-gif's (a 93-move chess game: 336 KiB, 94 frames). The
targets (issue 33): a 200-move Coin Table game and a full 21-country Map game in a GIF of at
most 1.5 MB written in at most 2 s, an MP4 in at most 3 s, and at most 3x lila-gif's bytes a
frame. Figures are medians of 3 runs.

Run from the repository root: python bench/timelapse.py
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

LILA_BYTES_PER_FRAME = 336 * 1024 / 94
RUNS = 3
GAMES = (
    # (layout, at most this many moves, seed): random games cut at the limit if longer
    ("cointable", 200, 3),
    ("mapgame:countries=21", 400, 3),
)


def record_file(folder: Path, spec: str, moves: int, seed: int) -> tuple[Path, int]:
    """A self-played record on ``spec`` with at most ``moves`` moves (random agents)."""
    from coinprint.analysis import resolve_layout, rules_for, self_play

    rules = rules_for(resolve_layout(spec), {})
    record, _ = next(self_play(spec, {p: "random" for p in rules.players}, 1, seed, moves))
    record.moves = record.moves[:moves]
    record.result = None
    path = folder / f"{spec.partition(':')[0]}-{seed}.json"
    path.write_text(record.dumps(), encoding="utf-8")
    return path, len(record.moves)


def timed(path: Path, fmt: str) -> tuple[float, int, int]:
    from coinprint.playback.timelapse import TimelapseOptions, timelapse_from_record

    times, lapse = [], None
    for _ in range(RUNS):
        start = time.perf_counter()
        lapse = timelapse_from_record(str(path), TimelapseOptions(fmt, width=720))
        times.append(time.perf_counter() - start)
    assert lapse is not None
    return statistics.median(times), len(lapse.data), lapse.frames


def main() -> None:
    print(
        f"{'game':<22} {'moves':>5} {'frames':>6} {'GIF s':>6} {'GIF KB':>7} {'B/frame':>8} {'x lila':>6} {'MP4 s':>6} {'MP4 KB':>7}"
    )
    with tempfile.TemporaryDirectory() as folder:
        for spec, moves, seed in GAMES:
            path, played = record_file(Path(folder), spec, moves, seed)
            gif_s, gif_bytes, frames = timed(path, "gif")
            mp4_s, mp4_bytes, _ = timed(path, "mp4")
            per_frame = gif_bytes / frames
            print(
                f"{spec:<22} {played:>5} {frames:>6} {gif_s:>6.2f} {gif_bytes / 1000:>7.0f} {per_frame:>8.0f}"
                f" {per_frame / LILA_BYTES_PER_FRAME:>6.2f} {mp4_s:>6.2f} {mp4_bytes / 1000:>7.0f}"
            )
    print("targets: GIF <= 2 s and <= 1500 KB, MP4 <= 3 s, <= 3x lila-gif's bytes a frame")


if __name__ == "__main__":
    main()

"""Replay page figures: how long a page takes to write and how big it is, for games of each
kind (the target: a 200-move game in at most 0.5 s and 2 MB). Figures are medians of 5 runs.

Run from the repository root: python bench/replay_page.py
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

GAMES = (
    # (layout, at most this many moves, seed): random games, cut at the limit if longer
    ("cointable", 200, 3),
    ("cointable", 433, 3),
    ("cointable", 2000, 5),
    ("mapgame", 200, 1),
    ("coinage", 200, 3),
)


def record_file(folder: Path, spec: str, moves: int, seed: int) -> tuple[Path, int]:
    """A self-played record on ``spec`` with at most ``moves`` moves (random agents)."""
    from coinprint.analysis import resolve_layout, rules_for, self_play

    rules = rules_for(resolve_layout(spec), {})
    record, _ = next(self_play(spec, {p: "random" for p in rules.players}, 1, seed, moves))
    record.moves = record.moves[:moves]
    record.result = None
    path = folder / f"{spec.partition(':')[0]}-{seed}-{moves}.json"
    path.write_text(record.dumps(), encoding="utf-8")
    return path, len(record.moves)


def main() -> None:
    from coinprint.playback.page import write_replay

    # Wall time suffers when other work shares the machine; CPU time much less so.
    print(f"{'game':<12}{'moves':>7}{'frames':>8}{'wall s':>8}{'cpu s':>7}{'size KB':>9}{'KB/move':>9}")
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        for spec, moves, seed in GAMES:
            path, played = record_file(folder, spec, moves, seed)
            times, cpu = [], []
            for _ in range(5):
                start, start_cpu = time.perf_counter(), time.process_time()
                written, page = write_replay(str(path), str(folder / "page.html"))
                times.append(time.perf_counter() - start)
                cpu.append(time.process_time() - start_cpu)
            size = written.stat().st_size
            frames = page.html.count('"r":')
            print(
                f"{spec:<12}{played:>7}{frames:>8}{statistics.median(times):>8.3f}{statistics.median(cpu):>7.3f}"
                f"{size / 1024:>9.0f}{size / 1024 / max(played, 1):>9.2f}"
            )


if __name__ == "__main__":
    main()

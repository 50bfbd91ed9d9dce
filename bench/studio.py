"""coinprint studio's speed, as a user meets it: preview latency for a changed option, check
latency for the example card, server start, and memory.

    python bench/studio.py [RUNS]

- preview: ``/api/board/{game}.svg`` for an option changed each time (median over RUNS, 20 by
  default), for Coin Table side 5 and a 21-country Map; target ≤ 250 ms median;
- check: ``POST /api/check`` of examples/coinage-card-mistakes.svg; target ≤ 500 ms median;
- watch: a saved file's new check arriving over server-sent events; target ≤ 2 s;
- start: ``coinprint studio --no-browser --port 0`` to its first answer; target ≤ 1.5 s;
- memory: the server's peak resident set after the above.

Figures are printed, never asserted (CONTRIBUTING.md: speed is measured here, not in tests).
"""

from __future__ import annotations

import os
import resource
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CARD = ROOT / "examples" / "coinage-card-mistakes.svg"


def median_ms(times: list[float]) -> str:
    return f"median {statistics.median(times) * 1000:.0f} ms (min {min(times) * 1000:.0f}, max {max(times) * 1000:.0f})"


def previews(runs: int) -> None:
    from starlette.testclient import TestClient

    from coinprint.studio.app import Studio, create_app

    client = TestClient(
        create_app(Studio("bench")), base_url="http://127.0.0.1", headers={"authorization": "token bench"}
    )
    client.get("/api/board/cointable.svg")  # warm: the first request loads the game
    client.get("/api/board/mapgame.svg")
    for label, path, option, values in [
        ("Coin Table side 5", "/api/board/cointable.svg", "hex", [f"{30 + i % 7}mm" for i in range(runs)]),
        ("Map, 21 countries", "/api/board/mapgame.svg", "seed", [str(100 + i) for i in range(runs)]),
    ]:
        times = []
        for value in values:
            start = time.perf_counter()
            response = client.get(path, params={option: value})
            times.append(time.perf_counter() - start)
            assert response.status_code == 200, response.text
        print(f"preview, {label}, {option} changed: {median_ms(times)}  (target ≤ 250 ms)")
    data = CARD.read_bytes()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        response = client.post("/api/check?game=coinage", content=data)
        times.append(time.perf_counter() - start)
        assert response.status_code == 200
    print(f"check, the example card: {median_ms(times)}  (target ≤ 500 ms)")


def watch(runs: int) -> None:
    import shutil
    import tempfile

    import httpx

    from coinprint.studio.app import Studio, Watched
    from tests.test_studio_server import events, running, save_as_an_editor_does

    with tempfile.TemporaryDirectory() as folder:
        drawn = Path(folder) / "card.svg"
        shutil.copy(CARD, drawn)
        fixed = (ROOT / "examples" / "coinage-card.svg").read_bytes()
        broken = CARD.read_bytes()
        with running(Studio("bench", [Watched(drawn, "coinage")])) as base:
            with httpx.stream(
                "GET", f"{base}/api/watch/0/events", headers={"authorization": "token bench"}, timeout=60
            ) as stream:
                checks = events(stream.iter_lines())
                next(checks)
                times = []
                for n in range(min(runs, 10)):
                    start = time.perf_counter()
                    save_as_an_editor_does(drawn, fixed if n % 2 == 0 else broken)
                    wanted = n % 2 == 0
                    while next(checks)["valid"] is not wanted:
                        pass
                    times.append(time.perf_counter() - start)
    print(f"watch, save to new verdict on the page's stream: {median_ms(times)}  (target ≤ 2 s)")


def start() -> None:
    import httpx

    started = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "coinprint", "studio", "--no-browser", "--port", "0"],
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert process.stdout is not None
    address = process.stdout.readline().strip()
    response = httpx.get(address, follow_redirects=True)
    elapsed = time.perf_counter() - started
    assert response.status_code == 200
    print(f"start, command to the first page: {elapsed * 1000:.0f} ms  (target ≤ 1.5 s)")
    process.send_signal(signal.SIGINT)
    process.wait(timeout=30)


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    start()
    previews(runs)
    watch(runs)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"memory, peak resident set of this process (server and client): {peak:.0f} MB")


if __name__ == "__main__":
    main()

"""Take the README's screenshot of a replay page in headless Chromium, with the same
machinery as the browser tests (run from the repository root; needs chromium,
chromium-driver and selenium):

    python docs/screenshot.py

A screenshot is not byte-stable, so docs/pictures.py (whose SVGs the tests compare) leaves
it out.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main(images: str = "docs/images") -> Path:
    """Play one Map game, write its replay page and save a picture of it mid-chase."""
    from coinprint.cli import main as coinprint
    from tests import browser

    reason = browser.missing()
    if reason:
        raise SystemExit(f"cannot take the screenshot: {reason}")
    target = Path(images) / "replay-mapgame.png"
    with tempfile.TemporaryDirectory() as games:
        for args in (
            ["play", "mapgame", "--games", "1", "--seed", "4", "-o", games],
            ["replay", f"{games}/mapgame-4.json", "-o", f"{games}/mapgame-4.html"],
        ):
            try:
                coinprint(args)
            except SystemExit as done:
                if done.code:
                    raise
        # 21 countries drawn, then 12 moves of the chase.
        browser.screenshot(Path(games) / "mapgame-4.html", target, steps=21 + 12, width=1100, height=640)
    return target


if __name__ == "__main__":
    print(f"wrote {main()}")

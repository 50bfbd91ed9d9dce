"""Regenerate the pictures the README shows (run from the repository root):

    python docs/pictures.py

Every picture is made by coinprint itself, so the README shows what users get.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PICTURES = [
    ["board", "cointable", "--size", "5", "-o", "docs/images/cointable-board.svg"],
]


def main() -> None:
    from coinprint.cli import main as coinprint

    for args in PICTURES:
        try:
            coinprint(args)
        except SystemExit as done:
            if done.code:
                raise


if __name__ == "__main__":
    main()

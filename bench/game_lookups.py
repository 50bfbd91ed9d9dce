"""How often three flows look a game up by name in the registry: `kit coinage`, a studio Play
move (start a Coin Age game against the computer, the person's move, the computer's move, the
board picture) and `validate layout examples/coinage-card.svg --game coinage`. Each should look
its game up once, where its input names it, and pass the `Game` down.

    python bench/game_lookups.py

Prints, per flow, the registry look-ups (each call that turns a name into a `Game`) and the
coinprint modules it imported.
"""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from coinprint import registry  # noqa: E402
from coinprint.registry import GAMES  # noqa: E402

TOKEN = "bench-token-0123456789"
BASE = "http://127.0.0.1:8770"


def counted(flow: Callable[[], None]) -> tuple[int, int]:
    """Registry look-ups by name while ``flow`` runs, and coinprint modules loaded by then."""
    calls = 0
    original = registry.Registry.__getitem__

    def lookup(self: registry.Registry, name: str) -> object:
        nonlocal calls
        calls += 1
        return original(self, name)

    registry.Registry.__getitem__ = lookup  # type: ignore[method-assign,assignment]
    try:
        flow()
    finally:
        registry.Registry.__getitem__ = original  # type: ignore[method-assign]
    return calls, sum(1 for name in sys.modules if name.startswith("coinprint"))


def kit_coinage() -> None:
    from coinprint.cli import main

    with tempfile.TemporaryDirectory() as folder:
        try:
            main(["kit", "coinage", "-o", f"{folder}/"])
        except SystemExit as done:
            assert not done.code, done.code


def studio_move() -> None:
    from starlette.testclient import TestClient

    from coinprint.studio.app import create_app
    from coinprint.studio.state import Studio

    client = TestClient(create_app(Studio(TOKEN)), base_url=BASE, headers={"authorization": f"token {TOKEN}"})
    started = client.post("/api/play", json={"game": "coinage", "opponent": "greedy", "seed": 1})
    assert started.status_code == 201, started.text
    game = started.json()
    flow = [
        client.post(f"/api/play/{game['id']}/move", json={"move": game["legal"][0]}),
        client.post(f"/api/play/{game['id']}/computer"),
        client.get(f"/api/play/{game['id']}/board.svg"),
    ]
    assert all(response.status_code == 200 for response in flow), [r.text for r in flow]


def validate_layout() -> None:
    from coinprint.cli import main

    try:
        main(["validate", "layout", str(ROOT / "examples" / "coinage-card.svg"), "--game", "coinage"])
    except SystemExit as done:
        assert not done.code, done.code


def main() -> None:
    GAMES.names()  # the plug-ins' entry points read before any flow
    for name, flow in (
        ("kit coinage", kit_coinage),
        ("studio move", studio_move),
        ("validate layout", validate_layout),
    ):
        lookups, modules = counted(flow)
        print(f"{name}: {lookups} registry look-up(s); {modules} coinprint modules loaded so far", file=sys.stderr)


if __name__ == "__main__":
    main()

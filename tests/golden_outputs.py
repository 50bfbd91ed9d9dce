"""The outputs that must stay byte-identical when the code is reorganised: boards, rule
sheets, kits and self-play records of the built-in games, each written by the command line.

``python -m tests.golden_outputs`` records their SHA-256 digests in ``tests/golden/outputs.json``
(run it *before* a change that must not alter any output); ``test_outputs_unchanged.py``
writes them again and compares.

Adding a game changes nothing here. ``kit all`` writes a kit for every registered game, but only
the kits of the games the manifest recorded (the built-in games when it was recorded) are
compared: a game added to ``BUILT_IN``, a plug-in or a test's toy game adds a kit that no digest
names. Its outputs are checked by the cross-game suites instead. To pin a new game's outputs too,
add commands for it to :data:`COMMANDS` and record the digests again, after checking that every
digest already recorded is unchanged.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Collection
from pathlib import Path

from click.testing import CliRunner

from coinprint.registry import BUILT_IN

MANIFEST = Path(__file__).parent / "golden" / "outputs.json"

KIT_ALL = "kit all -o {out}/kits"
"""The one command that writes a file for every registered game: ``<game>-kit-….pdf``."""

COMMANDS: list[str] = [
    KIT_ALL,
    "kit cointable --paper letter --lang sv -o {out}/kit-letter",
    "board cointable -o {out}/ct.pdf",
    "board cointable -o {out}/ct.svg",
    "board cointable -o {out}/ct.geojson",
    "board cointable --size 3 --orientation flat --measure corner-to-corner --hex 30mm -o {out}/ct3.svg",
    "board coinage -o {out}/ca.pdf",
    "board coinage -o {out}/ca.svg",
    "board coinage --map random --regions 3,3,2,2 --seed 5 -o {out}/car.geojson",
    "board coinage --map steps --card poker --copies 2 -o {out}/cas.pdf",
    "board mapgame --seed 3 -o {out}/mg.pdf",
    "board mapgame --seed 3 -o {out}/mg.svg",
    "board mapgame --seed 4 --growth sprawling -o {out}/mgs.geojson",
    "board mapgame --blank -o {out}/mgb.pdf",
    "board flick -o {out}/fl.pdf",
    "board flick --sides 5 --players 3 -o {out}/fl5.svg",
    "board flick -o {out}/fl.geojson",
    "rules cointable -o {out}/rct.pdf",
    "rules coinage --lang sv -o {out}/rca.pdf",
    "rules mapgame --paper letter -o {out}/rmg.pdf",
    "rules flick -o {out}/rfl.pdf",
    "play cointable --size 3 --games 2 --seed 4 --workers 1 -o {out}/play-ct",
    "play coinage --games 2 --seed 2 --workers 1 -o {out}/play-ca",
    "play mapgame --games 2 --seed 1 --workers 1 --html -o {out}/play-mg",
    "play coinage --map random --regions 3,3,2,2 --map-seed 3 --seed 1 --games 1 --workers 1 -o {out}/play-car",
    "board cointable --coin none --hex 1.5in -o {out}/ctn.svg",
    "rules cointable --size 4 --supply 80 -o {out}/rct4.pdf",
    "board mapgame --countries 15 --max-neighbours 3 --coin dime --seed 0 -o {out}/mg15.geojson",
    "board flick --width 6in --goal-coin penny --coins 3 -o {out}/flw.svg",
    "board coinage --map random --bleed 3mm --copies 2 --seed 0 -o {out}/carb.pdf",
]


def kit_game(path: Path) -> str:
    """The game a kit written by ``kit all`` is of (``mapgame-kit-a4-en.pdf``: ``mapgame``)."""
    return path.name.split("-kit-")[0]


def recorded_games(manifest: dict[str, dict[str, str]]) -> set[str]:
    """The games whose kits ``manifest`` records under ``kit all``."""
    return {kit_game(Path(name)) for name in manifest[KIT_ALL]}


def digests(
    out: Path, games: Collection[str] = tuple(BUILT_IN), commands: Collection[str] = tuple(COMMANDS)
) -> dict[str, dict[str, str]]:
    """Run the commands (every one), writing below ``out``; the SHA-256 of each file each one
    wrote (of ``kit all``'s kits, those of ``games`` alone)."""
    from coinprint.cli import cli

    found: dict[str, dict[str, str]] = {}
    for command in commands:
        before = {p for p in out.rglob("*") if p.is_file()}
        result = CliRunner().invoke(cli, command.format(out=out).split(), catch_exceptions=False)
        assert result.exit_code == 0, (command, result.output)
        written = sorted(p for p in out.rglob("*") if p.is_file() and p not in before)
        if command == KIT_ALL:
            written = [p for p in written if kit_game(p) in games]
        assert written, command
        found[command] = {p.relative_to(out).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest() for p in written}
    return found


if __name__ == "__main__":
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        MANIFEST.write_text(json.dumps(digests(Path(folder)), indent=1, sort_keys=True) + "\n")
    print(f"wrote {MANIFEST}", file=sys.stderr)

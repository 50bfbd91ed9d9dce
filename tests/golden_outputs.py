"""The outputs that must stay byte-identical when the code is reorganised: boards, rule
sheets, kits and self-play records of every game, each written by the command line.

``python -m tests.golden_outputs`` records their SHA-256 digests in ``tests/golden/outputs.json``
(run it *before* a change that must not alter any output); ``test_outputs_unchanged.py``
writes them again and compares.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

from click.testing import CliRunner

MANIFEST = Path(__file__).parent / "golden" / "outputs.json"

COMMANDS: list[str] = [
    "kit all -o {out}/kits",
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


def digests(out: Path) -> dict[str, dict[str, str]]:
    """Run every command writing below ``out``; the SHA-256 of each file each one wrote."""
    from coinprint.cli import cli

    found: dict[str, dict[str, str]] = {}
    for command in COMMANDS:
        before = {p for p in out.rglob("*") if p.is_file()}
        result = CliRunner().invoke(cli, command.format(out=out).split(), catch_exceptions=False)
        assert result.exit_code == 0, (command, result.output)
        written = sorted(p for p in out.rglob("*") if p.is_file() and p not in before)
        assert written, command
        found[command] = {p.relative_to(out).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest() for p in written}
    return found


if __name__ == "__main__":
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        MANIFEST.write_text(json.dumps(digests(Path(folder)), indent=1, sort_keys=True) + "\n")
    print(f"wrote {MANIFEST}", file=sys.stderr)

"""Reorganising the code changes no output: every board, rule sheet, kit, record and replay
page in ``tests/golden_outputs.py`` is byte for byte what the code wrote before the move to one
package per game (digests in ``tests/golden/outputs.json``).

The digests were recorded before the move and checked after it. They are recorded again only
when a change alters outputs on purpose, after checking that the new files are byte for byte
those of the branch that made the change: the print polish of issue 21 (every file equal to that
branch's own), and the analysis work of issue 22 (new Maps keep X's start apart from O's and
the agents play better: its records and GeoJSON equal that branch's own, and only files that
branch changed itself changed); and Coin Age's legal turns, which had missed turns that reach
a position the search had already met with less of the throw's allowance left (only Coin Age's
self-play records, its kit and its Swedish rule sheet changed: their worked example is a
greedy game, and greedy now has those turns to choose from); and release 0.3.0, whose
outputs name the new version (GeoJSON's ``generator``, the print marks): every digest was
first checked equal with the version set back to 0.2.0.

Adding a game records nothing again: ``kit all``'s kits are compared for the games the manifest
holds, and a new game's kit is left out (see ``tests/golden_outputs.py``)."""

from __future__ import annotations

import json
from pathlib import Path

from coinprint.registry import GAMES
from tests import toygame
from tests.golden_outputs import COMMANDS, KIT_ALL, MANIFEST, digests, recorded_games


def test_every_output_is_byte_identical_to_the_recorded_one(tmp_path: Path) -> None:
    recorded = json.loads(MANIFEST.read_text())
    assert sorted(recorded) == sorted(COMMANDS)
    assert digests(tmp_path, recorded_games(recorded)) == recorded


def test_a_game_registered_in_the_run_changes_no_digest(tmp_path: Path) -> None:
    recorded = json.loads(MANIFEST.read_text())
    added = toygame.NAME not in GAMES
    if added:
        GAMES.register(toygame.GAME)
    try:
        assert digests(tmp_path, recorded_games(recorded), [KIT_ALL]) == {KIT_ALL: recorded[KIT_ALL]}
        assert (tmp_path / "kits" / f"{toygame.NAME}-kit-a4-en.pdf").is_file()  # written, and left out
    finally:
        if added:
            GAMES.unregister(toygame.NAME)

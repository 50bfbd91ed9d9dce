"""Coin Age's time-lapse shows each turn's throw beside the card: read back from the GIF,
the coins in the column right of the card are the record's throw, top down, each in the
colour of the face it landed on (the mover's side for a match)."""

from __future__ import annotations

import pytest

from coinprint.playback.timelapse import TimelapseOptions, timelapse_from_record
from coinprint.render.board import SIDE_COLOURS, Frame
from coinprint.render.raster import hex_rgb
from tests.replaycheck import picture_width, positions, write_record

PIL = pytest.importorskip("PIL")
from PIL import Image, ImageSequence  # noqa: E402


def throw_faces(rules, path) -> list[list[int]]:
    """Per move, the side (player index) each thrown coin shows, from the record's notation
    (``throw Q- N+ …``: ``+`` matched the mover's side), the mover as the engine says."""
    import json

    doc = json.loads(path.read_text(encoding="utf-8"))
    state = rules.initial_state()
    faces = []
    for text in doc["moves"]:
        mover = rules.players.index(rules.to_move(state))
        tokens = text.split(";")[0].split()
        assert tokens[0] == "throw"
        faces.append([mover if token.endswith("+") else 1 - mover for token in tokens[1:]])
        rules.apply(state, rules.parse_move(state, text))
    return faces


def column_coins(frame: Image.Image, left: int, right: int) -> list[int]:
    """The coins seen top down along a line through the column right of the card, clear of
    their letters: the player index of each run of a side's colour."""
    colours = {hex_rgb(c): i for i, c in enumerate(SIDE_COLOURS[:2])}
    x = left + round((right - left) * 0.65)
    seen: list[int] = []
    run: tuple[int, int] | None = None  # (side, length)
    for y in range(frame.size[1]):
        side = colours.get(frame.getpixel((x, y)))
        if side is not None and run is not None and run[0] == side:
            run = (side, run[1] + 1)
            continue
        if run is not None and run[1] >= 4:
            seen.append(run[0])
        run = (side, 1) if side is not None else None
    if run is not None and run[1] >= 4:
        seen.append(run[0])
    return seen


@pytest.mark.parametrize("seed", [2, 5])
def test_each_frame_shows_the_turns_throw_beside_the_card(tmp_path, seed):
    path = write_record(tmp_path, "coinage", seed=seed, max_turns=40)
    rules, states = positions(path)
    lapse = timelapse_from_record(str(path), TimelapseOptions("gif", width=720))
    target = tmp_path / "game.gif"
    target.write_bytes(lapse.data)
    scale = lapse.size[0] / picture_width(path)
    card_right = round(Frame(rules.layout).width * scale)
    assert lapse.size[0] - card_right > 60, "no room beside the card"
    expected = throw_faces(rules, path)
    with Image.open(target) as image:
        frames = [frame.convert("RGB") for frame in ImageSequence.Iterator(image)]
    assert len(frames) == len(states)
    assert column_coins(frames[0], card_right, lapse.size[0]) == []  # the start: no throw yet
    for number, faces in enumerate(expected, start=1):
        assert column_coins(frames[number], card_right, lapse.size[0]) == faces, f"move {number}"
    assert any(len(set(faces)) == 2 for faces in expected), "no throw mixed both faces"

"""Time-lapses, decoded back (Pillow, PyAV): frames, delays, loop and size; the coins of the
last frame where the engine puts them in their face's colour; the Map drawn one country a
frame; an MP4 that decodes start to end; the same bytes run to run; errors in one line."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from coinprint.playback.timelapse import BACKGROUND, CAPTION_BAD, TimelapseOptions, timelapse_from_record
from coinprint.registry import GAMES
from coinprint.render.board import SIDE_COLOURS, Frame, label_point
from coinprint.render.raster import hex_rgb
from tests.replaycheck import board_height, picture_width, positions, view_of, write_record

PIL = pytest.importorskip("PIL")
from PIL import Image, ImageSequence  # noqa: E402

FLICK_EVENTS = [
    {"shot": "heads", "coin": "h1"},
    {"enter": "h1", "edge": "heads"},
    {"stop": True},
    {"shot": "tails", "coin": "t1"},
    {"goal-coin-moved": 2},
]


def record_of(game: str, folder: Path, seed: int = 2, max_turns: int = 60) -> Path:
    """A record of ``game``: self-played when agents can play it, else a short event log."""
    if game in GAMES.simulated():
        return write_record(folder, GAMES[game].default_spec, seed=seed, max_turns=max_turns)
    if game == "flick":
        path = folder / "flick-log.json"
        doc = {"format": "coinprint-record/1", "game": "flick", "layout": "flick", "players": {}, "moves": FLICK_EVENTS}
        path.write_text(json.dumps(doc), encoding="utf-8")
        return path
    pytest.skip(f"no record of {game} to replay")


def frames_of(path: Path) -> list[Image.Image]:
    with Image.open(path) as image:
        return [frame.convert("RGB") for frame in ImageSequence.Iterator(image)]


def setup_frames(rules) -> int:
    """The Map (every space drawn in an order) is drawn one country a frame first."""
    spaces = rules.layout.spaces
    return len(spaces) if spaces and all(s.order is not None for s in spaces) else 0


def to_pixel(rules, lapse, point: tuple[float, float], width_mm: float | None = None) -> tuple[int, int]:
    """A layout point (mm) in the time-lapse's pixels: the picture (``width_mm`` wide, the
    board's width by default) is drawn width-wide, y down."""
    frame = Frame(rules.layout)
    x, y = frame.point(*point)
    scale = lapse.size[0] / (width_mm or frame.width)
    return int(x * scale), int((board_height(rules) - y) * scale)


def coin_spots(rules, lapse, space, width_mm: float | None = None) -> list[tuple[int, int]]:
    """Points on a coin's face clear of its letter: left and right of its centre by a
    quarter of the space's inradius."""
    import shapely

    x, y = label_point(space)
    inner = float(space.polygon.exterior.distance(shapely.Point(x, y)))
    d = 0.25 * min(inner, 20.0)
    return [to_pixel(rules, lapse, (x - d, y), width_mm), to_pixel(rules, lapse, (x + d, y), width_mm)]


@pytest.mark.parametrize("game", GAMES.names())
def test_every_game_decodes_with_its_frames_delays_loop_and_size(tmp_path, game):
    path = record_of(game, tmp_path)
    rules, states = positions(path)
    options = TimelapseOptions("gif", width=400, fps=4, hold=2.5, loop=0)
    lapse = timelapse_from_record(str(path), options)
    target = tmp_path / "game.gif"
    target.write_bytes(lapse.data)
    sliding = sliding_frames(path)  # Flick's coins sliding in each shot, a picture every 40 ms
    with Image.open(target) as image:
        # the start, then a frame a move (and the shots under way)
        assert image.n_frames == setup_frames(rules) + len(states) + sum(sliding)
        assert image.size == lapse.size and image.size[0] == 400 and image.size[1] % 2 == 0
        assert image.info["loop"] == 0
        durations = []
        for frame in ImageSequence.Iterator(image):
            durations.append(frame.info["duration"])
    expected = [250] * setup_frames(rules) + [250]
    for frames in sliding:
        expected += [40] * frames + [250]
    assert durations == expected[:-1] + [2500]
    assert (game == "flick") == (sum(sliding) > 0)

    last = frames_of(target)[-1]
    layout_ids = {s.id for s in rules.layout.spaces}
    checked = 0
    for mark in view_of(rules).marks(states[-1]):
        if mark.side not in rules.players or mark.space not in layout_ids:
            continue  # a claim's letter, or a coin the mat places itself (Flick)
        colour = hex_rgb(SIDE_COLOURS[rules.players.index(mark.side)])
        for spot in coin_spots(rules, lapse, rules.layout.space(mark.space), picture_width(path)):
            assert last.getpixel(spot) == colour, f"{mark.space} at {spot}"
        checked += 1
    if game in GAMES.simulated() and game != "flick":  # Flick's coins lie where they stopped, not on spaces
        assert checked, "the last position shows no coin"


def sliding_frames(path) -> list[int]:
    """For each move of the record, how many pictures of it under way a time-lapse shows: a
    Flick shot with its parameters lasts as many 1 ms steps as the physics takes to bring every
    coin to rest, one picture every 40 of them; nothing else moves."""
    from coinprint.games.flick.physics import Shot, simulate

    record = json.loads(path.read_text())
    rules, states = positions(path)
    counts = []
    for state, move in zip(states, record["moves"]):
        aim = isinstance(move, dict) and "at" in move
        if not aim:
            counts.append(0)
            continue
        shot = Shot(move["coin"], *move["at"], move["direction"], move["speed"])
        counts.append(
            simulate(rules.shot_scene(state, rules.parse_move(state, move)), shot, move["shot"], rules.table).steps
            // 40
        )
    return counts


def test_the_map_is_drawn_one_country_a_frame(tmp_path):
    path = write_record(tmp_path, "mapgame:countries=9,seed=3", seed=1, max_turns=30)
    rules, states = positions(path)
    lapse = timelapse_from_record(str(path), TimelapseOptions("gif", width=360))
    target = tmp_path / "map.gif"
    target.write_bytes(lapse.data)
    frames = frames_of(target)
    countries = sorted(rules.layout.spaces, key=lambda s: s.order)
    assert lapse.setup == len(countries) and len(frames) == len(countries) + len(states)
    white = hex_rgb(BACKGROUND)
    for k, frame in enumerate(frames[: len(countries)], start=1):
        filled = [s.order for s in countries if frame.getpixel(to_pixel(rules, lapse, label_point(s))) != white]
        assert filled == [s.order for s in countries[:k]], f"frame {k}"


def test_an_mp4_decodes_start_to_end_with_its_duration(tmp_path):
    av = pytest.importorskip("av")
    path = write_record(tmp_path, "cointable:size=3", seed=4)
    rules, states = positions(path)
    options = TimelapseOptions("mp4", width=320, fps=5, hold=1.0)
    lapse = timelapse_from_record(str(path), options)
    target = tmp_path / "game.mp4"
    target.write_bytes(lapse.data)
    expected = len(states) - 1 + 5  # the last position held a second
    assert lapse.frames == expected
    with av.open(str(target)) as container:
        stream = container.streams.video[0]
        assert stream.codec_context.name == "h264" and stream.codec_context.pix_fmt == "yuv420p"
        decoded = [frame for frame in container.decode(stream)]
        assert len(decoded) == expected
        assert (decoded[0].width, decoded[0].height) == lapse.size
        duration = float(stream.duration * stream.time_base)
        assert math.isclose(duration, expected / 5, abs_tol=0.21)


def test_a_flick_mp4_shows_each_shot_under_way_at_25_frames_a_second(tmp_path):
    av = pytest.importorskip("av")
    path = write_record(tmp_path, "flick", seed=4)
    rules, states = positions(path)
    sliding = sliding_frames(path)
    assert sum(sliding) > 0
    options = TimelapseOptions("mp4", width=320, fps=5, hold=1.0)
    lapse = timelapse_from_record(str(path), options)
    target = tmp_path / "game.mp4"
    target.write_bytes(lapse.data)
    # every position 1/5 s (5 frames at 25 a second), each picture of a shot under way 1/25 s,
    # the last position held a second
    expected = 5 * (len(states) - 1) + sum(sliding) + 25
    assert lapse.frames == expected
    with av.open(str(target)) as container:
        stream = container.streams.video[0]
        assert len([frame for frame in container.decode(stream)]) == expected
        assert math.isclose(float(stream.duration * stream.time_base), expected / 25, abs_tol=0.05)


@pytest.mark.parametrize("fmt", ["gif", "webp", "mp4"])
def test_the_same_record_gives_the_same_bytes(tmp_path, fmt):
    if fmt == "mp4":
        pytest.importorskip("av", reason="MP4 needs PyAV (the video extra)")
    path = write_record(tmp_path, "cointable:size=3", seed=6)
    first = timelapse_from_record(str(path), TimelapseOptions(fmt, width=300)).data
    second = timelapse_from_record(str(path), TimelapseOptions(fmt, width=300)).data
    assert first == second


def test_webp_and_apng_decode_with_their_frames(tmp_path):
    path = write_record(tmp_path, "cointable:size=3", seed=3)
    _, states = positions(path)
    for fmt in ("webp", "apng"):
        lapse = timelapse_from_record(str(path), TimelapseOptions(fmt, width=240, loop=3))
        target = tmp_path / f"game.{fmt}"
        target.write_bytes(lapse.data)
        with Image.open(target) as image:
            assert image.n_frames == len(states) and image.size == lapse.size
            assert image.info.get("loop") == 3


def test_from_and_to_choose_the_moves(tmp_path, cli):
    path = write_record(tmp_path, "cointable:size=3", seed=5)
    out = tmp_path / "part.gif"
    result = cli("replay", str(path), "-o", str(out), "--from", "2", "--to", "5", "--width", "200")
    assert result.code == 0, result.err
    assert len(frames_of(out)) == 4  # the positions after moves 2, 3, 4 and 5


def test_an_invalid_record_plays_to_its_first_illegal_move_and_exits_1(tmp_path, cli):
    path = write_record(tmp_path, "cointable:size=3", seed=5)
    record = json.loads(path.read_text())
    record["moves"][4] = record["moves"][0]
    path.write_text(json.dumps(record))
    out = tmp_path / "bad.gif"
    result = cli("replay", str(path), "-o", str(out), "--width", "300")
    assert result.code == 1
    assert "move 5" in result.out
    frames = frames_of(out)
    assert len(frames) == 1 + 4 + 1  # the start, four moves, the illegal one
    strip = frames[-1].crop((0, frames[-1].height - 50, frames[-1].width, frames[-1].height))
    assert hex_rgb(CAPTION_BAD) in {colour for _, colour in strip.getcolors(100_000)}


@pytest.mark.parametrize(
    "args, words",
    [
        (["-o", "{tmp}/x.gif", "--width", "10"], "--width"),
        (["-o", "{tmp}/x.gif", "--fps", "0"], "--fps"),
        (["-o", "{tmp}/x.mp4", "--loop", "2"], "--loop"),
        (["-o", "{tmp}/x.mp4", "--width", "301"], "even"),
        (["-o", "{tmp}/x.gif", "--to", "999"], "--to"),
        (["-o", "{tmp}/x.gif", "--format", "webp"], "--format"),
        (["-o", "{tmp}/x.html", "--fps", "3"], "time-lapse"),
        (["-o", "{tmp}/x.txt"], ".gif"),
    ],
)
def test_bad_options_are_one_line_and_write_nothing(tmp_path, cli, args, words):
    path = write_record(tmp_path, "cointable:size=3", seed=1)
    result = cli("replay", str(path), *[a.format(tmp=tmp_path) for a in args])
    assert result.code == 2 and words in result.err and result.err.count("\n") == 1, result.err
    assert not list(tmp_path.glob("x.*")) and not list(tmp_path.glob(".x.*"))


def test_a_missing_library_names_the_extra(tmp_path, cli, monkeypatch):
    import importlib

    real = importlib.import_module

    def no_av(name, *args):
        if name == "av":
            raise ImportError("no av")
        return real(name, *args)

    monkeypatch.setattr(importlib, "import_module", no_av)
    path = write_record(tmp_path, "cointable:size=3", seed=1)
    result = cli("replay", str(path), "-o", str(tmp_path / "x.mp4"))
    assert result.code == 2 and 'pip install "coinprint[video]"' in result.err and result.err.count("\n") == 1


def test_play_writes_a_time_lapse_beside_each_record_and_its_page_offers_it(tmp_path, cli):
    folder = tmp_path / "games"
    args = ("--size", "3", "--games", "2", "--seed", "1", "--video", "gif", "--html", "-o", str(folder))
    result = cli("play", "cointable", *args)
    assert result.code == 0, result.err
    records = sorted(folder.glob("*.json"))
    assert len(records) == 2
    for record in records:
        gif = record.with_suffix(".gif")
        _, states = positions(record)
        assert len(frames_of(gif)) == len(states)
        page = record.with_suffix(".html").read_text(encoding="utf-8")
        assert f'<a href="{gif.name}" download>' in page


def test_the_raster_backend_fills_even_odd_with_exact_colours():
    from coinprint.render.raster import scene_to_image
    from coinprint.render.scene import Circle, Scene, Style, polygon
    from coinprint.render.scene import Path as ScenePath

    outer = ((0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0))
    hole = ((3.0, 3.0), (7.0, 3.0), (7.0, 7.0), (3.0, 7.0))
    scene = Scene(20.0, 10.0)
    scene.add(ScenePath((outer, hole), Style(fill="#336699", stroke=None)))
    scene.add(Circle((15.0, 5.0), 3.0, Style(fill="#c9a227", stroke="#222222", stroke_mm=0.4)))
    scene.add(polygon(((12.0, 9.0), (13.0, 9.0), (13.0, 9.5)), Style(fill=None, stroke="#000000")))
    image = scene_to_image(scene, 200)  # 10 px a mm, y up in the scene, down in the image
    assert image.size == (200, 100)
    assert image.getpixel((10, 90)) == (0x33, 0x66, 0x99)  # in the ring
    assert image.getpixel((50, 50)) == (255, 255, 255)  # in the hole
    assert image.getpixel((150, 50)) == (0xC9, 0xA2, 0x27)  # the coin's face
    edge = image.getpixel((180, 50))  # the coin's outline, antialiased toward its ink
    assert all(v < 200 for v in edge)


@pytest.mark.slow
def test_many_games_decode_with_their_coins_in_place(tmp_path):
    from hypothesis import given, settings
    from hypothesis import strategies as st

    @settings(max_examples=25, deadline=None)
    @given(seed=st.integers(0, 10_000), width=st.integers(160, 640))
    def check(seed, width):
        folder = tmp_path / f"{seed}-{width}"
        folder.mkdir(exist_ok=True)
        path = write_record(folder, "cointable:size=3", seed=seed, max_turns=80)
        rules, states = positions(path)
        lapse = timelapse_from_record(str(path), TimelapseOptions("gif", width=width))
        target = folder / "game.gif"
        target.write_bytes(lapse.data)
        frames = frames_of(target)
        assert len(frames) == len(states) and frames[-1].size == (width, lapse.size[1])
        for mark in view_of(rules).marks(states[-1]):
            colour = hex_rgb(SIDE_COLOURS[rules.players.index(mark.side)])
            for spot in coin_spots(rules, lapse, rules.layout.space(mark.space)):
                assert frames[-1].getpixel(spot) == colour

    check()


def test_a_browser_plays_the_mp4_to_its_end_and_shows_the_gif(tmp_path):
    """Where these files are shared, a browser opens them: headless Chromium plays the MP4
    through a video element to its end, and decodes the GIF at its size."""
    from tests import browser

    if browser.missing() is not None:
        pytest.skip(str(browser.missing()))
    from selenium.webdriver.support.ui import WebDriverWait

    path = write_record(tmp_path, "cointable:size=3", seed=4)
    sizes = {}
    for fmt in ("mp4", "gif"):
        lapse = timelapse_from_record(str(path), TimelapseOptions(fmt, width=320, fps=10, hold=0.5))
        (tmp_path / f"game.{fmt}").write_bytes(lapse.data)
        sizes[fmt] = list(lapse.size)
    page = tmp_path / "page.html"
    page.write_text(
        '<video id="v" src="game.mp4" muted playsinline></video><img id="g" src="game.gif">', encoding="utf-8"
    )
    with browser.chromium() as driver:
        driver.get(page.as_uri())
        wait = WebDriverWait(driver, 120)
        wait.until(lambda d: d.execute_script("return document.getElementById('v').readyState >= 1"))
        assert driver.execute_script("return document.getElementById('v').error") is None
        driver.execute_script("const v = document.getElementById('v'); v.playbackRate = 8; v.play();")
        wait.until(lambda d: d.execute_script("return document.getElementById('v').ended"))
        width, height, duration = driver.execute_script(
            "const v = document.getElementById('v'); return [v.videoWidth, v.videoHeight, v.duration];"
        )
        assert [width, height] == sizes["mp4"] and duration > 0
        gif = driver.execute_script("const g = document.getElementById('g'); return [g.naturalWidth, g.naturalHeight];")
        assert gif == sizes["gif"]


@pytest.mark.parametrize("fmt", ["gif", "mp4"])
def test_frames_are_drawn_as_the_encoder_takes_them_not_all_kept(tmp_path, fmt, monkeypatch):
    """A GIF or MP4 holds a frame or two at a time, whatever the game's length (a 600-move
    record once took 1.5 GB)."""
    if fmt == "mp4":
        pytest.importorskip("av")
    import weakref

    from coinprint.playback import timelapse

    drawn: list[weakref.ref] = []
    most_alive = 0
    plain_draw = timelapse.Painter.draw

    def counting_draw(self, shot):
        nonlocal most_alive
        image = plain_draw(self, shot)
        drawn.append(weakref.ref(image))
        most_alive = max(most_alive, sum(ref() is not None for ref in drawn))
        return image

    monkeypatch.setattr(timelapse.Painter, "draw", counting_draw)
    path = write_record(tmp_path, "cointable:size=3", seed=5)
    lapse = timelapse_from_record(str(path), TimelapseOptions(fmt, width=200))
    assert len(drawn) >= 15 and lapse.frames >= len(drawn)
    assert most_alive <= 3, f"{most_alive} of {len(drawn)} frames were alive at once"


def test_a_time_lapse_over_the_frame_cap_is_refused_before_any_frame_is_drawn(tmp_path, cli, monkeypatch):
    from coinprint.playback import timelapse

    path = write_record(tmp_path, "cointable:size=3", seed=5)
    moves = len(json.loads(path.read_text())["moves"])
    monkeypatch.setattr(timelapse, "MAX_TIMELAPSE_FRAMES", moves)  # the start and every move: one over
    monkeypatch.setattr(timelapse.Painter, "draw", lambda self, shot: pytest.fail("a frame was drawn"))
    result = cli("replay", str(path), "-o", str(tmp_path / "x.gif"))
    assert result.code == 2 and result.err.count("\n") == 1, result.err
    assert f"{moves + 1:,} frames, over the {moves:,}-frame cap" in result.err and "--from" in result.err
    assert not list(tmp_path.glob("x.*")) and not list(tmp_path.glob(".x.*"))
    monkeypatch.undo()
    monkeypatch.setattr(timelapse, "MAX_TIMELAPSE_FRAMES", moves + 1)
    assert cli("replay", str(path), "-o", str(tmp_path / "x.gif"), "--width", "200").code == 0


def test_a_webp_held_in_memory_is_capped_by_its_pixels(tmp_path, cli, monkeypatch):
    from coinprint.playback import timelapse

    path = write_record(tmp_path, "cointable:size=3", seed=5)
    monkeypatch.setattr(timelapse, "MAX_HELD_TIMELAPSE_PIXELS", 200 * 200)
    monkeypatch.setattr(timelapse.Painter, "draw", lambda self, shot: pytest.fail("a frame was drawn"))
    result = cli("replay", str(path), "-o", str(tmp_path / "x.webp"), "--width", "200")
    assert result.code == 2 and "megapixel cap" in result.err and "GIF or MP4" in result.err, result.err
    assert not list(tmp_path.glob("x.*"))

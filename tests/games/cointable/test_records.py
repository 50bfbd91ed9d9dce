"""Coin Table records: hand-made games with hand-counted results, edited records that must
fail at the edited move with a reason, `validate game` (--show, --svg), and `play cointable`
whose every record re-validates."""

from __future__ import annotations

import json
import random
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coinprint.analysis import builtin_layout, validate_record
from coinprint.caps import MAX_SUPPLY
from coinprint.cli import main
from coinprint.games.cointable.rules import CoinTableRules
from coinprint.selfplay import RunPlan

# Size 2 board (7 cells; b2 touches all the others):
#       b3  c3
#     a2  b2  c2
#       a1  b1
FULL_BOARD = [
    "place b2",  # 1 heads
    "place a1",  # 2 tails
    "place b1",  # 3 heads
    "place c2",  # 4 tails
    "place a2",  # 5 heads
    "touch b2",  # 6 tails: b2 is safe, which does not help a1
    "flip a1",  # 7 heads: a1 has b1, a2, b2 (heads) next to it and is not safe
    "place c3",  # 8 tails
    "castle b2 a1 b1",  # 9 heads: a1 b1 b2 all heads, mutually adjacent
    "place b3",  # 10 tails: the 7th cell is filled, the game ends
]
# By hand: heads a1 b1 a2 b2 = 4, tails c2 c3 b3 = 3; supply 100 - 7 places - 1 castle = 92.
FULL_BOARD_RESULT = {"winner": "heads", "score": {"heads": 4, "tails": 3}, "reason": "board full"}

# Standard board, a supply of 6 coins.
SUPPLY_RUNS_OUT = [
    "place e5",  # 1 heads (supply 5)
    "place d4",  # 2 tails (4)
    "place d5",  # 3 heads (3)
    "touch e5",  # 4 tails
    "flip d4",  # 5 heads: d5 and e5 are next to d4; e5, not d4, is safe
    "place e4",  # 6 tails (2)
    "place c4",  # 7 heads (1)
    "place f5",  # 8 tails (0): the supply is empty, the game ends
]
# By hand: heads e5 d5 d4 c4 = 4, tails e4 f5 = 2.
SUPPLY_RESULT = {"winner": "heads", "score": {"heads": 4, "tails": 2}, "reason": "supply empty"}


def record(moves, layout="cointable:size=2", options=None, result=None, **extra) -> dict:
    doc = {
        "format": "coinprint-record/1",
        "game": "cointable",
        "layout": layout,
        "options": options if options is not None else {"supply": 100},
        "players": {"heads": "Ada", "tails": "Bo"},
        "moves": list(moves),
    }
    if result is not None:
        doc["result"] = result
    doc.update(extra)
    return doc


def write(tmp_path: Path, doc: dict, name: str = "game.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(doc, indent=2), encoding="utf-8")
    return str(path)


def run(capsys, *args: str) -> tuple[int, str, str]:
    """Run the command line; (exit code, stdout, stderr)."""
    with pytest.raises(SystemExit) as exited:
        main(list(args))
    out = capsys.readouterr()
    return exited.value.code, out.out, out.err


# -- hand-made records --------------------------------------------------------------------------------
def test_full_board_game_gives_the_hand_counted_result(tmp_path):
    _, rules, replayed = validate_record(write(tmp_path, record(FULL_BOARD, result=FULL_BOARD_RESULT)))
    assert replayed.valid, replayed.report()
    assert replayed.result.to_json() == FULL_BOARD_RESULT
    assert replayed.state.supply == 92
    assert replayed.moves_played == 10


def test_supply_game_gives_the_hand_counted_result(tmp_path):
    doc = record(SUPPLY_RUNS_OUT, layout="cointable:size=5", options={"supply": 6}, result=SUPPLY_RESULT)
    _, _, replayed = validate_record(write(tmp_path, doc))
    assert replayed.valid, replayed.report()
    assert replayed.result.to_json() == SUPPLY_RESULT


def test_a_tie(tmp_path):
    # Four coins, two each, nobody flips: 2 - 2, a tie when the supply runs out.
    doc = record(
        ["place a1", "place i9", "place b1", "place h9"],
        layout="cointable:size=5",
        options={"supply": 4},
        result={"winner": None, "score": {"heads": 2, "tails": 2}},
    )
    _, _, replayed = validate_record(write(tmp_path, doc))
    assert replayed.valid and replayed.result.winner is None and replayed.result.reason == "supply empty"


def test_a_record_that_stops_early_is_valid_and_unfinished(tmp_path, capsys):
    path = write(tmp_path, record(FULL_BOARD[:5]))
    code, out, _ = run(capsys, "validate", "game", path)
    assert code == 0
    # After move 5: heads b2 b1 a2, tails a1 c2.
    assert "valid: 5 moves; unfinished; score so far: heads 3, tails 2" in out


def test_a_claimed_result_that_disagrees_fails(tmp_path, capsys):
    wrong = {"winner": "tails", "score": {"heads": 3, "tails": 4}, "reason": "board full"}
    code, out, _ = run(capsys, "validate", "game", write(tmp_path, record(FULL_BOARD, result=wrong)))
    assert code == 1
    assert "result: the record claims winner 'tails', the moves give 'heads'" in out


def test_the_example_in_the_design_notes_is_caught_at_move_4(tmp_path, capsys):
    moves = ["place e5", "place d4", "touch e5", "flip d4", "castle d4 e4 e5"]
    code, out, _ = run(capsys, "validate", "game", write(tmp_path, record(moves, layout="cointable:size=5")))
    assert code == 1
    assert "move 4 (tails): flip d4 — d4 already shows your face (tails)" in out


# -- edited records fail at the edited move with the reason --------------------------------------------
def edited(moves: list[str], number: int, text: str | None) -> list[str]:
    """``moves`` with move ``number`` (1-based) replaced by ``text`` (or appended if past the end)."""
    changed = list(moves)
    if number > len(changed):
        changed.append(text)
    else:
        changed[number - 1] = text
    return changed


@pytest.mark.parametrize(
    "base, number, text, message",
    [
        # flip with one neighbour: without d5, only e5 touches d4.
        ("supply", 3, "place a1", "move 5 (heads): flip d4 — only 1 of your coins touches d4; a flip needs 2"),
        # flip a safe coin: tails touched d4 on the move before.
        ("supply", 4, "touch d4", "move 5 (heads): flip d4 — d4 is safe: it was touched on the previous turn"),
        # flip a castled coin.
        (
            "full",
            10,
            "flip b1",
            "move 10 (tails): flip b1 — b1 is part of the castle on a1 b1 b2: castled coins never flip",
        ),
        # castle on a non-triangle.
        (
            "full",
            9,
            "castle a1 b1 a2",
            "move 9 (heads): castle a1 b1 a2 — a1 b1 a2 is not a triangle: b1 and a2 do not touch",
        ),
        # place on an occupied space.
        ("full", 10, "place a2", "move 10 (tails): place a2 — a2 already holds a coin (heads up)"),
        # a move after the end (board full / supply empty).
        ("full", 11, "touch a1", "move 11 (heads): touch a1 — the game is already over (board full)"),
        ("supply", 9, "place a1", "move 9 (heads): place a1 — the game is already over (supply empty)"),
        # malformed moves.
        ("full", 3, "place z9", "move 3 (heads): place z9 — there is no cell 'z9' on this board (cells a1 to c3)"),
        ("full", 3, "jump b1", "move 3 (heads): jump b1 — unknown move 'jump'; use place, touch, flip or castle"),
    ],
)
def test_an_edited_record_fails_at_that_move_with_the_reason(tmp_path, capsys, base, number, text, message):
    if base == "full":
        doc = record(edited(FULL_BOARD, number, text))
    else:
        doc = record(edited(SUPPLY_RUNS_OUT, number, text), layout="cointable:size=5", options={"supply": 6})
    code, out, err = run(capsys, "validate", "game", write(tmp_path, doc))
    assert code == 1, out + err
    assert message in out


def test_castle_twice_on_one_triangle_fails(tmp_path, capsys):
    moves = FULL_BOARD[:9] + ["touch c3", "castle a1 b2 b1"]
    code, out, _ = run(capsys, "validate", "game", write(tmp_path, record(moves)))
    assert code == 1
    assert (
        "move 11 (heads): castle a1 b2 b1 — there is already a castle on a1 b1 b2; a triangle holds one castle" in out
    )


@pytest.mark.parametrize(
    "doc, message",
    [
        (
            {"format": "coinprint-record/1", "game": "cointable", "layout": "cointable:size=99", "moves": []},
            "cointable size 99 is out of range; use 2 to 13",
        ),
        (
            {
                "format": "coinprint-record/1",
                "game": "cointable",
                "layout": "cointable:size=2",
                "options": {"supply": -1},
                "moves": [],
            },
            "supply must be",
        ),
    ],
)
def test_unusable_records_exit_2_with_one_line(tmp_path, capsys, doc, message):
    code, _, err = run(capsys, "validate", "game", write(tmp_path, doc))
    assert code == 2
    assert message in err and len(err.strip().splitlines()) == 1


# -- layouts named in records ----------------------------------------------------------------------------
def test_a_record_on_a_geojson_board_file_and_an_inline_board(tmp_path):
    layout = builtin_layout("cointable:size=2")
    (tmp_path / "boards").mkdir()
    (tmp_path / "boards" / "small.geojson").write_text(layout.dumps(), encoding="utf-8")
    for doc in (
        record(FULL_BOARD, layout="boards/small.geojson", result=FULL_BOARD_RESULT),
        record(FULL_BOARD, layout=layout.to_geojson(), result=FULL_BOARD_RESULT),
    ):
        _, _, replayed = validate_record(write(tmp_path, doc))
        assert replayed.valid, replayed.report()


# -- --show and --svg ---------------------------------------------------------------------------------
def test_validate_show_prints_the_final_position(tmp_path, capsys):
    code, out, _ = run(capsys, "validate", "game", write(tmp_path, record(FULL_BOARD)), "--show")
    assert code == 0
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("game over"))
    assert lines[start] == "game over (board full); heads 4, tails 3; supply 92; castles 1"
    # Row 3: b3 c3 (tails); row 2: a2 b2 c2 (b2 castled); row 1: a1 b1 (both castled).
    assert [line.split() for line in lines[start + 1 : start + 4]] == [
        ["b3", "(T)", "T"],
        ["a2", "H", "[H]", "T"],
        ["a1", "[H]", "[H]"],
    ]


def test_validate_show_on_an_illegal_move_shows_the_position_before_it(tmp_path, capsys):
    doc = record(edited(FULL_BOARD, 6, "touch a1"))
    code, out, _ = run(capsys, "validate", "game", write(tmp_path, doc), "--show")
    assert code == 1
    lines = out.splitlines()
    assert "move 7 (heads): flip a1 — a1 is safe: it was touched on the previous turn" in lines[0]
    # After six moves: heads b2 b1 a2, tails a1 (touched, so safe) and c2; heads to move.
    assert lines[1] == "heads to move; heads 3, tails 2; supply 95; castles 0"
    assert [line.split() for line in lines[2:5]] == [["b3", ".", "."], ["a2", "H", "H", "T"], ["a1", "(T)", "H"]]


def coin_circles(svg_path: Path) -> list[ET.Element]:
    from coinprint.render.board import SIDE_COLOURS

    circles = [e for e in ET.parse(svg_path).iter() if e.tag.rsplit("}", 1)[-1] == "circle"]
    return [c for c in circles if c.get("fill") in SIDE_COLOURS]


def test_validate_svg_draws_one_coin_per_occupied_cell(tmp_path, capsys):
    target = tmp_path / "final.svg"
    code, out, _ = run(capsys, "validate", "game", write(tmp_path, record(FULL_BOARD)), "--svg", str(target))
    assert code == 0 and target.exists()
    coins = coin_circles(target)
    assert len(coins) == 7  # the board is full
    from coinprint.render.board import SIDE_COLOURS

    fills = [c.get("fill") for c in coins]
    assert fills.count(SIDE_COLOURS[0]) == 4 and fills.count(SIDE_COLOURS[1]) == 3
    # Castled coins (a1 b1 b2) carry a ring: an unfilled circle centred on the coin.
    rings = [e for e in ET.parse(target).iter() if e.tag.endswith("circle") and e.get("fill") == "none"]
    ring_centres = {(r.get("cx"), r.get("cy")) for r in rings}
    assert sum((c.get("cx"), c.get("cy")) in ring_centres for c in coins) >= 3


def test_validate_svg_of_a_partly_played_game(tmp_path, capsys):
    target = tmp_path / "early.svg"
    doc = record(SUPPLY_RUNS_OUT[:5], layout="cointable:size=5", options={"supply": 6})
    code, _, _ = run(capsys, "validate", "game", write(tmp_path, doc), "--svg", str(target))
    assert code == 0
    assert len(coin_circles(target)) == 3  # e5 d5 d4 (d4 flipped to heads)


# -- play cointable -----------------------------------------------------------------------------------
def test_play_writes_records_that_all_validate(tmp_path, capsys):
    folder = tmp_path / "games"
    code, out, _ = run(capsys, "play", "cointable", "--games", "6", "--seed", "1", "--size", "3", "-o", str(folder))
    assert code == 0
    assert "seed 1" in out and "6 games: wins heads" in out
    paths = sorted(folder.glob("cointable-*.json"))
    assert [p.name for p in sorted(paths, key=lambda p: int(re.search(r"(\d+)", p.name).group(1)))] == [
        f"cointable-{s}.json" for s in range(1, 7)
    ]
    wins = {"heads": 0, "tails": 0, None: 0}
    for path in paths:
        rec, _, replayed = validate_record(str(path))
        assert replayed.valid, replayed.report()
        assert rec.result == replayed.result.to_json()
        wins[replayed.result.winner] += 1
    assert f"wins heads {wins['heads']}, tails {wins['tails']}; ties {wins[None]}; timeouts 0" in out


def test_play_is_deterministic_for_a_seed(tmp_path, capsys):
    for name in ("a", "b"):
        run(capsys, "play", "cointable", "--games", "2", "--seed", "7", "--size", "2", "-o", str(tmp_path / name))
    for path in (tmp_path / "a").iterdir():
        assert path.read_bytes() == (tmp_path / "b" / path.name).read_bytes()


def test_play_with_every_agent_and_a_small_supply(tmp_path, capsys):
    code, out, _ = run(
        capsys,
        "play",
        "cointable",
        "--size",
        "2",
        "--heads",
        "greedy",
        "--tails",
        "montecarlo",
        "--games",
        "2",
        "--supply",
        "5",
        "-o",
        str(tmp_path),
    )
    assert code == 0 and "2 games" in out
    for path in tmp_path.glob("*.json"):
        rec, _, replayed = validate_record(str(path))
        assert (
            replayed.valid
            and rec.options == {"supply": 5}
            and rec.players == {"heads": "greedy", "tails": "montecarlo"}
        )
        assert replayed.result.reason in ("board full", "supply empty")


def test_a_game_cut_at_the_turn_limit_is_a_timeout(tmp_path, capsys):
    code, out, _ = run(capsys, "play", "cointable", "--games", "3", "--max-turns", "4", "-o", str(tmp_path))
    assert code == 0 and "ties 0; timeouts 3" in out and "wins heads 0, tails 0" in out
    for path in tmp_path.glob("*.json"):
        doc = json.loads(path.read_text())
        assert doc["timeout"] is True and "result" not in doc and len(doc["moves"]) == 4
        _, _, replayed = validate_record(str(path))
        assert replayed.valid and not replayed.result.finished


@pytest.mark.parametrize(
    "args, message",
    [
        (["--heads", "clever"], "--heads: unknown agent 'clever'"),
        (["--games", "0"], "--games must be a whole number from 1 to"),
        (["--supply", "0"], f"--supply must be a whole number from 1 to {MAX_SUPPLY:,}, not 0"),
        (["--size", "1"], "--size 1 is out of range; use 2 to 13"),
    ],
)
def test_play_refuses_bad_options_in_one_line(tmp_path, capsys, args, message):
    code, _, err = run(capsys, "play", "cointable", *args, "-o", str(tmp_path / "x"))
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1


# -- every self-played record re-validates, and any edit to an illegal move is caught -----------------
def illegal_replacement(rules: CoinTableRules, state, rng: random.Random) -> str | None:
    """A move text that is well formed but illegal in ``state`` (None if there is none)."""
    legal = {rules.move_text(state, m) for m in rules.legal_moves(state)}
    candidates = [f"{verb} {name}" for verb in ("place", "touch", "flip") for name in rules.names]
    candidates += ["castle " + " ".join(rules.names[i] for i in tri) for tri in rules.triangles]
    illegal = sorted(set(candidates) - legal)
    return rng.choice(illegal) if illegal else None


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10**6), size=st.sampled_from([2, 3, 5]), supply=st.sampled_from([8, 30, 100]))
def test_self_played_records_revalidate_and_edits_fail_at_the_edit(tmp_path_factory, seed, size, supply):
    from coinprint.analysis import play_to_folder

    folder = tmp_path_factory.mktemp("games")
    paths, summary = play_to_folder(
        f"cointable:size={size}",
        {"heads": "random", "tails": "random"},
        RunPlan(2, seed, 5000),
        str(folder),
        {"supply": supply},
    )
    assert summary.timeouts == 0
    rng = random.Random(seed)
    for path in paths:
        rec, rules, replayed = validate_record(str(path))
        assert replayed.valid, replayed.report()
        # Replace one move with an illegal one: validation stops exactly there.
        number = rng.randrange(1, len(rec.moves) + 1)
        state = rules.initial_state()
        for text in rec.moves[: number - 1]:
            rules.apply(state, rules.parse_move(state, text))
        text = illegal_replacement(rules, state, rng)
        if text is None:
            continue
        doc = json.loads(Path(path).read_text())
        doc["moves"][number - 1] = text
        bad = write(folder, doc, "edited.json")
        _, _, broken = validate_record(bad)
        assert not broken.valid
        assert broken.error.startswith(f"move {number} ({rules.to_move(state)}): {text} — ")
        assert broken.moves_played == number - 1


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    size=st.sampled_from([2, 3, 4, 5, 6]),
    supply=st.integers(1, 150),
    agents=st.sampled_from([("random", "random"), ("greedy", "random"), ("random", "greedy"), ("greedy", "greedy")]),
)
def test_many_self_played_records_revalidate(tmp_path_factory, seed, size, supply, agents):
    from coinprint.analysis import play_to_folder

    folder = tmp_path_factory.mktemp("many")
    paths, summary = play_to_folder(
        f"cointable:size={size}",
        dict(zip(("heads", "tails"), agents)),
        RunPlan(3, seed, 5000),
        str(folder),
        {"supply": supply},
    )
    for path in paths:
        rec, _, replayed = validate_record(str(path))
        assert replayed.valid, replayed.report()
        if rec.result is None:
            assert rec.extra.get("timeout") is True
        else:
            assert rec.result == replayed.result.to_json()

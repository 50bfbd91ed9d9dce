"""``coinprint analyse`` and the fair-map options of ``board``: outputs, rankings, errors."""

import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from coinprint.families import family_specs, unfairness
from coinprint.metrics import analyse_layout
from coinprint.registry import GAMES
from coinprint.selfplay import RunPlan

ROOT = Path(__file__).resolve().parent.parent


def test_analyse_writes_the_table_the_json_and_every_report_format(cli, tmp_path):
    args = ["analyse", "cointable", "--layout", "cointable:size=2", "--games", "12", "--seed", "3"]
    args += ["--max-turns", "300", "--skill-games", "0", "--json", str(tmp_path / "a.json")]
    result = cli(*args, "--report", str(tmp_path / "a.svg"))
    assert result.code == 0, result.err
    direct = analyse_layout("cointable:size=2", RunPlan(12, 3, 300))
    doc = json.loads((tmp_path / "a.json").read_text())
    assert doc["format"] == "coinprint-analysis/1" and doc["settings"]["games"] == 12
    (figures,) = doc["layouts"]
    assert figures["first_share"]["count"] == direct.first_share.count
    assert figures["length"]["mean"] == direct.length.mean and figures["lengths"] == list(direct.lengths)
    assert f"heads (first) won {direct.first_share.value:.0%}" in result.out
    assert (tmp_path / "a.svg").read_bytes().startswith(b"<svg")
    first_json = (tmp_path / "a.json").read_bytes()
    for suffix in ("html", "pdf"):
        assert cli(*args, "--report", str(tmp_path / f"a.{suffix}")).code == 0
    assert (tmp_path / "a.json").read_bytes() == first_json  # the same seed, the same figures
    assert cli(*args, "--report", str(tmp_path / "b.svg")).code == 0
    assert (tmp_path / "b.svg").read_bytes() == (tmp_path / "a.svg").read_bytes()
    page = (tmp_path / "a.html").read_text()
    assert "first) won" in page
    charts = re.findall(r"<svg.*?</svg>", page, flags=re.S)
    titles = [ET.fromstring(svg).find("{http://www.w3.org/2000/svg}title") for svg in charts]
    assert [t.text.split(":")[0] for t in titles] == [
        "How often the first player wins (share of decided games, 95% interval)",
        "How long games last",
        "Who holds each space at the end",
    ]
    # Titles name the layout in words, and the page gives each figure with its reading.
    assert titles[1].text == "How long games last: Coin Table (size 2)"
    assert "<h1>coinprint design report</h1>" in page and "<h3>What to look at</h3>" in page
    share = f"{direct.first_share.value:.0%} [{direct.first_share.low:.0%}, {direct.first_share.high:.0%}]"
    assert f"<td>first player&#x27;s share</td><td>{share}</td>" in page
    assert (tmp_path / "a.pdf").read_bytes().startswith(b"%PDF")


def test_analyse_maps_ranks_the_family_fairest_first(cli, tmp_path):
    args = ["analyse", "mapgame", "--layout", "mapgame:countries=9", "--maps", "3", "--map-seed", "4", "--seed", "1"]
    result = cli(*args, "--games", "16", "--max-turns", "300", "--json", str(tmp_path / "m.json"))
    assert result.code == 0, result.err
    ranked = [entry["layout"] for entry in json.loads((tmp_path / "m.json").read_text())["layouts"]]
    assert sorted(ranked) == family_specs(GAMES["mapgame"], 3, 4, "mapgame:countries=9")
    distances = [unfairness(analyse_layout(spec, RunPlan(16, 1, 300))) for spec in ranked]
    assert distances == sorted(distances)
    assert result.out.splitlines()[1].split()[1] == ranked[0]  # rank 1 is the first table row


def test_analyse_refuses_bad_input_in_one_line(cli, tmp_path):
    for args, hint in (
        (["--report", str(tmp_path / "r.png")], "--report"),
        (["--layout", "mapgame:countries=9"], "not cointable"),
        (["--games", "0"], "--games must be a whole number from 1"),
        (["--agent", "clever"], "unknown agent"),
    ):
        result = cli("analyse", "cointable", "--layout", "cointable:size=2", "--games", "2", *args)
        assert result.code == 2 and hint in result.err and len(result.err.strip().splitlines()) == 1, args
    assert not list(tmp_path.iterdir())


def test_analyse_and_fair_maps_refuse_work_over_the_caps_at_once(cli, tmp_path):
    from coinprint.caps import MAX_CANDIDATES, MAX_MAPS

    for args, hint in (
        (["analyse", "cointable", "--games", "100000000000"], "--games must be a whole number from 1 to 100,000"),
        (["analyse", "cointable", "--seed", "99999999999999999999999"], "--seed must be a whole number"),
        (["analyse", "mapgame", "--maps", "2", "--map-seed", "99999999999999999999999"], "--map-seed must be"),
        (["analyse", "mapgame", "--maps", "100000000"], f"--maps must be a whole number from 1 to {MAX_MAPS:,}"),
        (["analyse", "mapgame", "--maps", "3", "--map-seed", str(10**18)], "map_seed + maps - 1 must be"),
        (["analyse", "cointable", "--skill-games", "-1"], "--skill-games must be a whole number from 0"),
        (["analyse", "cointable", "--max-turns", "0"], "--max-turns must be a whole number from 1"),
        (["board", "mapgame", "--fair", "--candidates", str(10**12)], f"from 1 to {MAX_CANDIDATES}"),
        (["board", "coinage", "--map", "random", "--fair", "--candidates", str(10**12)], "--candidates must be"),
        (["board", "coinage", "--map", "random", "--fair", "--seed", str(10**18)], "seed + candidates - 1 must be"),
    ):
        result = cli(*args, "-o" if args[0] == "board" else "--json", str(tmp_path / "out.svg"))
        assert result.code == 2 and hint in result.err and len(result.err.strip().splitlines()) == 1, args
    assert not list(tmp_path.iterdir())


def test_analyse_json_to_stdout_is_the_json_alone(cli):
    args = ["analyse", "cointable", "--layout", "cointable:size=2", "--games", "4", "--skill-games", "0"]
    result = cli(*args, "--json", "-")
    assert result.code == 0, result.err
    doc = json.loads(result.out)  # nothing but the JSON on stdout
    assert doc["settings"]["games"] == 4
    assert "heads (first) won" in result.err and "wrote -" in result.err


def test_analyse_refuses_bad_output_targets_before_playing(cli, tmp_path, monkeypatch):
    import coinprint.families

    def no_games(*args, **kwargs):
        raise AssertionError("a game was played before the output targets were checked")

    monkeypatch.setattr(coinprint.families, "analyse_layout", no_games)
    (tmp_path / "folder.svg").mkdir()
    for args, hint in (
        (["--json", str(tmp_path)], "is a folder"),
        (["--report", str(tmp_path / "folder.svg")], "is a folder"),
        (["--report", str(tmp_path / "r.png")], "--report must end in .html, .pdf or .svg"),
    ):
        result = cli("analyse", "cointable", "--layout", "cointable:size=2", "--games", "2", *args)
        assert result.code == 2 and hint in result.err and len(result.err.strip().splitlines()) == 1, args


def test_library_messages_name_parameters_not_flags():
    from coinprint import selfplay
    from coinprint.errors import UsageError
    from coinprint.fair import fair_search, search_plan
    from coinprint.families import analyse_game

    for call, hint in (
        (lambda: analyse_layout("cointable:size=2", RunPlan(0, 1, 2000)), "games must be"),
        (lambda: analyse_game(GAMES["mapgame"], None, RunPlan(200, 1, 2000), maps=0), "maps must be"),
        (lambda: family_specs(GAMES["mapgame"], 0, 1), "count must be"),
        (lambda: fair_search("mapgame:countries=9,seed=1", 0, search_plan()), "candidates must be"),
        (lambda: selfplay.run(None, RunPlan(0, 1, 2000)), "games must be"),  # type: ignore[arg-type]
    ):
        with pytest.raises(UsageError) as refused:
            call()
        assert str(refused.value).startswith(hint), str(refused.value)


def test_analyse_help_stays_light():
    code = (
        "import sys; from coinprint.cli import main\n"
        "try:\n    main(['analyse', '--help'])\nexcept SystemExit as done:\n    assert done.code == 0\n"
        "heavy = {'shapely', 'reportlab', 'networkx', 'svgwrite', 'numpy'}\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in heavy))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0 and done.stdout.strip().splitlines()[-1] == "[]"


def _analysed_alone(cli, spec: str, max_turns: int, games: int = 60, seed: int = 1) -> dict:
    """One candidate analysed on its own through ``analyse --json -``, as the fair search plays
    it (``games`` random games from ``seed``)."""
    game = spec.split(":")[0]
    args = [
        "analyse",
        game,
        "--layout",
        spec,
        "--games",
        str(games),
        "--seed",
        str(seed),
        "--max-turns",
        str(max_turns),
    ]
    result = cli(*args, "--skill-games", "0", "--json", "-")
    assert result.code == 0, result.err
    (figures,) = json.loads(result.out)["layouts"]
    return figures


def _fairest_by_hand(figures: list[dict]) -> dict:
    """Closest to 50 % of decided games, then the narrower interval, then the first tried."""
    return _ranked_by_hand(figures)[0]


def _ranked_by_hand(figures: list[dict]) -> list[dict]:
    def distance(entry: dict) -> tuple[float, float]:
        share = entry["first_share"]
        return (abs(share["count"] / share["total"] - 0.5), share["high"] - share["low"])

    return sorted(figures, key=distance)


def _halved_by_hand(cli, specs: list[str], max_turns: int, games: int = 60) -> tuple[dict, int]:
    """Successive halving through ``analyse --json``: every spec plays ``games`` games, the
    fairer half (rounded up) plays as many again (seeds continuing), until one is left.
    Returns the winner's figures and how many seeds the search used."""
    alive, played = list(specs), games
    while True:
        figures = [_analysed_alone(cli, spec, max_turns, played) for spec in alive]
        ranked = _ranked_by_hand(figures)
        alive = [entry["layout"] for entry in ranked[: (len(alive) + 1) // 2]]
        if len(alive) == 1:
            return ranked[0], played
        played *= 2


def _card_note(svg: Path, printed: str) -> str:
    """The note ``printed`` (a line the command printed) as the card shows it: the card's text
    lines that are pieces of it (a long note is wrapped), top to bottom, joined again."""
    lines = [
        (float(node.get("y", "0")), (node.text or "").strip())
        for node in ET.parse(svg).iter("{http://www.w3.org/2000/svg}text")
    ]
    return " ".join(text for _, text in sorted(lines) if len(text) > 3 and text in printed)


def test_fair_map_is_the_fairest_candidate_and_says_so_on_the_card(cli, tmp_path):
    args = ["board", "mapgame", "--countries", "9", "--seed", "2", "--fair", "--candidates", "3", "--fair-games", "120"]
    result = cli(*args, "-o", str(tmp_path / "fair.svg"))
    assert result.code == 0, result.err
    # The candidates are seeds 2, 3 and 4 of the board's map (packed growth and starts apart
    # are its defaults); games are cut at 150 moves a country.
    specs = [f"mapgame:countries=9,growth=packed,starts=apart,arcs=forward,seed={s}" for s in (2, 3, 4)]
    best, used = _halved_by_hand(cli, specs, 150 * 9)
    assert used == 120  # 60 games each, then 60 more for the two fairer ones
    assert f"seed {best['layout'].rsplit('=', 1)[1]}: " in result.out
    # The printed figure is the winner re-measured on 120 fresh games: seeds 121 to 240.
    fresh = _analysed_alone(cli, best["layout"], 150 * 9, 120, seed=1 + used)
    share = fresh["first_share"]
    line = (
        f"re-measured by random self-play, 120 fresh games: first player won {share['count'] / share['total']:.1%} "
        f"of {share['total']} decided"
    )
    (printed,) = [text for text in result.out.splitlines() if text.startswith("fairest of 3 candidates")]
    assert line in printed and _card_note(tmp_path / "fair.svg", printed) == printed
    again = cli(*args, "-o", str(tmp_path / "again.svg"))
    assert again.code == 0 and (tmp_path / "again.svg").read_bytes() == (tmp_path / "fair.svg").read_bytes()


def test_fair_coin_age_maps_must_be_random(cli, tmp_path):
    result = cli("board", "coinage", "--map", "classic", "--fair", "-o", str(tmp_path / "c.svg"))
    assert result.code == 2 and "--fair needs --map random" in result.err


@pytest.mark.slow
def test_fair_coin_age_card_is_the_fairest_random_card(cli, tmp_path):
    args = ["board", "coinage", "--map", "random", "--seed", "4", "--fair", "--candidates", "2", "--fair-games", "40"]
    result = cli(*args, "-o", str(tmp_path / "card.svg"))
    assert result.code == 0, result.err
    from coinprint.analysis import resolve_layout

    specs = [f"coinage:map=random,regions=4-3-2-1,seed={s}" for s in (4, 5)]
    best, used = _halved_by_hand(cli, specs, max(400, 150 * len(resolve_layout(specs[0]).spaces)))
    assert f"seed {best['layout'].rsplit('=', 1)[1]}" in result.out
    fresh = _analysed_alone(cli, best["layout"], best["max_turns"], 40, seed=1 + used)
    share = fresh["first_share"]
    (printed,) = [text for text in result.out.splitlines() if text.startswith("fairest of 2 candidates")]
    assert f"first player won {share['count'] / share['total']:.1%} of {share['total']} decided" in printed
    assert _card_note(tmp_path / "card.svg", printed) == printed


def test_analyse_a_drawn_card_and_refuse_an_invalid_one(cli, tmp_path):
    from tests.drawings import read_layout_file

    example = ROOT / "examples" / "coinage-card.svg"
    args = ["analyse", "coinage", "--layout", str(example), "--games", "6", "--skill-games", "0"]
    result = cli(*args, "--json", str(tmp_path / "d.json"), "--report", str(tmp_path / "d.svg"))
    assert result.code == 0, result.err
    (figures,) = json.loads((tmp_path / "d.json").read_text())["layouts"]
    drawn = read_layout_file(example, game="coinage").layout
    assert figures["spaces"] == [s.id for s in drawn.spaces] and set(figures["held"]) == set(figures["spaces"])
    assert figures["games"] == 6 and (tmp_path / "d.svg").read_bytes().startswith(b"<svg")
    mistakes = ROOT / "examples" / "coinage-card-mistakes.svg"
    refused = cli("analyse", "coinage", "--layout", str(mistakes), "--games", "2", "--skill-games", "0")
    assert refused.code == 1 and "is not a valid coinage layout" in refused.err


def test_fairest_map_is_one_function_for_every_generated_game():
    from coinprint.analysis import resolve_layout
    from coinprint.errors import UsageError
    from coinprint.fair import fairest_map

    with pytest.raises(UsageError, match="a fair search needs a generated map"):
        fairest_map(GAMES["cointable"], resolve_layout("cointable:size=2"), 2)
    layout, line = fairest_map(
        GAMES["mapgame"], resolve_layout("mapgame:countries=9,seed=5"), 2, fair_games=20, workers=1
    )
    assert layout.game == "mapgame" and layout.meta["seed"] in (5, 6)
    assert line.startswith(
        "fairest of 2 candidates; re-measured by random self-play, 20 fresh games: first player won "
    )


def test_until_decided_means_the_same_stop_for_balance_and_analyse(cli):
    common = ["--layout", "cointable:size=2", "--games", "400", "--seed", "5", "--until-decided", "--precision", "20"]
    balance = cli("balance", "cointable", *common)
    analysed = cli("analyse", "cointable", *common, "--skill-games", "0", "--json", "-")
    assert balance.code == 0 and analysed.code == 0, balance.err + analysed.err
    played = int(re.search(r": (\d+) games: wins", balance.out).group(1))
    (figures,) = json.loads(analysed.out)["layouts"]
    assert 0 < played < 400 and figures["games"] == played and figures["stopped_early"]
    share = figures["first_share"]
    assert f"won {share['count'] / share['total']:.1%} of {share['total']} decided games" in balance.out

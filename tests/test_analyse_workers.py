"""The report is the same wherever the games are played."""

import json


def test_the_figures_do_not_depend_on_the_number_of_workers(cli, tmp_path):
    args = [
        "analyse",
        "mapgame",
        "--layout",
        "mapgame:countries=9",
        "--maps",
        "2",
        "--games",
        "24",
        "--seed",
        "1",
        "--map-seed",
        "0",
    ]
    args += ["--max-turns", "300", "--skill-games", "2"]
    here = cli(*args, "--workers", "1", "--json", str(tmp_path / "one.json"))
    pool = cli(*args, "--workers", "2", "--json", str(tmp_path / "two.json"))
    assert here.code == 0 and pool.code == 0, here.err + pool.err
    one = json.loads((tmp_path / "one.json").read_text())
    two = json.loads((tmp_path / "two.json").read_text())
    assert one["layouts"] == two["layouts"] and one["layouts"][0]["skill"]["games"] == 2
    assert here.out.replace("one.json", "two.json") == pool.out

"""Flick's five design questions, answered by play (``coinprint questions flick``): every arm
plays the same seeds; each arm's score and each change against the first come with intervals
that hold their estimates; the answers do not depend on where the games run (one process,
workers, a Dask cluster); the JSON decodes to what the text says; the rebound the seed names
comes from the physics; bad options get one line."""

from __future__ import annotations

import json

import pytest

from coinprint.games.flick.questions import questions, rebounds, sweep
from coinprint.questions import Plan, answer
from coinprint.units import coin

TINY = Plan(games=4, sweep_games=2, seed=11, max_turns=200, workers=1)


def _two_questions():
    asked = questions()
    return (asked[2], asked[4])  # without F, two against two: the quickest


def test_the_five_notes_are_asked_with_the_arms_they_name() -> None:
    asked = questions()
    assert [q.number for q in asked] == [1, 2, 3, 4, 5]
    parking, arsenals, without_f, goals, teams = asked
    assert {a.options.get("penalty_h", False) for a in parking.arms} == {False, True}
    assert any(a.agents["heads"] == "park" for a in parking.arms)
    assert {a.layout for a in arsenals.arms} >= {
        "flick",
        "flick:score_coin=penny",
        "flick:score_coin=uk-50p",
        "flick:arsenal=quarter+penny",
    }
    assert [a.options.get("without_f", False) for a in without_f.arms] == [False, True]
    sides = {a.layout for a in goals.arms}
    assert {f"flick:sides={n}" for n in (3, 5, 6, 7, 8)} <= sides and {"flick:width=10cm", "flick:width=20cm"} <= sides
    assert set(teams.arms[1].agents) == {"heads-1", "tails-1", "heads-2", "tails-2"}
    corners = sweep().corners
    assert len(corners) == 4 and {tuple(sorted(c)) for c in corners.values()} == {("friction", "restitution")}


def test_a_penny_rebounds_off_a_resting_quarter_and_a_quarter_does_not() -> None:
    """The seed's example: with restitution e, a striker of mass m on a resting M keeps
    (m − eM)/(m + M) of its speed, so the penny (2.5 g on 5.67 g) comes back when e > 0.441."""
    penny, quarter = rebounds()
    assert "penny" in penny and "rebounds" in penny
    assert "quarter" in quarter and "follows" in quarter
    assert f"{coin('penny').mass_g / coin('quarter').mass_g:.3f}" == "0.441" and "0.441" in penny


def test_every_arm_plays_the_same_seeds_and_the_intervals_hold_their_estimates() -> None:
    found = answer(_two_questions(), sweep(), TINY)
    for question in found:
        assert [len(a.scores) for a in question.arms] == [TINY.games] * len(question.arms)
        for arm in question.arms:
            assert all(s in (0.0, 0.5, 1.0) for s in arm.scores)
            assert arm.score.low <= arm.score.mean <= arm.score.high
            assert sum(arm.endings.values()) == TINY.games
        for k, difference in enumerate(question.differences, start=1):
            changes = [b - a for a, b in zip(question.arms[0].scores, question.arms[k].scores)]
            assert difference.change.mean == pytest.approx(sum(changes) / len(changes))
            assert difference.change.low <= difference.change.mean <= difference.change.high
        assert set(question.corners) == set(sweep().corners)


def test_the_answers_are_the_same_in_one_process_in_workers_and_on_dask() -> None:
    asked = _two_questions()[:1]
    alone = answer(asked, sweep(), TINY)
    workers = answer(asked, sweep(), Plan(**{**TINY.__dict__, "workers": 2}))
    assert [a.to_json() for a in workers] == [a.to_json() for a in alone]
    pytest.importorskip("distributed", reason="Dask is optional: pip install 'coinprint[dask]'")
    from distributed import LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None) as c:
        remote = answer(asked, sweep(), Plan(**{**TINY.__dict__, "workers": None, "dask": c.scheduler_address}))
    assert [a.to_json() for a in remote] == [a.to_json() for a in alone]


def test_the_command_writes_a_report_and_json_that_agree(cli, tmp_path) -> None:
    target = tmp_path / "answers.json"
    result = cli(
        "questions",
        "flick",
        "--games",
        "3",
        "--sweep-games",
        "0",
        "--seed",
        "5",
        "--workers",
        "1",
        "--json",
        str(target),
    )
    assert result.code == 0, result.err
    doc = json.loads(target.read_text())
    assert [a["number"] for a in doc["answers"]] == [1, 2, 3, 4, 5]
    for found in doc["answers"]:
        assert f"{found['number']}. {found['title']}" in result.out
        for arm in found["arms"]:
            assert arm["games"] == 3 and arm["score"]["low"] <= arm["score"]["mean"] <= arm["score"]["high"]
            assert arm["arm"] in result.out


@pytest.mark.parametrize(
    "args,why",
    [
        (["cointable"], "asks no design questions"),
        (["flick", "--games", "0"], "--games"),
        (["flick", "--sweep-games", "-1"], "--sweep-games"),
        (["flick", "--workers", "0"], "--workers"),
    ],
)
def test_bad_options_get_one_line(cli, args: list[str], why: str) -> None:
    result = cli("questions", *args)
    assert result.code == 2 and why in result.err
    assert len(result.err.strip().splitlines()) == 1

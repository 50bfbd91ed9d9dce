"""Self-play at scale: the same games whatever the number of workers or a Dask cluster,
results streamed in game order without keeping them, the sequential stop, Ctrl-C."""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from coinprint import selfplay
from coinprint.analysis import balance, judge, play_to_folder, validate_record
from coinprint.caps import MAX_GAMES
from coinprint.errors import InterruptedRunError, RunFailedError, UsageError
from coinprint.registry import GAMES
from coinprint.selfplay import RunPlan, pool
from coinprint.sprt import AHEAD, BEHIND, EVEN, FirstPlayerTest

ROOT = Path(__file__).resolve().parent.parent
SMALL = "cointable:size=3"
AGENTS = {"heads": "random", "tails": "greedy"}


def moves_and_winner(engines, record, outcome):
    """A per-game summary as issue 14's report would write one: top level, small, picklable.
    It is given the game set up on its layout (rules, search and view), the record and the
    outcome."""
    return (engines.view.rules.layout.game, len(record.moves), outcome.result.winner)


def folder_bytes(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_records_are_byte_identical_with_one_or_two_workers(tmp_path):
    one, two = tmp_path / "one", tmp_path / "two"
    paths1, summary1 = play_to_folder(SMALL, AGENTS, RunPlan(13, 5, 500, workers=1), str(one))
    paths2, summary2 = play_to_folder(SMALL, AGENTS, RunPlan(13, 5, 500, workers=2), str(two))
    assert [p.name for p in paths1] == [p.name for p in paths2] == [f"cointable-{s}.json" for s in range(5, 18)]
    assert folder_bytes(one) == folder_bytes(two)
    assert summary1 == summary2
    for path in paths2[:3]:
        _, _, replayed = validate_record(str(path))
        assert replayed.valid


def test_coinage_and_map_records_match_across_worker_counts(tmp_path):
    for spec, agents in (
        ("coinage:map=classic", {"heads": "greedy", "tails": "random"}),
        ("mapgame:countries=11,seed=2", {"O": "greedy", "X": "random"}),
    ):
        a, b = tmp_path / f"{spec}-1", tmp_path / f"{spec}-2"
        play_to_folder(spec, agents, RunPlan(5, 1, 300, workers=1), str(a))
        play_to_folder(spec, agents, RunPlan(5, 1, 300, workers=2), str(b))
        assert folder_bytes(a) == folder_bytes(b)


def test_results_come_in_game_order_with_the_summaries_made_in_the_workers():
    setup = selfplay.GameSetup.build(SMALL, AGENTS, 500)
    inline = list(selfplay.run(setup, RunPlan(9, 3, 500, workers=1), summarise=moves_and_winner))
    pooled = list(selfplay.run(setup, RunPlan(9, 3, 500, workers=2), batch=2, summarise=moves_and_winner))
    assert [g.index for g in pooled] == list(range(9))
    assert [g.seed for g in pooled] == list(range(3, 12))
    assert inline == pooled
    for game in pooled:
        assert game.summary == ("cointable", game.moves, game.winner)


def test_the_runner_is_lazy_and_stops_its_workers_when_left(monkeypatch):
    import multiprocessing

    # Count the games handed to the workers (not the seconds taken, which a busy machine stretches).
    queued: list[int] = []
    real_backend = selfplay._backend

    def counting_backend(*args):
        backend = real_backend(*args)
        submit = backend.submit
        backend.submit = lambda *batch: queued.append(batch[3]) or submit(*batch)
        return backend

    monkeypatch.setattr(selfplay, "_backend", counting_backend)
    setup = selfplay.GameSetup.build("cointable:size=2", AGENTS, 500)
    before = {child.pid for child in multiprocessing.active_children()}  # other tests' leftovers
    for workers in (1, 2):
        queued.clear()
        stream = selfplay.run(setup, RunPlan(MAX_GAMES, 1, 500, workers))
        first = list(itertools.islice(stream, 40))
        stream.close()
        assert [g.index for g in first] == list(range(40))
        # The cap's 100,000 games were never all queued: a few batches ahead of the reader.
        assert 40 <= sum(queued) < 2_000, sum(queued)
        assert {child.pid for child in multiprocessing.active_children()} <= before  # the workers were stopped


def heavy_summary(engines, record, outcome):
    """A summary bigger than a pipe holds: a worker sending it blocks until the runner reads."""
    return "x" * 2_000_000


def refuse_game(engines, record, outcome):
    raise ValueError("no summary for this game")


def test_a_worker_killed_half_way_through_a_reply_ends_the_run(monkeypatch):
    """The runner reads nothing while the caller holds its first game, so each worker, once its
    next batch is played, blocks half-way through sending its reply; killing one leaves half a
    message in its pipe. The run must end with the one-line failure, not wait for the rest."""
    import multiprocessing
    import threading

    started: list[pool._Worker] = []

    class SeenWorker(pool._Worker):
        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            started.append(self)

    monkeypatch.setattr(pool, "_Worker", SeenWorker)
    setup = selfplay.GameSetup.build("cointable:size=2", AGENTS, 500)
    before = {child.pid for child in multiprocessing.active_children()}  # other tests' leftovers
    stream = selfplay.run(setup, RunPlan(40, 1, 500, workers=2), batch=2, summarise=heavy_summary)
    assert next(stream).index == 0
    assert len(started) == 2

    def sending() -> bool:
        # Each worker has a batch and its reply has begun to arrive; a reply (4 MB) is far
        # more than a pipe holds, so the worker is blocked half-way through sending it.
        return all(worker.batch is not None and worker.connection.poll() for worker in started)

    deadline = time.monotonic() + 120
    while not sending():
        assert time.monotonic() < deadline, "the workers did not start sending their replies within 120 s"
        assert all(worker.process.is_alive() for worker in started), "a worker ended before it was killed"
        time.sleep(0.05)
    os.kill(started[0].process.pid, signal.SIGKILL)
    outcome: list[BaseException] = []

    def drain() -> None:
        try:
            for _ in stream:
                pass
        except BaseException as exc:
            outcome.append(exc)

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    reader.join(120)
    assert not reader.is_alive(), "the run waited for the rest of a dead worker's reply"
    assert len(outcome) == 1 and isinstance(outcome[0], RunFailedError)
    assert "a worker process died" in str(outcome[0]) and "of 40 games had finished" in str(outcome[0])
    assert {child.pid for child in multiprocessing.active_children()} <= before  # the other one was reaped


def test_an_error_in_a_worker_reaches_the_caller_and_the_workers_are_stopped():
    import multiprocessing

    setup = selfplay.GameSetup.build("cointable:size=2", AGENTS, 500)
    before = {child.pid for child in multiprocessing.active_children()}  # other tests' leftovers
    with pytest.raises(ValueError, match="^no summary for this game$"):
        list(selfplay.run(setup, RunPlan(10, 1, 500, workers=2), batch=2, summarise=refuse_game))
    assert {child.pid for child in multiprocessing.active_children()} <= before
    games = list(selfplay.run(setup, RunPlan(10, 1, 500, workers=2), batch=2))
    assert [g.index for g in games] == list(range(10))
    assert {child.pid for child in multiprocessing.active_children()} <= before  # no worker left behind


def test_balance_reads_its_games_one_at_a_time():
    """judge() counts a stream it cannot hold: an endless generator, read only up to the stop."""
    read = 0

    def endless():
        nonlocal read
        rng = random.Random(4)
        while True:
            read += 1
            yield SimpleNamespace(winner="heads" if rng.random() < 0.7 else "tails", timeout=False, moves=10)

    report = judge(endless(), "x", "random", ("heads", "tails"), 10**9, precision=5.0)
    assert report.summary.games == read < 10**9
    assert report.test.decision == AHEAD


def test_the_sequential_test_decides_as_the_data_say():
    rng = random.Random(11)
    for share, expected in ((0.65, AHEAD), (0.35, BEHIND), (0.5, EVEN)):
        test = FirstPlayerTest(0.05)
        while test.decision is None:
            test.add(rng.random() < share)
        assert test.decision == expected
        n = test.wins + test.losses
        observed = test.wins / n
        if expected == AHEAD:
            assert observed > 0.5 and test.llr_ahead() >= test.upper
        elif expected == BEHIND:
            assert observed < 0.5 and test.llr_behind() >= test.upper
        else:
            assert abs(observed - 0.5) < 0.05 and max(test.llr_ahead(), test.llr_behind()) <= test.lower
    # Wald's bounds from the stated error rates: ln((1-β)/α) and ln(β/(1-α)).
    test = FirstPlayerTest(0.05)
    assert test.upper == pytest.approx(3.6376, abs=1e-4) and test.lower == pytest.approx(-2.9704, abs=1e-4)
    assert "false edge ≤ 5%" in test.describe() and "missed edge ≤ 5%" in test.describe()


@pytest.mark.slow
def test_the_stated_false_edge_rate_holds_on_fair_coins():
    rng = random.Random(2)
    false_edges = 0
    for _ in range(400):
        test = FirstPlayerTest(0.05)
        while test.decision is None:
            test.add(rng.random() < 0.5)
        false_edges += test.decision != EVEN
    assert false_edges / 400 <= 0.08  # stated 5 %, with room for sampling error


def test_balance_until_decided_stops_early_and_the_same_way_on_any_worker_count():
    one = balance(
        GAMES["cointable"], "cointable:size=2", "random", RunPlan(5000, 1, 500), until_decided=True, precision=10
    )
    two = balance(
        GAMES["cointable"],
        "cointable:size=2",
        "random",
        RunPlan(5000, 1, 500, workers=2),
        until_decided=True,
        precision=10,
    )
    assert one.summary == two.summary
    assert one.summary.games < 5000
    _, low, high = one.first_player_share()
    assert one.test.decision is not None or high - low < 0.10
    assert "SPRT" in one.describe()


def test_the_plans_move_limit_cuts_the_games_whatever_the_setup_says():
    setup = selfplay.GameSetup.build(SMALL, AGENTS, 500)
    cut = list(selfplay.run(setup, RunPlan(4, 1, 3, workers=2), batch=1, records=True))
    assert [game.moves for game in cut] == [3] * 4 and all(game.timeout for game in cut)
    assert all(json.loads(game.record or "")["timeout"] is True for game in cut)
    with pytest.raises(UsageError, match="--max-turns must be a whole number from 1"):
        selfplay.run(setup, RunPlan(4, 1, 0))


def test_bad_runner_values_are_usage_errors():
    setup = selfplay.GameSetup.build(SMALL, AGENTS, 500)
    with pytest.raises(UsageError, match="^workers must be a whole number from 1 to 256"):
        selfplay.run(setup, RunPlan(3, 1, 500, workers=0))
    with pytest.raises(UsageError, match="the workers cap"):
        selfplay.run(setup, RunPlan(3, 1, 500, workers=10**6))
    with pytest.raises(UsageError, match="precision must be more than 0"):
        balance(GAMES["cointable"], SMALL, "random", RunPlan(10, 1, 100), until_decided=True, precision=0)
    with pytest.raises(UsageError, match="--max-turns must be a whole number from 1"):
        selfplay.GameSetup.build(SMALL, AGENTS, 0)


def test_an_interrupted_play_keeps_the_finished_records_whole(tmp_path):
    calls = 0

    def stop_after_three(count: int) -> None:
        nonlocal calls
        calls += count
        if calls == 3:
            raise KeyboardInterrupt

    for workers in (1, 2):
        folder = tmp_path / f"w{workers}"
        with pytest.raises(InterruptedRunError) as stopped:
            play_to_folder(SMALL, AGENTS, RunPlan(20, 1, 500, workers), str(folder), progress=stop_after_three)
        calls = 0
        assert stopped.value.exit_code == 130
        message = str(stopped.value)
        assert "\n" not in message and "3 of 20 games finished" in message and "wrote 3 records" in message
        assert sorted(p.name for p in folder.iterdir()) == ["cointable-1.json", "cointable-2.json", "cointable-3.json"]


def test_cli_options_and_no_progress_bar_off_a_terminal(cli, tmp_path):
    result = cli("play", "cointable", "--size", "2", "--games", "4", "--workers", "2", "-o", str(tmp_path / "g"))
    assert result.code == 0 and result.err == ""
    assert len(list((tmp_path / "g").iterdir())) == 4
    result = cli("balance", "cointable", "--layout", "cointable:size=2", "--games", "3", "--workers", "0")
    assert result.code == 2 and "--workers" in result.err and len(result.err.strip().splitlines()) == 1
    result = cli(
        "balance", "cointable", "--layout", "cointable:size=2", "--games", "2000", "--until-decided", "--workers", "1"
    )
    assert result.code == 0 and "SPRT" in result.out and result.err == ""


def test_the_progress_bar_shows_games_rate_and_time_left(monkeypatch):
    import io

    from coinprint.cli.options import progress

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    screen = Terminal()
    monkeypatch.setattr(sys, "stderr", screen)
    with progress(10, "games") as update:
        assert update is not None
        for _ in range(10):
            update(1)
    shown = screen.getvalue()
    assert "games" in shown and "10/10" in shown and "/s" in shown


def test_ctrl_c_stops_cleanly_with_exit_130(tmp_path):
    """A real SIGINT to the whole process group, as a terminal sends it."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    command = [sys.executable, "-m", "coinprint", "play", "coinage", "--heads", "montecarlo", "--tails", "montecarlo"]
    command += ["--games", "200", "--workers", "2", "-o", str(tmp_path / "games")]
    child = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, start_new_session=True
    )
    # Interrupt once the run is under way (a record written), however busy the machine is.
    try:
        deadline = time.monotonic() + 120
        while not list(tmp_path.glob("games/*.json")):
            assert child.poll() is None, (
                f"the run ended (exit {child.returncode}) before a record: {child.communicate()}"
            )
            assert time.monotonic() < deadline, "no record within 120 s"
            time.sleep(0.1)
        os.killpg(child.pid, signal.SIGINT)
        out, err = child.communicate(timeout=60)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(child.pid, signal.SIGKILL)  # nothing of the run left behind, whatever failed
        child.wait()
    assert child.returncode == 130, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("coinprint: ") and "interrupted" in lines[0], err
    assert "Traceback" not in err
    written = list((tmp_path / "games").glob("*")) if (tmp_path / "games").exists() else []
    assert all(p.suffix == ".json" for p in written)  # no temporary files left
    assert f"wrote {len(written)} records" in lines[0]


def test_a_malformed_dask_address_is_a_usage_error(cli):
    pytest.importorskip("distributed", reason="Dask is optional: pip install 'coinprint[dask]'")
    for address in ("not an address", "foo://x:1"):
        result = cli("balance", "cointable", "--games", "3", "--dask", address)
        assert result.code == 2 and "is not a scheduler address like tcp://" in result.err
        assert len(result.err.strip().splitlines()) == 1


def test_dask_cluster_plays_the_same_games():
    pytest.importorskip("distributed", reason="Dask is optional: pip install 'coinprint[dask]'")
    from distributed import LocalCluster

    setup = selfplay.GameSetup.build(SMALL, AGENTS, 500)
    local = list(selfplay.run(setup, RunPlan(12, 7, 500, workers=1), records=True))
    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
    ) as cluster:
        remote = list(selfplay.run(setup, RunPlan(12, 7, 500, dask=cluster.scheduler_address), records=True))
    assert remote == local


def test_a_layout_is_read_once_and_workers_get_it_resolved(tmp_path, monkeypatch):
    """LayoutSource: a file named by --layout is read and checked once; the setup ships the
    layout itself (inline GeoJSON, no path), and records name the file relative to their
    folder, or inline when it was read with other than the default units."""
    from coinprint import source
    from coinprint.source import LayoutSource

    board = tmp_path / "board.geojson"
    board.write_text(coinprint_layout("cointable:size=2"))
    reads = []
    real = source.read_layout_data
    monkeypatch.setattr(source, "read_layout_data", lambda *a, **k: reads.append(a) or real(*a, **k))
    layout = LayoutSource.resolve(str(board))
    setup = selfplay.GameSetup.build(layout, AGENTS, 500, recorded_layout=layout.recorded(tmp_path / "games"))
    assert len(reads) == 1
    assert isinstance(setup.layout, dict) and setup.layout["coinprint"]["game"] == "cointable"
    assert setup.recorded_layout == "../board.geojson"
    games = list(selfplay.run(setup, RunPlan(2, 1, 500, workers=1), records=True))
    assert len(reads) == 1 and len(games) == 2
    in_cm = LayoutSource.resolve(str(board), units="cm")
    assert isinstance(in_cm.recorded(tmp_path), dict)


def coinprint_layout(spec: str) -> str:
    from coinprint.source import builtin_layout

    return builtin_layout(spec).dumps()

"""The design report: each chart's SVG ids are its own when charts share an HTML page (checked
in headless Chromium), and the findings it prints agree with the games counted by hand."""

from __future__ import annotations

import re

import pytest

from coinprint.analysis import self_play
from coinprint.metrics import analyse_layout
from coinprint.report import readings, unique_ids, what_to_look_at, write_report
from coinprint.selfplay import RunPlan
from tests import browser

OLD_MAP = "mapgame:countries=21,seed=0,growth=packed,starts=any"
"""A map from before starts were kept apart: X's start borders O's, so O can capture at once."""

READ_IDS = """
const ids = Array.from(document.querySelectorAll('[id]')).map(e => e.id);
const uses = Array.from(document.querySelectorAll('use')).map(u => {
  const ref = (u.getAttribute('href') || u.getAttribute('xlink:href') || '').slice(1);
  const target = document.getElementById(ref);
  return target !== null && target.closest('svg') === u.closest('svg');
});
return [ids.length, new Set(ids).size, uses.length, uses.filter(x => x).length];
"""


def test_unique_ids_renames_ids_and_every_reference_to_them() -> None:
    svg = '<svg><defs><path id="shape1" d="M0,0"/></defs><use href="#shape1"/><g clip-path="url(#clip1)"/><a href="#top"/></svg>'
    done = unique_ids(svg, "chart2-")
    assert 'id="chart2-shape1"' in done and 'href="#chart2-shape1"' in done
    assert "url(#clip1)" in done  # no such id in this SVG: left alone
    assert 'href="#top"' in done


@pytest.mark.skipif(browser.missing() is not None, reason=f"no headless Chromium: {browser.missing()}")
def test_charts_on_one_page_never_share_an_id(tmp_path) -> None:
    reports = [
        analyse_layout(spec, RunPlan(12, 1, 600), branching=False) for spec in ("cointable:size=3", "cointable:size=4")
    ]
    page = write_report(reports, str(tmp_path / "report.html"), details=2)
    text = page.read_text()
    assert len(re.findall(r"<svg", text)) == 5  # the share chart, then a histogram and a heat map each
    assert "<use" in text  # the heat maps reuse hexagon shapes: the case that broke
    with browser.chromium() as chrome:
        chrome.get(page.as_uri())
        ids, distinct, uses, resolved = chrome.execute_script(READ_IDS)
    assert ids == distinct and ids > 0
    assert uses == resolved and uses > 0  # every <use> draws a shape of its own chart


def test_what_to_look_at_counts_first_move_captures_as_the_games_do() -> None:
    report = analyse_layout(OLD_MAP, RunPlan(40, 1, 2000), branching=False)
    played = [record for record, _ in self_play(OLD_MAP, {"O": "random", "X": "random"}, 40, 1, 2000)]
    captures = sum(" send " in record.moves[0] for record in played)
    assert captures > 0
    share = captures / len(played)
    assert report.first_moves["capture"] == pytest.approx(share)
    found = what_to_look_at(report)
    if share >= 0.2:
        assert f"O makes a capture on move 1 in {share:.0%} of games" in found
    names = [name for name, _, _ in readings(report)]
    assert names[:4] == ["first player's share", "drawishness (ties)", "timeouts", "length"]
    assert "coverage (spaces ever held)" not in names  # every game reaches every country here

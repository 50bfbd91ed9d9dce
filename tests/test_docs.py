"""The documentation runs as written: every page's Python examples (``pycon`` blocks) are
doctests, and the site builds in strict mode (no broken link, anchor or page), with a command
reference for every game's command."""

from __future__ import annotations

import doctest
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAGES = sorted(str(page.relative_to(ROOT)) for page in DOCS.rglob("*.md") if "```pycon" in page.read_text())


def test_the_api_page_and_the_game_pages_have_examples() -> None:
    assert {"docs/api.md", "docs/games/cointable.md"} <= set(PAGES)


@pytest.mark.parametrize("page", PAGES)
def test_documented_examples_run(page: str) -> None:
    failures, tried = doctest.testfile(str(ROOT / page), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert tried > (10 if page == "docs/api.md" else 0) and failures == 0


def test_package_docstring_example_runs() -> None:
    import coinprint

    failures, tried = doctest.testmod(coinprint)
    assert tried > 3 and failures == 0


@pytest.mark.skipif(importlib.util.find_spec("mkdocs") is None, reason="the docs extra is not installed")
def test_the_site_builds_strictly(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "-f", str(ROOT / "mkdocs.yml")]
        + ["-d", str(tmp_path / "site")],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    reference = (tmp_path / "site" / "commands" / "index.html").read_text()
    from coinprint.registry import GAMES

    for group in ("board", "rules"):
        for game in GAMES.names():
            assert f'id="coinprint-{group}-{game}"' in reference
    assert all(f'id="coinprint-play-{game}"' in reference for game in GAMES.simulated())


def test_contributing_names_every_method_a_rules_engine_must_write() -> None:
    """The referee table of CONTRIBUTING.md's "The rules engine" is the abstract methods of
    ``coinprint.engine.Rules``, no more and no fewer."""
    import re

    from coinprint.engine import Rules

    text = (ROOT / "CONTRIBUTING.md").read_text()
    section = text[text.index("### The rules engine") : text.index("### The texts")]
    documented = set(re.findall(r"^\| `(\w+)\(", section, flags=re.MULTILINE))
    assert documented == set(Rules.__abstractmethods__)

"""The README stays true: a front door that fits on a screen, its pictures are what coinprint
draws today, its links lead somewhere, and its two set-up commands are the ones CI runs."""

import importlib.util
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"

SETUP = {
    "1": "python3 -m venv .venv && .venv/bin/pip install -q . && .venv/bin/coinprint kit all",
    "2": 'python3 -m venv .venv-test && .venv-test/bin/pip install -q ".[test]" && .venv-test/bin/python -m pytest -n 2 -q',
}
"""The two set-up commands, word for word: 1 installs coinprint and prints the kits into output/,
2 installs the test tools and runs the tests."""


def test_readme_is_a_front_door():
    text = README.read_text()
    assert len(text.splitlines()) <= 200
    assert len(text.encode()) <= 20_000


def test_readme_pictures_are_current(tmp_path, monkeypatch):
    spec = importlib.util.spec_from_file_location("pictures", ROOT / "docs" / "pictures.py")
    pictures = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(pictures)
    monkeypatch.chdir(ROOT)
    pictures.main(str(tmp_path))
    made = sorted(p.name for p in tmp_path.glob("*.svg"))
    shown = sorted(set(re.findall(r'src="docs/images/([^"]+\.svg)"', README.read_text())))
    assert shown and set(shown) <= set(made)
    for name in made:
        assert (tmp_path / name).read_bytes() == (ROOT / "docs" / "images" / name).read_bytes(), (
            f"docs/images/{name} is stale: run python docs/pictures.py"
        )


def test_readme_links_lead_to_files():
    text = README.read_text()
    targets = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text) + re.findall(r'src="([^"]+)"', text)
    local = [target for target in targets if not re.match(r"[a-z]+:", target)]
    assert local
    for target in local:
        assert (ROOT / target).exists(), f"README links to {target}, which is not in the repository"


def test_readme_setup_is_the_two_commands():
    readme = README.read_text()
    for number, command in SETUP.items():
        shown = re.search(rf"# {number}\. .*\n(.+)\n", readme).group(1).strip()
        assert shown == command, f"set-up command {number} changed"


def test_ci_runs_the_readme_test_command():
    readme = README.read_text()
    command = re.search(r"# 2\. .*\n(.+)\n", readme).group(1).strip()
    ci = (ROOT / ".ci" / "run").read_text()
    assert command in ci.splitlines()

"""The README stays true: its pictures are what coinprint draws today, its set-up commands
are the ones CI runs."""

import importlib.util
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_readme_pictures_are_current(tmp_path, monkeypatch):
    spec = importlib.util.spec_from_file_location("pictures", ROOT / "docs" / "pictures.py")
    pictures = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(pictures)
    monkeypatch.chdir(ROOT)
    pictures.main(str(tmp_path))
    made = sorted(p.name for p in tmp_path.glob("*.svg"))
    shown = sorted(set(re.findall(r'src="docs/images/([^"]+\.svg)"', (ROOT / "README.md").read_text())))
    assert set(shown) <= set(made)
    for name in made:
        assert (tmp_path / name).read_bytes() == (ROOT / "docs" / "images" / name).read_bytes(), (
            f"docs/images/{name} is stale: run python docs/pictures.py"
        )


def test_ci_runs_the_readme_test_command():
    readme = (ROOT / "README.md").read_text()
    command = re.search(r"# 2\. .*\n(.+)\n", readme).group(1).strip()
    ci = (ROOT / ".ci" / "run").read_text()
    assert command in ci.splitlines()

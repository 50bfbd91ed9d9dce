"""The built wheel carries templates/ and an installed coinprint finds them."""

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    source = tmp_path_factory.mktemp("source")
    # Build offline from a copy, so the checkout is left as it was (no build/ folder).
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    for folder in ("coinprint", "templates"):
        shutil.copytree(ROOT / folder, source / folder, ignore=shutil.ignore_patterns("__pycache__"))
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "--no-index",
            "-q",
            str(source),
            "-w",
            str(out),
        ],
        check=True,
        capture_output=True,
        cwd=source,
    )
    (found,) = out.glob("coinprint-*.whl")
    return found


def test_wheel_ships_every_template(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for template in (ROOT / "templates").rglob("*.*"):
        assert f"coinprint/templates/{template.relative_to(ROOT / 'templates').as_posix()}" in names
    assert "coinprint/cli/__init__.py" in names
    # PEP 561: type checkers use coinprint's own hints.
    assert "coinprint/py.typed" in names


def test_wheel_in_a_fresh_venv_finds_its_templates(wheel, tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps", "--no-index", str(wheel)],
        check=True,
        capture_output=True,
    )
    code = (
        "from coinprint.resources import templates_dir; from coinprint.render.style import palette; "
        "print(templates_dir()); print(palette('ink-saver').space_stroke)"
    )
    done = subprocess.run([str(python), "-c", code], capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    folder, stroke = done.stdout.strip().splitlines()
    assert Path(folder).is_relative_to(venv) and Path(folder).name == "templates"
    assert stroke == "#000000"

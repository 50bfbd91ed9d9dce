"""What pyproject.toml cannot say: the packages are every package under coinprint/, found when
the wheel is built (so a game added as a folder ships with no list to update), plus the
top-level templates/ folder, shipped inside the wheel as coinprint/templates, and examples/ as
coinprint/examples (coinprint.resources finds both in either place). A source copy without
examples/ builds without it."""

from pathlib import Path

from setuptools import find_packages, setup

data = {"coinprint.templates": "templates"}
if (Path(__file__).resolve().parent / "examples").is_dir():
    data["coinprint.examples"] = "examples"

setup(
    packages=[*find_packages(include=["coinprint", "coinprint.*"]), *data],
    package_dir=data,
)

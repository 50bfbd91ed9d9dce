"""What pyproject.toml cannot say: the packages are every package under coinprint/, found when
the wheel is built (so a game added as a folder ships with no list to update), plus the
top-level templates/ folder, shipped inside the wheel as coinprint/templates
(coinprint.resources finds it in either place)."""

from setuptools import find_packages, setup

setup(
    packages=[*find_packages(include=["coinprint", "coinprint.*"]), "coinprint.templates"],
    package_dir={"coinprint.templates": "templates"},
)

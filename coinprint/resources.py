"""Finding the files shipped with coinprint (``templates/``), installed or in a checkout."""

from __future__ import annotations

from pathlib import Path

from coinprint.errors import CoinprintError

_PACKAGE = Path(__file__).resolve().parent


def templates_dir() -> Path:
    """The templates folder: ``coinprint/templates`` in a wheel, ``templates/`` in a checkout."""
    for candidate in (_PACKAGE / "templates", _PACKAGE.parent / "templates"):
        if (candidate / "styles.json").is_file():
            return candidate
    raise CoinprintError("coinprint's templates folder is missing; reinstall coinprint")


def template_path(name: str) -> Path:
    """The path of template ``name`` (e.g. ``styles.json``, ``coinage.en.json``)."""
    path = templates_dir() / name
    if not path.is_file():
        raise CoinprintError(f"template '{name}' is missing from {templates_dir()}")
    return path


def example_path(name: str) -> Path:
    """The path of example file ``name`` (e.g. ``coinage-card.svg``): ``coinprint/examples``
    in a wheel, ``examples/`` in a checkout."""
    for folder in (_PACKAGE / "examples", _PACKAGE.parent / "examples"):
        if (folder / name).is_file():
            return folder / name
    raise CoinprintError(f"example '{name}' is missing; reinstall coinprint")

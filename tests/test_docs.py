"""The Python examples in the documentation run as written (doctest)."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("page", ["docs/api.md"])
def test_documented_examples_run(page: str) -> None:
    failures, tried = doctest.testfile(str(ROOT / page), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert tried > 10 and failures == 0


def test_package_docstring_example_runs() -> None:
    import coinprint

    failures, tried = doctest.testmod(coinprint)
    assert tried > 3 and failures == 0

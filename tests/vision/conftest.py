"""Fixtures for the vision tests: throws of the simulator's physical world tracked and read as
the table does, kept at rest for the cocked cues (``bench/cocked_rest.py capture``)."""

from __future__ import annotations

import pytest

from tests.support.scripts import load_script


@pytest.fixture(scope="session")
def cocked_rest_bench(repo_root):
    """``bench/cocked_rest.py`` loaded as a module."""
    return load_script(repo_root / "bench" / "cocked_rest.py", "cocked_rest")


@pytest.fixture(scope="session")
def rest_throws(cocked_rest_bench):
    """(reader, throw): ``throw(seed, case, world="physical")`` simulates one 640x480 throw of
    that seed and case, tracks it and reads its dice with ``reader`` (the shipped
    ``DiceReader``), and returns its rest record (``sil``, ``frame``, ``boxes``, ``readings``,
    ``truth``); both dice must be found."""
    from vision.dice import DiceReader

    module = cocked_rest_bench
    reader = DiceReader()

    def throw(seed: int, case: str, world: str = "physical") -> dict:
        records = module.capture(world, seed, 1, (640, 480), reader, log=lambda *_: None,
                                 cases=[case])
        assert len(records) == 1 and len(records[0]["boxes"]) == 2
        return records[0]

    return reader, throw

"""Fixtures of the journal's tests."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def journal_path(tmp_path: Path) -> Path:
    return tmp_path / "table.db"

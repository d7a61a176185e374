"""Shared pytest fixtures."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# ../shared/data/dice-photos beside the checkout (CI lays shared/ beside the clone as well)
PHOTOS = ROOT.parent / "shared" / "data" / "dice-photos"


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return ROOT


@pytest.fixture(scope="session")
def photos_dir() -> Path:
    if not PHOTOS.is_dir():
        pytest.skip(f"labelled dice photos not found at {PHOTOS}")
    return PHOTOS

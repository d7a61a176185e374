"""Recall and audit of a journal file, read-only (the entries are worked out in
``tablectl.history``; see there what a decision and an audit entry hold)."""

from __future__ import annotations

import os
from typing import Any

from tablectl.history import (
    DECISIONS,
    RULING_COMMANDS,
    RULING_EVENTS,
    SANCTION_COMMANDS,
    SANCTION_EVENTS,
    SETTLEMENT_SUFFIXES,
    audit_rows,
    format_audit,
    format_decision,
    recall_rows,
)
from tablectl.journal import read_rows, read_rows_desc

__all__ = [
    "DECISIONS", "RULING_COMMANDS", "RULING_EVENTS", "SANCTION_COMMANDS", "SANCTION_EVENTS",
    "SETTLEMENT_SUFFIXES", "audit", "audit_rows", "format_audit", "format_decision", "recall",
    "recall_rows",
]


def recall(path: str | os.PathLike[str], n: int = 10) -> list[dict[str, Any]]:
    """The last ``n`` decisions recorded in the journal at ``path`` (read-only)."""
    return recall_rows(read_rows_desc(path), n)


def audit(path: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """Every operator act and sanction recorded in the journal at ``path`` (read-only)."""
    return audit_rows(read_rows(path))

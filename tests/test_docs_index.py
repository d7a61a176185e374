"""docs/README.md indexes every page in docs/, and the docs index and rules never send a reader
outside the repository."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
LINK = re.compile(r"\]\(([^)#]+)(?:#[^)]*)?\)")


def test_every_doc_is_in_the_index():
    indexed = set(LINK.findall((DOCS / "README.md").read_text(encoding="utf-8")))
    pages = {path.name for path in DOCS.glob("*.md")} - {"README.md"}
    missing = sorted(pages - indexed)
    assert not missing, f"docs/README.md does not index: {missing} (add a row for each)"


def test_index_and_rules_stay_inside_the_repository():
    for name in ("README.md", "rules.md"):
        text = (DOCS / name).read_text(encoding="utf-8")
        outside = [link for link in LINK.findall(text)
                   if link.startswith("..") or "shared" in link]
        assert "../shared" not in text and not outside, (
            f"docs/{name} points outside the repository: {outside or '../shared'}")

"""docs/commands.md documents every command (with an example) and every event the game emits."""

import json
import re

from tablectl.game.fields import COMMAND_NAMES


def test_every_command_has_a_parsable_example(repo_root):
    doc = (repo_root / "docs" / "commands.md").read_text()
    examples = [json.loads(b) for b in re.findall(r"```json\n(.*?)\n```", doc, re.S)]
    assert {e["command"] for e in examples} == set(COMMAND_NAMES)
    for name in COMMAND_NAMES:
        assert f"**`{name}`**" in doc, name


def test_every_emitted_event_is_documented(repo_root):
    doc = (repo_root / "docs" / "commands.md").read_text()
    source = "".join(p.read_text() for p in (repo_root / "tablectl" / "game").rglob("*.py"))
    emitted = set(re.findall(r'"event": "(\w+)"', source))
    assert len(emitted) > 30
    documented = set(re.findall(r"^\| `(\w+)`", doc, re.M)) | set(
        re.findall(r"^\| `\w+` / `(\w+)`", doc, re.M)) | set(
        re.findall(r"^\| `\w+` / `\w+` / `(\w+)`", doc, re.M)) | set(
        re.findall(r"^\| `(\w+)` /", doc, re.M)) | set(re.findall(r"^\| `\w+` / `(\w+)` /", doc,
                                                                  re.M))
    assert emitted - documented == set()

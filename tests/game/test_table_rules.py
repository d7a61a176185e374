"""TableRules: RULES.md defaults and the [rules] table of table.toml."""

import json

import pytest

from tablectl.game import CommandError, Game, RuleViolation, TableRules


def test_defaults_are_rules_md():
    r = TableRules()
    assert (r.min_players, r.out_of_bounds, r.warnings_before_sanction, r.fade_first_claim) == (
        2, "at_rest", 1, False)


def test_from_mapping_reads_settings_and_rejects_unknown_keys():
    r = TableRules.from_mapping({"min_players": 3, "fade_first_claim": True})
    assert r.min_players == 3 and r.fade_first_claim
    with pytest.raises(ValueError, match="unknown table rule.*min_player"):
        TableRules.from_mapping({"min_player": 3})


@pytest.mark.parametrize("bad", [
    {"min_players": 1}, {"out_of_bounds": "never"}, {"warnings_before_sanction": -1},
    {"min_players": "2"}, {"fade_first_claim": 1},
])
def test_from_mapping_rejects_bad_values(bad):
    with pytest.raises(ValueError):
        TableRules.from_mapping(bad)


def test_errors_are_value_errors_with_rule_prefix():
    g = Game()
    with pytest.raises(CommandError, match="unknown command 'dance'"):
        g.apply({"command": "dance"})
    with pytest.raises(CommandError, match="no \"command\" field"):
        g.apply({"player": "ann"})
    with pytest.raises(CommandError):
        g.apply(["join"])
    assert issubclass(RuleViolation, ValueError) and issubclass(CommandError, ValueError)


def test_state_and_snapshot_are_json_and_round_trip():
    from .helpers import center, run, side, table, throw

    g = table(3)
    center(g, 20, bob=20)
    run(g, side("c", "come", "bob", "cy", 5, 5), throw(4, 4), throw(3, 3))
    json.dumps(g.state())
    snap = json.loads(json.dumps(g.snapshot()))
    assert Game.from_snapshot(snap).snapshot() == g.snapshot()
    with pytest.raises(ValueError, match="version"):
        Game.from_snapshot({**snap, "version": 99})
    tampered = json.loads(json.dumps(snap))
    tampered["undo"]["dice"] = [3, 4]  # a seven-out: not the state saved
    with pytest.raises(ValueError, match="inconsistent"):
        Game.from_snapshot(tampered)


def test_game_package_is_pure(repo_root):
    """No I/O, clock, randomness or threads; imports neither vision, web nor gpiozero."""
    import ast
    import subprocess
    import sys

    forbidden = {"vision", "web", "gpiozero", "random", "time", "datetime", "threading", "os",
                 "io", "socket", "sqlite3", "subprocess", "pathlib"}
    for path in (repo_root / "tablectl" / "game").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            for name in names:
                assert name.split(".")[0] not in forbidden, f"{path.name} imports {name}"
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("open",
                                                                                 "print"):
                raise AssertionError(f"{path.name} calls {node.func.id}")
    code = ("import sys, tablectl.game; "
            "bad = [m for m in sys.modules if m.split('.')[0] in ('vision', 'web', 'gpiozero')]; "
            "assert not bad, bad")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)

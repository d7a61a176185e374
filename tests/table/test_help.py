"""What `tablectl COMMAND --help` and its errors say to a person at a terminal."""

from __future__ import annotations

import pytest

from tablectl.cli import SUBCOMMANDS, build_parser, main
from tablectl.config import INSTALLED_CONFIG_PATH


def help_of(name: str) -> str:
    sub = next(a for a in build_parser()._actions if a.dest == "subcommand")
    return sub.choices[name].format_help()


@pytest.mark.parametrize("name", SUBCOMMANDS)
def test_help_shows_no_markup_of_the_docstrings(name):
    assert "``" not in help_of(name)


def test_run_names_the_files_it_reads_when_none_is_given():
    # on a Pi that is what install.sh wrote, not the checkout's copy
    said = " ".join(help_of("run").split())
    assert str(INSTALLED_CONFIG_PATH) in said and "firmware_config/table.toml" in said


def test_replay_of_a_missing_clip_says_so(tmp_path, capsys):
    assert main(["replay", str(tmp_path / "no_such_clip")]) == 2
    err = capsys.readouterr().err
    assert "no_such_clip: no such file or folder" in err and "video file" in err


def test_export_into_a_missing_folder_says_which(tmp_path, capsys):
    from tablectl.journal import Journal

    journal = tmp_path / "evening.sqlite"
    Journal.open(journal).close()
    out = tmp_path / "no_such_folder" / "evening.jsonl"
    assert main(["journal", "export", str(journal), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert f"the folder {out.parent} does not exist" in err and ".part" not in err

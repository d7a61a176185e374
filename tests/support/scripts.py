"""Load a dev script (bench/, tools/) as a module, as its tests need its functions."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType


def load_script(path: Path, name: str, register: bool = False) -> ModuleType:
    """The script at ``path`` run as module ``name`` (``register``: also put in ``sys.modules``,
    for a script whose dataclasses or pickles look their module up by name)."""
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path} as a module")
    module = importlib.util.module_from_spec(spec)
    if register:
        sys.modules[name] = module
    spec.loader.exec_module(module)
    return module

"""Collection across the repository: the package's doctests are read from its Python sources,
except where ``conquian speedups build`` has put a compiled module beside one (Python then
imports the extension, whose file is not the source pytest would read; the pure-Python
doctests run wherever the hot path is not compiled, as in CI); a module that needs an optional
package the ``dev`` extra leaves out is skipped where that package is not installed."""

from __future__ import annotations

from pathlib import Path

import pytest

#: Modules whose doctests need an optional package that the ``dev`` extra does not install.
OPTIONAL = {"sb3.py": "stable_baselines3"}


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    if collection_path.suffix == ".py" and any(collection_path.parent.glob(f"{collection_path.stem}.*.so")):
        return True
    needs = OPTIONAL.get(collection_path.name)
    if collection_path.parent.name == "jax" and collection_path.parent.parent.name == "envs":
        needs = "jax"  # the accelerated environment: the jax extra
    elif collection_path.parent.name != "envs":
        needs = None
    if needs is not None:
        import importlib.util

        return importlib.util.find_spec(needs) is None or None
    return None

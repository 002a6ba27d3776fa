"""The ``apprentice``'s fitted weights, shipped with the package (``apprentice_weights.json``, one
weight per feature of :mod:`conquian.bots.apprentice_policy`; reproduced from a seed by
``python -m benchmarks.train_apprentice``): read by the ``apprentice`` and ``exit`` bots, and by the
search's reading of the adversary's hand (:mod:`conquian.bots.inference`)."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from conquian.bots.apprentice_policy import FEATURES

WEIGHTS_FILE = "apprentice_weights.json"


@cache
def shipped_weights() -> tuple[float, ...]:
    """The weights shipped with the package, one per feature (checked against the features' names)."""
    data = json.loads(resources.files("conquian.bots").joinpath(WEIGHTS_FILE).read_text(encoding="utf-8"))
    return check_weights(data)


def check_weights(data: dict[str, Any]) -> tuple[float, ...]:
    """The weights of a weights file's contents; ValueError if they are for other features."""
    if tuple(data["features"]) != FEATURES:
        raise ValueError("the weights are for other features than conquian.bots.apprentice_features")
    return tuple(float(w) for w in data["weights"])


__all__ = ["WEIGHTS_FILE", "check_weights", "shipped_weights"]

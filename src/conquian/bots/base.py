"""What every bot is: the :class:`Bot` protocol, the views it may be handed, and the registry.

A bot module registers its classes here with :func:`register`; :mod:`conquian.bots` makes them
by name.  Kept apart from the package's ``__init__`` so that the bots import this module and the
package imports the bots, with no circle.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, Union, runtime_checkable

from conquian.engine.actions import Action
from conquian.engine.conquian.mexicano_view import MexicanoView
from conquian.engine.conquian.view import ConquianView
from conquian.engine.cooncan.view import CooncanView

View = Union[ConquianView, CooncanView, MexicanoView]  # noqa: UP007 (a runtime alias)


@runtime_checkable
class Bot(Protocol):
    """A computer player: ``choose`` returns one legal action for the view's seat."""

    name: str

    def choose(self, view: View) -> Action:
        """The action to play; the view's seat must be the one to act."""
        ...


def check_view(view: object) -> View:
    """Return ``view`` if it is a seat's view; TypeError otherwise (hidden information stays hidden)."""
    if not isinstance(view, ConquianView | CooncanView | MexicanoView):
        raise TypeError(
            f"a bot is given a seat's view, never {type(view).__name__}: "
            "it would see hidden cards"
        )
    if view.to_act != view.seat:
        raise ValueError(f"p{view.seat} is not the seat to act")
    return view


#: Registered bots by name (filled as the bot modules are imported).
_REGISTRY: dict[str, Callable[..., Bot]] = {}


def register(name: str) -> Callable[[Callable[..., Bot]], Callable[..., Bot]]:
    """Class decorator: make a bot available to :func:`make_bot` (and the CLI) under ``name``."""

    def deco(factory: Callable[..., Bot]) -> Callable[..., Bot]:
        _REGISTRY[name] = factory
        return factory

    return deco

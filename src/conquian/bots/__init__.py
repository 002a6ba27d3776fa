"""Computer opponents.  A bot sees only a seat's view and returns a legal action.

Every bot implements :class:`Bot`: ``choose(view) -> Action``.  It is handed a
:class:`~conquian.view.ConquianView` or :class:`~conquian.cooncan_view.CooncanView`
and nothing else; :func:`check_view` refuses anything that is not a view, so a
bot cannot be given a deal (and its hidden cards) by mistake.  Bots are made by
name from a registry:

```pycon
>>> from conquian import ConquianDeal, get_rules
>>> from conquian.bots import make_bot, bot_names
>>> bot_names()
['expert', 'foster', 'master', 'random']
>>> deal = ConquianDeal(get_rules("conquian"), seed=1, dealer=2)
>>> bot = make_bot("foster", seed=1)
>>> deal.play(bot.choose(deal.view(deal.to_act)))
parse_action('p1 use 6c 6d 6s')
>>> bot.choose(deal)
Traceback (most recent call last):
...
TypeError: a bot is given a seat's view (ConquianView or CooncanView), never ConquianDeal: it would see hidden cards

```
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, Union, runtime_checkable

from conquian.actions import Action
from conquian.cooncan_view import CooncanView
from conquian.view import ConquianView

View = Union[ConquianView, CooncanView]  # noqa: UP007 (a runtime alias)


@runtime_checkable
class Bot(Protocol):
    """A computer player: ``choose`` returns one legal action for the view's seat."""

    name: str

    def choose(self, view: View) -> Action:
        """The action to play; the view's seat must be the one to act."""
        ...


def check_view(view: object) -> View:
    """Return ``view`` if it is a seat's view; TypeError otherwise (hidden information stays hidden)."""
    if not isinstance(view, ConquianView | CooncanView):
        raise TypeError(
            "a bot is given a seat's view (ConquianView or CooncanView), never "
            f"{type(view).__name__}: it would see hidden cards"
        )
    if view.to_act != view.seat:
        raise ValueError(f"p{view.seat} is not the seat to act")
    return view


_REGISTRY: dict[str, Callable[..., Bot]] = {}


def register(name: str) -> Callable[[Callable[..., Bot]], Callable[..., Bot]]:
    """Class decorator: make a bot available to :func:`make_bot` (and the CLI) under ``name``."""

    def deco(factory: Callable[..., Bot]) -> Callable[..., Bot]:
        _REGISTRY[name] = factory
        return factory

    return deco


def make_bot(name: str, seed: int = 0, **params: Any) -> Bot:
    """A new bot by registered name; ``seed`` makes its choices reproducible."""
    _load_builtins()
    try:
        factory = _REGISTRY[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r} (bots: {', '.join(bot_names())})") from None
    return factory(seed=seed, **params)


def bot_names() -> list[str]:
    """The registered bots' names."""
    _load_builtins()
    return sorted(_REGISTRY)


def _load_builtins() -> None:
    from conquian.bots import expert, foster, random_bot  # noqa: F401 (registers them)

"""conquian: the original Rummy, exactly.

An engine for Conquian (two hands, forty cards, "eleven down") built on int
bitmasks, with records, replay and simulation.  See ``README.md`` and the rule
book (``conquian rules``; its R-numbers are named in every refusal).

```pycon
>>> from conquian import ConquianDeal, get_rules
>>> deal = ConquianDeal(get_rules("conquian"), seed=42, dealer=2)
>>> deal.to_act
1

```
"""

from conquian.actions import Action, Discard, Force, Pass, Use, parse_action
from conquian.cards import JOKER, CardSet, card_str, parse_card, parse_cards
from conquian.deck import seeded_deck
from conquian.errors import ConquianError, IllegalActionError, NotationError, RecordError
from conquian.match import Match
from conquian.melds import MeldTable, meld_table
from conquian.rules import PRESETS, Rules, get_rules
from conquian.twohand import ConquianDeal, Event
from conquian.view import ConquianView

__version__ = "0.1.0"

__all__ = [
    "JOKER",
    "PRESETS",
    "Action",
    "CardSet",
    "ConquianDeal",
    "ConquianError",
    "ConquianView",
    "Discard",
    "Event",
    "Force",
    "IllegalActionError",
    "Match",
    "MeldTable",
    "NotationError",
    "Pass",
    "RecordError",
    "Rules",
    "Use",
    "__version__",
    "card_str",
    "get_rules",
    "meld_table",
    "parse_action",
    "parse_card",
    "parse_cards",
    "seeded_deck",
]

"""Fixed encodings of observations and actions for the research interfaces (``docs/encodings.md``).

An :class:`Encoding` is made once per rules object and version of the action space.  It numbers
every action the engine's listing can contain (a fixed discrete space), and turns a seat's
view, with the public events seen so far, into a flat ``float32`` array of fixed shape.

Versions of the action space (:data:`VERSIONS`; the observations are the same in both):
version 1 (:data:`LATEST`) gives every listed action its own index; version 0, the space of
the ``*_v0`` environments, numbers a conquian or conquián mexicano use only by the
combination that holds the card in play, so that of several listed uses sharing that
combination it marks only the first (``docs/encodings.md``).

```pycon
>>> from conquian import get_rules, ConquianDeal
>>> enc = encoding(get_rules("conquian"))
>>> enc.n_actions, enc.obs_size, enc.version
(1299, 609, 1)
>>> deal = ConquianDeal(get_rules("conquian"), seed=3, dealer=2)
>>> mask = enc.mask(deal.view(1))
>>> v = deal.view(1)
>>> sorted(str(enc.action(int(i), v)) for i in mask.nonzero()[0]) == sorted(str(a) for a in deal.legal_actions())
True
>>> mex = encoding(get_rules("conquian-mexicano", players=3))   # R8: gives, forces naming a player
>>> mex.n_actions, mex.obs_size, mex.action_text(mex.A_FORCE + 40 + 3, 1)
(867, 944, 'p1 force 4c p3')
>>> enc.action_text(enc.A_LAY + 0b1011, 2)                      # a further use, by the hand cards it lays
'p2 use laying hand cards 1 2 4'
>>> encoding(get_rules("conquian"), version=0).n_actions        # the first space (docs/encodings.md)
275

```
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

import numpy as np

from conquian.engine.actions import Action
from conquian.engine.cards import JOKER, card_str
from conquian.engine.conquian.deal import K_DISCARD as C_DISCARD
from conquian.engine.conquian.deal import K_FORCE, K_PASS, K_USE
from conquian.engine.conquian.deal import raw_to_action as conquian_raw_to_action
from conquian.engine.conquian.melds import meld_table
from conquian.engine.conquian.mexicano_events import raw_to_action as mexicano_raw_to_action
from conquian.engine.conquian.mexicano_listing import FORCE_SHIFT, K_GIVE
from conquian.engine.conquian.mexicano_view import MexicanoView
from conquian.engine.conquian.view import ConquianView
from conquian.engine.cooncan import deal as cooncan
from conquian.engine.deck import pack_order
from conquian.engine.rules import CONQUIAN, MEXICANO, Rules
from conquian.envs.encoding_observe import CONQUIAN_PHASES as CONQUIAN_PHASES
from conquian.envs.encoding_observe import CONQUIAN_SLOTS as CONQUIAN_SLOTS
from conquian.envs.encoding_observe import Mask as Mask
from conquian.envs.encoding_observe import Obs as Obs
from conquian.envs.encoding_observe import Observing
from conquian.envs.encoding_observe import Public as Public
from conquian.envs.encoding_observe import View as View

#: The versions of the action space (``docs/encodings.md``), and the one made unless another is asked for.
VERSIONS = (0, 1)
LATEST = 1
#: Version 1's block of further uses: one index per set of the seat's hand cards, a bit per card
#: of the largest hand a use can be made from (conquian: ten; the conquián mexicano: nine, R8.1).
LAY_BITS = {CONQUIAN: 10, MEXICANO: 9}
_SHIFT_WHICH = {None: 0, "low": 1, "high": 2}


def hand_bits(laid: int, hand: int) -> int:
    """The hand cards ``laid`` as bits over ``hand`` in the pack's order: bit ``i`` for the ``i``-th
    card of the hand (the hand's cards ascending by card number, which is the pack's order).

    ```pycon
    >>> from conquian.engine.cards import CardSet
    >>> bin(hand_bits(CardSet.parse("3c 7h").mask, CardSet.parse("3c 5d 7h Ks").mask))
    '0b101'

    ```
    """
    out = 0
    bit = 1
    while hand:
        low = hand & -hand
        if laid & low:
            out |= bit
        hand ^= low
        bit <<= 1
    return out


def hand_cards(bits: int, hand: int) -> int:
    """The inverse of :func:`hand_bits`: the cards of ``hand`` whose bits are set in ``bits``."""
    out = 0
    while hand and bits:
        low = hand & -hand
        if bits & 1:
            out |= low
        hand ^= low
        bits >>= 1
    return out


class Encoding(Observing):
    """Actions and observations of one rules object (a preset with its options), in version
    ``version`` of the action space (:data:`VERSIONS`)."""

    def __init__(self, rules: Rules, version: int = LATEST) -> None:
        if version not in VERSIONS:
            raise ValueError(f"version must be one of {', '.join(map(str, VERSIONS))}, not {version!r}")
        self.rules = rules
        self.version = version
        self.conquian = rules.family == CONQUIAN
        self.mexicano = rules.family == MEXICANO
        cards = sorted(set(c for c in pack_order(rules) if c != JOKER))
        self.cards = cards
        self.dense = [-1] * 64  # card number -> its index among the pack's cards
        for i, c in enumerate(cards):
            self.dense[c] = i
        self.n_cards = len(cards)
        self.players = rules.players
        # a suit's 16-bit row -> its ranks present, in the pack's order (the dense order is suit by
        # suit, ranks ascending)
        ranks = np.array(sorted(set(c & 15 for c in cards)), dtype=np.int64)
        self._row_table = ((np.arange(1 << 16, dtype=np.int64)[:, None] >> ranks) & 1).astype(np.float32)
        if self.conquian:
            self._conquian_actions()
        elif self.mexicano:
            self._mexicano_actions()
        else:
            self._cooncan_actions()

    # ---------------------------------------------------------------- actions
    def _conquian_actions(self) -> None:
        tbl = meld_table(self.rules)
        self.melds = sorted(tbl.valid)
        self.meld_index = {m: i for i, m in enumerate(self.melds)}
        self.A_PASS, self.A_FORCE = 0, 1
        self.A_DISCARD = self.A_FORCE + self.n_cards
        self.A_USE = self.A_DISCARD + self.n_cards
        self.n_actions = self.A_USE + len(self.melds)
        self._lay_block()
        c = self.n_cards
        self.obs_size = c * (1 + 2 * CONQUIAN_SLOTS + 1 + 1 + 4) + 4 + 3 + 2

    def _mexicano_actions(self) -> None:
        """R8: conquian's pass, discard and uses; a force names the player forced (relative to the
        actor: the k-th player after him in the order of play); the exchange's give (R8.2)."""
        tbl = meld_table(self.rules)
        self.melds = sorted(tbl.valid)
        self.meld_index = {m: i for i, m in enumerate(self.melds)}
        c, n = self.n_cards, self.players
        self.A_PASS, self.A_FORCE = 0, 1
        self.A_DISCARD = self.A_FORCE + (n - 1) * c
        self.A_USE = self.A_DISCARD + c
        self.A_GIVE = self.A_USE + len(self.melds)
        self.n_actions = self.A_GIVE + c
        self._lay_block()
        # a side holds at most hand + 1 cards (going out, R8.5), so (hand + 1) // 3 combinations
        self.slots = (self.rules.hand_size + 1) // 3
        self.obs_size = c * (1 + n * self.slots + 4 + 3 * n) + 6 + 6 * n

    def _lay_block(self) -> None:
        """Version 1: the further uses, after every other block (``A_LAY``, ``2 ** lay_bits``
        indices: the set of hand cards laid, as :func:`hand_bits`); version 0 has none."""
        self.A_LAY = self.n_actions
        self.lay_bits = LAY_BITS[self.rules.family] if self.version >= 1 else 0
        if self.lay_bits:
            if self.rules.hand_size > self.lay_bits:
                raise ValueError(f"hands of {self.rules.hand_size} cards do not fit the action space")
            self.n_actions += 1 << self.lay_bits

    def number_uses(self, card: int, hand: int, forms: Sequence[tuple[int, ...]]) -> list[tuple[int, tuple[int, ...]]]:
        """The index of each listed use of ``card`` (``forms``, in the listing's order, from a
        hand ``hand``): the first use whose combination holding the card is ``m`` is ``A_USE +
        m``'s number; each further one (version 1) is ``A_LAY`` + the hand cards it lays as
        :func:`hand_bits` (two further uses laying the same hand cards, which the listing never
        gives, raise ``RuntimeError``).  In version 0 the further ones have no index and are left
        out."""
        out: list[tuple[int, tuple[int, ...]]] = []
        seen: set[int] = set()
        lays: set[int] = set()
        a_use, a_lay, melds, lay = self.A_USE, self.A_LAY, self.meld_index, self.lay_bits
        for f in forms:
            m = f[0]
            if not m >> card & 1:
                m = next(x for x in f if x >> card & 1)
            if m not in seen:
                seen.add(m)
                out.append((a_use + melds[m], f))
            elif lay:
                laid = 0
                for x in f:
                    laid |= x
                i = a_lay + hand_bits(laid & hand, hand)
                if i in lays:  # the listing lays each further set of hand cards once (use_forms, step 4)
                    raise RuntimeError(f"two listed uses of one combination lay the same hand cards: {f!r}")
                lays.add(i)
                out.append((i, f))
        return out

    def _cooncan_actions(self) -> None:
        r = self.rules
        d = self.n_cards  # 52 naturals
        self.tokens = d + 1 + d  # a natural, a joker in a set, a joker named as a natural
        self.slots = r.pack_size // 3
        full = sum(1 << c for c in self.cards)
        threes = cooncan.hand_threes(full, full if r.copies == 2 else 0, min(r.jokers, 2))
        if self.version == 0:  # the first space's threes: at most one joker, or a set of one natural and two
            threes = [t for t in threes if t.count(JOKER) < 2 or t[1:] == (JOKER, JOKER)]
        self.threes = list(dict.fromkeys(threes))
        self.three_index = {t: i for i, t in enumerate(self.threes)}
        self.A_DRAW = 0
        self.A_TAKE = 1
        self.A_DISCARD = self.A_TAKE + d + 1
        self.A_MELD = self.A_DISCARD + d + 1
        self.A_ADD = self.A_MELD + len(self.threes)
        self.A_SHIFT = self.A_ADD + self.slots * self.tokens
        # the sequences of one natural and two jokers (two jokers in the pack only), last, so that
        # the indices before them mean what they meant when they were not listed; version 0's space
        # is the first one, without them
        self.runs3 = cooncan.joker_runs(full, min(r.jokers, 2)) if self.version >= 1 else []
        self.run3_index = {t: i for i, t in enumerate(self.runs3)}
        self.A_RUN3 = self.A_SHIFT + self.slots * 3 * self.tokens
        self.n_actions = self.A_RUN3 + len(self.runs3)
        self.A_LAY, self.lay_bits = self.n_actions, 0  # every Cooncan action of version 1 has its index
        n = self.players
        self.slot_size = d + 1 + d + n + 1
        self.obs_size = (d + 1) * 4 + self.slots * self.slot_size + (n - 1) * (d + 1) + 2 * n + n + 3 + 3

    def _token(self, card: int, pos: int, named: int) -> int:
        if card != JOKER:
            return self.dense[card]
        return self.n_cards if pos == 0 else self.n_cards + 1 + self.dense[named]

    def index(self, raw: tuple[int, Any], player: int = 0) -> int:
        """The index of a listed raw action (conquián mexicano: of player index ``player``, whom
        a force's target is counted from)."""
        kind, arg = raw
        if self.mexicano:
            if kind == K_FORCE:
                k = ((arg >> FORCE_SHIFT) - player - 1) % self.players
                return int(self.A_FORCE + k * self.n_cards + self.dense[arg & 63])
            if kind == K_GIVE:
                return self.A_GIVE + int(self.dense[arg])
        if self.conquian or self.mexicano:
            if kind == K_PASS:
                return self.A_PASS
            if kind == K_FORCE:
                return self.A_FORCE + int(self.dense[arg])
            if kind == C_DISCARD:
                return self.A_DISCARD + int(self.dense[arg])
            assert kind == K_USE
            raise ValueError("a use needs the card in play: use index_use")
        if kind == cooncan.K_DRAW:
            return self.A_DRAW
        if kind == cooncan.K_TAKE:
            return self.A_TAKE + self._card(arg)
        if kind == cooncan.K_DISCARD:
            return self.A_DISCARD + self._card(arg)
        if kind == cooncan.K_MELD3:
            return self.A_MELD + self.three_index[tuple(arg)]
        if kind == cooncan.K_MELD3R:
            return self.A_RUN3 + self.run3_index[tuple(arg)]
        if kind == cooncan.K_ADD1:
            k, card, pos, named = arg
            return int(self.A_ADD + k * self.tokens + self._token(card, pos, named))
        if kind == cooncan.K_SHIFT1:
            k, which, card, pos, named = arg
            return int(self.A_SHIFT + (k * 3 + _SHIFT_WHICH[which]) * self.tokens + self._token(card, pos, named))
        raise ValueError(f"not a listed action kind: {kind}")

    def listed(self, view: View) -> dict[int, tuple[int, Any]]:
        """The listed legal actions of the seat to act, by index (empty when it is not to act)."""
        if isinstance(view, ConquianView):
            return self.listed_raws(view.legal_raw(), view.card, view.hand_mask, 0)
        if isinstance(view, MexicanoView):
            return self.listed_raws(view.legal_raw(), view.card, view.hand_mask, view.player)
        out: dict[int, tuple[int, Any]] = {}
        for raw in view.legal_raw():
            if raw[0] == cooncan.K_MELD3R and self.version == 0:
                continue  # version 0 has no index for a sequence of one natural and two jokers
            out.setdefault(self.index(raw), raw)
        return out

    def listed_raws(self, raws: Sequence[tuple[int, Any]], card: int, hand: int, player: int
                    ) -> dict[int, tuple[int, Any]]:
        """Conquian's or the conquián mexicano's listed raw actions of ``player`` (the mexicano's
        number; conquian's is unused), with ``card`` in play and ``hand``, by index: the uses as
        :meth:`number_uses` numbers them, then the other kinds (a mexicano's force by the player
        forced, R8.4), each index once."""
        out: dict[int, tuple[int, Any]] = {}
        forms = [arg for kind, arg in raws if kind == K_USE]
        if forms:
            for i, f in self.number_uses(card, hand, forms):
                out.setdefault(i, (K_USE, f))
        dense, c, n = self.dense, self.n_cards, self.players
        mex = self.mexicano
        for raw in raws:
            kind, arg = raw
            if kind == K_USE:
                continue
            if kind == C_DISCARD:
                i = self.A_DISCARD + dense[arg]
            elif kind == K_FORCE:
                i = self.A_FORCE + (((arg >> FORCE_SHIFT) - player - 1) % n * c + dense[arg & 63] if mex
                                    else dense[arg])
            elif kind == K_GIVE:
                i = self.A_GIVE + dense[arg]
            else:
                i = self.A_PASS
            if i not in out:
                out[i] = raw
        return out

    def mask(self, view: View) -> Mask:
        """1 at the index of every listed legal action of the seat to act, 0 elsewhere."""
        m = np.zeros(self.n_actions, dtype=np.int8)
        idx = list(self.listed(view))
        if idx:
            m[idx] = 1
        return m

    def action(self, index: int, view: View) -> Action:
        """The engine's action for a legal ``index`` (raises ``ValueError`` if it is masked)."""
        listed = self.listed(view)
        if index not in listed:
            raise ValueError(f"action {index} is not legal now")
        return self._to_action(listed[index], view)

    def index_of(self, action: Action, view: View) -> int | None:
        """The index of ``action`` if it is among the listed legal actions of ``view``'s seat (the
        seat to act), else ``None``."""
        for i, raw in self.listed(view).items():
            if self._to_action(raw, view) == action:
                return i
        return None

    @staticmethod
    def _to_action(raw: tuple[int, Any], view: View) -> Action:
        if isinstance(view, ConquianView):
            return conquian_raw_to_action(view.seat, raw)
        if isinstance(view, MexicanoView):
            return mexicano_raw_to_action(view.seats, view.player, raw)
        return cooncan.raw_to_action(view.seat, raw, view.rules.stock == "open")

    def action_text(self, index: int, seat: int, view: View | None = None) -> str:
        """An index in words, for any seat (a use or an add names its combination; a further use
        of version 1 names the places of the hand cards it lays, 1 the hand's first card in the
        pack's order).  With ``view``, the view of the seat to act, a legal index is the engine's
        own action in notation (a further use names every card it lays)."""
        if view is not None and index >= self.A_LAY:
            listed = self.listed(view)
            if index in listed:
                return str(self.action(index, view))
        if index >= self.A_LAY:
            bits = index - self.A_LAY
            places = " ".join(str(i + 1) for i in range(self.lay_bits) if bits >> i & 1)
            return f"p{seat} use laying hand cards {places}" if places else f"p{seat} use laying no hand card"
        if self.conquian or self.mexicano:
            return self._conquian_text(index, seat)
        if index == self.A_DRAW:
            return f"p{seat} draw"
        if index < self.A_DISCARD:
            return f"p{seat} take {self._name(index - self.A_TAKE)}"
        if index < self.A_MELD:
            return f"p{seat} discard {self._name(index - self.A_DISCARD)}"
        if index < self.A_ADD:
            return f"p{seat} meld " + " ".join(card_str(c) if c != JOKER else "X" for c in
                                                self.threes[index - self.A_MELD])
        if index < self.A_SHIFT:
            k, t = divmod(index - self.A_ADD, self.tokens)
            return f"p{seat} add {k + 1} {self._token_name(t)}"
        if index >= self.A_RUN3:
            return f"p{seat} meld {cooncan.new_run3(self.runs3[index - self.A_RUN3], seat, 0)}"
        k3, t = divmod(index - self.A_SHIFT, self.tokens)
        k, w = divmod(k3, 3)
        return f"p{seat} shift {k + 1} {['', 'low ', 'high '][w]}{self._token_name(t)}"

    def _conquian_text(self, index: int, seat: int) -> str:
        """An index of conquian or the conquián mexicano in words (a mexicano's force names its
        target player when three play, R8.4)."""
        if index == self.A_PASS:
            return f"p{seat} pass"
        if index < self.A_DISCARD:
            k, i = divmod(index - self.A_FORCE, self.n_cards)
            n = self.players
            target = f" p{(seat + k) % n + 1}" if self.mexicano and n > 2 else ""  # the (k+1)-th player after the seat
            return f"p{seat} force {card_str(self.cards[i])}{target}"
        if index < self.A_USE:
            return f"p{seat} discard {card_str(self.cards[index - self.A_DISCARD])}"
        if self.mexicano and index >= self.A_GIVE:
            return f"p{seat} give {card_str(self.cards[index - self.A_GIVE])}"
        return f"p{seat} use {meld_table(self.rules).meld_str(self.melds[index - self.A_USE])}"

    def _name(self, i: int) -> str:
        return "X" if i == self.n_cards else card_str(self.cards[i])

    def _token_name(self, t: int) -> str:
        if t < self.n_cards:
            return card_str(self.cards[t])
        return "X" if t == self.n_cards else "X=" + card_str(self.cards[t - self.n_cards - 1])


@cache
def encoding(rules: Rules, version: int = LATEST) -> Encoding:
    """The encoding of a rules object in a version of the action space (each made once)."""
    return Encoding(rules, version)


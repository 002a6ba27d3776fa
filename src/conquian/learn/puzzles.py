"""Puzzles: real positions of the bots' self-play, from one seat's view, where one choice is clearly
best (``python -m benchmarks.make_puzzles`` mines them; ``puzzles.json`` beside this module ships them).

A position is kept only when the search of the review (:func:`conquian.review.evaluate`: re-deals of
the cards the seat has not seen, played out by ``foster``) puts the best move at least
:data:`MARGIN` in win chance above the second, at :data:`CONFIRM_PLAYOUTS` playouts (three times the
review's) on each of :data:`CONFIRM_SEEDS` independent sets of re-deals.  Its difficulty is how often
``foster`` and ``expert`` miss the answer.  A puzzle is shown from its seat's view alone
(:func:`puzzle_lines`); the whole deck is kept only to set the position up.

A puzzle also has a rating on the players' scale (:func:`start_rating`), where a signed-in player
meets it on the server (:mod:`conquian.web.platform.puzzle_ratings`).
"""

from __future__ import annotations

import datetime
import hashlib
import json
import zlib
from dataclasses import asdict, dataclass, field, replace
from functools import cache
from importlib.resources import files
from typing import Any

from conquian.engine.actions import parse_action
from conquian.engine.cards import JOKER, card_symbol, cards_of, parse_card, parse_cards, sort_key, the_card
from conquian.engine.conquian.melds import meld_table
from conquian.engine.cooncan.view import CooncanView
from conquian.engine.match import Deal, new_deal
from conquian.engine.rules import get_rules
from conquian.i18n import Msg, NMsg, Translator, active
from conquian.present import move_msg, seat_msg, sentence, symbols

#: The least lead in win chance of the answer over the second-best move.
MARGIN = 0.2
#: Playouts per candidate when a puzzle is confirmed (three times the review's 200).
CONFIRM_PLAYOUTS = 600
#: The independent re-deal seeds on which the answer must lead by :data:`MARGIN`.
CONFIRM_SEEDS = (1, 2)
#: The puzzles' themes, by the kind of the answer (their words: :data:`THEME_WORDS`).
THEMES = ("going-out", "forcing", "safe-discard", "the-say", "borrowing", "using", "fattening")
THEME_WORDS = {
    "going-out": Msg("going out"), "forcing": Msg("forcing"), "safe-discard": Msg("safe discards"),
    "the-say": Msg("the say"), "borrowing": Msg("borrowing"), "using": Msg("using a card"),
    "fattening": Msg("fattening (Cooncan)"),
}


@dataclass(frozen=True)
class Puzzle:
    """One puzzle: the position (variant, dealer, deck, the actions before it, the seat to act), the
    answer and the estimates that make it one, its theme and difficulty."""

    id: str
    variant: str
    dealer: int
    deck: str
    actions: tuple[str, ...]
    seat: int
    answer: str
    estimates: tuple[tuple[str, float], ...]
    theme: str
    difficulty: float
    options: dict[str, Any] = field(default_factory=dict)
    source: str = "self-play"
    """Where the position was found: ``self-play`` (the bots' own deals), ``record <digest> deal N``
    (a record file, named by a digest of its text) or ``match <table id> deal N`` (a finished rated
    or published match of a server).  Never a player's name."""
    answer_sha256: str = ""
    """A sealed puzzle's answer (:func:`seal_puzzles`: the offline app's copy): the digest of its
    id and answer (:func:`answer_digest`), its ``answer`` and best estimate's move then empty until
    :meth:`unsealed` finds the listed move with that digest.  Empty for the shipped puzzles."""

    def unsealed(self) -> Puzzle:
        """The puzzle with its answer (a sealed one's: the legal move whose digest is its
        :attr:`answer_sha256`); the puzzle itself when it is not sealed."""
        if not self.answer_sha256:
            return self
        for a in self.deal().legal_actions():
            if answer_digest(self.id, str(a)) == self.answer_sha256:
                best = (str(a), self.estimates[0][1])
                return replace(self, answer=str(a), estimates=(best, *self.estimates[1:]), answer_sha256="")
        raise ValueError(f"puzzle {self.id}: no legal move has its answer's digest")

    def deal(self) -> Deal:
        """The position: the deal after the actions before the puzzle."""
        d = new_deal(get_rules(self.variant, **self.options), parse_cards(self.deck), dealer=self.dealer)
        for a in self.actions:
            d.play(a)
        return d

    @property
    def second(self) -> tuple[str, float]:
        """The second-best move and its win chance."""
        return self.estimates[1]

    def explanation(self) -> Msg:
        """Why the answer is best, in words (translated where read)."""
        best, win = self.estimates[0]
        second, other = self.second
        return Msg("{answer} wins {win} of the re-deals of the cards you cannot see; the next best, {second}, "
                   "only {other}. Theme: {theme}.", answer=move_words(best),
                   win=f"{round(win * 100)}%", second=move_words(second), other=f"{round(other * 100)}%",
                   theme=THEME_WORDS[self.theme])

    def reasons(self) -> list[Msg]:
        """What the answer and the second-best move do, in words (:func:`reasons_at`)."""
        return reasons_at(self.deal(), self.seat, (self.answer, self.second[0]))

    def to_json(self) -> dict[str, Any]:
        """The puzzle as the data file keeps it."""
        out = asdict(self)
        if not out["answer_sha256"]:
            del out["answer_sha256"]
        out["actions"] = list(self.actions)
        out["estimates"] = [list(e) for e in self.estimates]
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Puzzle:
        """A puzzle from the data file."""
        return cls(id=data["id"], variant=data["variant"], dealer=data["dealer"], deck=data["deck"],
                   actions=tuple(data["actions"]), seat=data["seat"], answer=str(data.get("answer", "")),
                   estimates=tuple((str(a), float(w)) for a, w in data["estimates"]), theme=data["theme"],
                   difficulty=float(data["difficulty"]), options=dict(data.get("options", {})),
                   source=str(data.get("source", "self-play")), answer_sha256=str(data.get("answer_sha256", "")))


#: The bots whose picks make a puzzle's difficulty, and whose fitted ratings in ``conquian``
#: (:mod:`conquian.bots.levels`) anchor a puzzle's starting rating.
ANCHORS = ("foster", "expert")
#: The difficulty of a puzzle that foster misses at every pick and expert finds at every pick
#: (``benchmarks/make_puzzles.py``: five picks of foster's, two of expert's).
FOSTER_MISSES = 5 / 7


def start_rating(difficulty: float) -> tuple[float, float]:
    """A puzzle's starting rating (openskill's ``mu`` and ``sigma``) from its difficulty, on the
    bots' fitted scale: a straight line through two anchors, with ``gap`` the distance between
    foster's and expert's fitted ``mu``:

    - difficulty 0 (foster and expert find it at every pick): half a gap below foster;
    - difficulty 5/7 (foster misses at each of its five picks, expert finds it at both of its
      two): halfway between foster and expert;

    so each further seventh (an expert pick that misses) is a fifth of a gap higher, and a puzzle
    both always miss is 0.9 of a gap above foster, just under expert.  Its ``sigma`` is the anchors' mean fitted
    ``sigma``: a puzzle's rating is read off the same fit as theirs, and it is met by many players,
    so their results move it less than a new player's.

    >>> from conquian.bots.levels import fixed_rating
    >>> foster, expert = (fixed_rating("conquian", b) for b in ANCHORS)
    >>> mu, sigma = start_rating(FOSTER_MISSES)
    >>> abs(mu - (foster["mu"] + expert["mu"]) / 2) < 1e-9, abs(sigma - (foster["sigma"] + expert["sigma"]) / 2) < 1e-9
    (True, True)
    >>> start_rating(0.0)[0] < foster["mu"] < mu < start_rating(1.0)[0] < expert["mu"]
    True
    """
    from conquian.bots.levels import fixed_rating

    low, high = (fixed_rating("conquian", b) for b in ANCHORS)
    if low is None or high is None:  # no fit shipped: a new player's rating
        return 25.0, 25 / 3
    gap = high["mu"] - low["mu"]
    mu = low["mu"] + gap * (min(max(difficulty, 0.0), 1.0) / FOSTER_MISSES - 0.5)
    return mu, (low["sigma"] + high["sigma"]) / 2


def starting_shown(difficulty: float) -> int:
    """A puzzle's starting rating as the players' ratings are shown (the mean on the web's scale,
    :func:`conquian.bots.levels.scale_rating`: ``foster`` is 1,500)."""
    from conquian.bots.levels import scale_rating

    mu, _sigma = start_rating(difficulty)
    return round(scale_rating(mu))


def move_words(notation: str) -> Msg:
    """A move in words, in the reader's language when rendered (``pagar 10♥``)."""
    return move_msg(parse_action(notation))


def reasons_at(deal: Deal, seat: int, moves: tuple[str, ...]) -> list[Msg]:
    """What each of ``moves`` does, in words, from ``seat``'s view alone (:func:`move_effect`): the
    card it leaves to the adversary and whether it fits his combinations on the table, the cards
    it lays, whether it goes out."""
    view: Any = deal.view(seat)
    out = []
    for move in moves:
        said = move_effect(deal, view, seat, move)
        if said is None:
            continue
        for _key, note in move_notes(deal, view, seat, move):
            said = Msg("{said} {more}", said=said, more=note)
        out.append(said)
    return out


def reason_keys(deal: Deal, seat: int, move: str) -> tuple[str, ...]:
    """What kind of reasons :func:`reasons_at` gives for ``move`` (its effect's kind, then each
    note's key, with the numbers that tell two moves apart): two moves with the same keys are
    told in the same words but for their cards."""
    view: Any = deal.view(seat)
    said = move_effect(deal, view, seat, move)
    return (said.msgid if said is not None else "", *(k for k, _m in move_notes(deal, view, seat, move)))


@cache
def _triples(variant: str) -> tuple[tuple[int, ...], int]:
    """The combinations of three cards of a conquian pack, and the mask of every card."""
    valid = meld_table(get_rules(variant)).valid
    every = 0
    for m in valid:
        every |= m
    return tuple(m for m in valid if m.bit_count() == 3), every


def move_notes(deal: Deal, view: Any, seat: int, move: str) -> list[tuple[str, Msg]]:
    """What :func:`move_effect` leaves unsaid, keyed by kind, from the seat's view alone.

    Conquian, for a card the move gives up (discarded, forced or passed): whether it goes with
    cards the seat keeps (a combination still open, R2.2) or with none; and, when the adversary
    may take it, how many pairs of cards the seat has not seen would make a new combination with
    it in his hand (none: he can use it only on his combinations on the table).  Cooncan: the
    pips the hand still holds (what its owner pays when another goes out, R5.2)."""
    if isinstance(view, CooncanView):
        return _cooncan_notes(deal, view, seat, move)
    parts = move.split()
    verb = parts[1]
    if verb not in ("pass", "discard", "force"):
        return []
    card = view.card if verb == "pass" else parse_card(parts[2])
    if card < 0:
        return []
    triples, every = _triples(deal.rules.name)
    valid = meld_table(deal.rules).valid
    seen = view.hand_mask | view.buried_mask | (1 << view.card if view.card >= 0 else 0)
    for side in view.side_masks:
        for m in side:
            seen |= m
    unseen = every & ~seen
    bit = 1 << card
    kept = view.hand_mask & ~bit
    lendable = 0  # cards of the seat's side it could borrow (R3.4): their combination stays valid without them
    for m in view.side_masks[view.seats.index(seat)]:
        for c in cards_of(m):
            if (m & ~(1 << c)) in valid:
                lendable |= 1 << c
    partners = outs = 0
    for t in triples:
        rest = t & ~bit
        if t & bit and rest & (kept | lendable) and not rest & ~(kept | unseen | lendable):
            partners |= rest & (kept | lendable)
            outs |= rest & unseen
    notes: list[tuple[str, Msg]] = []
    in_play = card == view.card
    if partners:
        hand, side = _cards(cards_of(partners & kept)), _cards(cards_of(partners & ~kept))
        goes = (Msg("{cards} in your hand and {side} borrowed from your side (R3.4)", cards=hand, side=side)
                if hand and side else Msg("{side} borrowed from your side (R3.4)", side=side) if side
                else Msg("{cards} in your hand", cards=hand))
        n = outs.bit_count()
        text: Msg
        if in_play:
            text = NMsg("You let {card} go, though it goes with {goes}: a combination that one card you have not "
                        "seen would still complete.",
                        "You let {card} go, though it goes with {goes}: a combination that any of {n} cards you have "
                        "not seen would still complete.", n, card=the_card(card), goes=goes)
        else:
            text = NMsg("You give up {card}, which goes with {goes}: a combination that one card you have not seen "
                        "would still complete.",
                        "You give up {card}, which goes with {goes}: a combination that any of {n} cards you have "
                        "not seen would still complete.", n, card=the_card(card), goes=goes)
        if n == 0:
            text = (Msg("You let {card} go, though it makes a combination with {goes}.", card=the_card(card), goes=goes)
                    if in_play else Msg("You give up {card}, which makes a combination with {goes}.",
                                        card=the_card(card), goes=goes))
        notes.append((("lets-go" if in_play else "gives-up") + f":{n}:{partners.bit_count()}", text))
    elif in_play:
        notes.append(("no-use", Msg("Letting {card} go costs you nothing: it goes with none of your cards.",
                                    card=the_card(card))))
    else:
        notes.append(("keeps-all", Msg("Giving up {card} breaks no combination you can still make: it goes with "
                                       "none of the cards you keep.", card=the_card(card))))
    if verb != "force" and _he_may_take(deal, move):
        live = sum(1 for t in triples if t & bit and not (t & ~bit) & ~unseen)
        if live:
            notes.append((f"live:{live}", NMsg(
                "{n} pair of cards you have not seen would make a new combination with {card} in his hand.",
                "{n} pairs of cards you have not seen would make a new combination with {card} in his hand.",
                live, card=the_card(card))))
        else:
            notes.append(("dead", Msg("No two cards you have not seen make a combination with {card}: he could use "
                                      "it only on his combinations on the table.", card=the_card(card))))
    return notes


def _he_may_take(deal: Deal, move: str) -> bool:
    """Whether, after ``move`` (a pass or a discard), the adversary has the say to the card (a
    card passed that he discarded, or that he turned and passed, is buried instead, R3.3): public,
    as the card's fate is seen by both."""
    after = deal.copy()
    after.play(move)
    seat = int(move.split()[0][1:])
    view: Any = after.view(seat)
    return not after.over and after.to_act not in (None, seat) and view.card >= 0


def _cooncan_notes(deal: Deal, view: CooncanView, seat: int, move: str) -> list[tuple[str, Msg]]:
    """A Cooncan move's note: the pips left in hand after it (R5.2)."""
    from conquian.engine.scoring import pip_value

    if move.split()[1] not in ("discard", "add", "shift", "meld"):
        return []
    after = deal.copy()
    after.play(move)
    if after.over:
        return []
    mine: Any = after.view(seat)
    pips = sum(pip_value(c) for c in mine.hand)
    return [(f"pips:{pips}", NMsg("Your hand then holds {n} pip, what you pay if another goes out (R5.2).",
                                  "Your hand then holds {n} pips, what you pay if another goes out (R5.2).", pips))]


def move_effect(deal: Deal, view: Any, seat: int, move: str) -> Msg | None:
    """What ``move`` does at ``seat``'s turn, in words, from what the seat sees (``view``).

    Conquian: the card it leaves to the adversary and whether it fits one of his combinations on
    the table (R3.3, R3.6), and whether his empty hand makes it his eleventh card down (R3.7); a
    force makes him use the card (R3.6); a use says how many cards are then down and which of the
    cards left to discard fit his combinations.  Cooncan: the discard and whether it fits a
    combination on the table (anyone may add it, R4.4), the cards left in hand.  Whether it goes
    out (R3.7, R4.6)."""
    if isinstance(view, CooncanView):
        return _cooncan_effect(deal, view, seat, move)
    words = move_words(move)
    verb = move.split()[1]
    table = meld_table(deal.rules)
    his = view.side_masks[1 - view.seats.index(seat)]
    empty = view.adversary_hand_count == 0
    if verb in ("pass", "discard", "force"):
        card = view.card if verb == "pass" else parse_card(move.split()[2])
        if card < 0:
            return None
        fits = [m for m in his if (m | (1 << card)) in table.valid]
        if verb == "pass" and not _he_may_take(deal, move):
            return Msg("If you {move}, {card} is buried (R3.3): no one may take it.", move=words,
                       card=the_card(card))
        if verb == "force" and fits:
            if empty:
                return Msg("If you {move}, he must use {card} on {meld}, and with his hand empty that is his eleventh "
                           "card down: he goes out.", move=words, card=the_card(card), meld=_cards(cards_of(fits[0])))
            return NMsg("If you {move}, he must use {card} on {meld} and then discard his only card.",
                        "If you {move}, he must use {card} on {meld} and then discard one of his {n} cards.",
                        view.adversary_hand_count, move=words, card=the_card(card), meld=_cards(cards_of(fits[0])))
        if fits and empty:
            return Msg("If you {move}, he may take {card}: it fits {meld}, his combination on the table, and with his "
                       "hand empty that is his eleventh card down: he goes out.",
                       move=words, card=the_card(card), meld=_cards(cards_of(fits[0])))
        if fits:
            return Msg("If you {move}, he may take {card}, and it fits {meld}, his combination on the table.",
                       move=words, card=the_card(card), meld=_cards(cards_of(fits[0])))
        return Msg("If you {move}, he may take {card}, but it fits none of his combinations on the table.",
                   move=words, card=the_card(card))
    after = deal.copy()
    after.play(move)
    if after.over and after.winner_seat == seat:
        return Msg("If you {move}, you go out: every card you need is down.", move=words)
    if verb == "use":
        mine: Any = after.view(seat)
        down = sum(m.bit_count() for m in mine.side_masks[mine.seats.index(seat)])
        left = cards_of(mine.hand_mask)
        risky = [c for c in left if any((m | (1 << c)) in table.valid for m in his)]
        if len(left) == 1:
            if risky:
                return Msg("If you {move} ({n} down), you then discard your last card, {hand}, and it fits his "
                           "combinations on the table.", move=words, n=down, hand=_cards(left))
            return Msg("If you {move} ({n} down), you then discard your last card, {hand}, which fits none of his "
                       "combinations on the table.", move=words, n=down, hand=_cards(left))
        if left and risky:
            return Msg("If you {move} ({n} down), you then discard one of {hand}; of these, the ones that fit his "
                       "combinations on the table: {risky}.", move=words, n=down, hand=_cards(left),
                       risky=_cards(risky))
        if left:
            return Msg("If you {move} ({n} down), you then discard one of {hand}, none of which fits his "
                       "combinations on the table.", move=words, n=down, hand=_cards(left))
        return NMsg("If you {move}, you have {n} card down.", "If you {move}, you have {n} cards down.", down,
                    move=words)
    return None


def _cooncan_effect(deal: Deal, view: CooncanView, seat: int, move: str) -> Msg | None:
    """What a Cooncan move does, from the seat's view: see :func:`move_effect`."""
    words = move_words(move)
    parts = move.split()
    verb = parts[1]
    after = deal.copy()
    after.play(move)
    if after.over and after.winner_seat == seat:
        return Msg("If you {move}, you go out: your hand is empty.", move=words)
    if verb == "discard" and parts[2] != "X":
        card = parse_card(parts[2])
        fits = [i for i, c in enumerate(view.combos, 1) if c.add_mask >> card & 1]
        nxt = seat % deal.rules.players + 1
        if fits:
            return Msg("If you {move}, {who} may take {card}, and it fits combination {n} on the table.",
                       move=words, who=seat_msg(nxt, seat, deal.rules.players), card=the_card(card), n=fits[0])
        return Msg("If you {move}, {who} may take {card}, but it fits no combination on the table.",
                   move=words, who=seat_msg(nxt, seat, deal.rules.players), card=the_card(card))
    if verb in ("add", "shift", "meld"):
        mine: Any = after.view(seat)
        left = len(mine.hand)
        return NMsg("If you {move}, you have {n} card left in hand.", "If you {move}, you have {n} cards left in hand.",
                    left, move=words)
    return None


def cooncan_lines(deal: Deal, seat: int, tr: Translator | None = None) -> list[str]:
    """A Cooncan position as ``seat`` sees it, made from its view alone: the others' hand counts,
    its hand, the combinations on the table (numbered as the moves name them, with who laid each),
    the discard pile's top (all of it when the stock is open), the pack."""
    tr = tr or active()
    view: Any = deal.view(seat)
    assert isinstance(view, CooncanView)
    players = deal.rules.players
    lines = [tr.render(Msg("You are {who}.", who=Msg("Player {n}", n=seat)))] if players > 2 else []
    for s, n in enumerate(view.hand_counts, 1):
        if s != seat:
            lines.append(sentence(tr.render(NMsg("{who} has {n} card in hand.", "{who} has {n} cards in hand.", n,
                                                 who=seat_msg(s, seat, players)))))
    lines.append(tr.render(Msg("Your hand: ")) + _cards(list(view.hand)))
    for i, combo in enumerate(view.combos, 1):
        lines.append(f"{i}. {symbols(combo.display())} ({tr.render(seat_msg(combo.owner, seat, players))})")
    if view.stock:
        shown = list(view.stock) if deal.rules.stock == "open" else [view.stock[-1]]
        lines.append(tr.render(Msg("Discard pile: ")) + " ".join(card_symbol(c) for c in shown))
    lines.append(tr.render(Msg("pack {n}", n=view.pack_count)))
    return lines


def theme_of(deal: Deal, answer: str) -> str:
    """The theme of an answer in its position."""
    verb = answer.split()[1]
    if verb == "force":
        return "forcing"
    if verb == "discard":
        return "safe-discard"
    if verb == "pass":
        return "the-say"
    after = deal.copy()
    after.play(answer)
    if after.over and after.winner_seat == int(answer.split()[0][1:]):
        return "going-out"
    if verb == "use" and "|" in answer:
        return "borrowing"
    if verb in ("add", "shift"):
        return "fattening"
    return "using"


def answer_digest(puzzle_id: str, move: str) -> str:
    """The digest a sealed puzzle keeps of its answer: SHA-256 of the puzzle's id and the move in
    its normal notation (``p2 discard 7c``), so that equal answers of two puzzles differ.

    >>> answer_digest("c10-29", "p2 pass") == answer_digest("c10-29", "p2  pass")
    True
    """
    return hashlib.sha256(f"conquian puzzle\0{puzzle_id}\0{parse_action(move)}".encode()).hexdigest()


def seal_puzzles(data: dict[str, Any]) -> dict[str, Any]:
    """The puzzles' data file (``puzzles.json``'s object) with every answer sealed, for the offline
    app: each answer kept as its :func:`answer_digest` only, and the best estimate's move blanked
    (its win chance kept), so the file does not give the answers away at a glance.  The page's
    engine finds an answer again, after the player's attempt, by the digest of each listed move
    (:meth:`Puzzle.unsealed`); a player who hashes every move finds them too: puzzles offline
    are not rated."""
    out = dict(data)
    sealed = []
    for p in data["puzzles"]:
        q = dict(p)
        q["answer_sha256"] = answer_digest(q["id"], q.pop("answer"))
        q["estimates"] = [["", q["estimates"][0][1]], *q["estimates"][1:]]
        sealed.append(q)
    out["puzzles"] = sealed
    return out


@cache
def puzzles() -> tuple[Puzzle, ...]:
    """The shipped puzzles."""
    text = files("conquian.learn").joinpath("puzzles.json").read_text(encoding="utf-8")
    return tuple(Puzzle.from_json(p) for p in json.loads(text)["puzzles"])


def daily_puzzle(day: datetime.date | None = None) -> Puzzle:
    """The puzzle of the day (``day``: today in UTC), the same for everyone on the same day: the
    shipped puzzles in a fixed shuffled order (by a digest of their ids), one a day, round and
    round, so that no puzzle comes back before every other has had its day."""
    day = day or datetime.datetime.now(datetime.UTC).date()
    order = sorted(puzzles(), key=lambda p: (zlib.crc32(p.id.encode()), p.id))
    if not order:
        raise LookupError("no puzzles are shipped")
    return order[day.toordinal() % len(order)]


def _cards(cards: list[int]) -> str:
    return " ".join("X" if c == JOKER else card_symbol(c) for c in sorted(cards, key=sort_key))


def puzzle_lines(puzzle: Puzzle, tr: Translator | None = None) -> list[str]:
    """The puzzle as its seat sees it (:func:`view_lines`)."""
    return view_lines(puzzle.deal(), puzzle.seat, tr)


def view_lines(deal: Deal, seat: int, tr: Translator | None = None) -> list[str]:
    """A two-hand conquian position as ``seat`` sees it, made from its view alone: its hand, both sides
    of the table, the card in play, the pack, and the cards buried so far (both saw them); a Cooncan
    position: :func:`cooncan_lines`."""
    tr = tr or active()
    view: Any = deal.view(seat)
    if isinstance(view, CooncanView):
        return cooncan_lines(deal, seat, tr)
    lines = [sentence(tr.render(NMsg("{who} has {n} card in hand.", "{who} has {n} cards in hand.",
                                     view.adversary_hand_count, who=seat_msg(3 - seat, seat, 2))))]
    lines.append(tr.render(Msg("Your hand: ")) + _cards(cards_of(view.hand_mask)))
    for s, side in zip(view.seats, view.side_masks, strict=False):
        melds = " | ".join(_cards(cards_of(m)) for m in side) or tr.render(Msg("nothing down"))
        lines.append(tr.render(Msg("{who}: {cards}", who=sentence(tr.render(seat_msg(s, seat, 2))), cards=melds)))
    if view.card >= 0:
        lines.append(tr.render(Msg("In play: ")) + _cards([view.card]))
    lines.append(tr.render(Msg("pack {n}", n=view.pack_count)))
    buried = cards_of(view.buried_mask)
    lines.append(tr.render(NMsg("Buried: ", "Buried: ", len(buried))) + (_cards(buried) or "-"))
    return lines


def search(puzzle: Puzzle, playouts: int, seed: int) -> list[tuple[str, float]]:
    """The review's search at the puzzle's position from its seat's view: every candidate with its
    win chance, best first (ties by notation)."""
    return search_view(puzzle.deal().view(puzzle.seat), playouts, seed)


def search_view(view: Any, playouts: int, seed: int) -> list[tuple[str, float]]:
    """:func:`search` from a seat's view alone (what a puzzle's confirmation reads: re-dealing the
    cards the seat has not seen gives the same answer)."""
    from conquian.bots.foster import FosterBot
    from conquian.review import candidates, evaluate

    foster = str(FosterBot(seed).choose(view))
    ests = evaluate(view, candidates(view, foster, foster), playouts, seed)
    return sorted(((e.action, e.win) for e in ests), key=lambda e: (-e[1], e[0]))


def lead(ranked: list[tuple[str, float]]) -> float:
    """How far the best move leads the second in win chance (1 when it is the only move)."""
    return ranked[0][1] - ranked[1][1] if len(ranked) > 1 else 1.0

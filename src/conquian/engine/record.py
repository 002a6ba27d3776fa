"""The record file (docs/records.md): read, write and replay TOML records.

A record is read with the standard library's ``tomllib`` and written by hand
(no dependency).  :func:`replay` plays every deal through the public engine
API, so a record round-trip is exact and a bad record fails with the deal and
action that broke.

```pycon
>>> from conquian import Match, get_rules
>>> m = Match(get_rules("conquian"))
>>> d = m.new_deal(seed=5)
>>> while not d.over:
...     _ = d.play(d.legal_actions()[-1])
>>> text = write_record(record_from_match(m))
>>> read_record(text) == record_from_match(m)
True
>>> replay(read_record(text)).totals == (m.settle() or m.totals)
True
>>> from conquian.simulate import simulate
>>> sim = simulate(get_rules("cooncan-double"), deals=3, seed=2, keep=True)
>>> assert sim.match is not None
>>> replay(read_record(write_record(record_from_match(sim.match)))).totals == sim.match.totals
True

```
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from typing import Any

from conquian.engine.cards import card_str, parse_cards
from conquian.engine.errors import ConquianError, IllegalActionError, NotationError, RecordError, quote
from conquian.engine.files import MAX_RECORD_BYTES, read_text_limited
from conquian.engine.match import Deal, Match, check_name
from conquian.engine.rules import COONCAN, PRESETS, Rules, get_rules
from conquian.i18n import Msg

FORMAT = "conquian-record/1"
#: Limits checked before a record is parsed, so that no file can make the reader recurse, loop or
#: swallow memory: nesting of arrays and tables, dots on one line (dotted keys nest too).
MAX_DEPTH = 8
MAX_DOTS_PER_LINE = 8
#: The longest action text a record may hold.
MAX_ACTION = 400
# What matters to nesting in TOML, strings and comments matched whole so that their insides are skipped.
_TOML_TOKENS = re.compile(
    r'#[^\n]*|"""(?:[^\\]|\\.)*?"""|\'\'\'.*?\'\'\'|"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'|[\[\]{}.\n]',
    re.S,
)


@dataclass
class DealRecord:
    """One deal of a record: its dealer, deck (or seed), actions and, once over, result."""

    dealer: int
    deck: tuple[int, ...] | None = None
    seed: int | None = None
    actions: list[str] = field(default_factory=list)
    result: dict[str, Any] | None = None


@dataclass
class Record:
    """A whole record: variant, players, options and deals (docs/records.md)."""

    variant: str
    players: list[str]
    options: dict[str, Any] = field(default_factory=dict)
    deals: list[DealRecord] = field(default_factory=list)

    def rules(self) -> Rules:
        """The rules object of this record."""
        return get_rules(self.variant, players=len(self.players), **self.options)


class ReplayError(RecordError):
    """A record whose replay fails: ``deal`` and ``action`` are numbered from 1.

    ``reason_message`` is what went wrong (a :class:`~conquian.i18n.Msg`, without the deal and
    action), ``reason`` the same in English: the replay contract's ``message``, the same in every
    language.  :meth:`render` gives the whole error, its place in the record first, in a reader's.
    """

    def __init__(self, message: str | Msg, *, deal: int | None = None, action: int | None = None,
                 text: str | None = None, rule: str | None = None) -> None:
        self.deal = deal
        self.action = action
        if text is not None and len(text) > 2 * MAX_ACTION:  # echo a little of a huge action, not all of it
            text = text[:MAX_ACTION] + f"... ({len(text)} characters)"
        self.text = text
        self.rule = rule
        self.reason_message = message if isinstance(message, Msg) else Msg(str(message))
        self.reason = str(self.reason_message)
        whole = self.reason_message
        if deal is not None and action is not None:
            whole = Msg("deal {deal}, action {action} ({text}): {message}", deal=deal, action=action,
                        text=quote(text), message=self.reason_message)
        elif deal is not None:
            whole = Msg("deal {deal}: {message}", deal=deal, message=self.reason_message)
        super().__init__(whole)

    def to_json(self) -> dict[str, Any]:
        """The ``error`` object of the replay contract."""
        return {"deal": self.deal, "action": self.action, "text": self.text, "rule": self.rule,
                "message": self.reason}


# ------------------------------------------------------------------ reading
def _need(cond: bool, message: Msg, deal: int | None = None) -> None:
    if not cond:
        raise ReplayError(message, deal=deal)


def _check_shape(text: str) -> None:
    """Refuse, before parsing, a text too large or nested too deep to be a record."""
    if len(text) > MAX_RECORD_BYTES:
        raise ReplayError(Msg("not a record: {n} characters (a record has at most {limit})", n=f"{len(text):,}",
                              limit=f"{MAX_RECORD_BYTES:,}"))
    depth = dots = 0
    for m in _TOML_TOKENS.finditer(text):
        tok = m.group()
        if tok in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                raise ReplayError(Msg("not a record: arrays or tables nested deeper than {n}", n=MAX_DEPTH))
        elif tok in "]}":
            depth = max(0, depth - 1)
        elif tok == ".":
            dots += 1
            if dots > MAX_DOTS_PER_LINE:
                raise ReplayError(Msg("not a record: more than {n} dotted keys on one line", n=MAX_DOTS_PER_LINE))
        elif tok == "\n":
            dots = 0


def read_record(text: str) -> Record:
    """Parse a record's TOML text; raise :class:`ReplayError` (rule ``None``) if it is not a record."""
    _check_shape(text)
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ReplayError(Msg("not a TOML document: {error}", error=str(e))) from None
    except (ValueError, RecursionError, MemoryError) as e:  # e.g. an integer of 5,000 digits
        raise ReplayError(Msg("not a record: {error}", error=quote(str(e), 100))) from None
    fmt = doc.get("format")
    _need(fmt == FORMAT, Msg("{key} must be {want}, not {value}", key="format", want=repr(FORMAT), value=repr(fmt)))
    variant = doc.get("variant")
    _need(isinstance(variant, str) and variant in PRESETS,
          Msg("{key} must be one of {choices}, not {value}", key="variant", choices=", ".join(PRESETS),
              value=repr(variant)))
    players = doc.get("players")
    _need(isinstance(players, list) and 1 <= len(players) <= 16, Msg("{key} must be a list of names", key="players"))
    assert isinstance(variant, str) and isinstance(players, list)
    try:
        names = [check_name(p) for p in players]
    except NotationError as e:
        raise ReplayError(Msg("{key}: {error}", key="players", error=e.message)) from None
    options = doc.get("options", {})
    _need(isinstance(options, dict), Msg("{key} must be a table", key="options"))
    options = dict(options)
    if "players" in options:  # the player count is the length of players; a second one must agree
        _need(options["players"] == len(names) and type(options["players"]) is int,
              Msg("options: players = {value} disagrees with the {n} names of players",
                  value=quote(options["players"], 20), n=len(names)))
        del options["players"]
    rec = Record(variant=variant, players=names, options=options)
    try:
        rec.rules()
    except NotationError as e:
        raise ReplayError(e.message) from None
    except TypeError as e:
        raise ReplayError(Msg("{key}: {error}", key="options", error=quote(str(e), 100))) from None
    deals = doc.get("deals", [])
    _need(isinstance(deals, list), Msg("{key} must be an array of tables", key="deals"))
    for i, d in enumerate(deals, 1):
        _need(isinstance(d, dict), Msg("a deal must be a table"), i)
        dealer = d.get("dealer")
        _need(isinstance(dealer, int) and not isinstance(dealer, bool) and 1 <= dealer <= len(players),
              Msg("{key} must be a seat number from 1 to {n}, not {value}", key="dealer", n=len(players),
                  value=repr(dealer)), i)
        deck = None
        seed = None
        if "deck" in d:
            _need(isinstance(d["deck"], str), Msg("{key} must be a string of cards", key="deck"), i)
            try:
                deck = tuple(parse_cards(d["deck"]))
            except NotationError as e:
                raise ReplayError(Msg("{key}: {error}", key="deck", error=e.message), deal=i) from None
        elif "seed" in d:
            _need(type(d["seed"]) is int and -(2**63) <= d["seed"] < 2**64,
                  Msg("{key} must be a 64-bit integer", key="seed"), i)
            seed = d["seed"]
        else:
            raise ReplayError(Msg("a deal needs a deck or a seed"), deal=i)
        actions = d.get("actions", [])
        _need(isinstance(actions, list) and all(isinstance(a, str) for a in actions),
              Msg("{key} must be a list of strings", key="actions"), i)
        for j, a in enumerate(actions, 1):
            if len(a) > MAX_ACTION:
                raise ReplayError(Msg("an action of {n} characters (at most {limit})", n=f"{len(a):,}",
                                      limit=MAX_ACTION), deal=i, action=j, text=a)
        result = d.get("result")
        _need(result is None or isinstance(result, dict), Msg("{key} must be a table", key="result"), i)
        rec.deals.append(DealRecord(dealer=dealer, deck=deck, seed=seed, actions=list(actions), result=result))
    return rec


def read_record_file(path: str) -> Record:
    """Read a record from a file (errors as :class:`ReplayError`): a regular file of at most 16 MB."""
    try:
        text = read_text_limited(path)
    except RecordError as e:
        raise ReplayError(e.message) from None
    return read_record(text)


# ------------------------------------------------------------------ writing
def _toml_str(s: str) -> str:
    """A TOML basic string: backslash, quote and every control character escaped."""
    out = []
    for ch in s:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ord(ch) < 0x20 or 0x7F <= ord(ch) < 0xA0:
            out.append(f"\\u{ord(ch):04X}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return _toml_str(v)
    if isinstance(v, list):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{k} = {_toml_value(x)}" for k, x in v.items()) + " }"
    raise TypeError(f"cannot write {v!r} in a record")


def record_header(rec: Record) -> str:
    """The lines of a record before its deals (format, variant, players, options)."""
    lines = [
        f"format = {_toml_str(FORMAT)}",
        f"variant = {_toml_str(rec.variant)}",
        f"players = {_toml_value(rec.players)}",
    ]
    if rec.options:
        lines.append(f"options = {_toml_value(rec.options)}")
    return "\n".join(lines) + "\n"


def deal_text(d: DealRecord) -> str:
    """One ``[[deals]]`` table of a record, a blank line first (records are written deal by deal)."""
    lines = ["", "[[deals]]", f"dealer = {d.dealer}"]
    if d.deck is not None:
        lines.append(f"deck = {_toml_str(' '.join(card_str(c) for c in d.deck))}")
    else:
        lines.append(f"seed = {d.seed}")
    if d.actions:
        lines.append("actions = [")
        lines += [f"  {_toml_str(a)}," for a in d.actions]
        lines.append("]")
    else:
        lines.append("actions = []")
    if d.result is not None:
        lines.append(f"result = {_toml_value(d.result)}")
    return "\n".join(lines) + "\n"


def write_record(rec: Record) -> str:
    """The TOML text of a record (docs/records.md layout)."""
    return record_header(rec) + "".join(deal_text(d) for d in rec.deals)


def deal_record(deal: Deal, scores: list[int] | None) -> DealRecord:
    """The record of one deal (its result once ``scores`` are known)."""
    result = deal_result(deal, scores) if scores is not None else None
    return DealRecord(dealer=deal.dealer, deck=deal.deck, actions=[str(a) for a in deal.actions()], result=result)


def deal_result(deal: Deal, scores: list[int]) -> dict[str, Any]:
    """The ``result`` table of a finished deal (no ``winner`` key on a tableau or a void deal:
    TOML has no null).  Conquian writes ``tableau`` (the conquián mexicano's draw too, R8.6);
    Cooncan ``splash`` and ``void``."""
    out: dict[str, Any] = {}
    if deal.winner_seat is not None:
        out["winner"] = deal.winner_seat
    out["scores"] = scores
    if deal.rules.family != COONCAN:
        out["tableau"] = deal.tableau
    else:
        out["splash"] = bool(getattr(deal, "splash", False))
        out["void"] = bool(getattr(deal, "void", False))
    return out


def record_from_match(match: Match) -> Record:
    """The record of a match so far (results written for finished deals)."""
    rules = match.rules
    rec = Record(variant=rules.name, players=list(match.players), options=rules.options_diff())
    if match.deals and match.deals[-1].over:
        match.settle()
    for i, deal in enumerate(match.deals):
        rec.deals.append(deal_record(deal, match.results[i] if i < len(match.results) else None))
    return rec


# ------------------------------------------------------------------ replay
@dataclass
class ReplayedDeal:
    """One deal after replay: the final state and its scores (``None`` if unfinished)."""

    deal: Deal
    scores: list[int] | None


@dataclass
class Replay:
    """The outcome of replaying a record."""

    record: Record
    deals: list[ReplayedDeal]

    @property
    def totals(self) -> list[int] | None:
        """Per-seat sums when every deal is over, else ``None``."""
        if not self.deals or any(d.scores is None for d in self.deals):
            return None
        n = len(self.record.players)
        out = [0] * n
        for d in self.deals:
            assert d.scores is not None
            for i, s in enumerate(d.scores):
                out[i] += s
        return out


def replay(rec: Record) -> Replay:
    """Replay every deal of a record through the engine, verifying each ``result``."""
    try:
        rules = rec.rules()
    except NotationError as e:
        raise ReplayError(e.message) from None
    match = Match(rules, rec.players, rounds=None)
    out: list[ReplayedDeal] = []
    for i, d in enumerate(rec.deals, 1):
        if match.deals and not match.deals[-1].over:
            raise ReplayError(Msg("the previous deal is not over, so no later deal can follow"), deal=i)
        try:
            deal = match.new_deal(d.deck, seed=d.seed, dealer=d.dealer)
        except IllegalActionError as e:
            # docs/records.md: a deal out of turn is refused under R3.8; any other bad deal makes the
            # file no valid record (rule null)
            if e.rule == "R3.8":
                raise ReplayError(e.cause_message, deal=i, rule=e.rule) from None
            raise ReplayError(e.message, deal=i) from None
        except ConquianError as e:
            raise ReplayError(e.message, deal=i) from None
        for j, text in enumerate(d.actions, 1):
            try:
                deal.play(text)
            except IllegalActionError as e:
                raise ReplayError(e.cause_message, deal=i, action=j, text=text, rule=e.rule) from None
            except NotationError as e:
                raise ReplayError(e.message, deal=i, action=j, text=text) from None
        scores = None
        if deal.over:
            match.settle()
            scores = match.results[-1]
        if d.result is not None:
            _verify_result(d.result, deal, scores, i)
        out.append(ReplayedDeal(deal, scores))
    return Replay(rec, out)


def _verify_result(result: dict[str, Any], deal: Deal, scores: list[int] | None, i: int) -> None:
    if scores is None:
        raise ReplayError(Msg("the record gives a result but the deal is not over after its actions"), deal=i)
    want = deal_result(deal, scores)
    family_lacks = ("splash", "void") if deal.rules.family != COONCAN else ("tableau",)
    for key, value in result.items():
        if key in family_lacks:
            if value is not False:
                raise ReplayError(Msg("result {key} = {value}, but {variant} has no {key}", key=key, value=repr(value),
                                      variant=deal.rules.name), deal=i)
            continue
        if key not in want:
            if key == "winner":
                seat = f"p{value}"
                if deal.rules.family != COONCAN:
                    raise ReplayError(Msg("result says {seat} won, but the deal is a tableau", seat=seat), deal=i)
                raise ReplayError(Msg("result says {seat} won, but the deal is void", seat=seat), deal=i)
            raise ReplayError(Msg("unknown result key {key}", key=repr(key)), deal=i)
        if want[key] != value:
            raise ReplayError(Msg("result {key} = {value}, but the replay gives {want}", key=key, value=repr(value),
                                  want=repr(want[key])), deal=i)
    if "winner" in want and "winner" not in result:
        raise ReplayError(Msg("result gives no winner, but {seat} won", seat=f"p{want['winner']}"), deal=i)

"""Reviewing a deal: where did a seat go wrong? (docs/review.md)

For one seat of one deal of a record, every decision of that seat with more than one listed
legal action is evaluated the way the ``expert`` search evaluates a position: from the seat's
view alone, each candidate action is played on ``playouts`` re-deals of the cards the seat
has not seen (:func:`conquian.bots.determinize.determinize`; in conquian the adversary's hand
read from his past choices as the ``expert`` reads it, :func:`conquian.bots.expert.adversary_pool`)
and each re-deal is finished with
the ``foster`` policy for every seat.  A candidate's estimate is its chance of winning the deal
(and, in Cooncan, whose deals score pips, its expected points).  Every candidate is played on
the same re-deals (common random numbers), so their differences are sharper than the sample
size suggests.  A tableau counts half a win (:data:`TABLEAU_WIN`).

The move made is compared with the best candidate: the *cost* is the best win chance minus
the made move's, and the mark follows from it (:data:`GOOD_BELOW`, :data:`INACCURACY_BELOW`,
:data:`MISTAKE_BELOW`; anything costlier is a blunder).  Foster's own choice is shown beside it.

Fairness by construction: :func:`evaluate` is handed a :data:`~conquian.bots.base.View` and
never the deal, and the seed of each decision (:func:`decision_seed`) depends only on what the
seat knows (the variant, the players, the deal's number, the decision's place and the seat),
never on a hidden card: re-dealing the cards the seat has not seen gives the same review.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import random
import zlib
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from conquian.bots.base import View, check_view
from conquian.bots.determinize import determinize
from conquian.bots.expert import ExpertBot, _cooncan_candidates, adversary_pool, playout_value
from conquian.bots.foster import FosterBot
from conquian.bots.random_bot import view_action
from conquian.engine.cooncan.deal import PLAY
from conquian.engine.cooncan.view import CooncanView
from conquian.engine.deal import RawAction
from conquian.engine.errors import ConquianError
from conquian.engine.files import atomic_write, read_text_limited
from conquian.engine.match import Deal, new_deal
from conquian.engine.record import Record, ReplayError, read_record, replay
from conquian.engine.rules import COONCAN
from conquian.i18n import N_, Msg, NMsg, Translator, active

#: A decision whose win-chance cost is below this is ``good``.
GOOD_BELOW = 0.05
#: Below this (and not good) it is an ``inaccuracy``.
INACCURACY_BELOW = 0.10
#: Below this (and not an inaccuracy) it is a ``mistake``; from here on it is a ``blunder``.
MISTAKE_BELOW = 0.20
#: The marks, best first (their words for people: :func:`mark_word`).
MARKS = (N_("good"), N_("inaccuracy"), N_("mistake"), N_("blunder"))
#: Accuracy of a decision: ``1 - min(cost / ACCURACY_SCALE, 1)``; a seat's accuracy is the mean.
ACCURACY_SCALE = 0.30
#: At most this many candidates are evaluated for a Cooncan decision (foster's choice first, then
#: the listing; the move made is always added).  In the conquian family every listed action is a
#: candidate: its listings are short (two actions a decision on average, a few dozen at most), and a
#: use that lays more, or goes out, must not be cut off (docs/records.md: every set of hand cards
#: a use can lay is listed).
MAX_CANDIDATES = 12
#: Re-deals (playouts per candidate) when none is asked for: conquian and the conquián mexicano.
DEFAULT_PLAYOUTS = 200
#: The same for Cooncan, whose playouts are about three times longer.
DEFAULT_COONCAN_PLAYOUTS = 64
#: Actions a playout may take before it is scored unfinished (Cooncan deals can be long).
HORIZON = 400
#: How many turning points (the costliest decisions) the summary names.
TURNING_POINTS = 3
#: The cache file's format; a change of the evaluation changes it, so that old reviews are not read.
CACHE_FORMAT = "conquian-review/2"
#: What a tableau (R3.7; the draw of R8.6) counts in a win chance: half a win, as a tie (R5.1)
#: goes to the next deal.  Counting it as a loss would call a blunder the move that makes sure
#: of a tie instead of a gamble that loses more often than it wins.
TABLEAU_WIN = 0.5


class ReviewError(ConquianError):
    """A review that cannot be made: no such deal or seat (one line, for the command line)."""


@dataclass
class Estimate:
    """One candidate's estimate: its win chance and, in Cooncan, its expected points."""

    action: str
    win: float
    points: float | None


@dataclass
class Decision:
    """One decision of the seat: what was played, what was best, the cost and the mark."""

    number: int  # 1, 2, ... among the seat's reviewed decisions
    action_index: int  # the action's number in the deal's list of actions (1-based)
    played: str
    best: str
    foster: str
    cost: float
    mark: str
    candidates: list[Estimate] = field(default_factory=list)

    @property
    def foster_differs(self) -> bool:
        """Whether ``foster`` would have played something else."""
        return self.foster != self.played

    @property
    def accuracy(self) -> float:
        """``1 - min(cost / ACCURACY_SCALE, 1)``."""
        return 1.0 - min(self.cost / ACCURACY_SCALE, 1.0)


@dataclass
class Review:
    """The review of one seat in one deal."""

    variant: str
    seat: int
    deal: int
    playouts: int
    decisions: list[Decision]
    forced: int  # decisions with a single legal action, not reviewed

    @property
    def accuracy(self) -> float | None:
        """The mean of the decisions' accuracies (``None`` without decisions)."""
        if not self.decisions:
            return None
        return sum(d.accuracy for d in self.decisions) / len(self.decisions)

    @property
    def counts(self) -> dict[str, int]:
        """How many decisions got each mark."""
        return {m: sum(d.mark == m for d in self.decisions) for m in MARKS}

    @property
    def turning_points(self) -> list[Decision]:
        """The costliest decisions that were not good, costliest first (at most :data:`TURNING_POINTS`)."""
        bad = [d for d in self.decisions if d.mark != "good"]
        return sorted(bad, key=lambda d: (-d.cost, d.number))[:TURNING_POINTS]

    def to_json(self) -> dict[str, Any]:
        """A JSON object (for programs and the cache)."""
        return {
            "variant": self.variant, "seat": f"p{self.seat}", "deal": self.deal, "playouts": self.playouts,
            "forced": self.forced,
            "decisions": [{**asdict(d), "foster_differs": d.foster_differs} for d in self.decisions],
            "summary": {
                "accuracy": self.accuracy, "counts": self.counts,
                "turning_points": [d.number for d in self.turning_points],
            },
        }

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> Review:
        """The review a :meth:`to_json` object holds."""
        decisions = []
        for d in obj["decisions"]:
            fields = {k: v for k, v in d.items() if k not in ("candidates", "foster_differs")}
            decisions.append(Decision(**fields, candidates=[Estimate(**e) for e in d["candidates"]]))
        return cls(obj["variant"], int(obj["seat"][1:]), obj["deal"], obj["playouts"], decisions, obj["forced"])


def mark_word(mark: str, tr: Translator | None = None) -> str:
    """A mark in words, in ``tr``'s language (the program's by default); the mark itself stays
    the same in the JSON of a review."""
    return (tr or active()).gettext(mark)


def mark_of(cost: float) -> str:
    """The mark of a win-chance cost (the thresholds above)."""
    if cost < GOOD_BELOW:
        return "good"
    if cost < INACCURACY_BELOW:
        return "inaccuracy"
    if cost < MISTAKE_BELOW:
        return "mistake"
    return "blunder"


def decision_seed(rec: Record, deal: int, action_index: int, seat: int) -> int:
    """The seed of one decision: from the variant, options, players, deal number, the decision's
    place and the seat, all public; never from a card (so re-dealing hidden cards keeps it)."""
    return position_seed(rec.variant, rec.options, rec.players, deal, action_index, seat)


def position_seed(variant: str, options: dict[str, Any], players: Sequence[str], deal: int, action_index: int,
                  seat: int) -> int:
    """The seed of a position (:func:`decision_seed`'s, from its parts): the hint at a table and the
    review of its record use the same one, so that they agree, and a hint asked twice is the same."""
    key = json.dumps([variant, options, list(players), deal, action_index, seat], sort_keys=True)
    return zlib.crc32(key.encode())


def best_choice(view: View, playouts: int, seed: int) -> str:
    """The move the review would call best at this position (its notation): the same candidates,
    re-deals and seed as :func:`review_decision`; the hint of the terminal and web tables.  A
    move played on this advice is marked ``good`` by the review of the record (ties aside, the
    same estimates pick the same move)."""
    foster = str(FosterBot(seed).choose(view))
    ests = evaluate(view, candidates(view, foster, foster), playouts, seed)
    return max(ests, key=lambda e: (e.win, e.points or 0.0)).action


def hint_choice(variant: str, options: dict[str, Any], players: Sequence[str], deal_number: int, deal: Deal,
                seat: int, playouts: int | None = None) -> str:
    """The hint for ``seat`` to act in ``deal`` (number ``deal_number`` of a match of ``players``),
    from its view only: :func:`best_choice` with the review's playouts and the position's seed."""
    family = deal.rules.family
    playouts = playouts or (DEFAULT_COONCAN_PLAYOUTS if family == COONCAN else DEFAULT_PLAYOUTS)
    seed = position_seed(variant, options, players, deal_number, len(deal.actions()), seat)
    return best_choice(deal.view(seat), playouts, seed)


def action_text(view: View, raw: RawAction) -> str:
    """The notation of a raw action of the view's seat."""
    return str(view_action(view, raw))


def candidates(view: View, played: str, foster: str) -> list[tuple[str, RawAction]]:
    """The candidates of a decision, by notation: foster's choice, then the listed actions (in
    Cooncan the lay-outs, adds and shifts before foster's three preferred discards, then the
    rest, at most :data:`MAX_CANDIDATES`; in the conquian family every one), and the move made
    whatever its place."""
    legal: list[RawAction] = view.legal_raw()
    by_text: dict[str, RawAction] = {}
    for raw in legal:
        by_text.setdefault(action_text(view, raw), raw)
    order = [foster]
    if isinstance(view, CooncanView) and view.stage == PLAY:
        order += [action_text(view, r) for r in _cooncan_candidates(view, legal, legal[0])]
    order += sorted(by_text)
    out: list[str] = []
    for t in order:
        if t in by_text and t not in out:
            out.append(t)
    if isinstance(view, CooncanView):
        out = out[:MAX_CANDIDATES]
    if played not in out:
        out.append(played)
    return [(t, by_text[t]) for t in out]


def evaluate(view: View, cands: Sequence[tuple[str, RawAction]], playouts: int, seed: int) -> list[Estimate]:
    """Each candidate's estimate from ``view`` alone: ``playouts`` re-deals of what the seat has not
    seen, the same for every candidate, each finished by foster's policy for every seat.  The win
    chance counts a tableau as :data:`TABLEAU_WIN`."""
    view = check_view(view)
    seat = view.seat
    rng = random.Random(seed)
    wins = [0.0] * len(cands)
    points = [0.0] * len(cands)
    pool = adversary_pool(view, rng, ExpertBot.INFERENCE, playouts * len(cands))  # as the search reads him
    for _ in range(playouts):
        base = determinize(view, rng, pool)
        sub_seed = rng.getrandbits(32)
        for i, (_text, raw) in enumerate(cands):
            d = base.copy()
            d.apply_raw(*raw)
            points[i] += playout_value(d, seat, random.Random(sub_seed), HORIZON)
            wins[i] += 1.0 if d.over and d.winner_seat == seat else TABLEAU_WIN if d.tableau else 0.0
    cooncan = isinstance(view, CooncanView)
    return [
        Estimate(text, round(wins[i] / playouts, 4), round(points[i] / playouts, 2) if cooncan else None)
        for i, (text, _raw) in enumerate(cands)
    ]


def review_decision(view: View, played: str, playouts: int, seed: int, number: int, action_index: int) -> Decision:
    """The review of one decision, from the seat's view and the move it made."""
    foster = str(FosterBot(seed).choose(view))
    ests = evaluate(view, candidates(view, played, foster), playouts, seed)
    made = next(e for e in ests if e.action == played)
    best = max(ests, key=lambda e: (e.win, e.points or 0.0, e.action == played))
    cost = round(max(0.0, best.win - made.win), 4)
    return Decision(number, action_index, played, best.action, foster, cost, mark_of(cost), ests)


def _deal_at(rec: Record, deal: int, n_actions: int) -> Deal:
    """Deal number ``deal`` (1-based) of a record after its first ``n_actions`` actions."""
    d = rec.deals[deal - 1]
    state = new_deal(rec.rules(), d.deck, seed=d.seed, dealer=d.dealer)
    for text in d.actions[:n_actions]:
        state.play(text)
    return state


def seat_decisions(rec: Record, deal: int, seat: int) -> tuple[list[int], int]:
    """The action indices (0-based) where ``seat`` had a choice in a deal, and how many of its
    decisions were forced (a single legal action)."""
    state = _deal_at(rec, deal, 0)
    out: list[int] = []
    forced = 0
    for j, text in enumerate(rec.deals[deal - 1].actions):
        if state.to_act == seat:
            if len(state.legal_raw()) > 1:
                out.append(j)
            else:
                forced += 1
        state.play(text)
    return out, forced


def _task(args: tuple[str, int, int, int, int, int]) -> Decision:
    """One decision, in a worker: the record is read again and replayed to the decision."""
    text, deal, seat, j, number, playouts = args
    rec = read_record(text)
    state = _deal_at(rec, deal, j)
    view = state.view(seat)
    played = str(state.to_action(state.verify(rec.deals[deal - 1].actions[j])))
    return review_decision(view, played, playouts, decision_seed(rec, deal, j, seat), number, j + 1)


def default_playouts(rec: Record) -> int:
    """The playouts per candidate of a record's form when none is asked for."""
    return DEFAULT_COONCAN_PLAYOUTS if rec.rules().family == COONCAN else DEFAULT_PLAYOUTS


def check_target(rec: Record, deal: int, seat: int) -> None:
    """:class:`ReviewError` unless the record has that deal and that seat."""
    if not 1 <= deal <= len(rec.deals):
        raise ReviewError(NMsg("no deal {deal}: the record has {n} deal(s)",
                               "no deal {deal}: the record has {n} deal(s)", len(rec.deals), deal=deal))
    if not 1 <= seat <= len(rec.players):
        raise ReviewError(Msg("no seat p{seat}: the record has p1 to p{n}", seat=seat, n=len(rec.players)))


def review_text(text: str, seat: int, deal: int = 1, playouts: int | None = None, workers: int = 1,
                progress: Callable[[int, int], None] | None = None, executor: Executor | None = None) -> Review:
    """Review ``seat`` in deal number ``deal`` (1-based) of the record ``text``.

    Raises :class:`~conquian.engine.record.ReplayError` for a bad record and :class:`ReviewError`
    for a deal or seat it does not have.  ``workers`` processes share the decisions;
    ``progress(done, total)`` is called as they finish.  ``playouts``: per candidate (default
    :func:`default_playouts`).  ``executor``: a pool of the caller's that runs the decisions
    instead (the web server's, whose processes are spawned, not forked), whatever ``workers`` says.
    """
    rec = read_record(text)
    replay(rec)  # the whole record must be valid
    check_target(rec, deal, seat)
    playouts = playouts or default_playouts(rec)
    indices, forced = seat_decisions(rec, deal, seat)
    tasks = [(text, deal, seat, j, k, playouts) for k, j in enumerate(indices, 1)]
    results: list[Decision] = []
    if executor is not None:
        for i, d in enumerate(executor.map(_task, tasks), 1):
            results.append(d)
            if progress:
                progress(i, len(tasks))
    elif workers > 1 and len(tasks) > 1:
        with ProcessPoolExecutor(max_workers=min(workers, len(tasks))) as pool:
            for i, d in enumerate(pool.map(_task, tasks), 1):
                results.append(d)
                if progress:
                    progress(i, len(tasks))
    else:
        for i, t in enumerate(tasks, 1):
            results.append(_task(t))
            if progress:
                progress(i, len(tasks))
    return Review(rec.variant, seat, deal, playouts, results, forced)


def move_words(action: str, tr: Translator, variant: str = "") -> str:
    """A reviewed move in ``tr``'s words, as the move list says it ("pass", "pasar", "use 7♥ 8♥
    9♥"): the seat is the review's, named in its first line; the JSON keeps the notation.  The
    cards of ``variant``'s pack are drawn as ``tr``'s screen draws it (R8.1)."""
    from conquian.engine.actions import parse_action
    from conquian.engine.rules import PRESETS
    from conquian.present import move_msg, spanish_pack

    spanish = variant in PRESETS and spanish_pack(PRESETS[variant])
    try:
        return tr.render(move_msg(parse_action(action), spanish=spanish))
    except ConquianError:
        return action


def report(review: Review, tr: Translator | None = None) -> str:
    """The review in words, in ``tr``'s language (the program's by default): a line for the deal, one
    per decision (the move made, its mark, its win chance; the best move and its cost where it
    differs; foster's choice where it differs), the accuracy and the turning points.

    ```pycon
    >>> rv = Review("conquian", 2, 1, 8, [Decision(1, 3, "p2 pass", "p2 use 7h 8h 9h", "p2 pass", 0.25,
    ...     "blunder", [Estimate("p2 pass", 0.5, None), Estimate("p2 use 7h 8h 9h", 0.75, None)])], 2)
    >>> print(report(rv))  # doctest: +NORMALIZE_WHITESPACE
    Conquián, deal 1, Player 2: 1 decision reviewed, 2 forced, 8 playouts per candidate
      1. #3   pass                         blunder    win 0.50  best use 7♥ 8♥ 9♥ (win 0.75, cost 0.25)
    accuracy 17%: 0 good, 0 inaccuracy, 0 mistake, 1 blunder
    turning point: decision 1 (action #3), pass: blunder, cost 0.25; best use 7♥ 8♥ 9♥

    ```
    """
    tr = tr or active()
    g = tr.gettext
    from conquian.present import game_name

    # the game and the seat as people name them, never the preset's code or the seat's (p2)
    lines = [tr.render(NMsg("{game}, deal {deal}, {who}: {n} decision reviewed, {forced} forced, "
                            "{playouts} playouts per candidate",
                            "{game}, deal {deal}, {who}: {n} decisions reviewed, {forced} forced, "
                            "{playouts} playouts per candidate", len(review.decisions), game=game_name(review.variant),
                            deal=review.deal, who=Msg("Player {n}", n=review.seat), forced=review.forced,
                            playouts=review.playouts))]
    variant = review.variant
    for d in review.decisions:
        made = next(e for e in d.candidates if e.action == d.played)
        best = next(e for e in d.candidates if e.action == d.best)
        line = (f"{d.number:3d}. #{d.action_index:<3d} {move_words(d.played, tr, variant):<28s} "
                f"{mark_word(d.mark, tr):<10s} "
                + g(N_("win {chance}")).format(chance=f"{made.win:.2f}"))
        if made.points is not None:
            line += " " + g(N_("points {points}")).format(points=f"{made.points:+.1f}")
        if d.best != d.played:
            line += "  " + g(N_("best {move} (win {chance}, cost {cost})")).format(
                move=move_words(d.best, tr, variant), chance=f"{best.win:.2f}", cost=f"{d.cost:.2f}")
        if d.foster_differs:
            line += "  " + g(N_("foster: {move}")).format(move=move_words(d.foster, tr, variant))
        lines.append(line)
    acc = review.accuracy
    counts = ", ".join(f"{n} {mark_word(m, tr)}" for m, n in review.counts.items())
    lines.append(g(N_("accuracy {percent}%: {counts}")).format(percent=f"{acc * 100:.0f}", counts=counts)
                 if acc is not None else g(N_("no decision to review")))
    for d in review.turning_points:
        lines.append(g(N_("turning point: decision {n} (action #{action}), {move}: {mark}, cost {cost}; best {best}"))
                     .format(n=d.number, action=d.action_index, move=move_words(d.played, tr, variant),
                             mark=mark_word(d.mark, tr), cost=f"{d.cost:.2f}", best=move_words(d.best, tr, variant)))
    return "\n".join(lines)


def cache_path(record_path: str | os.PathLike[str]) -> Path:
    """The cache beside a record: ``game.toml`` -> ``game.review.json``."""
    return Path(record_path).with_suffix(".review.json")


def cache_key(text: str, seat: int, deal: int, playouts: int) -> str:
    """The cache key of a review: a hash of the record's text, the seat, the deal and the playouts."""
    digest = hashlib.sha256(text.encode()).hexdigest()
    return hashlib.sha256(f"{CACHE_FORMAT}|{digest}|{seat}|{deal}|{playouts}".encode()).hexdigest()[:32]


def _load_cache(path: Path) -> dict[str, Any]:
    try:
        obj = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(obj, dict) or obj.get("format") != CACHE_FORMAT or not isinstance(obj.get("reviews"), dict):
        return {}
    reviews: dict[str, Any] = obj["reviews"]
    return reviews


def review_file(path: str | os.PathLike[str], seat: int, deal: int = 1, playouts: int | None = None,
                workers: int = 1, progress: Callable[[int, int], None] | None = None,
                cache: bool = True) -> Review:
    """:func:`review_text` of a record file, cached beside it (:func:`cache_path`): a second look at
    the same record, seat, deal and playouts is read back.  A cache that cannot be read or
    written is ignored."""
    try:
        text = read_text_limited(path)
    except ConquianError as e:
        raise ReplayError(str(e)) from None
    playouts = playouts or default_playouts(read_record(text))
    key = cache_key(text, seat, deal, playouts)
    where = cache_path(path)
    reviews = _load_cache(where) if cache else {}
    if key in reviews:
        try:
            return Review.from_json(reviews[key])
        except (KeyError, TypeError, ValueError, IndexError):
            pass
    result = review_text(text, seat, deal, playouts, workers, progress)
    if cache:
        reviews = _load_cache(where)
        reviews[key] = result.to_json()
        with contextlib.suppress(OSError, ConquianError):
            atomic_write(where, json.dumps({"format": CACHE_FORMAT, "reviews": reviews}))
    return result


__all__ = [
    "ACCURACY_SCALE", "DEFAULT_COONCAN_PLAYOUTS", "DEFAULT_PLAYOUTS", "GOOD_BELOW", "INACCURACY_BELOW", "MARKS",
    "MAX_CANDIDATES", "MISTAKE_BELOW", "TABLEAU_WIN", "Decision", "Estimate", "Review", "ReviewError", "cache_path",
    "candidates", "decision_seed", "default_playouts", "evaluate", "mark_of", "mark_word", "report",
    "review_decision", "review_file", "review_text",
]

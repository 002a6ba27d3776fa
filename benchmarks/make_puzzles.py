"""Mine the shipped puzzles from the bots' self-play, reproducibly (src/conquian/learn/puzzles.json).

    nice -n 10 python -m benchmarks.make_puzzles            # the shipped file: every set below
    nice -n 10 python -m benchmarks.make_puzzles --only forcing   # one set again, the others kept
    python -m benchmarks.make_puzzles --verify              # check every shipped puzzle again
    nice -n 10 python -m benchmarks.make_puzzles --from-records DIR   # mine the mistakes of record files
    nice -n 10 python -m benchmarks.make_puzzles --from-db URL        # mine a server's rated and published matches
    nice -n 10 python -m benchmarks.make_puzzles --hunt-forcing       # search for a puzzle whose answer is a force

The puzzles come in sets (:data:`SETS`), each mined from its own fixed seeds: ``open``, conquian
positions of every theme; ``forcing``, conquian positions where a force is among the moves and the
question is whether to force: the force is the answer, or the runner-up the answer beats;
``fattening``, Cooncan (three hands) positions where adding to a combination on the table (R4.3)
is the answer or the runner-up it beats.  Deals from fixed seeds are played by ``foster`` for
every seat; at each decision with a choice (of the set's kind), the review's search
(:func:`conquian.learn.puzzles.search`) screens the position at
``--screen`` playouts, and a position whose best move leads by most of the margin is confirmed at
:data:`~conquian.learn.puzzles.CONFIRM_PLAYOUTS` playouts on each of the independent re-deal seeds
:data:`~conquian.learn.puzzles.CONFIRM_SEEDS`: it is kept when the same move leads by
:data:`~conquian.learn.puzzles.MARGIN` on every one.  Difficulty: the share of ``foster`` (five
seeds) and ``expert`` (two seeds) choices that miss the answer.  Prints what it found and how long it took.

Reviewed matches are mined too.  ``--from-records DIR`` reads every record file (``*.toml``,
docs/records.md) in DIR; ``--from-db URL`` reads a server's database (SQLite or PostgreSQL: the
``conquian serve --db`` URL) and takes only the finished matches whose players let anyone see them,
rated or published ones (:func:`conquian.web.platform.ratings.storage.shared_finished`), never a casual private
one.  Every seat of every deal is reviewed (:func:`conquian.review.review_text`, at
``--review-playouts``), and each decision the review marks a mistake or a blunder is a candidate:
its position, from the seat's view, goes through the same confirmation as a self-play one.  A
puzzle mined there keeps where it came from in ``source`` (``record <digest> deal N``, the digest
of the record's text; ``match <table id> deal N``), never a player's name.  The puzzles found are
added to ``--out`` beside the ones it holds.

``--hunt-forcing`` searches for a puzzle whose answer is the force itself (R3.6), in positions
chosen for it: deals played by the noisy levels (``beginner``, ``casual``) and ``foster`` in turn,
and at each decision where a force is legal, ``expert`` is asked; where it forces, the position is
screened and, when the force leads, confirmed as any other.  It prints how many positions it saw,
how often the force came first and by how much, and keeps only what passes the margin.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from conquian.bots import make_bot
from conquian.engine.cards import card_str
from conquian.engine.errors import ConquianError
from conquian.engine.files import atomic_write
from conquian.engine.match import new_deal
from conquian.engine.record import Record, read_record, replay
from conquian.engine.rules import CONQUIAN, COONCAN, get_rules
from conquian.learn.puzzles import (
    CONFIRM_PLAYOUTS,
    CONFIRM_SEEDS,
    MARGIN,
    Puzzle,
    lead,
    puzzles,
    search,
    search_view,
    theme_of,
)
from conquian.review import review_text

OUT = Path(__file__).resolve().parent.parent / "src" / "conquian" / "learn" / "puzzles.json"


def say(line: str) -> None:
    """Print a line of progress at once (a long run's log is read while it runs)."""
    print(line, flush=True)


def difficulty(p: Puzzle) -> float:
    """The share of foster's and expert's choices at the position that miss the answer."""
    view = p.deal().view(p.seat)
    picks = [str(make_bot("foster", seed).choose(view)) for seed in range(5)]
    picks += [str(make_bot("expert", seed, iterations=120).choose(view)) for seed in range(2)]
    return round(sum(x != p.answer for x in picks) / len(picks), 2)


@dataclass(frozen=True)
class PuzzleSet:
    """One set of puzzles: its game, its deals' seeds and dealer, the id prefix of its puzzles, the
    verbs a decision must offer to be screened and the theme its answers must have (None: any)."""

    name: str
    variant: str
    prefix: str
    first_seed: int
    deals: int
    dealer: int
    verbs: tuple[str, ...] = ()
    theme: str | None = None
    easy: int = 2


#: The shipped sets, each reproducible from its seeds.
SETS = (
    PuzzleSet("open", "conquian", "c", 1, 60, 2),
    PuzzleSet("forcing", "conquian", "f", 1001, 1000, 2, verbs=("force",), theme="forcing", easy=6),
    PuzzleSet("fattening", "cooncan", "k", 2001, 120, 1, verbs=("add", "shift"), theme="fattening", easy=6),
)


def confirm(probe: Puzzle, key: int, playouts: int = CONFIRM_PLAYOUTS, theme: str | None = None,
            hard: bool = True, leads: list[tuple[str, float]] | None = None) -> Puzzle | None:
    """The puzzle at ``probe``'s position if the search, from the seat's view alone, puts one move
    :data:`MARGIN` ahead of the second at ``playouts`` on each of the independent re-deal seeds
    ``key + k`` (``k`` in :data:`CONFIRM_SEEDS`), the same move every time; else None.  Its
    estimates are the means of those runs; ``theme``: the set's, else the answer's own;
    ``hard``: rate its difficulty (:func:`difficulty`), else 0; ``leads``: each run's best move
    and its lead are added to it."""
    view = probe.deal().view(probe.seat)
    runs = [search_view(view, playouts, key + k) for k in CONFIRM_SEEDS]
    if leads is not None:
        leads += [(r[0][0], round(lead(r), 3)) for r in runs]
    answer = runs[0][0][0]
    if not all(r[0][0] == answer and lead(r) >= MARGIN for r in runs):
        return None
    est = tuple((a, round(sum(dict(r)[a] for r in runs) / len(runs), 3)) for a, _w in runs[0])
    est = tuple(sorted(est, key=lambda e: (-e[1], e[0])))
    p = Puzzle(probe.id, probe.variant, probe.dealer, probe.deck, probe.actions, probe.seat, answer, est,
               theme or theme_of(probe.deal(), answer), 0.0, dict(probe.options), probe.source)
    return Puzzle(**{**p.__dict__, "difficulty": difficulty(p)}) if hard else p


def mine(which: PuzzleSet, screen: int, most: int) -> list[Puzzle]:
    """The set's puzzles: each decision of the set's kind screened, then confirmed."""
    rules = get_rules(which.variant)
    found: list[Puzzle] = []
    for seed in range(which.first_seed, which.first_seed + which.deals):
        deal = new_deal(rules, seed=seed, dealer=which.dealer)
        deck = " ".join(card_str(c) for c in deal.deck) if hasattr(deal, "deck") else None
        if deck is None:
            raise SystemExit("the deal keeps no deck")
        bots = {s: make_bot("foster", seed + 1000 * (s - 1)) for s in range(1, rules.players + 1)}
        actions: list[str] = []
        while not deal.over and len(found) < most and len(actions) < 400:
            seat = deal.to_act
            assert seat is not None
            legal = [str(a) for a in deal.legal_actions()]
            wanted = not which.verbs or any(m.split()[1] in which.verbs for m in legal)
            if len(legal) > 1 and wanted:
                probe = Puzzle(f"{which.prefix}{seed}-{len(actions)}", which.variant, which.dealer, deck,
                               tuple(actions), seat, "", (), "using", 0)
                key = zlib.crc32(f"{seed}/{len(actions)}".encode())
                ranked = search(probe, screen, key)
                theme = theme_of(deal, ranked[0][0])
                if which.theme is not None:
                    # the set's question: its kind of move is the answer, or the runner-up it beats
                    top = [m.split()[1] for m, _w in ranked[:2]]
                    theme = which.theme if any(v in which.verbs for v in top) else ""
                if lead(ranked) >= MARGIN * 0.75 and theme:
                    p = confirm(probe, key, theme=theme)
                    if p is not None and p.answer == ranked[0][0]:
                        found.append(p)
                        print(f"  {p.id}: {p.answer} leads by {lead(list(p.estimates)):.2f} ({p.theme}, "
                              f"difficulty {p.difficulty})", flush=True)
            move = bots[seat].choose(deal.view(seat))
            actions.append(str(deal.play(move)))
        if len(found) >= most:
            break
    return found


#: The review's marks that make a decision a candidate puzzle.
FLAGGED = ("mistake", "blunder")


def minable(rec: Record) -> bool:
    """Whether a record's positions can be puzzles (shown from a seat's view): two-hand conquian
    (either pack) and Cooncan; the mexicano's and a three-hand conquian's are not shown yet."""
    rules = rec.rules()
    return rules.family == COONCAN or (rules.family == CONQUIAN and rules.players == 2)


def record_source(text: str) -> str:
    """The source of a record file's puzzles: a digest of its text (never its file's name, which
    may name a player)."""
    return "record " + hashlib.sha256(text.encode()).hexdigest()[:12]


def mine_record(text: str, source: str, prefix: str, review_playouts: int | None = None,
                confirm_playouts: int = CONFIRM_PLAYOUTS, hard: bool = True,
                log: Callable[[str], None] = say) -> tuple[list[Puzzle], int]:
    """The puzzles of one record's text: every seat of every deal reviewed, each decision marked
    :data:`FLAGGED` confirmed from the seat's view (:func:`confirm`); with how many candidates
    there were.  ``source``: what the puzzles keep of where they came from (``... deal N`` is
    added); ``prefix``: of their ids."""
    rec = read_record(text)
    replay(rec)
    if not minable(rec):
        log(f"  {source}: {rec.variant} with {len(rec.players)} players is not shown as a puzzle; skipped")
        return [], 0
    rules = rec.rules()
    default = get_rules(rec.variant)
    options = dict(rec.options) | ({"players": rules.players} if rules.players != default.players else {})
    found: list[Puzzle] = []
    flagged = 0
    for number, d in enumerate(rec.deals, 1):
        start = new_deal(rules, d.deck, seed=d.seed, dealer=d.dealer)
        deck = " ".join(card_str(c) for c in start.deck)
        for seat in range(1, rules.players + 1):
            review = review_text(text, seat, number, review_playouts)
            for dec in review.decisions:
                if dec.mark not in FLAGGED:
                    continue
                flagged += 1
                j = dec.action_index - 1
                probe = Puzzle(f"{prefix}-{number}-{j}", rec.variant, d.dealer, deck, tuple(d.actions[:j]), seat,
                               "", (), "using", 0.0, options, f"{source} deal {number}")
                key = zlib.crc32(f"{probe.source}/{j}/{seat}".encode())  # public: no card in it
                runs: list[tuple[str, float]] = []
                p = confirm(probe, key, confirm_playouts, hard=hard, leads=runs)
                said = ("kept" if p else "not confirmed") + " (" + "; ".join(
                    f"{m} by {x:.2f}" for m, x in runs) + f" at {confirm_playouts} playouts)"
                log(f"  {probe.id}: p{seat} played {dec.played} ({dec.mark}, cost {dec.cost:.2f}; "
                    f"review's best {dec.best}): {said}" + (f", {p.answer} leads by "
                                                          f"{lead(list(p.estimates)):.2f}" if p else ""))
                if p is not None:
                    found.append(p)
    return found, flagged


def mine_records(folder: Path, review_playouts: int | None, confirm_playouts: int = CONFIRM_PLAYOUTS,
                 hard: bool = True, log: Callable[[str], None] = say,
                 minutes: float | None = None) -> tuple[list[Puzzle], int]:
    """The puzzles of every record file in ``folder`` (:func:`mine_record`); a file that is not a
    valid record is named and skipped."""
    found: list[Puzzle] = []
    flagged = 0
    files = sorted(folder.glob("*.toml"))
    if not files:
        raise SystemExit(f"no record files (*.toml) in {folder}")
    end = time.time() + minutes * 60 if minutes else None
    for k, path in enumerate(files):
        if end is not None and time.time() > end:
            log(f"  stopped at the time limit after {k} of {len(files)} records")
            break
        try:
            text = path.read_text(encoding="utf-8")
            source = record_source(text)
            got, n = mine_record(text, source, "r" + source.split()[1][:8], review_playouts, confirm_playouts,
                                 hard, log)
        except (OSError, UnicodeDecodeError, ConquianError) as e:
            log(f"  {path.name}: skipped, not a record that replays ({e})")
            continue
        found += got
        flagged += n
    return found, flagged


def mine_db(url: str, review_playouts: int | None, confirm_playouts: int = CONFIRM_PLAYOUTS, hard: bool = True,
            log: Callable[[str], None] = say) -> tuple[list[Puzzle], int]:
    """The puzzles of a server's finished matches that anyone may see (rated or published:
    :func:`~conquian.web.platform.ratings.storage.shared_finished`); a casual private match is never read."""
    from sqlalchemy.exc import SQLAlchemyError

    from conquian.engine.record import record_from_match, write_record
    from conquian.web.platform.ratings.storage import shared_finished
    from conquian.web.store import Store

    store = Store(url)
    try:
        ids = shared_finished(store)
        found: list[Puzzle] = []
        flagged = 0
        for table_id in ids:
            table = store.load(table_id)
            if table is None or table.session is None:
                continue
            text = write_record(record_from_match(table.session.match))
            got, n = mine_record(text, f"match {table_id}", "m" + table_id, review_playouts, confirm_playouts,
                                 hard, log)
            found += got
            flagged += n
        return found, flagged
    except SQLAlchemyError as e:
        raise SystemExit(f"cannot read the matches of {url}: {str(e).splitlines()[0]}") from None
    finally:
        store.dispose()


def write_bot_records(folder: Path, matches: int, level: str = "beginner", first_seed: int = 1) -> list[Path]:
    """Write ``matches`` one-deal conquian records played by ``level`` in both seats (the noisy
    levels make mistakes for the review to flag): ``bots-<seed>.toml`` in ``folder``."""
    from conquian.engine.match import Match
    from conquian.engine.record import record_from_match, write_record

    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for seed in range(first_seed, first_seed + matches):
        match = Match(get_rules("conquian"), [f"{level}-1", f"{level}-2"], first_dealer=2)
        deal = match.new_deal(seed=seed)
        bots = {s: make_bot(level, seed * 10 + s) for s in (1, 2)}
        while not deal.over:
            seat = deal.to_act
            assert seat is not None
            deal.play(bots[seat].choose(deal.view(seat)))
        path = folder / f"bots-{seed}.toml"
        atomic_write(path, write_record(record_from_match(match)))
        out.append(path)
    return out


#: The levels that play the deals of the forcing hunt, one per deal in turn.
HUNT_LEVELS = ("beginner", "casual", "foster")


@dataclass
class Hunt:
    """What the forcing hunt saw: positions with a legal force, those where ``expert`` forced,
    those where the screen put the force first (and the force's best lead there), the confirmed."""

    positions: int = 0
    expert_forced: int = 0
    force_first: int = 0
    best_lead: float = -1.0
    screened_lead: int = 0
    confirmed: list[Puzzle] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)


def hunt_forcing(first_seed: int, deals: int, screen: int, minutes: float, confirm_playouts: int = CONFIRM_PLAYOUTS,
                 log: Callable[[str], None] = say) -> Hunt:
    """Search conquian positions where a force is legal and ``expert`` forces, for a puzzle whose
    answer is the force (module docstring), for at most ``deals`` deals or ``minutes``."""
    rules = get_rules("conquian")
    h = Hunt()
    end = time.time() + minutes * 60
    for seed in range(first_seed, first_seed + deals):
        if time.time() > end:
            log(f"  stopped at the time limit after {seed - first_seed} deals")
            break
        level = HUNT_LEVELS[seed % len(HUNT_LEVELS)]
        deal = new_deal(rules, seed=seed, dealer=2)
        deck = " ".join(card_str(c) for c in deal.deck)
        bots = {s: make_bot(level, seed + 1000 * s) for s in (1, 2)}
        actions: list[str] = []
        while not deal.over and len(actions) < 400:
            seat = deal.to_act
            assert seat is not None
            legal = [str(a) for a in deal.legal_actions()]
            if any(m.split()[1] == "force" for m in legal):
                h.positions += 1
                view = deal.view(seat)
                pick = str(make_bot("expert", seed, iterations=120).choose(view))
                if pick.split()[1] == "force":
                    h.expert_forced += 1
                    key = zlib.crc32(f"hunt {seed}/{len(actions)}".encode())
                    ranked = search_view(view, screen, key)
                    if ranked[0][0].split()[1] == "force":
                        h.force_first += 1
                        h.best_lead = max(h.best_lead, lead(ranked))
                        if lead(ranked) >= MARGIN * 0.75:
                            h.screened_lead += 1
                            probe = Puzzle(f"g{seed}-{len(actions)}", "conquian", 2, deck, tuple(actions), seat, "", (),
                                           "forcing", 0.0)
                            runs: list[tuple[str, float]] = []
                            p = confirm(probe, key, confirm_playouts, theme="forcing", leads=runs)
                            said = "; ".join(f"{m} by {x:.2f}" for m, x in runs)
                            if p is not None and p.answer.split()[1] == "force":
                                h.confirmed.append(p)
                                log(f"  {p.id}: {p.answer} leads by {lead(list(p.estimates)):.2f}, confirmed ({said})")
                            else:
                                h.failed.append(f"{probe.id}: {ranked[0][0]} led by {lead(ranked):.2f} at {screen} "
                                                f"playouts; at {confirm_playouts}: {said}")
                                log(f"  {h.failed[-1]}: not confirmed")
            actions.append(str(deal.play(bots[seat].choose(deal.view(seat)))))
    return h


def select(found: list[Puzzle], easy: int) -> list[Puzzle]:
    """Every puzzle that a bot misses, and at most ``easy`` of each theme that every bot finds;
    the hardest first."""
    kept = [p for p in found if p.difficulty > 0]
    for theme in sorted({p.theme for p in found}):
        kept += [p for p in found if p.theme == theme and p.difficulty == 0][:easy]
    return sorted(kept, key=lambda p: (-p.difficulty, p.id))


def verify(playouts: int) -> int:
    bad = 0
    for p in puzzles():
        ranked = search(p, playouts, 99)
        ok = ranked[0][0] == p.answer and lead(ranked) >= MARGIN / 2
        bad += not ok
        print(f"{p.id}: {'ok' if ok else 'FAILED'} (leads by {lead(ranked):.2f} at {playouts} playouts)")
    return 1 if bad else 0


def mine_more(args: argparse.Namespace) -> int:
    """``--from-records``, ``--from-db`` and ``--hunt-forcing``: the puzzles found are added to
    ``--out`` (a puzzle of the same id is replaced)."""
    t0 = time.time()
    new: list[Puzzle] = []
    if args.from_records:
        if not args.from_records.is_dir():
            print(f"make_puzzles: {args.from_records} is not a folder", file=sys.stderr)
            return 2
        got, flagged = mine_records(args.from_records, args.review_playouts, args.confirm_playouts,
                                    minutes=args.minutes)
        print(f"records: {flagged} flagged decisions, {len(got)} puzzles kept")
        new += got
    if args.from_db:
        got, flagged = mine_db(args.from_db, args.review_playouts, args.confirm_playouts)
        print(f"matches: {flagged} flagged decisions, {len(got)} puzzles kept")
        new += got
    if args.hunt_forcing:
        h = hunt_forcing(args.hunt_seed, args.hunt_deals, args.screen, args.minutes, args.confirm_playouts)
        print(f"forcing hunt: {h.positions} positions with a legal force, expert forced at {h.expert_forced}, "
              f"the force first at {args.screen} playouts at {h.force_first} (best lead {h.best_lead:.2f}), "
              f"{h.screened_lead} screened past {MARGIN * 0.75:.2f}, {len(h.confirmed)} confirmed by {MARGIN}")
        new += h.confirmed
    old = json.loads(args.out.read_text(encoding="utf-8"))["puzzles"] if args.out.exists() else []
    ids = {p.id for p in new}
    kept = [Puzzle.from_json(p) for p in old if p["id"] not in ids] + new
    write(args.out, kept)
    print(f"{len(new)} new puzzles, {len(kept)} in all, in {time.time() - t0:.0f} s -> {args.out}")
    return 0


def write(out: Path, found: list[Puzzle]) -> None:
    """Write the puzzles' data file."""
    # atomically: a run killed while writing leaves the shipped file whole
    data = {"format": "conquian-puzzles/1", "margin": MARGIN, "confirm_playouts": CONFIRM_PLAYOUTS,
            "puzzles": [p.to_json() for p in found]}
    atomic_write(out, json.dumps(data, ensure_ascii=False, indent=1) + "\n")


def main(argv: list[str] | None = None) -> int:
    a = argparse.ArgumentParser(description="mine the shipped puzzles, or verify them")
    a.add_argument("--only", choices=[s.name for s in SETS], action="append",
                   help="mine this set again and keep the others' puzzles from the file (repeatable)")
    a.add_argument("--screen", type=int, default=100)
    a.add_argument("--most", type=int, default=400, help="the most puzzles found in one set")
    a.add_argument("--out", type=Path, default=OUT)
    a.add_argument("--verify", action="store_true")
    a.add_argument("--from-records", type=Path, metavar="DIR", help="mine the record files (*.toml) in DIR")
    a.add_argument("--from-db", metavar="URL", help="mine a server's finished rated or published matches")
    a.add_argument("--review-playouts", type=int, default=None,
                   help="playouts of the review that flags the candidates (default: the review's)")
    a.add_argument("--confirm-playouts", type=int, default=CONFIRM_PLAYOUTS)
    a.add_argument("--write-bot-records", type=Path, metavar="DIR",
                   help="first write --records one-deal records of beginner against beginner in DIR")
    a.add_argument("--records", type=int, default=20)
    a.add_argument("--hunt-forcing", action="store_true", help="search for a puzzle whose answer is a force")
    a.add_argument("--hunt-seed", type=int, default=5001)
    a.add_argument("--hunt-deals", type=int, default=2000)
    a.add_argument("--minutes", type=float, default=25.0,
                   help="the time limit of the forcing hunt, and of mining records")
    args = a.parse_args(argv)
    if args.verify:
        return verify(CONFIRM_PLAYOUTS)
    if args.write_bot_records:
        print(f"{len(write_bot_records(args.write_bot_records, args.records))} records in {args.write_bot_records}")
    if args.from_records or args.from_db or args.hunt_forcing:
        return mine_more(args)
    t0 = time.time()
    chosen = [s for s in SETS if not args.only or s.name in args.only]
    kept: list[Puzzle] = []
    if args.out.exists():  # the other sets' puzzles, those of the forcing hunt, of matches and of records
        old = json.loads(args.out.read_text(encoding="utf-8"))["puzzles"]
        redo = tuple(s.prefix for s in chosen)
        kept = [Puzzle.from_json(p) for p in old if not p["id"].startswith(redo)]
    found = list(kept)
    for which in SETS:
        if which in chosen:
            t1 = time.time()
            mined = select(mine(which, args.screen, args.most), which.easy)
            print(f"{which.name}: {len(mined)} puzzles from {which.deals} deals in {time.time() - t1:.0f} s",
                  flush=True)
            found += mined
    write(args.out, found)
    print(f"{len(found)} puzzles in {time.time() - t0:.0f} s -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

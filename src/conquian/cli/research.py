"""``conquian simulate``, ``tournament`` and ``stats``: random play, bots on duplicate deals, how long a hand lasts.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import IO

from conquian.cli.options import (
    MAX_EXPERT_ITERATIONS,
    MAX_SIMULATE_DEALS,
    MAX_TOURNAMENT_DEALS,
    Subparsers,
    add_rules_options,
    bots_and_rules,
    bounded,
    integer,
    positive,
    rules_from_args,
    say,
)
from conquian.engine.errors import ConquianError, quote
from conquian.engine.files import check_writable
from conquian.engine.match import Deal
from conquian.engine.record import (
    Record,
    deal_record,
    deal_text,
    record_header,
)
from conquian.engine.rules import PRESETS, Rules
from conquian.i18n import _, ngettext
from conquian.simulate import simulate


def add_parsers(sub: Subparsers) -> None:
    """Add this module's commands to the ``conquian`` parser."""
    s = sub.add_parser("simulate", help=_("random legal play: speed and outcome figures"),
                       description=_("Random legal play: deals per second, decisions per second, outcomes.  Memory "
                                     "does not grow with --deals; --record streams every deal to a record."))
    s.add_argument("--variant", default="conquian", choices=list(PRESETS))
    s.add_argument("--deals", type=bounded(1, MAX_SIMULATE_DEALS), default=1000,
                   help=_("deals to play (default 1000, at most {most:,})").format(most=MAX_SIMULATE_DEALS))
    s.add_argument("--seed", type=integer, default=0, help=_("seed of decks and choices (default 0)"))
    add_rules_options(s)
    s.add_argument("--json", action="store_true", help=_("print one JSON object"))
    s.add_argument("--record", metavar="FILE",
                   help=_("write every deal to FILE as a record (checked before playing)"))

    t = sub.add_parser("tournament", help=_("bots against each other on duplicate deals"),
                       description=_("Bots against each other on duplicate deals: every deck once per rotation of "
                                     "the bots over the seats, in worker processes, with {ci} intervals.").format(
                                         ci="95%"))
    t.add_argument("--variant", default="conquian", choices=list(PRESETS))
    t.add_argument("--bots", required=True,
                   help=_("bot names, one per seat, comma-separated (e.g. expert,foster)"))
    t.add_argument("--deals", type=bounded(1, MAX_TOURNAMENT_DEALS), default=100,
                   help=_("decks, each played once per rotation (default 100, at most {most:,})").format(
                       most=MAX_TOURNAMENT_DEALS))
    t.add_argument("--seed", type=integer, default=0)
    t.add_argument("--workers", type=positive, default=None,
                   help=_("processes (default and at most: the machine's cores, {cores})").format(
                       cores=os.cpu_count() or 1))
    t.add_argument("--expert-iterations", type=bounded(1, MAX_EXPERT_ITERATIONS), default=None,
                   help=_("playouts per expert decision (at most {most:,})").format(most=MAX_EXPERT_ITERATIONS))
    t.add_argument("--json", action="store_true", help=_("print one JSON object"))
    add_rules_options(t)

    st = sub.add_parser("stats", help=_("how long a hand lasts and what it takes to win: a report with plots"),
                        description=_("Play many deals with the bots named per seat and write a report: the "
                                      "duration of a deal in rounds and turns, the survival curve, Foster's table "
                                      "(the chance a hand needing k cards fills in time), the seats' advantage and "
                                      "how winners win.  The same seed gives the same stats.json however it runs: "
                                      "one process, several, or Ray."))
    st.add_argument("--variant", default="conquian", choices=list(PRESETS))
    st.add_argument("--bots", default="foster",
                    help=_("bots by seat, comma-separated, or one name for every seat (default foster)"))
    st.add_argument("--deals", type=bounded(1, MAX_SIMULATE_DEALS), default=10_000,
                    help=_("deals to play (default 10000, at most {most:,})").format(most=MAX_SIMULATE_DEALS))
    st.add_argument("--seed", type=integer, default=0, help=_("seed of the run (default 0)"))
    st.add_argument("--workers", type=bounded(1, 1024), default=None,
                    help=_("local processes (default: the machine's cores, {cores})").format(
                        cores=os.cpu_count() or 1))
    st.add_argument("--ray", nargs="?", const="local", default=None, metavar="ADDRESS",
                    help=_("run on Ray: a local instance (--ray) or the cluster at ADDRESS (--ray "
                           "ray://host:10001 or auto)"))
    st.add_argument("--chunk", type=bounded(1, 1_000_000), default=None,
                    help=_("deals per task (default: automatic)"))
    st.add_argument("--out", metavar="DIR", default=None,
                    help=_("folder of the report (default ./stats-VARIANT-Np; created if needed)"))
    st.add_argument("--json", action="store_true", help=_("also print stats.json on standard output"))
    add_rules_options(st)


class _RecordStream:
    """A record written deal by deal to a temporary file beside FILE, renamed over it at the end
    (so a failure leaves FILE as it was, and memory does not grow with the deals)."""

    def __init__(self, path: str, rules: Rules) -> None:
        dest = Path(path)
        fd, self.tmp = tempfile.mkstemp(prefix=f".{dest.name}.", suffix=".tmp", dir=dest.parent)
        self.path = path
        self.file: IO[str] = os.fdopen(fd, "w", encoding="utf-8")
        names = [f"p{i + 1}" for i in range(rules.players)]
        self.file.write(record_header(Record(rules.name, names, rules.options_diff())))

    def deal(self, deal: Deal, scores: list[int]) -> None:
        self.file.write(deal_text(deal_record(deal, scores)))

    def finish(self) -> None:
        self.file.flush()
        os.fsync(self.file.fileno())
        self.file.close()
        os.replace(self.tmp, self.path)

    def abandon(self) -> None:
        with contextlib.suppress(OSError):
            self.file.close()
        with contextlib.suppress(OSError):
            os.unlink(self.tmp)


def simulate_command(args: argparse.Namespace) -> int:
    """Run ``conquian simulate``: the figures in the program's language (``--json`` and ``--record``
    never change with it)."""
    try:
        rules = rules_from_args(args)
    except ConquianError as e:
        print(f"conquian simulate: {say(e)}", file=sys.stderr)
        return 2
    stream = None
    if args.record is not None:
        try:
            check_writable(args.record)
            stream = _RecordStream(args.record, rules)
        except OSError as e:
            print("conquian simulate: " + _("cannot write {path}: {reason}").format(
                path=quote(args.record), reason=e.strerror or e), file=sys.stderr)
            return 2
    try:
        res = simulate(rules, args.deals, args.seed, on_deal=stream.deal if stream else None)
        if stream:
            stream.finish()
    except OSError as e:
        if stream:
            stream.abandon()
        print("conquian simulate: " + _("cannot write {path}: {reason}").format(
            path=quote(args.record), reason=e.strerror or e), file=sys.stderr)
        return 1
    except BaseException:
        if stream:
            stream.abandon()
        raise
    print(json.dumps(res.to_json()) if args.json else res.text())
    return 0


def tournament_command(args: argparse.Namespace) -> int:
    """Run ``conquian tournament``."""
    from conquian.tournament import run_tournament

    got = bots_and_rules(args, "conquian tournament", one_for_all=False)
    if isinstance(got, int):
        return got
    bots, rules = got
    from conquian.tournament import max_workers

    if args.workers is not None and args.workers > max_workers():
        print("conquian tournament: " + _("{asked} workers asked for; using {cores}, the machine's cores").format(
            asked=args.workers, cores=max_workers()), file=sys.stderr)
        args.workers = max_workers()
    params = {"expert": {"iterations": args.expert_iterations}} if args.expert_iterations else {}
    res = run_tournament(rules, bots, args.deals, args.seed, args.workers, params, progress=not args.json,
                         keep_outcomes=False)
    print(json.dumps(res.to_json()) if args.json else res.text())
    return 0


def stats_command(args: argparse.Namespace) -> int:
    """Run ``conquian stats``."""
    import time

    err = "conquian stats:"
    got = bots_and_rules(args, "conquian stats", one_for_all=True)
    if isinstance(got, int):
        return got
    bots, rules = got
    if args.ray is not None and args.workers is not None:
        print(f"{err} " + _("--workers and --ray exclude each other (Ray uses its cluster's CPUs)"), file=sys.stderr)
        return 2
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        print(f"{err} " + _("the report's plots need the analysis extra: pip install 'conquian[analysis]'"),
              file=sys.stderr)
        return 2
    from conquian.analysis import report
    from conquian.analysis.run import progress_bar, run, run_ray

    out = Path(args.out) if args.out else Path(f"stats-{rules.name}-{rules.players}p")
    if out.exists() and not out.is_dir():
        print(f"{err} " + _("{path} exists and is not a folder").format(path=quote(str(out), 80)), file=sys.stderr)
        return 2
    advance, close = progress_bar(args.deals, f"{rules.name} {rules.players}p")
    start = time.perf_counter()
    try:
        if args.ray is not None:
            address = None if args.ray == "local" else args.ray
            tally = run_ray(rules, bots, args.deals, args.seed, address=address, chunk=args.chunk, progress=advance)
            how = (_("on Ray (a local instance)") if address is None
                   else _("on Ray ({address})").format(address=address))
        else:
            workers = args.workers or os.cpu_count() or 1
            tally = run(rules, bots, args.deals, args.seed, workers=workers, chunk=args.chunk, progress=advance)
            how = ngettext("on {n} local process", "on {n} local processes", workers).format(n=workers)
    except RuntimeError as e:
        close()
        print(f"{err} {say(e)}", file=sys.stderr)
        return 2
    close()
    seconds = time.perf_counter() - start
    data = report.stats_json(rules, bots, args.seed, tally)
    try:
        files = report.write(out, data, rules, seconds, how)
    except OSError as e:
        print(f"{err} " + _("cannot write the report in {path}: {reason}").format(
            path=quote(str(out), 80), reason=e.strerror or e), file=sys.stderr)
        return 1
    f = data["figures"]
    if args.json:
        print(json.dumps(data, sort_keys=True))
    else:
        print(_("{deals:,} deals of {variant} ({players} players) {how} in {seconds:,.1f} s ({rate:,.0f} deals/s): "
                "a deal lasts {mean:.2f} rounds on average (95% {low:.2f} to {high:.2f}), median {median}").format(
            deals=f["deals"], variant=rules.name, players=rules.players, how=how, seconds=seconds,
            rate=f["deals"] / max(seconds, 1e-9), mean=f["rounds"]["mean"], low=f["rounds"]["ci95"][0],
            high=f["rounds"]["ci95"][1], median=f["rounds"]["median"]))
        print(_("report: {path}").format(path=files[-1]))
    return 0



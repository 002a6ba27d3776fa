"""The report of ``conquian stats``: ``stats.json``, ``report.md`` and its plots (PNG and SVG).

``stats.json`` holds the settings of the run, the figures and the raw counts, and nothing
that depends on how or how fast it ran, so the same seed writes the same file from every
backend.  The run's speed goes in ``report.md`` and on the terminal.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from conquian.analysis.collect import Tally
from conquian.analysis.figures import figures
from conquian.engine.rules import CONQUIAN, MEXICANO, Rules
from conquian.i18n import N_, _, ngettext

POSITION_NAMES_CONQUIAN = (N_("pone (first to play)"), N_("the other hand (the dealer at two)"))


def position_name(rules: Rules, pos: int) -> str:
    """How a report names a position at the table (0: first to play), in the program's language."""
    if rules.family == CONQUIAN:
        return _(POSITION_NAMES_CONQUIAN[pos])
    n = rules.players
    if pos == n - 1:
        return _("{n}: the dealer").format(n=pos + 1)
    if pos == 0:
        return (_("{n}: first to play (after the dealer)") if rules.family == MEXICANO
                else _("{n}: first to play (left of the dealer)")).format(n=pos + 1)
    return f"{pos + 1}"


def stats_json(rules: Rules, bots: list[str], seed: int, tally: Tally) -> dict[str, Any]:
    """The content of ``stats.json``."""
    return {
        "format": "conquian-stats/1",
        "variant": rules.name, "players": rules.players, "options": rules.options_diff(), "bots": bots,
        "seed": seed, "figures": figures(tally, rules.family, players=rules.players), "counts": tally.to_json(),
    }


def write(out: Path, data: dict[str, Any], rules: Rules, seconds: float, how: str) -> list[Path]:
    """Write ``stats.json``, the plots and ``report.md`` into ``out``; the files written."""
    out.mkdir(parents=True, exist_ok=True)
    files = [out / "stats.json"]
    _atomic_text(files[0], json.dumps(data, indent=1, sort_keys=True) + "\n")
    files += plots(out, data)
    _atomic_text(out / "report.md", markdown(data, rules, seconds, how))
    files.append(out / "report.md")
    return files


def _atomic_text(path: Path, text: str) -> None:
    """Write beside, then rename: a run killed while writing leaves the old file or the new one."""
    tmp = path.with_name(path.name + ".part")
    tmp.write_text(text)
    os.replace(tmp, path)


def plots(out: Path, data: dict[str, Any]) -> list[Path]:
    """The histogram of durations and the survival curve, as PNG and SVG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    f = data["figures"]
    title = _("{variant}, {players} players, {bots}: {deals:,} deals").format(
        variant=data["variant"], players=data["players"], bots=", ".join(data["bots"]), deals=f["deals"])
    written = []
    hist = {int(k): v for k, v in f["rounds"]["histogram"].items()}
    fig, ax = plt.subplots(figsize=(7, 3.6))
    xs = sorted(hist)
    n = sum(hist.values())
    ax.bar(xs, [hist[x] / n for x in xs], color="#3b6ea8")
    ax.set_xlabel(_("rounds in the deal"))
    ax.set_ylabel(_("share of deals"))
    ax.set_title(title, fontsize=9)
    mean = f["rounds"]["mean"]
    ax.axvline(mean, color="#c0392b", linestyle="--", linewidth=1, label=_("mean {mean:.2f}").format(mean=mean))
    ax.legend()
    written += _save(plt, fig, out, "duration")
    surv = f["survival"]
    fig, ax = plt.subplots(figsize=(7, 3.6))
    ax.step(range(len(surv)), surv, where="post", color="#2e7d32")
    ax.set_xlabel(_("rounds played, r"))
    ax.set_ylabel(_("chance the deal is still running"))
    ax.set_ylim(0, 1.02)
    ax.set_title(title, fontsize=9)
    ax.grid(alpha=0.3)
    written += _save(plt, fig, out, "survival")
    return written


def _save(plt: Any, fig: Any, out: Path, name: str) -> list[Path]:
    """A figure as PNG and SVG (the SVG without a date, so the same run writes the same file)."""
    fig.tight_layout()
    paths = []
    for ext in ("png", "svg"):
        p = out / f"{name}.{ext}"
        tmp = out / f"{name}.part.{ext}"
        fig.savefig(tmp, dpi=110, metadata={"Date": None} if ext == "svg" else {})
        os.replace(tmp, p)
        paths.append(p)
    plt.close(fig)
    return paths


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def markdown(data: dict[str, Any], rules: Rules, seconds: float, how: str) -> str:
    """The report in Markdown (the plots beside it), in the program's language; ``stats.json``
    holds the same figures for machines."""
    f = data["figures"]
    conq = rules.family == CONQUIAN
    mex = rules.family == MEXICANO
    r, t = f["rounds"], f["turns"]
    options = json.dumps(data["options"]) if data["options"] else _("the defaults")
    round_is = (_("A round is one turn for each player (in conquian, a card turned from the pack by each of the two "
                  "hands).") if conq else
                _("A round is one turn for each player (a card turned from the pack by each player; a turn is a "
                  "card turned, R8.3).") if mex else _("A round is one turn for each player."))
    lines = [
        "# " + _("{variant}, {players} players: {deals:,} deals").format(
            variant=data["variant"], players=data["players"], deals=f["deals"]),
        "",
        _("Bots by seat: {bots}; seed {seed}; options {options}. Played {how} in {seconds:,.1f} s ({rate:,.0f} "
          "deals a second).").format(bots=", ".join(data["bots"]), seed=data["seed"], options=options, how=how,
                                     seconds=seconds, rate=f["deals"] / max(seconds, 1e-9)),
        "",
        "## " + _("How long a hand lasts"),
        "",
        round_is,
        "",
        "| | " + " | ".join((_("mean"), _("{ci} interval").format(ci="95%"), _("median"), "10%", "90%", "99%")) + " |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, d in ((_("rounds"), r), (_("turns"), t)):
        q = d["quantiles"]
        lines.append(f"| {name} | {d['mean']:.3f} | "
                     + _("{low:.3f} to {high:.3f}").format(low=d["ci95"][0], high=d["ci95"][1])
                     + f" | {d['median']} | {q['0.1']} | {q['0.9']} | {q['0.99']} |")
    lines += ["", "![duration](duration.png)", "", _("The chance a deal is still running after r rounds:"), "",
              "![survival](survival.png)", "",
              "| r | " + " | ".join(str(i) for i in range(1, min(len(f["survival"]), 16))) + " |",
              "|---|" + "---|" * (min(len(f["survival"]), 16) - 1),
              "| S(r) | " + " | ".join(_pct(x) for x in f["survival"][1:16]) + " |", ""]
    ft = f["foster_table"]
    lines += ["## " + _("Foster's table: does a hand fill in time?"), "",
              ngettext("The chance that a hand known at round r, still needing k cards, any k of `live` unseen cards "
                       "filling the need, fills before the deal ends ({n} card reaching a hand each round; the "
                       "method is in docs/analysis.md).",
                       "The chance that a hand known at round r, still needing k cards, any k of `live` unseen cards "
                       "filling the need, fills before the deal ends ({n} cards reaching a hand each round; the "
                       "method is in docs/analysis.md).", ft["cards_per_round"]).format(n=ft["cards_per_round"]),
              ""]
    for rr, block in ft["by_round"].items():
        lives = sorted({int(x) for row in block["chances"].values() for x in row})
        lines += [_("Known at round {round} ({unseen:.1f} cards unseen):").format(round=rr, unseen=block["unseen"]),
                  "",
                  "| " + _("k needed") + " | " + " | ".join(_("{n} live").format(n=x) for x in lives) + " |",
                  "|---|" + "---|" * len(lives)]
        for k, row in block["chances"].items():
            lines.append(f"| {k} | " + " | ".join(_pct(row.get(str(x))) for x in lives) + " |")
        lines.append("")
    nobody = (_("Tableaux (nobody eleven down)") if conq else _("Draws (the pack exhausted, R8.6)") if mex
              else _("Void deals"))
    share = f["no_winner"]["share"]
    lines += ["## " + _("Outcomes"), "",
              _("{outcome}: {deals:,} ({share}, 95% {low} to {high}).").format(
                  outcome=nobody, deals=f["no_winner"]["deals"], share=_pct(share[0]), low=_pct(share[1]),
                  high=_pct(share[2])), "",
              "| " + " | ".join((_("position"), _("wins"), _("share of deals (95%)"), _("points a deal (95%)")))
              + " |", "|---|---|---|---|"]
    for s in f["positions"]:
        w, p = s["win_share"], s["points_per_deal"]
        lines.append(f"| {position_name(rules, s['position'])} | {s['wins']:,} | "
                     + _("{share} ({low} to {high})").format(share=_pct(w[0]), low=_pct(w[1]), high=_pct(w[2]))
                     + " | " + _("{points:+.3f} ({low:+.3f} to {high:+.3f})").format(points=p[0], low=p[1], high=p[2])
                     + " |")
    lines.append("")
    if not conq and not mex:
        sp = f["splash"]
        lines += [_("Splashes (going out with no earlier lay-out, R5.3): {deals:,}, {share} of the won deals.").format(
            deals=sp["deals"], share=_pct(sp["share_of_wins"][0])), ""]
    won_head = "| | " + _("deals") + " | " + _("share of won deals") + " |"
    lines += [_("How the winners won (the winning use):") if conq or mex
              else _("How the winners won (the action that went out):"), "",
              won_head, "|---|---|---|"]
    for k, v in f["win_kinds"].items():
        lines.append(f"| {k} | {v['deals']:,} | {_pct(v['share'])} |")
    if conq or mex:
        lines += ["", _("The winning card was:"), "", won_head, "|---|---|---|"]
        for k, v in f["win_sources"].items():
            lines.append(f"| {k} | {v['deals']:,} | {_pct(v['share'])} |")
    lines.append("")
    return "\n".join(lines)

"""The bots' levels (:mod:`conquian.bots.levels`): each a real, legal policy of its own, the same
moves for the same seed in every form of the game; the shipped ratings file complete and
consistent (every level fitted, the ladder in order, the intervals, the command that wrote it);
``conquian bots`` and ``conquian play --level``."""

from __future__ import annotations

import datetime
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from conquian.bots import bot_names, make_bot
from conquian.bots.expert import ExpertBot
from conquian.bots.levels import BEGINNER_NOISE, CASUAL_NOISE, LEVELS, NoisyFosterBot, fitted, fixed_rating, level
from conquian.engine.match import new_deal
from conquian.engine.rules import PRESETS, get_rules
from conquian.i18n import translator
from conquian.present import BOT_NAMES, bot_name
from conquian.web.platform.ratings.service import rating

CHEAP = ("beginner", "casual", "foster")


def play(variant: str, bots: list[str], deck_seed: int, bot_seed: int, **params: Any) -> list[str]:
    """One deal, ``bots[i]`` at seat ``i + 1`` (the others ``foster``), every action in notation
    (``deal.play`` refuses an illegal one)."""
    rules = get_rules(variant)
    deal = new_deal(rules, seed=deck_seed, dealer=rules.players)
    names = bots + ["foster"] * (rules.players - len(bots))
    players = [make_bot(b, seed=bot_seed + i, **params.get(b, {})) for i, b in enumerate(names)]
    while not deal.over:
        seat = deal.to_act
        assert seat is not None
        deal.play(players[seat - 1].choose(deal.view(seat)))
    return [str(a) for a in deal.actions()]


def test_every_level_is_a_registered_bot_with_a_name_in_both_languages() -> None:
    es = translator("es")
    for lv in LEVELS:
        assert lv.bot in bot_names() and lv.bot in BOT_NAMES and level(lv.bot) is lv
        assert es.render(lv.policy) != str(lv.policy)  # translated
    names = [es.render(bot_name(b)) for b in ("beginner", "casual", "skilled")]
    assert names == ["Principiante", "Aficionado", "Hábil"]
    assert level("random") is None
    assert len({lv.bot for lv in LEVELS}) == len(LEVELS)


@pytest.mark.parametrize("variant", sorted(PRESETS))
@pytest.mark.parametrize("bot", CHEAP)
def test_cheap_levels_play_legally_and_the_same_for_the_same_seed(variant: str, bot: str) -> None:
    first = play(variant, [bot], deck_seed=11, bot_seed=5)
    assert play(variant, [bot], deck_seed=11, bot_seed=5) == first
    assert any(play(variant, [bot], deck_seed=11, bot_seed=s) != first for s in range(6, 30)) or bot == "foster"


def test_the_noisy_levels_are_foster_with_their_share_of_random_moves() -> None:
    """With no noise the policy is foster's, move for move; the levels' noise is what they say, and
    on the same decks and seeds the three cheap levels play differently."""
    assert make_bot("beginner").noise == BEGINNER_NOISE > make_bot("casual").noise == CASUAL_NOISE > 0  # type: ignore[attr-defined]
    rules = get_rules("conquian")
    for seed in range(4):
        deal = new_deal(rules, seed=seed, dealer=2)
        quiet, foster = NoisyFosterBot(seed=seed, noise=0.0), make_bot("foster", seed=seed)
        while not deal.over:
            seat = deal.to_act
            assert seat is not None
            view = deal.view(seat)
            a = quiet.choose(view)
            assert str(a) == str(foster.choose(view))
            deal.play(a)
    games = {b: [play("conquian", [b, b], d, 7) for d in range(6)] for b in CHEAP}
    assert games["beginner"] != games["casual"] != games["foster"] != games["beginner"]
    with pytest.raises(ValueError, match="noise"):
        NoisyFosterBot(noise=1.5)


def test_a_noisy_level_departs_from_foster_about_as_often_as_its_noise() -> None:
    rules = get_rules("conquian")
    departs = decisions = 0
    rng = random.Random(3)
    for seed in range(30):
        deal = new_deal(rules, seed=seed, dealer=2)
        beginner, foster = make_bot("beginner", seed=seed), make_bot("foster", seed=seed)
        while not deal.over:
            seat = deal.to_act
            assert seat is not None
            view = deal.view(seat)
            legal = view.legal_raw()
            a = beginner.choose(view)
            if len(legal) > 1:
                decisions += 1
                departs += str(a) != str(foster.choose(view))
            deal.play(a if rng.random() < 0.5 else foster.choose(view))
    # a random move is sometimes foster's own: the share of departures is below the noise, not far
    assert 0.15 < departs / decisions < BEGINNER_NOISE + 0.1


def test_the_search_levels_differ_by_their_playouts_and_repeat_for_a_seed() -> None:
    rules = get_rules("conquian")
    deal = new_deal(rules, seed=2, dealer=2)
    seat = deal.to_act
    while seat is not None and len(deal.view(seat).legal_raw()) < 3:  # a decision with a choice
        deal.play(make_bot("foster").choose(deal.view(seat)))
        seat = deal.to_act
    assert seat is not None
    view = deal.view(seat)
    spent = {}
    for b in ("skilled", "expert"):
        bot = make_bot(b, seed=4)
        assert isinstance(bot, ExpertBot)
        choice = str(bot.choose(view))
        assert str(make_bot(b, seed=4).choose(view)) == choice
        spent[b] = bot.last_playouts
    assert spent["skilled"] < spent["expert"]
    budgets = [make_bot(b) for b in ("skilled", "expert", "master")]
    assert all(isinstance(b, ExpertBot) for b in budgets)
    assert [b.CONQUIAN_ITERATIONS for b in budgets] == [24, 240, 2000]  # type: ignore[attr-defined]


def test_skilled_plays_legally_in_cooncan_and_the_mexicano() -> None:
    for variant in ("cooncan", "conquian-mexicano"):
        assert play(variant, ["skilled"], 3, 1, skilled={"iterations": 8}) == \
            play(variant, ["skilled"], 3, 1, skilled={"iterations": 8})


# ------------------------------------------------------------------ the shipped ratings
def test_the_ratings_file_has_every_level_in_order_with_its_interval() -> None:
    data = fitted()
    assert "conquian" in data["games"], "run python -m benchmarks.bot_levels"
    for game, entry in data["games"].items():
        assert game in PRESETS
        bots = entry["bots"]
        # the ladder as measured: no level clearly (its whole interval) above a stronger one, and
        # the weakest below the strongest (two neighbours may measure within noise of each other)
        ladder = [bots[lv.bot] for lv in LEVELS if lv.bot in bots]
        for i, weak in enumerate(ladder):
            for strong in ladder[i + 1:]:
                assert weak["interval"][0] <= strong["interval"][1], (game, weak, strong)
        assert ladder[0]["interval"][1] < ladder[-1]["interval"][0], game
        assert entry["command"].startswith("python -m benchmarks.bot_levels")
        datetime.date.fromisoformat(entry["date"])
        players = entry.get("players", 2)
        assert players == get_rules(game).players
        assert entry["games"] == sum(e["deals"] for e in bots.values()) // players
        assert all(len(group) == players for group in entry["pairs"])
        for b, e in bots.items():
            assert b in bot_names()
            assert e["rating"] == rating(e["mu"]) and 0 < e["sigma"] < 25 / 3
            # the interval is of the same figure, from the refits' mu
            assert e["interval"] == [rating(e["mu_interval"][0]), rating(e["mu_interval"][1])]
            lo, hi = e["interval"]
            # a level's figure is narrow enough to offer; random's may be wide where it almost never
            # wins (three-hand Cooncan: 2 of 54 deals)
            assert lo <= hi and (hi - lo < 600 or level(b) is None)
            assert e["wins"] + e["draws"] + e["losses"] == e["deals"] > 0
            assert fixed_rating(game, b) == e
    assert all(lv.bot in data["games"]["conquian"]["bots"] for lv in LEVELS)
    for game in data["games"].values():  # the anchor: foster at mu 25, shown 1,500, in every game
        assert game["bots"]["foster"]["mu"] == 25.0 and game["bots"]["foster"]["rating"] == 1500
    assert fixed_rating("conquian", "nobody") is None and fixed_rating("nothing", "foster") is None


def test_every_fitted_game_fits_every_level_and_a_quick_match_seats_a_fitted_one() -> None:
    """In each game with a fit, every level has its rating (the menus offer them all), and the bot a
    quick match seats beside a player (:func:`level_for`) is the fitted level nearest his rating."""
    from conquian.bots.levels import level_for, rated_bots
    from conquian.web.platform.quickmatch.service import NEW_RATING

    games = fitted()["games"]
    assert {"conquian", "conquian-spanish", "cooncan", "conquian-mexicano"} <= set(games)
    for game, entry in games.items():
        assert all(lv.bot in entry["bots"] for lv in LEVELS), game
        ratings = {b: r for b, r in rated_bots(game) if level(b) is not None}
        newcomer = level_for(game, NEW_RATING)
        assert newcomer in ratings
        assert abs(ratings[newcomer] - NEW_RATING) == min(abs(r - NEW_RATING) for r in ratings.values())
        for r in ratings.values():
            assert ratings[level_for(game, r) or ""] == r  # a level's own rating gets it (or its equal)
        assert level_for(game, 10_000) == max(ratings, key=lambda b: (ratings[b], -[lv.bot for lv in LEVELS].index(b)))


def test_the_fitting_schedules_neighbours_and_rates_games_of_three() -> None:
    from benchmarks.bot_levels import Result, fit, schedule, tally

    bots = ["random", "beginner", "foster", "expert"]
    assert schedule(bots, 1) == [("random", "beginner"), ("beginner", "foster"), ("foster", "expert")]
    assert schedule(bots, 1, players=3) == [("random", "beginner", "foster"), ("beginner", "foster", "expert")]
    assert len(schedule(bots, 3, players=3)) == 4
    # foster first every time, random last: the ladder comes out in order, foster at mu 25
    deck: list[Result] = [(("random", "beginner", "foster"), (3.0, 2.0, 1.0)),
                          (("foster", "random", "beginner"), (1.0, 3.0, 2.0)),
                          (("beginner", "foster", "random"), (2.0, 1.0, 3.0))]
    rated = fit([deck] * 6, bots[:3])
    assert rated["random"][0] < rated["beginner"][0] < rated["foster"][0] == pytest.approx(25.0)
    assert tally([deck], "foster") == {"deals": 3, "wins": 3, "draws": 0, "losses": 0}
    tableau: list[Result] = [(("random", "beginner", "foster"), (1.0, 1.0, 1.0))]
    assert tally([deck, tableau], "random") == \
        {"deals": 4, "wins": 0, "draws": 1, "losses": 3}


def test_refitting_one_game_keeps_the_others_and_records_its_command(tmp_path: Path) -> None:
    out = tmp_path / "levels.json"
    other = {"bots": {}, "command": "python -m benchmarks.bot_levels --variant conquian", "decks": 1}
    out.write_text(json.dumps({"games": {"conquian": other}}), encoding="utf-8")
    # out of time (--minutes 0) after the first of three decks: the command written names one deck
    args = ["--variant", "cooncan", "--bots", "random,beginner,foster", "--decks", "3", "--minutes", "0",
            "--bootstrap", "4", "--workers", "1", "--out", str(out)]
    p = subprocess.run([sys.executable, "-m", "benchmarks.bot_levels", *args], capture_output=True, text=True,
                       timeout=300, cwd=Path(__file__).resolve().parents[1])
    assert p.returncode == 0, p.stderr
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["games"]["conquian"] == other
    entry = data["games"]["cooncan"]
    assert entry["command"] == ("python -m benchmarks.bot_levels --variant cooncan --bots random,beginner,foster "
                                "--decks 1 --span 3 --seed 40 --workers 1 --bootstrap 4")
    assert entry["decks"] == 1 and entry["players"] == 3 and entry["games"] == 3
    assert entry["pairs"] == [["random", "beginner", "foster"]]
    assert all(e["deals"] == 3 for e in entry["bots"].values())
    assert entry["bots"]["foster"]["mu"] == 25.0


def test_the_file_is_the_json_the_fitting_writes() -> None:
    from importlib import resources

    text = resources.files("conquian.bots").joinpath("levels.json").read_text(encoding="utf-8")
    assert json.dumps(json.loads(text), indent=1, sort_keys=True) + "\n" == text


# ------------------------------------------------------------------ the command line
def run(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "LANGUAGE": ""}
    return subprocess.run([sys.executable, "-m", "conquian", *args], capture_output=True, text=True, timeout=120,
                          env=env)


def test_conquian_bots_lists_the_levels_with_their_ratings() -> None:
    p = run("bots")
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert "python -m benchmarks.bot_levels" in lines[0]
    for lv in LEVELS:
        e = fixed_rating("conquian", lv.bot)
        assert e is not None
        row = next(line for line in lines if line.split()[0] == lv.bot)
        assert f"{e['rating']} ({e['interval'][0]}-{e['interval'][1]})" in row and str(lv.policy) in row
    es = run("--lang", "es", "bots", "--variant", "cooncan-double")
    assert es.returncode == 0 and "Puntuaciones en Cooncan con dos barajas" in es.stdout
    beginner = fixed_rating("cooncan-double", "beginner")
    assert beginner is not None
    row = next(line for line in es.stdout.splitlines() if line.split()[0] == "beginner")
    assert "Principiante" in row and f"{beginner['rating']} ({beginner['interval'][0]}-" in row
    # the searches' budgets said are Cooncan's own there, not conquian's
    expert = next(line for line in es.stdout.splitlines() if line.split()[0] == "expert")
    assert "96 simulaciones" in expert and "240" not in expert, expert


def test_conquian_bots_says_when_a_game_has_no_fitted_rating(monkeypatch: pytest.MonkeyPatch,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    import argparse

    import conquian.bots.levels as levels
    from conquian.cli.play import bots_command

    monkeypatch.setattr(levels, "fitted", lambda: {"games": {}})
    assert bots_command(argparse.Namespace(variant="cooncan-double")) == 0
    out = capsys.readouterr().out
    assert out.startswith("No bot has a measured rating in ") and "beginner" in out


def test_play_level_is_checked() -> None:
    p = run("play", "--level", "beginner", "--bots", "foster")
    assert p.returncode == 2 and "--level or --bots" in p.stderr
    p = run("play", "--level", "grandmaster")
    assert p.returncode == 2 and "invalid choice" in p.stderr and "beginner" in p.stderr


def test_the_levels_are_listed_by_their_fitted_rating_and_master_is_never_put_above_a_stronger_one() -> None:
    """``master`` was offered as the strongest while ``expert`` measured above it in the menus.  Where
    the levels are listed (``conquian bots``, the web's menus through ``/api/presets``'s
    ``level_order``), each game lists them by their fitted rating: in three-hand Cooncan, where
    ``master`` measures below ``expert``, it comes before it."""
    from conquian.bots.levels import levels_by_rating

    for game in fitted()["games"]:
        order = levels_by_rating(game)
        assert sorted(order) == sorted(lv.bot for lv in LEVELS)
        figures = [fixed_rating(game, b)["rating"] for b in order]  # type: ignore[index]
        assert figures == sorted(figures), game
    cooncan = levels_by_rating("cooncan")
    assert fixed_rating("cooncan", "master")["rating"] < fixed_rating("cooncan", "expert")["rating"]  # type: ignore[index]
    assert cooncan.index("master") < cooncan.index("expert")
    p = run("bots", "--variant", "cooncan")
    assert p.returncode == 0, p.stderr
    listed = [line.split()[0] for line in p.stdout.splitlines()[1:] if line.strip()]
    assert listed[:len(LEVELS)] == cooncan
    assert "from the weakest" not in run("play", "--help").stdout.replace("\n", " ")


def test_a_new_scale_is_written_again_from_the_figures_kept(tmp_path: Path) -> None:
    """``--reexpress`` plays nothing: every game of the file again on the web's scale, from its mu
    (and the refits' mu); the file's first scale is read back, and writing twice changes nothing."""
    old = {"scale": "rating = 1000 + 40 * (mu - 3 sigma)", "games": {"conquian": {"command": "x", "bots": {
        "foster": {"mu": 25.0, "sigma": 1.5, "rating": 1820, "interval": [1815, 1822], "deals": 4},
        "random": {"mu": 18.0, "sigma": 2.0, "rating": 1480, "interval": [1400, 1560], "deals": 4}}}}}
    out = tmp_path / "levels.json"
    out.write_text(json.dumps(old), encoding="utf-8")
    cmd = [sys.executable, "-m", "benchmarks.bot_levels", "--reexpress", "--out", str(out)]
    root = Path(__file__).resolve().parents[1]
    assert subprocess.run(cmd, capture_output=True, text=True, timeout=120, cwd=root).returncode == 0
    once = out.read_text(encoding="utf-8")
    bots = json.loads(once)["games"]["conquian"]["bots"]
    assert bots["foster"]["rating"] == 1500 and bots["random"]["rating"] == rating(18.0)
    # the old interval's mu: (1400 - 1000) / 40 + 3 * 2.0 = 16.0, (1560 - 1000) / 40 + 6.0 = 20.0
    assert bots["random"]["mu_interval"] == [16.0, 20.0] and bots["random"]["interval"] == [rating(16.0), rating(20.0)]
    assert bots["random"]["deals"] == 4 and json.loads(once)["games"]["conquian"]["command"] == "x"
    assert subprocess.run(cmd, capture_output=True, text=True, timeout=120, cwd=root).returncode == 0
    assert out.read_text(encoding="utf-8") == once

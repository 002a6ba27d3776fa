"""Helpers shared by the tests: build deals from named hands."""

from __future__ import annotations

from conquian import ConquianDeal, get_rules, parse_cards
from conquian.engine.deck import arrange_deck


def make_deal(pone: str, other: str, pack: str = "", variant: str = "conquian", dealer: int = 2,
              **options: object) -> ConquianDeal:
    """A deal in which the pone (the seat after ``dealer``) holds ``pone`` and the other hand ``other``."""
    rules = get_rules(variant, **options)
    deck = arrange_deck(rules, [parse_cards(pone), parse_cards(other)], parse_cards(pack))
    return ConquianDeal(rules, deck, dealer=dealer)


def play_all(deal: ConquianDeal, actions: str) -> None:
    """Play actions given one per line."""
    for line in actions.strip().splitlines():
        if line.strip():
            deal.play(line.strip())


def legal(deal: ConquianDeal) -> list[str]:
    """The listed legal actions as text."""
    return [str(a) for a in deal.legal_actions()]


class TmuxGame:
    """`conquian play` (conquian against foster, seed 3, Ann) in a detached tmux session, 80x24."""

    def __init__(self, name: str, record: object, tail: str = "") -> None:
        import subprocess
        import sys

        self.name = name
        self.record = str(record)
        cmd = (f"{sys.executable} -m conquian play --variant conquian --bots foster --seed 3 --name Ann "
               f"--delay 0 --record {record}{tail}")
        subprocess.run(["tmux", "new-session", "-d", "-s", name, "-x", "80", "-y", "24", cmd], check=True)

    def screen(self) -> str:
        """The pane's text now."""
        import subprocess

        return subprocess.run(["tmux", "capture-pane", "-p", "-t", self.name], capture_output=True,
                              text=True).stdout

    def wait_for(self, *words: str, tries: int = 80) -> str:
        """The screen once it shows every one of `words` (or after `tries` quarter seconds)."""
        import time

        screen = ""
        for _ in range(tries):
            time.sleep(0.25)
            screen = self.screen()
            if all(w in screen for w in words):
                break
        return screen

    def keys(self, *keys: str) -> None:
        """Send tmux key names."""
        import subprocess

        subprocess.run(["tmux", "send-keys", "-t", self.name, *keys], check=True)

    def kill(self) -> bool:
        """End the session (whatever is left of it); whether the game's process then ended (it
        saves and leaves on the terminal's hang-up, within a few seconds)."""
        import subprocess
        import time

        subprocess.run(["tmux", "kill-session", "-t", self.name], capture_output=True)
        for _ in range(40):
            if subprocess.run(["pgrep", "-f", "--", f"--record {self.record}"], capture_output=True).returncode != 0:
                return True
            time.sleep(0.25)
        subprocess.run(["pkill", "-9", "-f", "--", f"--record {self.record}"], capture_output=True)
        return False

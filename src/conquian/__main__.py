"""``python -m conquian``: the command line."""

from conquian.cli import run

run()

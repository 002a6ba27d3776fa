import atexit
import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

from conquian.i18n import set_language

# Records saved by default go to the data folder (conquian.engine.files.records_dir), never to the
# current directory: point it at a temporary folder, for this process and every program the
# tests start, so that the tests leave the user's folders and the checkout as they found them.
_DATA = tempfile.mkdtemp(prefix="conquian-tests-")
os.environ["XDG_DATA_HOME"] = _DATA
atexit.register(shutil.rmtree, _DATA, True)

# The tests read English unless a test asks for another language (then it clears these itself):
# a developer's Spanish locale must not change the texts the English tests compare.
os.environ["LANGUAGE"] = "en"

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(1, str(Path(__file__).parent.parent))  # the benchmarks' helpers (a throwaway PostgreSQL)

# CI runs the same examples every time (a red CI must mean a regression, not bad luck);
# locally, hypothesis explores new examples on every run.
settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
settings.register_profile("dev", deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


@pytest.fixture(autouse=True)
def _program_language_restored() -> Iterator[None]:
    """A test that chooses the program's language (``set_language("es")``) leaves English behind."""
    yield
    set_language("en")


#: Whole files marked ``slow``: each starts a browser, a PostgreSQL server, a terminal in tmux or
#: a compiled build for its tests.  ``pytest -m "not slow"`` leaves them out (CI runs them all).
SLOW_FILES = frozenset({
    "test_web_a11y.py", "test_web_browser.py", "test_web_browser_accounts.py", "test_web_browser_fair_play.py",
    "test_web_browser_friends.py", "test_web_browser_hosting.py", "test_web_browser_levels.py",
    "test_web_browser_mexicano.py", "test_web_browser_newcomer.py", "test_web_browser_passkeys.py",
    "test_web_browser_quickmatch.py", "test_web_browser_review_accuracy.py", "test_web_browser_spanish.py",
    "test_web_layout.py", "test_web_offline_browser.py", "test_web_table_game.py",
    "test_web_cluster.py", "test_web_postgres.py", "test_web_postgres_accounts.py", "test_web_postgres_friends.py",
    "test_web_postgres_learn.py", "test_web_postgres_quickmatch.py", "test_web_postgres_review_50.py",
    "test_web_postgres_together.py", "test_speedups.py",
})

#: Single tests marked ``slow`` in files that are otherwise quick: a game played in a real terminal
#: (tmux) or in Pyodide, and those that took 20 seconds or more in a parallel run (``--durations``).
SLOW_TESTS = frozenset({
    "tests/test_tui.py::test_conquian_play_in_tmux", "tests/test_tui_mexicano.py::test_the_tercerilla_in_tmux",
    "tests/test_tui_evening.py::test_quit_then_resume_in_a_real_terminal",
    "tests/test_tui_hardening.py::test_every_way_out_saves_the_match",
    "tests/test_page_strength.py::test_one_deck_in_pyodide_plays_both_seats_and_counts_the_expert_s_playouts",
    "tests/test_tui.py::test_a_cooncan_double_deal_through_the_interface",
    "tests/test_tui.py::test_a_conquian_deal_through_the_interface_with_a_refusal_and_a_hint",
    "tests/test_tui.py::test_several_people_share_one_terminal",
    "tests/test_tui_spanish.py::test_espadas_read_in_every_theme_and_three_arrows_in_a_burst_move_three_cards",
    "tests/test_tui_spanish.py::test_a_conquian_deal_in_spanish",
    "tests/test_tui_mexicano.py::test_the_end_of_a_match_offers_another_game",
    "tests/test_tui_mexicano.py::test_the_fewest_cards_win_is_told_in_words",
    "tests/test_tui_mexicano.py::test_a_whole_mexicano_deal_through_the_interface",
    "tests/test_tui_review.py::test_the_review_panel_in_spanish",
    "tests/test_tui_review.py::test_the_viewer_reviews_a_seat_and_goes_to_the_blunder",
})


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The ``slow`` mark on the tests that take the most time (see :data:`SLOW_FILES`)."""
    for item in items:
        if item.path.name in SLOW_FILES or item.nodeid.split("[")[0] in SLOW_TESTS:
            item.add_marker(pytest.mark.slow)

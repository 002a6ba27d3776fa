"""The puzzle ratings' storage: the SQLAlchemy tables of :data:`conquian.web.store.metadata` and the
queries over them (the rules they apply are in the service module beside this one)."""

from __future__ import annotations

import time
from typing import Any

from sqlalchemy import Boolean, Column, Float, Index, Integer, String, insert, select, update
from sqlalchemy import Table as SqlTable
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from conquian.learn.puzzles import puzzles, start_rating
from conquian.web.platform.accounts.service import FORGET_ACCOUNT
from conquian.web.platform.puzzle_ratings.service import GAME, MARKS_KEPT, puzzle_start
from conquian.web.platform.ratings.service import rating_model, shown
from conquian.web.platform.ratings.storage import ratings
from conquian.web.store import account_key, metadata, required

puzzle_ratings = SqlTable(
    "puzzle_ratings", metadata,
    Column("puzzle_id", String(40), primary_key=True),
    *required(mu=Float, sigma=Float, attempts=Integer, solved=Integer, updated_at=Float),
)

puzzle_attempts = SqlTable(
    "puzzle_attempts", metadata,
    account_key("account_id", primary=True),
    Column("puzzle_id", String(40), primary_key=True),
    *required(solved=Boolean, mu=Float, sigma=Float, change=Integer, at=Float),
    Index("ix_puzzle_attempts_account", "account_id"),
)


puzzle_seen = SqlTable(
    "puzzle_seen", metadata,
    # "b:" and the digest of a browser's cookie, or "a:" and an account's id
    Column("viewer", String(80), primary_key=True),
    Column("puzzle_id", String(40), primary_key=True),
    *required(at=Float),
)


def _forget(conn: Connection, account_id: str) -> None:
    conn.execute(puzzle_attempts.delete().where(puzzle_attempts.c.account_id == account_id))
    conn.execute(puzzle_seen.delete().where(puzzle_seen.c.viewer == "a:" + account_id))


FORGET_ACCOUNT.append(_forget)


def _mark(conn: Connection, viewer: str, puzzle_id: str, now: float) -> None:
    """``viewer`` was shown the puzzle's answer (kept once: a second showing changes nothing)."""
    try:
        with conn.begin_nested():
            conn.execute(insert(puzzle_seen).values(viewer=viewer, puzzle_id=puzzle_id, at=now))
    except IntegrityError:
        pass


def _carry(conn: Connection, browser: str, account: str, now: float) -> None:
    """The answers the browser was shown (as a guest, or to another account) count as shown to
    the account that now answers from it."""
    had = {r.puzzle_id for r in conn.execute(select(puzzle_seen.c.puzzle_id).where(puzzle_seen.c.viewer == account))}
    for r in conn.execute(select(puzzle_seen.c.puzzle_id).where(puzzle_seen.c.viewer == browser)).all():
        if r.puzzle_id not in had:
            _mark(conn, account, r.puzzle_id, now)


class PuzzleRatings:
    """The players' and the puzzles' ratings in the server's database (synchronous)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._pruned = 0.0

    def puzzle_ratings(self) -> dict[str, int]:
        """Every shipped puzzle's rating as shown (its starting one until someone attempts it)."""
        with self.engine.begin() as conn:
            kept = {r.puzzle_id: shown(r.mu, r.sigma) for r in conn.execute(select(puzzle_ratings)).all()}
        return {p.id: kept.get(p.id, shown(*start_rating(p.difficulty))) for p in puzzles()}

    def player(self, account_id: str) -> dict[str, Any]:
        """The account's puzzle rating as shown (1,500 before any attempt), the change its last rated
        attempt made, its attempts and solves, and the puzzles it attempted."""
        with self.engine.begin() as conn:
            row = conn.execute(select(ratings).where(ratings.c.subject == account_id, ratings.c.game == GAME)).first()
            tried = conn.execute(select(puzzle_attempts.c.puzzle_id, puzzle_attempts.c.change).where(
                puzzle_attempts.c.account_id == account_id).order_by(puzzle_attempts.c.at)).all()
        model = rating_model()
        mu, sigma = (row.mu, row.sigma) if row is not None else (model.mu, model.sigma)
        return {"rating": shown(mu, sigma), "change": tried[-1].change if tried else 0,
                "attempts": row.games if row else 0, "solved": row.wins if row else 0,
                "attempted": sorted(r.puzzle_id for r in tried)}

    def attempt(self, account_id: str, puzzle_id: str, solved: bool, browser: str | None = None) -> dict[str, Any]:
        """Rate the account's attempt at the puzzle if it is its first (``counted``) and neither the
        account nor its ``browser`` (:func:`browser_key`) was shown the answer before (``seen``,
        said only where the account itself has no attempt at it):
        the player's puzzle rating after it and its ``change``, and the puzzle's rating after it.
        Any other attempt changes no rating (``counted`` false, ``change`` 0).  The browser's marks
        are carried to the account, and both are marked as shown this answer."""
        start = puzzle_start(puzzle_id)
        model = rating_model()
        now = time.time()
        mine_key = "a:" + account_id
        viewers = [mine_key] if browser is None else [mine_key, browser]
        with self.engine.begin() as conn:
            if browser is not None:
                _carry(conn, browser, mine_key, now)
            seen = conn.execute(select(puzzle_seen.c.viewer).where(
                puzzle_seen.c.viewer.in_(viewers), puzzle_seen.c.puzzle_id == puzzle_id)).first() is not None
            first = False
            if seen:  # said only of an account that never attempted it itself (else: a retry)
                seen = conn.execute(select(puzzle_attempts.c.at).where(puzzle_attempts.c.account_id == account_id,
                                                                       puzzle_attempts.c.puzzle_id == puzzle_id)
                                    ).first() is None
            else:
                try:
                    with conn.begin_nested():
                        conn.execute(insert(puzzle_attempts).values(
                            account_id=account_id, puzzle_id=puzzle_id, solved=solved, mu=0.0, sigma=0.0, change=0,
                            at=now))
                except IntegrityError:
                    pass  # not its first attempt
                else:
                    first = True
            for viewer in viewers:
                _mark(conn, viewer, puzzle_id, now)
            mine = conn.execute(select(ratings).where(ratings.c.subject == account_id, ratings.c.game == GAME)
                                .with_for_update()).first()
            its = conn.execute(select(puzzle_ratings).where(puzzle_ratings.c.puzzle_id == puzzle_id)
                               .with_for_update()).first()
            player = model.rating(mu=mine.mu, sigma=mine.sigma) if mine else model.rating()
            puzzle = model.rating(mu=its.mu, sigma=its.sigma) if its else model.rating(mu=start[0], sigma=start[1])
            if not first:
                return {"counted": False, "seen": seen, "rating": shown(player.mu, player.sigma), "change": 0,
                        "puzzle": shown(puzzle.mu, puzzle.sigma)}
            [[p_after], [z_after]] = model.rate([[player], [puzzle]], ranks=[1, 2] if solved else [2, 1])
            change = shown(p_after.mu, p_after.sigma) - shown(player.mu, player.sigma)
            if mine:
                conn.execute(update(ratings).where(ratings.c.subject == account_id, ratings.c.game == GAME).values(
                    mu=p_after.mu, sigma=p_after.sigma, games=mine.games + 1, wins=mine.wins + int(solved),
                    updated_at=now))
            else:
                conn.execute(insert(ratings).values(subject=account_id, game=GAME, mu=p_after.mu, sigma=p_after.sigma,
                                                    games=1, wins=int(solved), draws=0, tableaux=0, updated_at=now))
            if its:
                conn.execute(update(puzzle_ratings).where(puzzle_ratings.c.puzzle_id == puzzle_id).values(
                    mu=z_after.mu, sigma=z_after.sigma, attempts=its.attempts + 1, solved=its.solved + int(solved),
                    updated_at=now))
            else:
                conn.execute(insert(puzzle_ratings).values(puzzle_id=puzzle_id, mu=z_after.mu, sigma=z_after.sigma,
                                                           attempts=1, solved=int(solved), updated_at=now))
            conn.execute(update(puzzle_attempts).where(puzzle_attempts.c.account_id == account_id,
                                                       puzzle_attempts.c.puzzle_id == puzzle_id)
                         .values(mu=p_after.mu, sigma=p_after.sigma, change=change))
        return {"counted": True, "seen": False, "rating": shown(p_after.mu, p_after.sigma), "change": change,
                "puzzle": shown(z_after.mu, z_after.sigma)}

    def shown_to(self, browser: str, puzzle_id: str) -> None:
        """Mark that ``browser`` (:func:`browser_key`) was shown the puzzle's answer (a guest's
        attempt); at most once an hour, let go of the browsers' marks older than :data:`MARKS_KEPT`
        (an account keeps its own)."""
        now = time.time()
        with self.engine.begin() as conn:
            _mark(conn, browser, puzzle_id, now)
            if now - self._pruned > 3600:
                self._pruned = now
                conn.execute(puzzle_seen.delete().where(puzzle_seen.c.viewer.like("b:%"),
                                                        puzzle_seen.c.at < now - MARKS_KEPT))

    def seen(self, viewer: str) -> list[str]:
        """The puzzles whose answer ``viewer`` (``a:`` and an account id, or :func:`browser_key`) was shown."""
        with self.engine.begin() as conn:
            return sorted(r.puzzle_id for r in conn.execute(
                select(puzzle_seen.c.puzzle_id).where(puzzle_seen.c.viewer == viewer)).all())

    def history(self, account_id: str) -> list[int]:
        """The account's puzzle rating after each rated attempt, oldest first."""
        with self.engine.begin() as conn:
            rows = conn.execute(select(puzzle_attempts.c.mu, puzzle_attempts.c.sigma)
                                .where(puzzle_attempts.c.account_id == account_id)
                                .order_by(puzzle_attempts.c.at)).all()
        return [shown(r.mu, r.sigma) for r in rows]

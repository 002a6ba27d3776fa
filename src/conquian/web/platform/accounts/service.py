"""Players who come back: an account without a password, made on a person's first visit (a
``POST``: reading the account never makes one) and kept by a cookie (``Secure`` over HTTPS,
``HttpOnly``, ``SameSite=Lax``), with a display name chosen once.

- A name is unique up to what it looks like: NFKC, case folding, and a confusables skeleton
  (Unicode's confusables through ``confusable_homoglyphs``, plus the tables' own
  :func:`~conquian.web.table.name_skeleton`), so "Аnn" with a Cyrillic A is refused beside "Ann".
  Letter pairs that read as one letter ("Sarn" and "Sam") and punctuation around a name count
  for nothing; every bot's name, in every language, and the server's own words are kept
  (:func:`reserved`).  A refused name is refused in the same words whether it is taken or only
  looks like one taken, and no endpoint says whether an account exists (no enumeration).
- A session is a random token; the server keeps its SHA-256 only, and a session can be revoked
  (signing out revokes the current one; ``/api/account/sessions`` lists and revokes the others).
- Every state-changing request that carries the cookie must present the session's CSRF token in
  ``X-CSRF-Token`` (and, when it sends one, an ``Origin`` of this server): a page of another site
  cannot act with a player's cookie.  Requests without the cookie hold no ambient authority (a
  seat's or host's token travels in the request itself) and keep the API's rules.
- Rate limits per address and per account on making accounts, choosing names and revoking.
- Deleting an account deletes its sessions and replaces its name, in every seat it took, with
  :data:`DELETED_NAME`.

```pycon
>>> look_alike("Ann") == look_alike("\\u0410nn") == look_alike("ANN") == look_alike("Аnn")
True
>>> look_alike("Ann") == look_alike("Anne")
False
>>> check_display_name("  Ann  ")
'Ann'

```
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
import unicodedata
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from conquian.engine.errors import ConquianError
from conquian.engine.match import check_name
from conquian.i18n import N_, Msg
from conquian.web.table import name_skeleton

log = logging.getLogger("conquian.web.accounts")

#: The cookie that keeps a player's session.
COOKIE = "conquian_account"
#: The readable cookie that holds the session's CSRF token for the page's scripts.
CSRF_COOKIE = "conquian_csrf"
#: The cookie that ties a passkey sign-in's challenge to the browser (:mod:`conquian.web.platform.passkeys`),
#: and the path it is sent to.
PASSKEY_COOKIE, PASSKEY_PATH = "conquian_passkey", "/api/account/passkeys"
#: The header that carries a session's CSRF token on a state-changing request.
CSRF_HEADER = "x-csrf-token"
#: How long a session's cookie is kept by the browser (a year; the server can revoke it sooner).
COOKIE_AGE = 365 * 24 * 3600
#: What a deleted account's seats are named in the kept records.
DELETED_NAME = "deleted player"
#: The length of a display name.
NAME_MIN, NAME_MAX = 2, 24
#: Seconds between two notes of when a session was last seen (each signed-in request would
#: otherwise write to the database; a friend is online for minutes after a request).
SEEN_EVERY = 60.0
#: Requests changing state without cookie authority: the methods that need the CSRF token.
UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})


class AccountError(ConquianError):
    """A refused account request (its ``code`` and a sentence)."""

    def __init__(self, code: str, message: Msg, status: int = 400) -> None:
        super().__init__(message)
        self.code, self.status = code, status


@functools.cache
def _prototypes() -> dict[str, str]:
    """Each confusable character's prototype: the smallest of the characters Unicode's confusables
    say it looks like (itself included), so every member of a group maps alike."""
    from confusable_homoglyphs import confusables  # type: ignore[import-untyped, unused-ignore]

    out: dict[str, str] = {}
    for ch, entry in confusables.confusables_data.items():
        group = [ch, *(h["c"] for h in entry if len(h["c"]) == 1)]
        out[ch] = min(group)
    return out


def look_alike(name: str) -> str:
    """What a display name looks like: NFKC, case folded, each character its confusables'
    prototype, then the tables' own skeleton (blanks, marks and the usual look-alikes)."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    proto = _prototypes()
    mapped = "".join(proto.get(ch, ch) for ch in folded)
    return name_skeleton(unicodedata.normalize("NFKC", mapped).casefold())


#: Names no account may take, besides every bot's (:func:`reserved_skeletons`): the server's own
#: words for people who are not a player, and what a deleted account's seats show.  Marked for
#: the catalogues: each is refused in every language the server speaks.
RESERVED = (N_("admin"), N_("administrator"), N_("moderator"), N_("guest"), N_("host"), N_("spectator"),
            N_("system"), N_("server"), N_("bot"), N_("anonymous"), N_("nobody"), N_("deleted player"))


@functools.cache
def reserved_skeletons() -> tuple[frozenset[str], tuple[str, ...]]:
    """The skeletons (:func:`look_alike`) of the names no account may take, and the beginnings
    no name may have: every registered bot's id and its name for people in every language
    (``expert``, ``Master``, ``Experto``...), :data:`RESERVED` in every language, and what
    a spectator is called in the chat ("spectator 3f2a", any number)."""
    from conquian.bots import bot_names
    from conquian.i18n import languages, translator
    from conquian.present import bot_name

    words: set[str] = set()
    starts: list[str] = []
    for lang in languages():
        tr = translator(lang)
        for kind in bot_names():
            words.update((kind, tr.render(bot_name(kind))))
        words.update(tr.render(Msg(w)) for w in RESERVED)
        starts.append(look_alike(tr.render(Msg("spectator {number}", number=""))))
    return frozenset(look_alike(w) for w in words), tuple(s for s in starts if s)


def reserved(name: str) -> bool:
    """Whether ``name`` is, or looks like, a name kept for the server's bots and words.

    >>> [reserved(n) for n in ("expert", "MASTER", "Maestro", "rand0m", "deleted player", "Spectator 12", "Ann")]
    [True, True, True, True, True, True, False]
    """
    words, starts = reserved_skeletons()
    skeleton = look_alike(name)
    return skeleton in words or skeleton.startswith(starts)


def check_display_name(name: object) -> str:
    """A display name as kept (NFKC, trimmed), or :class:`AccountError` ``bad_name``: 2 to 24
    characters, letters, digits, spaces and ``-_.'`` only, of one script besides common ones;
    ``name_unavailable`` for a name kept for the bots and the server's words (:func:`reserved`)."""
    if not isinstance(name, str):
        raise AccountError("bad_name", Msg("a name is {low} to {high} letters or digits", low=NAME_MIN, high=NAME_MAX))
    name = " ".join(unicodedata.normalize("NFKC", name).split())
    if not NAME_MIN <= len(name) <= NAME_MAX:
        raise AccountError("bad_name", Msg("a name is {low} to {high} letters or digits", low=NAME_MIN, high=NAME_MAX))
    try:
        check_name(name)
    except ConquianError as e:
        raise AccountError("bad_name", e.message) from None
    if not all(ch.isalnum() or ch in " -_.'" for ch in name) or not any(ch.isalnum() for ch in name):
        raise AccountError("bad_name", Msg("a name holds letters, digits, spaces and - _ . ' only"))
    from confusable_homoglyphs import confusables

    if confusables.is_mixed_script(name, allowed_aliases=["COMMON"]):
        raise AccountError("bad_name", Msg("a name is written in one alphabet"))
    if reserved(name):
        raise AccountError("name_unavailable", NAME_UNAVAILABLE, 409)
    return name


def hash_secret(token: str) -> str:
    """The SHA-256 of a secret (a session's token, a passkey's challenge), in hex: what is kept of it."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def csrf_of(token: str) -> str:
    """The CSRF token of the session ``token`` (derived: every server process agrees, nothing kept)."""
    return hashlib.sha256(b"conquian csrf\0" + token.encode("utf-8", "replace")).hexdigest()


@dataclass
class Account:
    """A signed-in player: the account and the session the request came with."""

    id: str
    name: str | None
    session_id: str
    token: str


class Window:
    """At most ``count`` events a ``seconds`` for each key (an address, an account)."""

    def __init__(self, count: int, seconds: float) -> None:
        self.count, self.seconds = count, seconds
        self.seen: dict[str, deque[float]] = {}

    def allow(self, key: str, now: float) -> bool:
        """Whether one more event for ``key`` is allowed now (and count it)."""
        times = self.seen.setdefault(key, deque())
        while times and times[0] <= now - self.seconds:
            times.popleft()
        if len(self.seen) > 10000:  # forget the quiet keys
            for k in [k for k, v in self.seen.items() if not v]:
                del self.seen[k]
        if len(times) >= self.count:
            return False
        times.append(now)
        return True


def name_keys(text: str) -> list[str]:
    """The strings of a JSON list kept in a text column (a bad or missing one reads as none)."""
    try:
        data = json.loads(text)
    except ValueError:
        return []
    return [k for k in data if isinstance(k, str)] if isinstance(data, list) else []


#: What else forgets a deleted account, in the deleting transaction (:mod:`conquian.web.platform.friends` adds itself).
FORGET_ACCOUNT: list[Callable[[Any, str], None]] = []


#: The one refusal of a name that is taken or looks like one taken (no enumeration).
NAME_UNAVAILABLE = Msg("that name is not available (it, or a name that looks like it, is taken): choose another")
TOO_FAST = Msg("too many account requests; try again in a minute")

def same_origin(origin: str | None, scheme: str, host: str | None, also: tuple[str, ...] = ()) -> bool:
    """Whether a request's ``Origin`` header (None: it sent none) is this server's: its scheme
    (a WebSocket's ``ws``/``wss`` is its page's ``http``/``https``) and its host, port included
    (``https://host`` and ``http://host`` are two origins), or one of ``also`` (``serve --origin``).

    >>> same_origin("https://cards.example", "https", "cards.example"), same_origin(None, "http", "x")
    (True, True)
    >>> same_origin("http://cards.example", "https", "cards.example")
    False
    """
    if origin is None or origin in also:
        return True
    web = {"ws": "http", "wss": "https"}.get(scheme, scheme)
    return origin.strip().lower() == f"{web}://{host or ''}".lower()


"""Passkeys over a real server on 127.0.0.1, with a software authenticator (an ES256 key, "none"
attestation): a passkey added to a named account, a sign-in on a second client with no cookie of
that account (the same name, a new session), and every bad answer refused in the same words:
a replayed answer, an unknown challenge, another purpose's challenge, an expired one, another
browser's, another origin, a forged signature, a counter gone backwards, a removed passkey.
No name, no CSRF token: no passkey.  Deleting the account deletes its passkeys.  Sign-ins are
rate limited per address and per account."""

from __future__ import annotations

import hashlib
import json
import secrets
import sqlite3
import struct
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

pytest.importorskip("webauthn")

import cbor2
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec

from conquian.web.platform.passkeys.service import b64url, check_label, unb64url
from web_server import Server

ES = {"Accept-Language": "es-MX,es;q=0.9"}


class Authenticator:
    """A discoverable ES256 credential of one relying party, answering as a browser would."""

    def __init__(self, origin: str, rp_id: str) -> None:
        self.origin, self.rp_id = origin, rp_id
        self.key = ec.generate_private_key(ec.SECP256R1())
        # a fresh credential id per authenticator, as a device makes: an id drawn from the object's
        # address repeated once a collected authenticator's address was reused (the server outlives
        # the tests of the module, so the second one was refused as added already)
        self.id = secrets.token_bytes(32)
        self.count = 0
        self.user: bytes | None = None

    def _client_data(self, kind: str, challenge: str, origin: str | None) -> bytes:
        return json.dumps({"type": kind, "challenge": challenge, "origin": origin or self.origin,
                           "crossOrigin": False}).encode()

    def _auth_data(self, attested: bytes = b"") -> bytes:
        self.count += 1
        flags = 0x01 | 0x04 | (0x40 if attested else 0)  # user present, verified, attested data
        return hashlib.sha256(self.rp_id.encode()).digest() + bytes([flags]) + struct.pack(">I", self.count) + attested

    def create(self, options: dict[str, Any], origin: str | None = None) -> dict[str, Any]:
        """``navigator.credentials.create``'s answer to the server's options, as JSON."""
        self.user = unb64url(options["user"]["id"])
        nums = self.key.public_key().public_numbers()
        cose = cbor2.dumps({1: 2, 3: -7, -1: 1, -2: nums.x.to_bytes(32, "big"), -3: nums.y.to_bytes(32, "big")})
        attested = bytes(16) + struct.pack(">H", len(self.id)) + self.id + cose
        att = cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": self._auth_data(attested)})
        return {"id": b64url(self.id), "rawId": b64url(self.id), "type": "public-key",
                "response": {"clientDataJSON": b64url(self._client_data("webauthn.create", options["challenge"],
                                                                        origin)),
                             "attestationObject": b64url(att), "transports": ["internal"]},
                "clientExtensionResults": {}}

    def get(self, options: dict[str, Any], origin: str | None = None, count: int | None = None) -> dict[str, Any]:
        """``navigator.credentials.get``'s answer (``count``: the signature counter to claim)."""
        if count is not None:
            self.count = count - 1
        auth = self._auth_data()
        client = self._client_data("webauthn.get", options["challenge"], origin)
        signature = self.key.sign(auth + hashlib.sha256(client).digest(), ec.ECDSA(hashes.SHA256()))
        return {"id": b64url(self.id), "rawId": b64url(self.id), "type": "public-key",
                "response": {"clientDataJSON": b64url(client), "authenticatorData": b64url(auth),
                             "signature": b64url(signature), "userHandle": b64url(self.user or b"")},
                "clientExtensionResults": {}}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Path]]:
    tmp = tmp_path_factory.mktemp("passkeys")
    s = Server(f"sqlite:///{tmp / 'web.db'}", tmp).start()
    yield s, tmp / "web.db"
    s.stop()


def browser(url: str) -> tuple[httpx.Client, dict[str, str]]:
    """A browser's visit: its client (holding the cookies) and its CSRF header."""
    c = httpx.Client(base_url=url, timeout=10)
    return c, {"X-CSRF-Token": c.post("/api/account", json={}).json()["csrf"]}


def named(url: str, name: str) -> tuple[httpx.Client, dict[str, str]]:
    c, h = browser(url)
    assert c.post("/api/account/name", json={"name": name}, headers=h).status_code == 200
    return c, h


def register(c: httpx.Client, h: dict[str, str], key: Authenticator, label: str = "phone") -> httpx.Response:
    options = c.post("/api/account/passkeys/options", headers=h).json()["publicKey"]
    return c.post("/api/account/passkeys", json={"credential": key.create(options), "label": label}, headers=h)


def signin_options(c: httpx.Client, h: dict[str, str]) -> dict[str, Any]:
    r = c.post("/api/account/passkeys/signin/options", headers=h)
    assert r.status_code == 200, r.text
    options: dict[str, Any] = r.json()["publicKey"]
    return options


def signin(c: httpx.Client, h: dict[str, str], credential: dict[str, Any], **kw: Any) -> httpx.Response:
    return c.post("/api/account/passkeys/signin", json={"credential": credential}, headers=h, **kw)


def test_a_passkey_signs_in_on_another_device(server: tuple[Server, Path]) -> None:
    s, db = server
    ann, h = named(s.url, "Ivy")
    key = Authenticator(s.url, "127.0.0.1")
    options = ann.post("/api/account/passkeys/options", headers=h).json()["publicKey"]
    assert options["rp"]["id"] == "127.0.0.1" and options["user"]["name"] == "Ivy"
    assert options["authenticatorSelection"]["residentKey"] == "required"
    r = ann.post("/api/account/passkeys", json={"credential": key.create(options), "label": " my\x00 phone "},
                 headers=h)
    assert r.status_code == 200, r.text
    listed = ann.get("/api/account/passkeys").json()["passkeys"]
    assert [(p["label"], p["used_at"], p["transports"]) for p in listed] == [("my phone", None, ["internal"])]
    # the same authenticator again: refused by the options (excluded) and by the server
    again = ann.post("/api/account/passkeys/options", headers=h).json()["publicKey"]
    assert again["excludeCredentials"][0]["id"] == b64url(key.id)
    key.count = 0
    assert ann.post("/api/account/passkeys", json={"credential": key.create(again)}, headers=h).status_code == 409

    # a second device: a fresh browser (its own nameless account), no name asked
    phone, ph = browser(s.url)
    before = phone.cookies["conquian_account"]
    with sqlite3.connect(db) as conn:
        accounts_before = conn.execute("SELECT count(*) - 1 FROM accounts").fetchone()
    options = signin_options(phone, ph)
    assert options["allowCredentials"] == [] and options["rpId"] == "127.0.0.1"
    r = signin(phone, ph, key.get(options))
    assert r.status_code == 200, r.text
    assert r.json()["name"] == "Ivy"
    me = phone.get("/api/account").json()
    assert me["name"] == "Ivy" and me["new"] is False
    sessions = ann.get("/api/account/sessions").json()["sessions"]
    assert len(sessions) == 2  # the first browser's and the phone's; each revocable
    assert ann.get("/api/account/passkeys").json()["passkeys"][0]["used_at"] is not None
    # the phone's own nameless account was let go of (it had nothing to keep)
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*) FROM account_sessions WHERE token_hash = ?",
                            (hashlib.sha256(before.encode()).hexdigest(),)).fetchone() == (0,)
        assert conn.execute("SELECT count(*) FROM accounts").fetchone() == accounts_before


def test_signed_out_the_passkey_brings_the_account_back(server: tuple[Server, Path]) -> None:
    s, _ = server
    c, h = named(s.url, "Mia")
    key = Authenticator(s.url, "127.0.0.1")
    assert register(c, h, key).status_code == 200
    assert c.post("/api/account/signout", headers=h).status_code == 200
    again = c.post("/api/account", json={}).json()
    assert again["new"] is True and again["name"] is None  # this browser forgot the account...
    h = {"X-CSRF-Token": again["csrf"]}
    r = signin(c, h, key.get(signin_options(c, h)))
    assert r.status_code == 200 and r.json()["name"] == "Mia"  # ...and the passkey brings it back
    me = c.get("/api/account").json()
    assert me["name"] == "Mia"
    assert len(c.get("/api/account/sessions").json()["sessions"]) == 1  # the first session was ended
    # the session of a passkey's sign-in is revocable like any other
    h = {"X-CSRF-Token": me["csrf"]}
    assert c.post("/api/account/sessions", json={"id": me["session"]}, headers=h).status_code == 200
    assert c.get("/api/account/passkeys").status_code == 401


def test_bad_answers_are_refused_in_the_same_words(server: tuple[Server, Path]) -> None:
    s, db = server
    ann, h = named(s.url, "Jade")
    key = Authenticator(s.url, "127.0.0.1")
    assert register(ann, h, key).status_code == 200
    other, oh = browser(s.url)

    def refused(r: httpx.Response) -> str:
        assert r.status_code == 400, r.text
        assert r.json()["error"]["code"] == "passkey_not_accepted"
        return str(r.json()["error"]["message"])

    words = set()
    options = signin_options(other, oh)
    answer = key.get(options)
    assert signin(other, oh, answer).status_code == 200
    oh = {"X-CSRF-Token": other.get("/api/account").json()["csrf"]}
    words.add(refused(signin(other, oh, answer)))  # replayed: the challenge was used once
    # a challenge the server never gave
    words.add(refused(signin(other, oh, key.get({"challenge": b64url(b"\x01" * 32)}))))
    # a registration's challenge answered as a sign-in's
    reg = ann.post("/api/account/passkeys/options", headers=h).json()["publicKey"]
    signin_options(ann, h)  # the browser cookie of a sign-in, for the registration's challenge
    words.add(refused(signin(ann, h, key.get(reg))))
    # another browser's challenge (the cookie that ties it stays with the browser that asked)
    theirs = signin_options(ann, h)
    signin_options(other, oh)
    words.add(refused(signin(other, oh, key.get(theirs))))
    # another origin, another RP id
    words.add(refused(signin(other, oh, key.get(signin_options(other, oh), origin="https://evil.example"))))
    elsewhere = Authenticator(s.url, "evil.example")
    elsewhere.id, elsewhere.key, elsewhere.count = key.id, key.key, key.count
    words.add(refused(signin(other, oh, elsewhere.get(signin_options(other, oh)))))
    # a forged signature: another key claiming the credential
    forger = Authenticator(s.url, "127.0.0.1")
    forger.id, forger.count = key.id, key.count + 5
    words.add(refused(signin(other, oh, forger.get(signin_options(other, oh)))))
    # a counter that goes backwards: a cloned authenticator
    words.add(refused(signin(other, oh, key.get(signin_options(other, oh), count=1))))
    # the right key naming another account as its user
    key.user, own = b"someone else", key.user
    words.add(refused(signin(other, oh, key.get(signin_options(other, oh), count=key.count + 10))))
    key.user = own
    # an unknown credential
    words.add(refused(signin(other, oh, Authenticator(s.url, "127.0.0.1").get(signin_options(other, oh)))))
    # an expired challenge
    options = signin_options(other, oh)
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE passkey_challenges SET expires_at = 0")
    words.add(refused(signin(other, oh, key.get(options))))
    # garbage
    words.add(refused(other.post("/api/account/passkeys/signin", json={"credential": {"response": 3}}, headers=oh)))
    words.add(refused(other.post("/api/account/passkeys/signin", content=b"[", headers=oh)))
    words.add(refused(other.post("/api/account/passkeys/signin", content=b" " * 20000 + b"{}", headers=oh)))
    assert len(words) == 1  # nothing tells which check failed, nor whether the passkey exists
    es = signin(other, oh | ES, answer)
    assert "no fue aceptada" in es.json()["error"]["message"]
    # and still good: a fresh challenge, a counter moving on
    assert signin(other, oh, key.get(signin_options(other, oh), count=key.count + 10)).status_code == 200


def test_registration_needs_a_name_the_csrf_token_and_a_fresh_challenge(server: tuple[Server, Path]) -> None:
    s, db = server
    nameless, h = browser(s.url)
    r = nameless.post("/api/account/passkeys/options", headers=h | ES)
    assert r.status_code == 409 and r.json()["error"]["code"] == "no_name" and "nombre" in r.json()["error"]["message"]
    kim, h = named(s.url, "Kim")
    assert kim.post("/api/account/passkeys/options").status_code == 403  # no CSRF token
    assert httpx.post(s.url + "/api/account/passkeys/options").status_code == 401  # no account
    key = Authenticator(s.url, "127.0.0.1")
    options = kim.post("/api/account/passkeys/options", headers=h).json()["publicKey"]
    made = key.create(options)
    # another account cannot use Kim's challenge
    lee, lh = named(s.url, "Lee")
    r = lee.post("/api/account/passkeys", json={"credential": made}, headers=lh)
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_passkey"
    # and that attempt used it up
    assert kim.post("/api/account/passkeys", json={"credential": made}, headers=h).status_code == 400
    # another origin's answer
    options = kim.post("/api/account/passkeys/options", headers=h).json()["publicKey"]
    assert kim.post("/api/account/passkeys", json={"credential": key.create(options, origin="http://evil.example")},
                    headers=h).status_code == 400
    assert register(kim, h, key, "laptop").status_code == 200

    # removed: it signs in no more
    pid = kim.get("/api/account/passkeys").json()["passkeys"][0]["id"]
    assert lee.post("/api/account/passkeys/delete", json={"id": pid}, headers=lh).status_code == 404  # not Lee's
    assert kim.post("/api/account/passkeys/delete", json={"id": pid}, headers=h).json() == {"removed": pid}
    other, oh = browser(s.url)
    assert signin(other, oh, key.get(signin_options(other, oh))).status_code == 400
    # deleting the account deletes its passkeys
    key2 = Authenticator(s.url, "127.0.0.1")
    assert register(kim, h, key2).status_code == 200
    assert kim.post("/api/account/delete", headers=h).status_code == 200
    with sqlite3.connect(db) as conn:
        kept = conn.execute("SELECT count(*) FROM passkeys WHERE credential_id = ?", (b64url(key2.id),)).fetchone()
        assert kept == (0,)
    assert signin(other, oh, key2.get(signin_options(other, oh))).status_code == 400


def test_signing_in_is_rate_limited_per_address_and_per_account(tmp_path: Path) -> None:
    s = Server(f"sqlite:///{tmp_path / 'web.db'}", tmp_path,
               limits=Server.loose_except("--account-requests-per-minute")).start()  # the default: 20
    try:
        owner, oh = named(s.url, "Nia")
        key = Authenticator(s.url, "127.0.0.1")
        assert register(owner, oh, key).status_code == 200
        # per account: ten sign-ins a minute, each from its own address (X-Forwarded-For, trusted
        # from 127.0.0.1), then the eleventh is refused though its address is fresh
        c, _ = browser(s.url)
        codes = []
        for i in range(11):
            h = {"X-CSRF-Token": c.cookies["conquian_csrf"], "X-Forwarded-For": f"10.0.0.{i + 1}"}
            options = c.post("/api/account/passkeys/signin/options", headers=h).json()["publicKey"]
            codes.append(signin(c, h, key.get(options)).status_code)
        assert codes == [200] * 10 + [429]
        # per address: twenty requests a minute, options and answers together
        h = {"X-CSRF-Token": c.cookies["conquian_csrf"], "X-Forwarded-For": "10.0.1.1"}
        codes = [c.post("/api/account/passkeys/signin/options", headers=h).status_code for _ in range(21)]
        assert codes[:20] == [200] * 20 and codes[20] == 429
        assert signin(c, h, {}).status_code == 429
    finally:
        s.stop()


def test_labels() -> None:
    assert check_label("  my\tphone\u202e ") == "my phone"
    assert check_label(3) == ""
    assert len(check_label("x" * 100)) == 40


def test_a_waiting_challenge_stays_good_when_the_browser_asks_again(server: tuple[Server, Path]) -> None:
    """The name field's passkey suggestions (conditional mediation) wait with a challenge asked for
    when the page opened; the button, or another tab, asks for another: both stay good (one
    cookie a browser), and a sign-in ends the browser's other open challenges."""
    s, db = server
    owner, h = named(s.url, "Una")
    key = Authenticator(s.url, "127.0.0.1")
    assert register(owner, h, key).status_code == 200
    visitor, vh = browser(s.url)
    waiting = signin_options(visitor, vh)  # the name field's, when the page opened
    held = visitor.cookies["conquian_passkey"]
    button = signin_options(visitor, vh)  # the button's (or another tab's)
    assert visitor.cookies["conquian_passkey"] == held  # the browser's cookie is kept
    third = signin_options(visitor, vh)
    # discoverable: no account named, no credential listed
    assert waiting["allowCredentials"] == button["allowCredentials"] == [] and waiting["rpId"] == "127.0.0.1"
    assert waiting["challenge"] != button["challenge"]
    with sqlite3.connect(db) as conn:
        mine = conn.execute("SELECT count(*) FROM passkey_challenges WHERE browser = ?",
                            (hashlib.sha256(held.encode()).hexdigest(),)).fetchone()
    assert mine == (3,)
    # a failed answer (a forged signature) leaves the other challenges good
    forger = Authenticator(s.url, "127.0.0.1")
    forger.id, forger.user = key.id, key.user
    assert signin(visitor, vh, forger.get(button)).status_code == 400
    r = signin(visitor, vh, key.get(waiting))  # the waiting request is answered: accepted
    assert r.status_code == 200 and r.json()["name"] == "Una", r.text
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*) FROM passkey_challenges WHERE browser = ?",
                            (hashlib.sha256(held.encode()).hexdigest(),)).fetchone() == (0,)
    # the third challenge ended with the sign-in, even with the cookie given back
    vh = {"X-CSRF-Token": visitor.get("/api/account").json()["csrf"]}
    visitor.cookies.set("conquian_passkey", held, domain="127.0.0.1", path="/api/account/passkeys")
    assert signin(visitor, vh, key.get(third)).status_code == 400
    # a cookie that is not one the server gives is not kept
    odd, oh = browser(s.url)
    odd.cookies.set("conquian_passkey", "short", domain="127.0.0.1", path="/api/account/passkeys")
    signin_options(odd, oh)
    assert odd.cookies["conquian_passkey"] != "short"


def test_a_named_account_signs_in_to_another_with_its_passkey(server: tuple[Server, Path]) -> None:
    """Switching accounts without signing out: the CSRF token is needed, the current session is
    revoked and the new one set; the account left keeps its name, passkeys and other sessions; an
    account nothing could reach again is left only when the request says so."""
    s, db = server
    ola, oh = named(s.url, "Ola")
    ola_key = Authenticator(s.url, "127.0.0.1")
    assert register(ola, oh, ola_key).status_code == 200

    # Pia: a name, no passkey, this one session
    pia, ph = named(s.url, "Pia")
    pia_token = pia.cookies["conquian_account"]
    options = signin_options(pia, ph)
    answer = ola_key.get(options)
    r = pia.post("/api/account/passkeys/signin", json={"credential": answer})  # no CSRF token
    assert r.status_code == 403 and r.json()["error"]["code"] == "csrf"
    r = signin(pia, ph | ES, answer)
    assert r.status_code == 409 and r.json()["error"]["code"] == "would_lose_account"
    assert "Pia" in r.json()["error"]["message"] and "llave de acceso" in r.json()["error"]["message"]
    assert pia.get("/api/account").json()["name"] == "Pia"  # nothing changed
    # the player agreed to leave Pia: the same answer (its challenge was not used) signs in
    r = pia.post("/api/account/passkeys/signin", json={"credential": answer, "leave": True}, headers=ph)
    assert r.status_code == 200 and r.json()["name"] == "Ola", r.text
    assert pia.cookies["conquian_account"] != pia_token
    me = pia.get("/api/account").json()
    assert me["name"] == "Ola" and me["csrf"] != ph["X-CSRF-Token"]
    # Pia's session was revoked: its token opens nothing
    again = httpx.Client(base_url=s.url, timeout=10, cookies={"conquian_account": pia_token})
    assert again.get("/api/account").status_code == 401
    with sqlite3.connect(db) as conn:  # the account Pia is kept (its name, in its records)
        assert conn.execute("SELECT count(*) FROM accounts WHERE name = 'Pia'").fetchone() == (1,)
    newcomer, nh = browser(s.url)  # its name stays taken
    assert newcomer.post("/api/account/name", json={"name": "Pia"}, headers=nh).status_code == 409

    # Quinn: a passkey and two browsers; one of them switches to Ola and back, no "leave" needed
    quinn, qh = named(s.url, "Quinn")
    quinn_key = Authenticator(s.url, "127.0.0.1")
    assert register(quinn, qh, quinn_key).status_code == 200
    laptop, lh = browser(s.url)
    assert signin(laptop, lh, quinn_key.get(signin_options(laptop, lh))).status_code == 200
    lh = {"X-CSRF-Token": laptop.get("/api/account").json()["csrf"]}
    assert len(quinn.get("/api/account/sessions").json()["sessions"]) == 2
    r = signin(laptop, lh, ola_key.get(signin_options(laptop, lh)))
    assert r.status_code == 200 and r.json()["name"] == "Ola"
    assert len(quinn.get("/api/account/sessions").json()["sessions"]) == 1  # the laptop's ended
    assert len(quinn.get("/api/account/passkeys").json()["passkeys"]) == 1
    lh = {"X-CSRF-Token": laptop.get("/api/account").json()["csrf"]}
    r = signin(laptop, lh, quinn_key.get(signin_options(laptop, lh)))
    assert r.status_code == 200 and r.json()["name"] == "Quinn"  # and back

    # Ron: no passkey but another session: reachable from it, no "leave" needed
    ron, rh = named(s.url, "Ron")
    ron_phone = httpx.Client(base_url=s.url, timeout=10)
    with sqlite3.connect(db) as conn:  # a second session of Ron, as a sign-in would make
        row = conn.execute("SELECT account_id, agent FROM account_sessions WHERE token_hash = ?",
                           (hashlib.sha256(ron.cookies["conquian_account"].encode()).hexdigest(),)).fetchone()
        conn.execute("INSERT INTO account_sessions VALUES (?, ?, ?, 0, 0, ?)",
                     (hashlib.sha256(b"ron-phone-token").hexdigest(), "ronphone", row[0], row[1]))
    ron_phone.cookies.set("conquian_account", "ron-phone-token")
    assert ron_phone.get("/api/account").json()["name"] == "Ron"
    r = signin(ron, rh, ola_key.get(signin_options(ron, rh)))
    assert r.status_code == 200 and r.json()["name"] == "Ola"
    assert ron_phone.get("/api/account").json()["name"] == "Ron"


def test_switching_accounts_takes_the_account_left_out_of_the_quick_match(server: tuple[Server, Path]) -> None:
    """A browser waiting for a quick match as Sol signs in to Tina: Sol leaves the queue (nobody is
    there to sit down for him), and Tina is not put in it."""
    s, db = server
    tina, th = named(s.url, "Tina")
    tina_key = Authenticator(s.url, "127.0.0.1")
    assert register(tina, th, tina_key).status_code == 200
    sol, sh = named(s.url, "Sol")
    r = sol.post("/api/quick", json={"game": "conquian", "players": 2}, headers=sh)
    assert r.status_code == 200 and r.json()["queued"] is True
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*) FROM quick_queue").fetchone() == (1,)
    r = sol.post("/api/account/passkeys/signin", json={"credential": tina_key.get(signin_options(sol, sh)),
                                                       "leave": True}, headers=sh)
    assert r.status_code == 200 and r.json()["name"] == "Tina"
    assert sol.get("/api/quick").json() == {"queued": False}
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*) FROM quick_queue").fetchone() == (0,)

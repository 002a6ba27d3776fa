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

from conquian.web.passkeys import b64url, check_label, unb64url
from web_server import Server

ES = {"Accept-Language": "es-MX,es;q=0.9"}


class Authenticator:
    """A discoverable ES256 credential of one relying party, answering as a browser would."""

    def __init__(self, origin: str, rp_id: str) -> None:
        self.origin, self.rp_id = origin, rp_id
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.id = hashlib.sha256(repr(id(self)).encode() + origin.encode()).digest()
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
    return c, {"X-CSRF-Token": c.get("/api/account").json()["csrf"]}


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
    again = c.get("/api/account").json()
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

"""Passkeys (WebAuthn, the ``webauthn`` package): a player adds a passkey to his account on the
account page, and later signs in with it on another device, or on this one when the cookie is
lost.

- Registration is for the signed-in account with a display name (its cookie, the CSRF token);
  the passkey is *discoverable* (``residentKey: required``): it carries the account, so signing
  in asks for no name, and no endpoint tells whether an account or a passkey exists.
- Every ceremony's challenge is 32 random bytes kept in the database (so any server process can
  finish what another began), used once (deleted as it is checked), for one purpose, and for
  :data:`CHALLENGE_AGE` seconds.  A registration's challenge belongs to its account; a sign-in's
  to the browser that asked (an HttpOnly cookie :data:`BROWSER_COOKIE`, its hash kept beside the
  challenge), so an answer cannot be carried to another browser.
- The relying party is the name the browser reached the server by: the RP id is the ``Host``
  header's name (checked by ``--allowed-host`` before any route), the origin the request's scheme
  and host.  Behind a proxy that ends TLS, the proxy passes the ``Host`` as the browser sent it and
  ``X-Forwarded-Proto``, which the server trusts from the proxies in ``FORWARDED_ALLOW_IPS``; the
  origins given with ``--origin`` are accepted too.  A passkey belongs to that name: one made at
  ``https://cards.example`` is offered there only.
- The sign-in's challenge is for a discoverable credential (no account named, no credential
  listed), so the page may ask for it as soon as it opens and offer the browser's passkeys in its
  name field (WebAuthn's conditional mediation, ``autocomplete="username webauthn"``) beside the
  "sign in with a passkey" button.  A browser keeps one :data:`BROWSER_COOKIE` for all its open
  sign-in challenges (the field's waiting request, the button's, another tab's): asking again
  does not spoil the challenge another request of that browser waits with.
- A sign-in that succeeds starts a new session of the passkey's account on that browser (its
  cookie replaces the one the browser had; that session ends, and the account it held is deleted
  if it had neither a name nor a passkey: nothing is lost).  The browser's other open sign-in
  challenges end with it.
- A browser signed in to a named account may sign in to another account with its passkey (to
  switch accounts) without signing out: the request needs the current session's CSRF token like
  any other, the current session is revoked and the new one set; the account left keeps its
  name, passkeys and other sessions.  If it is an account that could not be reached again (no
  passkey, no other session), the sign-in is refused (``409 would_lose_account``, before the
  answer is checked, so it tells nothing of the passkey) unless the request says
  ``"leave": true`` (the page asks the player first).
- Sign-ins are rate limited per address and per account, and every failure is told in the same
  words.  A passkey whose signature counter goes backwards (a cloned authenticator) is refused.
"""

from __future__ import annotations

import base64
import binascii
import json
from typing import Any

from conquian.i18n import Msg
from conquian.web.platform.accounts.service import PASSKEY_COOKIE

#: Seconds a ceremony's challenge may be answered in.
CHALLENGE_AGE = 300.0
#: The cookie that ties a sign-in's challenge to the browser that asked for it.
BROWSER_COOKIE = PASSKEY_COOKIE
#: Passkeys one account may hold.
MAX_PASSKEYS = 20
#: The length of a passkey's label.
LABEL_MAX = 40
#: The bytes a passkey request's body may hold (an answer with an attestation's certificates fits).
MAX_BODY = 16384
#: The name people see for the relying party in their authenticator.
RP_NAME = "conquian"

#: The one refusal of a sign-in, whatever failed (no enumeration of passkeys or accounts).
NOT_ACCEPTED = Msg("this passkey was not accepted: try again, or use another passkey")
NOT_ADDED = Msg("the passkey was not added: try again")


def b64url(data: bytes) -> str:
    """``data`` in unpadded URL-safe base64 (WebAuthn's JSON encoding)."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def unb64url(text: str) -> bytes:
    """The bytes of unpadded URL-safe base64, or ValueError."""
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raise ValueError("not base64url") from None


def check_label(label: object) -> str:
    """A passkey's label as kept: trimmed, control characters dropped, at most :data:`LABEL_MAX`."""
    if not isinstance(label, str):
        return ""
    return " ".join("".join(ch if ch.isprintable() else " " for ch in label).split())[:LABEL_MAX]


def answered_challenge(credential: object) -> str | None:
    """The challenge an authenticator's answer says it signed (from its ``clientDataJSON``), or None."""
    try:
        client_data = json.loads(unb64url(credential["response"]["clientDataJSON"]))  # type: ignore[index, unused-ignore]
        challenge = client_data["challenge"]
    except (TypeError, KeyError, ValueError):
        return None
    return challenge if isinstance(challenge, str) and 0 < len(challenge) <= 100 else None


def creation_options(rp_id: str, account_id: str, name: str, challenge: bytes,
                      exclude: list[tuple[bytes, list[str]]]) -> dict[str, Any]:
    """The WebAuthn options of a registration ceremony, as JSON for the browser (the account's
    passkeys excluded, so that one authenticator is not added twice)."""
    import webauthn
    from webauthn.helpers.structs import (
        AuthenticatorSelectionCriteria,
        AuthenticatorTransport,
        PublicKeyCredentialDescriptor,
        ResidentKeyRequirement,
        UserVerificationRequirement,
    )

    known = {t.value for t in AuthenticatorTransport}
    options = webauthn.generate_registration_options(
        rp_id=rp_id, rp_name=RP_NAME, user_id=account_id.encode(), user_name=name, user_display_name=name,
        challenge=challenge, timeout=int(CHALLENGE_AGE * 1000),
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.REQUIRED, user_verification=UserVerificationRequirement.PREFERRED),
        exclude_credentials=[
            PublicKeyCredentialDescriptor(id=cid, transports=[AuthenticatorTransport(t) for t in ts if t in known])
            for cid, ts in exclude])
    out: dict[str, Any] = json.loads(webauthn.options_to_json(options))
    return out


def request_options(rp_id: str, challenge: bytes) -> dict[str, Any]:
    """The WebAuthn options of a sign-in ceremony, as JSON for the browser (any passkey of the site)."""
    import webauthn
    from webauthn.helpers.structs import UserVerificationRequirement

    options = webauthn.generate_authentication_options(
        rp_id=rp_id, challenge=challenge, timeout=int(CHALLENGE_AGE * 1000), allow_credentials=[],
        user_verification=UserVerificationRequirement.PREFERRED)
    out: dict[str, Any] = json.loads(webauthn.options_to_json(options))
    return out


def handle_ok(credential: dict[str, Any], row: Any) -> bool:
    """Whether the answer's user handle, if it gives one, is the passkey's account (a discoverable
    credential names its user; it must be the one the passkey was added to)."""
    response = credential.get("response")
    handle = response.get("userHandle") if isinstance(response, dict) else None
    if handle is None or handle == "":
        return True
    try:
        return isinstance(handle, str) and unb64url(handle) == str(row.account_id).encode()
    except ValueError:
        return False

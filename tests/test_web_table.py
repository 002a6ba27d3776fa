"""The web table's session, snapshots and protocol, without a server (issue 10)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("msgspec")

from conquian import IllegalActionError, get_rules
from conquian.engine.conquian.deal import ConquianDeal
from conquian.engine.conquian.mexicano import MexicanoDeal
from conquian.engine.match import Match
from conquian.engine.redeal import redeal_unseen
from conquian.web.protocol import ProtocolError, RateLimit, decode_client
from conquian.web.replay import replay_frames
from conquian.web.snapshot import table_snapshot
from conquian.web.table import Table, TableError, hash_token
from test_cooncan_properties import public_rearrangement
from test_view import rearrange_hidden


def full_table(variant: str = "conquian", players: int | None = None, seed: int = 5, **kw: Any) -> Table:
    rules = get_rules(variant, **({"players": players} if players else {}))
    t = Table("t", "test", rules, seed=seed, **kw)
    for s in range(1, rules.players + 1):
        t.sit(s, f"P{s}")
    return t


# ------------------------------------------------------------------ seats and tokens
def test_tokens_are_long_random_and_kept_only_as_hashes() -> None:
    t = Table("t", "x", get_rules("conquian"), seed=1)
    token = t.sit(1, "Ann")
    assert len(token) >= 32  # 24 random bytes, URL-safe base64: 192 bits
    assert t.seats[0].token_hash == hash_token(token) and token not in repr(t.seats)
    assert t.seat_of(token) == 1 and t.seat_of(token + "x") is None and t.seat_of("") is None
    assert t.status == "waiting"


def test_seats_refuse_what_they_must() -> None:
    t = Table("t", "x", get_rules("conquian"), seed=1)
    t.sit(1, "Ann")
    with pytest.raises(TableError, match="seat_taken"):
        t.sit(1, "Bob")
    with pytest.raises(TableError, match="no_seat"):
        t.sit(3, "Bob")
    with pytest.raises(TableError, match="bad_name"):
        t.sit(2, "Ann")
    with pytest.raises(TableError, match="bad_name"):
        t.sit(2, "x\x1b[31m")
    with pytest.raises(TableError, match="not_host"):
        t.set_bot(2, "foster", host=False)
    with pytest.raises(TableError, match="bad_bot"):
        t.set_bot(2, "nobody", host=True)
    assert t.status == "waiting" and t.state == 0
    t.set_bot(2, "foster", host=True)
    assert t.status == "playing" and t.commands == ["start"]


# ------------------------------------------------------------------ moves
def test_moves_carry_the_state_and_apply_once() -> None:
    t = full_table()
    legal = table_snapshot(t, 1)["legal"]
    state = t.state
    t.act(1, legal[0], state)
    # the same move again, from a second tab: chosen on the old state, refused
    with pytest.raises(TableError, match="stale"):
        t.act(1, legal[0], state)
    with pytest.raises(TableError, match="stale"):
        t.act(2, "pass", "2")
    assert t.state == state + 1


def test_another_seats_move_and_out_of_turn_are_refused_and_change_nothing() -> None:
    t = full_table()
    deal = t.session.deal  # type: ignore[union-attr]
    before = deal.copy()
    with pytest.raises(TableError, match="not_your_seat"):
        t.act(1, "p2 pass", t.state)
    with pytest.raises(TableError, match="not_your_turn"):
        t.act(2, "pass", t.state)
    with pytest.raises(IllegalActionError, match=r"R3\.5"):
        t.act(1, "discard 7h", t.state)
    assert deal == before and t.state == 1


def test_next_deal_only_when_the_deal_is_over_and_dealt_by_the_rotation() -> None:
    t = full_table()
    with pytest.raises(TableError, match="deal_in_progress"):
        t.next_deal(t.state)
    rng = random.Random(1)
    session = t.session
    assert session is not None
    while not session.deal.over:
        seat = session.deal.to_act
        assert seat is not None
        t.act(seat, rng.choice(table_snapshot(t, seat)["legal"]), t.state)
    first_dealer = session.deal.dealer
    t.next_deal(t.state)
    assert session.deal.dealer == first_dealer % 2 + 1  # R3.8


def test_a_table_rebuilds_from_its_commands() -> None:
    t = full_table("cooncan", 3)
    rng = random.Random(2)
    for _ in range(40):
        seat = t.session.deal.to_act  # type: ignore[union-attr]
        if seat is None:
            break
        t.act(seat, rng.choice(table_snapshot(t, seat)["legal"]), t.state)
    again = Table("t", "test", t.rules, seed=t.seed, seats=t.seats)
    again.rebuild(t.commands)
    assert again.session.deal == t.session.deal  # type: ignore[union-attr]
    assert table_snapshot(again, 2) == table_snapshot(t, 2)


def test_bots_play_for_someone_away_only_after_the_time_the_host_set() -> None:
    t = full_table(away_after=30)
    t.connect(1)
    assert t.bot_to_act() is None
    t.disconnect(1, now=100.0)
    assert t.bot_to_act(now=120.0) is None
    assert t.bot_to_act(now=131.0) == (1, "expert")
    t.connect(1)
    assert t.bot_to_act(now=1000.0) is None


# ------------------------------------------------------------------ hidden information
def _play_and_snapshot(t: Table, rng: random.Random, steps: int) -> None:
    session = t.session
    assert session is not None
    for _ in range(steps):
        seat = session.deal.to_act
        if seat is None:
            return
        t.act(seat, rng.choice(table_snapshot(t, seat)["legal"]), t.state)


def _twin(t: Table, deck: tuple[int, ...], commands: list[str] | None = None) -> Table:
    """The same table and commands (or ``commands``), with the first deal dealt from ``deck``."""
    twin = Table(t.id, t.name, t.rules, seed=t.seed, show_buried=t.show_buried, away_after=t.away_after,
                 deals_in_match=t.deals_in_match, first_dealer=t.first_dealer, carried=list(t.carried), pace=t.pace)
    for s, o in zip(twin.seats, t.seats, strict=True):
        s.kind, s.name, s.token_hash = o.kind, o.name, o.token_hash
    twin.start_if_full()
    session = twin.session
    assert session is not None
    match = session.match
    match.deals.clear()
    session.lines.clear()
    real_new_deal = Match.new_deal
    match.new_deal = lambda deck_=None, **kw: real_new_deal(match, deck, dealer=kw.get("dealer"))  # type: ignore[method-assign]
    session.new_deal()
    for c in t.commands[1:] if commands is None else commands:
        twin.replay_command(c)
        twin.commands.append(c)
    return twin


@pytest.mark.parametrize("variant,players", [("conquian", 2), ("conquian", 3), ("cooncan", 3), ("cooncan-double", 5),
                                             ("conquian-mexicano", 2), ("conquian-mexicano", 3),
                                             ("conquian-mexicano", 4)])
def test_every_message_to_a_seat_is_the_same_when_its_unknown_cards_are_redealt(variant: str, players: int) -> None:
    for seed in range(12):
        rng = random.Random(seed)
        # a rematch's table (its first dealer rotated, totals carried), the bots' pace, the host's timer
        t = full_table(variant, players, seed=seed, first_dealer=seed % players + 1,
                       carried=[seed * k - 3 for k in range(players)] if seed % 2 else [],
                       pace=[None, 0.5, 2.0][seed % 3], away_after=[None, 30.0][seed % 2])
        # the conquián mexicano: a third of the positions inside the exchange (R8.2)
        steps = rng.randint(0, players) if variant == "conquian-mexicano" and seed % 3 == 0 else rng.randint(0, 60)
        _play_and_snapshot(t, rng, steps)
        deal = t.session.deal  # type: ignore[union-attr]
        seats = list(deal.seats) if isinstance(deal, ConquianDeal | MexicanoDeal) else list(range(1, players + 1))
        for seat in seats:
            if isinstance(deal, ConquianDeal):
                other = rearrange_hidden(deal, seat, random.Random(seed + seat))
            elif isinstance(deal, MexicanoDeal):
                other = redeal_unseen(deal, seat, random.Random(seed + seat))
            else:
                other = public_rearrangement(deal, seat, random.Random(seed + seat))
            if deal.over:
                continue  # every hand is public once the deal is over
            # the conquián mexicano: the others' gives are re-dealt too (R8.2), so the actions are the re-deal's
            twin = _twin(t, tuple(other.deck), [f"act {a}" for a in other.actions()]
                         if isinstance(other, MexicanoDeal) else None)
            assert json.dumps(table_snapshot(twin, seat)) == json.dumps(table_snapshot(t, seat))
            assert_same_messages(t, twin, seat, hint=seed % 4 == 0)
            if tuple(other.deck) != tuple(deal.deck):
                assert json.dumps(table_snapshot(twin, None)) == json.dumps(table_snapshot(t, None))
                assert_same_messages(t, twin, None)


#: What every snapshot carries besides the deal, the log and the scores (docs/protocol.md).
NEW_FIELDS = {"last_moves", "last_event", "standings", "pace", "timer", "chat_muted", "spectators"}


def assert_same_messages(t: Table, twin: Table, seat: int | None, hint: bool = False) -> None:
    """Everything the server sends ``seat`` (None: a spectator, muted or not) is the same at the
    table and at its twin, whose cards unknown to that seat were dealt again: the whole snapshot
    as the server sends it (the last moves, the standings, the pace, the timer, the chat's mute),
    in English and in Spanish, and the answer to a hint (the expert's move, searched with the same
    randomness, and the live outs) when the seat is to act."""
    import dataclasses

    from conquian.i18n import translator
    from conquian.web.bots import bot_job, choose
    from conquian.web.server import Hub, snapshot
    from conquian.web.snapshot import hint_message

    for lang in ("en", "es"):
        tr = translator(lang)
        for muted in ((False, True) if seat is None else (False,)):
            mine = snapshot(Hub(t, t.state), seat, tr, muted)
            assert mine.keys() >= NEW_FIELDS and mine["chat_muted"] is muted
            assert mine["standings"] == [{"seat": s["seat"], "name": s["name"], "total": s["total"]}
                                         for s in t.standings()] and mine["timer"] == t.away_after
            assert json.dumps(snapshot(Hub(twin, twin.state), seat, tr, muted)) == json.dumps(mine)
    session, twin_session = t.session, twin.session
    assert session is not None and twin_session is not None
    if not hint or seat is None or session.deal.over or session.deal.to_act != seat:
        return
    job = dataclasses.replace(bot_job(t, seat, "expert", iterations=12), seed=1234)
    act = choose(job)
    assert choose(dataclasses.replace(bot_job(twin, seat, "expert", iterations=12), seed=1234)) == act
    for lang in ("en", "es"):
        tr = translator(lang)
        assert hint_message(twin_session, seat, act, tr) == hint_message(session, seat, act, tr)


@pytest.mark.parametrize("variant,players", [("conquian", 2), ("cooncan", 3), ("cooncan-double", 5),
                                             ("conquian-mexicano", 3)])
def test_a_spectator_never_receives_a_card_from_a_hand(variant: str, players: int) -> None:
    for seed in range(8):
        rng = random.Random(seed)
        t = full_table(variant, players, seed=seed)
        session = t.session
        assert session is not None
        while not session.deal.over:
            snap = table_snapshot(t, None)
            assert snap["deal"]["hand"] is None and snap["legal"] == [] and "hands" not in snap["deal"]
            deal = session.deal
            hidden: set[str] = set()
            if isinstance(deal, ConquianDeal | MexicanoDeal):
                from conquian.engine.cards import card_str, cards_of

                for h in deal.hands:
                    hidden |= {card_str(c) for c in cards_of(h)}
                hidden |= {card_str(c) for c in deal.deck[deal.pos:]}
                shown = {c for side in snap["deal"]["sides"] for m in side["melds"] for c in m}
                shown |= {snap["deal"]["card_in_play"]} - {None}
                assert not shown & hidden
                assert all(not any(c in line for c in ("hand", "drew the", "gave the")) for line in snap["log"])
            else:
                for line in snap["log"]:
                    assert "drew the" not in line  # another's draw from the pack: "drew from the pack"
            seat = deal.to_act
            assert seat is not None
            t.act(seat, rng.choice(table_snapshot(t, seat)["legal"]), t.state)
        assert "hands" in table_snapshot(t, None)["deal"]  # public at the end


def test_buried_cards_are_shown_only_with_the_memory_aid() -> None:
    for show in (False, True):
        t = full_table(seed=3, show_buried=show)
        _play_and_snapshot(t, random.Random(3), 12)
        d = table_snapshot(t, 1)["deal"]
        assert (d["buried"] is not None) == show
    t = full_table("cooncan", 3, seed=4)
    _play_and_snapshot(t, random.Random(4), 30)
    d = table_snapshot(t, None)["deal"]
    assert len(d["stock"]) == min(1, d["stock_count"])  # a closed stock shows its top card only


# ------------------------------------------------------------------ protocol
@pytest.mark.parametrize("data,code", [
    (b"{not json", "bad_message"),
    (b'{"type": "shuffle"}', "bad_message"),
    (b'{"type": "act", "state": 1}', "bad_message"),
    (b'{"type": "act", "state": 1, "action": "pass", "extra": 1}', "bad_message"),
    (b'{"type": "act", "state": -1, "action": "pass"}', "bad_message"),
    (b'{"type": "options", "cards": ["7h", "' + b"x" * 50 + b'"]}', "bad_message"),
    (b'[1, 2, 3]', "bad_message"),
    (b'{"type": "act", "state": 1, "action": "' + b"p" * 5000 + b'"}', "too_large"),
])
def test_malformed_messages_are_refused_with_a_code(data: bytes, code: str) -> None:
    with pytest.raises(ProtocolError) as e:
        decode_client(data)
    assert e.value.code == code and len(str(e.value)) < 300


def test_the_rate_limit_allows_a_burst_then_the_rate() -> None:
    r = RateLimit(rate=10, burst=5)
    assert [r.allow(0.0) for _ in range(7)] == [True] * 5 + [False] * 2
    assert r.allow(0.1) and not r.allow(0.1)


def test_replay_frames_show_every_hand_of_a_finished_match() -> None:
    t = full_table(seed=8)
    _play_and_snapshot(t, random.Random(8), 500)
    frames = replay_frames(t.session.match)  # type: ignore[union-attr]
    assert frames[0]["step"] == 0 and frames[-1]["deal"]["over"]
    assert sum(len(h) for h in frames[0]["hands"].values()) == 20


def test_the_migrations_build_exactly_the_schema_the_code_uses(tmp_path: Any) -> None:
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from conquian.web.store import Store, full_metadata

    metadata = full_metadata()
    store = Store(f"sqlite:///{tmp_path / 'm.db'}")
    store.upgrade()
    store.upgrade()  # idempotent: a second start changes nothing
    with store.engine.connect() as conn:
        diffs = compare_metadata(MigrationContext.configure(conn), metadata)
    assert diffs == []
    store.dispose()


def test_a_table_nobody_uses_is_let_go_of_and_read_again(tmp_path: Path) -> None:
    import asyncio

    from conquian.web.app import EVICT_AFTER, Hub, Server, Settings

    async def run() -> None:
        server = Server(Settings(db_url=f"sqlite:///{tmp_path / 'e.db'}"))
        server.store.upgrade()
        t = Table("ev1", "idle", get_rules("conquian"), seed=3)
        server.store.create(t)
        t.sit(1, "Ann")
        t.sit(2, "Bea")
        server.store.save_seats(t)
        server.store.append(t, 0)
        hub = server.hubs[t.id] = Hub(t, t.state)
        server.evict()
        assert t.id in server.hubs  # used a moment ago
        server.evict(now=hub.used + EVICT_AFTER + 1)
        assert t.id not in server.hubs
        again = await server.hub(t.id)
        assert again is not None and again.table.state == t.state and again is not hub
        server.store.dispose()

    asyncio.run(run())

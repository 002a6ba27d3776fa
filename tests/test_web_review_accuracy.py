"""The accuracy of the reviews on a player's page: a finished rated match reviewed over the API
puts each seat's accuracy (the review's own figure) on its player's page and in
``GET /api/players/{name}``, per game (the average and how many matches were reviewed) and on the
recent match; the payload holds only figures; a review of a guest's seat is not kept; a review with
fewer playouts does not replace one with more; a deleted account's accuracies are gone."""

from __future__ import annotations

import time
from collections.abc import Iterator

import httpx
import pytest
from sqlalchemy import create_engine, func, select

from conquian.web.platform.ratings.storage import Ratings, review_accuracy
from test_web_ratings import play_out, signed_in
from test_web_review import review_server, review_until_done
from web_server import Client, Server

PLAYOUTS = 4


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    s = review_server(tmp_path_factory.mktemp("accuracy"), PLAYOUTS)  # quick reviews
    yield s
    s.stop()


def test_a_reviewed_rated_match_puts_an_accuracy_on_both_pages(server: Server) -> None:
    url = server.url
    ann, ha = signed_in(url, "Ana")
    bea, hb = signed_in(url, "Beto")
    t = ann.post("/api/tables", json={"variant": "conquian", "rated": True, "deals": 1}, headers=ha).json()
    sa = ann.post(f"/api/tables/{t['id']}/sit", json={"seat": 1, "name": "x"}, headers=ha).json()
    sb = bea.post(f"/api/tables/{t['id']}/sit", json={"seat": 2, "name": "x"}, headers=hb).json()
    play_out([Client(server, t["id"], sa["token"]), Client(server, t["id"], sb["token"])])
    # not reviewed yet: no accuracy anywhere
    page = httpx.get(url + "/api/players/Ana").json()
    assert page["accuracy"] == {} and "accuracy" not in page["games"].get("conquian", {})
    assert all("accuracy" not in r for r in page["recent"])
    figures = {}
    for seat, name in ((1, "Ana"), (2, "Beto")):
        done = review_until_done(server, t["id"], seat)
        figures[name] = done["review"]["summary"]["accuracy"]
        assert figures[name] is not None and 0 <= figures[name] <= 1
    for name, figure in figures.items():
        page = httpx.get(url + f"/api/players/{name}").json()
        assert page["accuracy"] == {"conquian": {"accuracy": round(figure, 4), "reviewed": 1}}
        game = page["games"]["conquian"]
        assert game["accuracy"] == round(figure, 4) and game["reviewed"] == 1
        recent = next(r for r in page["recent"] if r["table"] == t["id"])
        assert recent["accuracy"] == round(figure, 4)
        # only figures: no cards, no decisions, no review text
        assert set(recent) == {"table", "game", "rated", "public", "offline", "place", "rating", "at", "replay",
                               "accuracy"}
    # a second look at a review (from the cache) counts the match once
    assert review_until_done(server, t["id"], 1)["cached"] is True
    assert httpx.get(url + "/api/players/Ana").json()["accuracy"]["conquian"]["reviewed"] == 1
    # the page's words, both languages
    assert httpx.get(url + "/p/Ana").status_code == 200
    es = httpx.get(url + "/i18n/es.json").json()
    assert "Average accuracy {percent}%, from {count} reviewed match" in str(es)
    # a review of the same seat and deal with fewer playouts does not replace the one kept; more does
    board = Ratings(create_engine(f"sqlite:///{server.tmp / 'web.db'}"))

    def review(seat: str, playouts: int, accuracy: float | None) -> dict[str, object]:
        return {"variant": "conquian", "seat": seat, "deal": 1, "playouts": playouts, "forced": 0,
                "decisions": [{"number": 1}] * 3, "summary": {"accuracy": accuracy}}

    assert board.keep_review(t["id"], review("p2", PLAYOUTS // 2, 0.125)) is False
    assert httpx.get(url + "/api/players/Beto").json()["accuracy"]["conquian"]["accuracy"] == round(figures["Beto"], 4)
    assert board.keep_review(t["id"], review("p2", PLAYOUTS * 2, 0.125)) is True
    assert httpx.get(url + "/api/players/Beto").json()["accuracy"]["conquian"] == {"accuracy": 0.125, "reviewed": 1}
    # no figure (no decisions), a seat tied to no account: nothing kept
    assert board.keep_review(t["id"], review("p2", PLAYOUTS * 4, None)) is False
    assert board.keep_review("nosuchtable", review("p1", PLAYOUTS, 0.5)) is False
    with board.engine.begin() as conn:
        assert conn.execute(select(func.count()).select_from(review_accuracy)
                            .where(review_accuracy.c.table_id == "nosuchtable")).scalar() == 0
    # a deleted account's accuracies are gone; the other player's stay
    assert ann.post("/api/account/delete", headers=ha).status_code == 200
    assert httpx.get(url + "/api/players/Ana").status_code == 404
    engine = create_engine(f"sqlite:///{server.tmp / 'web.db'}")
    with engine.begin() as conn:
        seats = conn.execute(select(review_accuracy.c.seat).where(review_accuracy.c.table_id == t["id"])).scalars()
        assert sorted(seats) == [2]
    assert httpx.get(url + "/api/players/Beto").json()["accuracy"]["conquian"]["reviewed"] == 1


def test_9_a_review_asked_with_other_playouts_sets_no_public_accuracy(server: Server) -> None:
    """The reviewer's probe: a stranger reviews a player's public match with 1 playout (a quick,
    noisy figure) and it became the player's public accuracy.  Such a review is answered to the
    one who asked, and kept nowhere; the server's own review (its playouts) is."""
    url = server.url
    cam, hc = signed_in(url, "Camila")
    dex, hd = signed_in(url, "Dexter")
    t = cam.post("/api/tables", json={"variant": "conquian", "rated": True, "deals": 1}, headers=hc).json()
    sc = cam.post(f"/api/tables/{t['id']}/sit", json={"seat": 1, "name": "x"}, headers=hc).json()
    sd = dex.post(f"/api/tables/{t['id']}/sit", json={"seat": 2, "name": "x"}, headers=hd).json()
    play_out([Client(server, t["id"], sc["token"]), Client(server, t["id"], sd["token"])])

    def reviewed(playouts: int | None) -> dict[str, object]:
        ask = {"seat": 1, "deal": 1} | ({"playouts": playouts} if playouts else {})
        query = "&".join(f"{k}={v}" for k, v in ask.items())
        answer = httpx.post(url + f"/api/tables/{t['id']}/review", json=ask, timeout=10).json()  # a stranger
        for _ in range(600):
            if answer["status"] == "done":
                return dict(answer)
            time.sleep(0.1)
            answer = httpx.get(url + f"/api/tables/{t['id']}/review?{query}", timeout=10).json()
        raise AssertionError(answer)

    for playouts in (1, PLAYOUTS // 2):
        quick = reviewed(playouts)
        assert quick["playouts"] == playouts and quick["review"]["summary"]["accuracy"] is not None  # answered...
        assert httpx.get(url + "/api/players/Camila").json()["accuracy"] == {}  # ...not kept
    own = reviewed(None)
    assert own["playouts"] == PLAYOUTS
    figure = round(own["review"]["summary"]["accuracy"], 4)
    assert httpx.get(url + "/api/players/Camila").json()["accuracy"] == {"conquian": {"accuracy": figure,
                                                                                      "reviewed": 1}}
    reviewed(1)  # asked again afterwards: the server's figure stays
    assert httpx.get(url + "/api/players/Camila").json()["accuracy"]["conquian"]["accuracy"] == figure

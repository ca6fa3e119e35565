"""What a table's state leaves to alert its people of, and the words of each alert.

Read from the table as committed, never from what changed: whichever process hears of a
change works out the same alerts, and each seat's ``SeatAlerts`` row says which of them it
has had (one a turn, one a round's end, one the match's end, one a request for a seat).
An alert's words name people, rounds and scores, never a tile: a notification shows on a
locked phone's screen, and a mail sits in an inbox.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.urls import reverse

from games.engine import Game
from games.models import Table, TableSeat, answerers

TITLE = "Mexican Train"


@dataclass(frozen=True)
class Alert:
    """One thing to tell one person, by push and by mail."""

    kind: str  # "turn", "round", "match", "claim" or "nudge"
    key: str  # the event it is about: a seat is alerted of each key once
    text: str
    url: str  # the table at the person's seat (their rejoin link), from the site's root

    @property
    def field(self) -> str:
        """The column of ``SeatAlerts`` that holds the key last alerted of this kind."""
        return {"turn": "turn_key", "round": "round_key", "match": "round_key"}.get(
            self.kind, "claim_key"
        )

    def payload(self) -> dict:
        """What a push message carries, for the page's service worker to show."""
        return {"title": TITLE, "body": self.text, "url": self.url, "tag": self.kind}


def seat_url(seat: TableSeat) -> str:
    """The table at this seat, from any device: the seat's rejoin link."""
    return reverse("games:rejoin", args=[seat.table.code, seat.token])


def due(table: Table, seats: list[TableSeat], game: Game | None) -> list[tuple[TableSeat, Alert]]:
    """Every alert the table's state calls for now, by seat: the seat on turn, everybody at
    a round's or the match's end, and who may answer a request for a seat."""
    people = [s for s in seats if not s.is_bot]
    names = {s.position: s.name for s in seats}
    found: list[tuple[TableSeat, Alert]] = []
    rnd = game.round if game is not None else None
    if table.status == Table.Status.FINISHED and game is not None:
        text = f"The match is over: {_winners(game, names)}. Open the table for the totals."
        found += [(s, Alert("match", "match", text, seat_url(s))) for s in people]
    elif table.status == Table.Status.PLAYING and rnd is not None and rnd.result is not None:
        scores = ", ".join(f"{names[p]} {points}" for p, points in enumerate(rnd.result.scores))
        text = f"Round {rnd.number} is over ({scores}). Press Ready for round {rnd.number + 1}."
        found += [(s, Alert("round", f"round {rnd.number}", text, seat_url(s))) for s in people]
    elif table.status == Table.Status.PLAYING and rnd is not None:
        seat = next((s for s in people if s.position == rnd.turn), None)
        if seat is not None and not seat.stand_in:  # a bot standing in plays this turn
            text = f"Your turn, {seat.name}: round {rnd.number} waits for you."
            found.append((seat, Alert("turn", turn_key(game), text, seat_url(seat))))
    for asked in (s for s in seats if s.claimed_by):
        text = (
            f"Somebody asks for {asked.name}'s seat from another screen: open the table "
            "to give it or refuse."
        )
        key = f"claim {asked.position} {asked.claimed_at.isoformat()}"
        found += [(s, Alert("claim", key, text, seat_url(s))) for s in answering(seats)]
    return found


def nudge(by: TableSeat, on_turn: TableSeat, game: Game) -> Alert:
    """Somebody at an own-pace table reminds the person on turn that the table waits."""
    number = game.round.number if game.round else 0
    text = f"{by.name} nudges you, {on_turn.name}: it is your turn in round {number}."
    return Alert("nudge", "", text, seat_url(on_turn))


def turn_key(game: Game) -> str:
    """The turn on now, the same from its first move to its last: the round, and where in
    the round's log the seat on turn's run of moves begins (every turn logs at least one
    move, so the next turn of the same seat begins further on)."""
    rnd = game.round
    start = len(rnd.log)
    while start and rnd.log[start - 1].seat == rnd.turn:
        start -= 1
    return f"turn {rnd.number} {start}"


def answering(seats: Iterable[TableSeat]) -> list[TableSeat]:
    """Who is alerted of a request for a seat: those who may answer it now, or with nobody
    at the table, the host (the first seat), who may once they open it."""
    seats = list(seats)
    return answerers(seats) or [s for s in seats if s.position == 0 and not s.is_bot]


def _winners(game: Game, names: dict[int, str]) -> str:
    totals = game.totals()
    best = game.winners()
    who = " and ".join(names[p] for p in best)
    return f"{who} won with {totals[best[0]]}"

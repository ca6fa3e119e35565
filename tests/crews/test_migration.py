"""The crews' migrations on a database holding today's data: matches kept before crews
existed (a score sheet, an online table with a bot at it) come through whole, every person
still with their matches, and each score-sheet seat knows whether a bot played it."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from crews.models import Crew, CrewMatch, Member
from games.engine.rules import Rules
from games.models import Table
from scoring.models import Change, Entry, Player, Seat

# The last migrations before crews: no crews app, and no bot on a score-sheet seat.
BEFORE = [
    ("scoring", "0004_several_out_under_everyone_first_turn"),
    ("games", "0006_table_rematch_of_links_the_next_match"),
]
RULES = Rules(highest_double=6, rounds=1).to_dict()


def migrate(targets: list[tuple[str, str | None]]) -> MigrationExecutor:
    """Migrate to ``targets`` with a fresh loader (it reads which migrations are applied)."""
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    return MigrationExecutor(connection)


def latest() -> list[tuple[str, str]]:
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


def todays_data(apps) -> dict[str, object]:
    """A finished score sheet of Ana and Ben, and an online match of Ana against a greedy
    bot, with their rounds entered: made with the models as they were."""
    Player = apps.get_model("scoring", "Player")
    Match = apps.get_model("scoring", "Match")
    Seat = apps.get_model("scoring", "Seat")
    Round = apps.get_model("scoring", "Round")
    Entry = apps.get_model("scoring", "Entry")
    Change = apps.get_model("scoring", "Change")
    Table = apps.get_model("games", "Table")
    TableSeat = apps.get_model("games", "TableSeat")

    ana, ben = Player.objects.create(name="Ana"), Player.objects.create(name="Ben")
    bot = Player.objects.create(name="Greedy bot 1")
    sheet = Match.objects.create(kind="sheet", status="finished", rules=RULES, created_by="Ana")
    online = Match.objects.create(kind="online", status="finished", rules=RULES)
    table = Table.objects.create(match=online, rules=RULES, seat_count=2, status="finished")
    TableSeat.objects.create(table=table, position=0, name="Ana")
    TableSeat.objects.create(table=table, position=1, name=bot.name, kind="bot", bot_level="greedy")
    for match, players in [(sheet, [ana, ben]), (online, [ana, bot])]:
        first = Round.objects.create(match=match, number=1)
        for position, player in enumerate(players):
            seat = Seat.objects.create(match=match, player=player, position=position)
            kind, pips = ("out", None) if position == 0 else ("count", 17)
            entry = Entry.objects.create(round=first, seat=seat, kind=kind, pips=pips, version=1)
            Change.objects.create(
                match=match, kind="entry", entry=entry, old=None, new={"kind": kind}, by="Ana"
            )
    return {
        "players": {p.pk: p.name for p in (ana, ben, bot)},
        "matches": {
            p.pk: {s.match_id for s in Seat.objects.filter(player=p)} for p in (ana, ben, bot)
        },
        "bot seat": (online.pk, 1),
        "online": online.pk,
        "entries": Entry.objects.count(),
        "changes": Change.objects.count(),
    }


@pytest.mark.django_db(transaction=True)
def test_todays_matches_come_through_the_crews_migrations_whole():
    try:
        executor = migrate([*BEFORE, ("crews", None)])
        assert ("crews", "0001_initial") not in executor.loader.applied_migrations
        before = todays_data(executor.loader.project_state(BEFORE).apps)

        migrate(latest())

        players = {p.pk: p.name for p in Player.objects.all()}
        assert players == before["players"]
        for player in Player.objects.all():
            assert set(player.matches.values_list("pk", flat=True)) == before["matches"][player.pk]
        bots = {(s.match_id, s.position): s.bot for s in Seat.objects.all()}
        assert bots.pop(before["bot seat"]) == "greedy"
        assert set(bots.values()) == {""} and len(bots) == 3
        assert (Entry.objects.count(), Change.objects.count()) == (
            before["entries"],
            before["changes"],
        )
        assert Table.objects.get(match_id=before["online"]).crew is None
        assert not (Crew.objects.exists() or Member.objects.exists() or CrewMatch.objects.exists())
    finally:
        migrate(latest())  # the tests after this one expect the whole schema

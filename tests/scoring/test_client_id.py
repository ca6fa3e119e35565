"""A client id through the sheet's socket: a resend is applied once within its match, and
the same id at another match is that match's own edit (it was answered ``duplicate`` and
dropped when ids were looked up across every match).

Through config.asgi as a phone connects, with transaction=True: the consumer runs its
queries in another thread, which sees only committed rows."""

import json
import uuid

import pytest
from channels.db import database_sync_to_async

from scoring.models import Entry

from .test_consumers import TIMEOUT, entry, frames, new_match, phone

pytestmark = pytest.mark.django_db(transaction=True)


@database_sync_to_async
def pips_entered(match) -> list[int | None]:
    return list(Entry.objects.filter(round__match=match).values_list("pips", flat=True))


async def test_the_same_client_id_at_two_matches_records_both_edits():
    first, second = await new_match(), await new_match(("Eve", "Finn"))
    ana, eve = await phone(first, "Ana", 0), await phone(second, "Eve", 0)
    client_id = uuid.uuid4()

    await ana.send_json_to(entry(1, 0, {"kind": "count", "pips": 20}, client_id=client_id))
    await frames(ana, 2)  # the ack, and the push
    await eve.send_json_to(entry(1, 1, {"kind": "count", "pips": 7}, client_id=client_id))
    ack = json.loads(await eve.receive_from(TIMEOUT))
    assert ack == {"ack": str(client_id), "outcome": "applied"}
    pushed = await eve.receive_from(TIMEOUT)
    assert (
        '"visually-hidden">Round 1, Finn: 7 pips, scores </span><span class="score">7</span>'
        '<span class="visually-hidden">, total </span><span class="running">7<'
    ) in pushed
    assert await pips_entered(first) == [20]
    assert await pips_entered(second) == [7]

    # Within one match the id still marks a resend: applied once.
    await eve.send_json_to(entry(1, 1, {"kind": "count", "pips": 7}, client_id=client_id))
    assert json.loads(await eve.receive_from(TIMEOUT)) == {
        "ack": str(client_id),
        "outcome": "duplicate",
    }
    for communicator in (ana, eve):
        assert await communicator.receive_nothing()
        await communicator.disconnect()

"""The score sheet's socket stands behind the same guard as a table's (common.sockets): a
message's size, its nesting and its sender's rate are bounded, and a failure closes one
socket."""

import pytest

from common import sockets

from .test_consumers import TIMEOUT, new_match, phone

pytestmark = pytest.mark.django_db(transaction=True)


async def closed_with(communicator) -> int:
    """Read past what the socket sends until it closes; the close code."""
    while True:
        output = await communicator.receive_output(TIMEOUT)
        if output["type"] == "websocket.close":
            return output["code"]


async def test_a_message_of_a_megabyte_closes_the_sheets_socket():
    ana = await phone(await new_match(), "Ana", 0)
    await ana.send_to(text_data='{"action": "sync", "pad": "' + "x" * 1_000_000 + '"}')
    assert await closed_with(ana) == sockets.TOO_BIG


async def test_deeply_nested_json_gets_a_notice_and_the_sheet_stays_open():
    ana = await phone(await new_match(), "Ana", 0)
    await ana.send_to(text_data="[" * 4_000)
    assert "That message could not be read" in await ana.receive_from(TIMEOUT)
    await ana.send_json_to({"action": "sync"})
    assert 'id="sheet"' in await ana.receive_from(TIMEOUT)
    await ana.disconnect()


async def test_a_flood_of_syncs_is_cut_off_after_the_burst():
    ana = await phone(await new_match(), "Ana", 0)
    for _ in range(sockets.BURST * 3):
        await ana.send_json_to({"action": "sync"})
    renders = 0
    while True:
        output = await ana.receive_output(TIMEOUT)
        if output["type"] == "websocket.close":
            break
        renders += 1
    assert output["code"] == sockets.FLOOD
    # The burst, and what the budget refilled while the sheet rendered them: not the 90.
    assert renders < sockets.BURST * 2
    assert await ana.receive_nothing(timeout=0.5)

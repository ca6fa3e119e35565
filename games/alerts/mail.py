"""E-mail alerts: an address per person per table, at most one mail an hour.

An alert that comes within the hour after a mail waits in the seat's row
(``SeatAlerts.mail_waiting``) and goes in the next mail, with every other that came
meanwhile, each with its time: ``send_due_mail``, which the table's clock calls, sends it
once the hour is up. Each mail carries a signed link that stops the mail of its one
person at its one table without a login (RFC 8058's one-click unsubscribe).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.core import signing
from django.core.exceptions import ValidationError
from django.core.mail import EmailMessage
from django.core.validators import validate_email
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse

from games.models import TableSeat

from .events import Alert, seat_url
from .models import SeatAlerts

log = logging.getLogger(__name__)

MAIL_EVERY = timedelta(hours=1)
STOP_SALT = "games.alerts.mail-stop"


class BadAddress(ValueError):
    """An address that cannot be mailed; the text says why."""


def set_address(seat: TableSeat, address: str) -> SeatAlerts:
    """Mail this person's alerts at this table to ``address``; a blank address stops them
    (and drops what waited for the next mail)."""
    address = address.strip()
    if address:
        try:
            validate_email(address)
        except ValidationError:
            raise BadAddress(
                f"{address!r} is not an e-mail address: check it for a typo."
            ) from None
    record, _ = SeatAlerts.objects.get_or_create(seat=seat)
    if address != record.email:
        record.email, record.mail_waiting, record.mail_after = address, [], None
        record.save(update_fields=["email", "mail_waiting", "mail_after"])
    return record


@dataclass(frozen=True)
class Mail:
    """One mail to send: the person, their address, the alerts it lists (oldest first)."""

    seat: TableSeat
    address: str
    lines: list[dict]

    def send(self) -> bool:
        """Send it, with the one-click unsubscribe headers; whether the mail server took it
        (a refusal is logged: its alerts are lost)."""
        site = settings.SITE_URL.rstrip("/")
        token = stop_token(self.seat, self.address)
        stop_url = site + reverse("games:mail-stop", args=[self.seat.table.code, token])
        context = {
            "seat": self.seat,
            "lines": [
                {"at": datetime.fromisoformat(line["at"]), "text": line["text"]}
                for line in self.lines
            ],
            "table_url": site + seat_url(self.seat),
            "stop_url": stop_url,
        }
        message = EmailMessage(
            subject=f"Mexican Train: {self.lines[-1]['text']}"[:150],
            body=render_to_string("games/mail/alerts.txt", context),
            to=[self.address],
            headers={
                "List-Unsubscribe": f"<{stop_url}>",
                "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            },
        )
        try:
            message.send()
        except OSError as failed:
            log.warning("A mail of the table %s failed: %s", self.seat.table.code, failed)
            return False
        return True


def queue(seat: TableSeat, alert: Alert, *, now: datetime) -> Mail | None:
    """Keep ``alert`` for this person's next mail; returns that mail if it may go now (no
    mail went to them in the last hour), for the caller to send."""
    with transaction.atomic():
        record = SeatAlerts.objects.select_for_update().filter(seat=seat).first()
        if record is None or not record.email:
            return None
        record.mail_waiting = [*record.mail_waiting, {"at": now.isoformat(), "text": alert.text}]
        lines = _take(record, now) if record.mail_after is None or record.mail_after <= now else []
        record.save(update_fields=["mail_waiting", "mail_after"])
    return Mail(seat, record.email, lines) if lines else None


def send_due_mail(*, now: datetime) -> int:
    """Send every mail whose hour is up and that has alerts waiting; returns how many went.
    The table's clock calls it every so often."""
    sent = 0
    for pk in SeatAlerts.objects.filter(mail_after__lte=now).values_list("pk", flat=True):
        with transaction.atomic():
            record = (
                SeatAlerts.objects.select_for_update()
                .select_related("seat__table")
                .filter(pk=pk, mail_after__lte=now)
                .first()
            )
            if record is None:  # another process sent it meanwhile
                continue
            lines = _take(record, now) if record.mail_waiting and record.email else []
            if not lines:
                record.mail_after = None  # nothing waits: the next alert goes at once
            record.save(update_fields=["mail_waiting", "mail_after"])
        if lines:
            sent += Mail(record.seat, record.email, lines).send()
    return sent


def stop_token(seat: TableSeat, address: str) -> str:
    """The signed words of an unsubscribe link: this seat, this address."""
    return signing.dumps({"seat": seat.pk, "email": address}, salt=STOP_SALT)


def stop(code: str, token: str) -> TableSeat | None:
    """Stop the mail an unsubscribe link names, if it is of the table of ``code`` and the
    address is still the one mailed; returns the seat, or None for a link that names
    nothing here (forged, of another table, or its address since changed)."""
    try:
        named = signing.loads(token, salt=STOP_SALT)
    except signing.BadSignature:
        return None
    record = (
        SeatAlerts.objects.select_related("seat__table")
        .filter(seat_id=named.get("seat"), seat__table__code=code)
        .first()
    )
    if record is None or not record.email or record.email != named.get("email"):
        return None
    set_address(record.seat, "")
    return record.seat


def _take(record: SeatAlerts, now: datetime) -> list[dict]:
    """The alerts waiting, taken for a mail that goes now: the next may go in an hour."""
    lines, record.mail_waiting = record.mail_waiting, []
    record.mail_after = now + MAIL_EVERY
    return lines

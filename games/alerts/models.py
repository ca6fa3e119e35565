"""What the alerts keep between requests, all in the database: for each seat, whether its
page is in sight, what it was last alerted of and its e-mail; each device's push
subscription; each table's last nudge.

Registered with the games app by ``games.models``, which imports them. Each row hangs on
a seat or a table and goes with it (``on_delete=CASCADE``): an address or a subscription
is its person's alone and lives no longer than their seat.
"""

from __future__ import annotations

from django.db import models

from games.models import Table, TableSeat


class SeatAlerts(models.Model):
    """One seat's alerts: made the first time the seat's page says it is in sight, or its
    person gives an address."""

    seat = models.OneToOneField(TableSeat, on_delete=models.CASCADE, related_name="alerts")
    shown_on = models.CharField(
        max_length=200,
        blank=True,
        help_text="The socket whose page last said it is in sight: while that socket holds "
        "the seat, its person is looking at the table and gets no alert.",
    )
    # The event each kind of alert was last sent (or found needless) for, so that a turn,
    # a round's end, the match's end and a request for a seat each alert once, whichever
    # process hears of the change (events.py names them).
    turn_key = models.CharField(max_length=40, blank=True)
    round_key = models.CharField(max_length=40, blank=True)
    claim_key = models.CharField(max_length=80, blank=True)
    email = models.EmailField(blank=True, help_text="Where this person is mailed; blank: no mail.")
    mail_waiting = models.JSONField(
        default=list, help_text="Lines of alerts for the next mail, oldest first."
    )
    mail_after = models.DateTimeField(
        null=True, blank=True, db_index=True, help_text="When the next mail may go."
    )

    class Meta:
        app_label = "games"
        verbose_name_plural = "seat alerts"

    def __str__(self) -> str:
        return f"Alerts of {self.seat}"


class PushSubscription(models.Model):
    """One device's Web Push subscription for one seat, as its browser gave it. It holds
    the seat's token when it was made: a seat given to another device (a lost phone)
    no longer alerts the old one."""

    seat = models.ForeignKey(TableSeat, on_delete=models.CASCADE, related_name="push_devices")
    endpoint = models.URLField(max_length=1000)
    p256dh = models.CharField(max_length=200, help_text="The browser's public key.")
    auth = models.CharField(max_length=100, help_text="The browser's secret for this push.")
    seat_token = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "games"
        constraints = [
            models.UniqueConstraint(fields=["seat", "endpoint"], name="push_once_a_device"),
        ]

    def __str__(self) -> str:
        return f"Push for {self.seat}"

    @property
    def info(self) -> dict:
        """The subscription as the browser gave it, for pywebpush."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}


class TableNudge(models.Model):
    """The last nudge at a table: another may come an hour later."""

    table = models.OneToOneField(
        Table, on_delete=models.CASCADE, primary_key=True, related_name="nudge"
    )
    at = models.DateTimeField()
    by = models.CharField(max_length=40)

    class Meta:
        app_label = "games"

    def __str__(self) -> str:
        return f"Nudge at {self.table.code} by {self.by}"

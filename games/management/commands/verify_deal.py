"""``python manage.py verify_deal FILE``: check that a finished match was dealt as it
committed to: the revealed secret's SHA-256 is the commitment, and every round's deal is
the one the secret and the seats' contributions give (docs/engine.md)."""

from __future__ import annotations

import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from games.engine.deal_seed import NotCommitted, check_record
from games.engine.records import RecordError, loads, replay


class Command(BaseCommand):
    help = (
        "Deal every round of a game record (JSON Lines, see docs/records.md) again from its "
        "revealed secret and contributions, and compare with the deals played. Exits with "
        "status 1 at the first round that differs."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path, help="the record to check; - reads stdin")

    def handle(self, *args, file: Path, **options):
        text = sys.stdin.read() if str(file) == "-" else self._read(file)
        try:
            records = loads(text)
            replay(records)  # the deals are the ones played only in a legal record
            found = check_record(records)
        except (RecordError, NotCommitted) as error:
            raise CommandError(f"{file}: {error}", returncode=1) from None
        if not found.commitment_kept:
            raise CommandError(
                f"{file}: the revealed secret's SHA-256 is not the commitment.", returncode=1
            )
        for checked in found.rounds:
            said = "the deal played" if checked.matches else "NOT the deal played"
            self.stdout.write(f"  round {checked.number}: dealt again, {said}")
        if found.first_difference is not None:
            raise CommandError(
                f"{file}: round {found.first_difference} was not dealt from the revealed "
                "secret and contributions.",
                returncode=1,
            )
        self.stdout.write(
            f"{file}: every deal ({len(found.rounds)} rounds) is the one the revealed secret "
            "and contributions give."
        )

    def _read(self, file: Path) -> str:
        try:
            return file.read_text(encoding="utf-8")
        except OSError as error:
            raise CommandError(f"cannot read {file}: {error.strerror}") from None

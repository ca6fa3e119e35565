"""``python manage.py replay FILE``: check a game record and print its final totals."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from games.engine.records import RecordError, loads, replay


class Command(BaseCommand):
    help = (
        "Replay a game record (JSON Lines, see docs/records.md) through the rules engine. "
        "Prints the totals; exits with status 1 at the first record that breaks a rule."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path, help="the record to check; - reads stdin")

    def handle(self, *args, file: Path, **options):
        text = self._read(file)
        try:
            records = loads(text)
            states = replay(records)
        except RecordError as error:
            raise CommandError(f"{file}: {error}", returncode=1) from None
        if not states:
            raise CommandError(f"{file}: the record deals no round.", returncode=1)
        game = states[-1]
        names = records[0].get("names") or [f"Seat {s}" for s in range(game.players)]
        actions = sum(r.get("type") == "action" for r in records)
        status = "finished" if game.is_over else "in progress"
        self.stdout.write(
            f"{file}: a legal record. {game.rounds_played} of {game.rules.round_count} rounds "
            f"played ({status}), {actions} actions."
        )
        totals = game.totals()
        best = min(totals) if game.is_over else None
        width = max(len(n) for n in names)
        for name, total in zip(names, totals, strict=True):
            mark = "  winner" if total == best else ""
            self.stdout.write(f"  {name:<{width}}  {total:>5}{mark}")

    def _read(self, file: Path) -> str:
        if str(file) == "-":
            import sys

            return sys.stdin.read()
        try:
            return file.read_text(encoding="utf-8")
        except OSError as error:
            raise CommandError(f"cannot read {file}: {error.strerror}") from None

"""``python manage.py simulate``: complete matches bot against bot, invariants checked.

A thin wrapper: the matches are played by :func:`games.simulate.simulate`.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from games.bots import POLICIES
from games.engine import PRESETS, RulesError
from games.engine.records import dumps
from games.simulate import RANDOM, parse_rule, random_rules, rules_for, simulate


class Command(BaseCommand):
    help = (
        "Play complete matches bot against bot through the rules engine, checking every "
        "invariant after every action, and print a summary."
    )

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, default=4, help="seats at the table (4)")
        parser.add_argument("--matches", type=int, default=100, help="matches to play (100)")
        parser.add_argument(
            "--bots",
            default="greedy",
            help=(
                f"a bot per seat, comma-separated, or one for every seat ({', '.join(POLICIES)};"
                " the expert, whose clock makes a run unrepeatable, plays in benchmarks/bots.py)"
            ),
        )
        parser.add_argument(
            "--seed", type=int, default=0, help="match i is dealt from seed SEED+i (0)"
        )
        parser.add_argument(
            "--rules",
            default="standard",
            help=f"a preset ({', '.join(PRESETS)}), or '{RANDOM}' for every setting drawn "
            "at random, match by match",
        )
        parser.add_argument(
            "--rule",
            action="append",
            default=[],
            metavar="NAME=VALUE",
            help="set one setting over the preset (repeatable), e.g. double_blank_value=50",
        )
        parser.add_argument(
            "--records",
            type=Path,
            metavar="FILE",
            help="write the game records: FILE for a single match; with several matches, "
            "FILE is a directory of one record per match (match-SEED.jsonl), each a "
            "file `manage.py replay` accepts",
        )
        parser.add_argument("--json", action="store_true", help="print the summary as JSON")
        parser.add_argument(
            "--no-check", action="store_true", help="skip the invariant checks (for speed)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        players = options["players"]
        bots = [b.strip() for b in options["bots"].split(",")]
        if len(bots) == 1:
            bots *= players
        unknown = [b for b in bots if b not in POLICIES]
        if unknown:
            raise CommandError(f"unknown bot {unknown[0]!r}: choose from {', '.join(POLICIES)}.")
        if len(bots) != players:
            raise CommandError(f"--bots names {len(bots)} bots for {players} players.")
        if options["matches"] < 1:
            raise CommandError("--matches must be at least 1.")
        try:
            overrides = dict(parse_rule(text) for text in options["rule"])
            rules = options["rules"]
            if rules == RANDOM:
                random_rules(random.Random(0), players, overrides)  # some mix fits the table
            else:
                rules = rules_for(rules, overrides)
                rules.hand_size_for(players)
        except (ValueError, RulesError) as error:
            raise CommandError(str(error)) from None

        write = self._writer(options["records"], options["matches"])
        summary = simulate(
            players,
            options["matches"],
            bots,
            seed=options["seed"],
            rules=rules,
            overrides=overrides,
            check=not options["no_check"],
            records=write,
            progress=_progress_bar if sys.stderr.isatty() else None,
        )
        self.stdout.write(summary.json() if options["json"] else summary.text())
        if summary.violations:
            raise CommandError(f"{len(summary.violations)} invariant violations.", returncode=1)

    def _writer(self, path: Path | None, matches: int):
        """Where each match's records go: one file, or a directory of one file a match."""
        if path is None:
            return None
        if matches == 1 and not path.is_dir():
            return lambda records: path.write_text(dumps(records), encoding="utf-8")
        path.mkdir(parents=True, exist_ok=True)

        def write(records: list[dict[str, Any]]) -> None:
            (path / f"match-{records[0]['seed']}.jsonl").write_text(
                dumps(records), encoding="utf-8"
            )

        return write


def _progress_bar(done: int, total: int) -> None:
    width = 30
    filled = width * done // total
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} matches")
    if done == total:
        sys.stderr.write("\n")
    sys.stderr.flush()

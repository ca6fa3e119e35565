"""Merging two people: the same friend entered twice (a typo on one phone's sheet, a new
phone that joined the crew under a nickname) becomes one person again.

A person is one ``scoring.Player`` row; everything they did hangs off it: their seats (and
through the seats every entry and change of the sheets they sat at), their crew memberships
and their ratings. Merging moves all of it from the person who goes to the person who stays,
works the affected seasons' ratings out again, and deletes the emptied row, in one
transaction: a merge either happens whole or not at all.

Nothing here writes the admin's log: that needs the staff user who asked, which only the
admin knows (``crews.admin`` logs the merge with ``ModelAdmin.log_change``).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction

from common import names as people
from scoring.entries import Refused
from scoring.models import Match, Player, Seat

from .models import CrewMatch, Member, Rating, Season
from .ratings import recompute


@dataclass(frozen=True)
class MergePlan:
    """What a merge of ``gone`` into ``keep`` would move, worked out before anything moves,
    so the admin's confirmation page can say it and the merge can refuse before writing."""

    keep: Player
    gone: Player
    seats: int  # seats of ``gone``, each at a match ``keep`` never sat at
    memberships_moved: int  # crews ``gone`` is in and ``keep`` is not
    memberships_merged: int  # crews both are in: ``keep``'s membership stays
    seasons: tuple[Season, ...]  # seasons whose ratings count a match of ``gone``


@dataclass(frozen=True)
class MergeReport:
    """What a merge did, in counts, and the sentence the admin's log keeps."""

    keep: int  # the id of the person who stayed
    gone: int  # the id the merged person had
    gone_name: str
    seats: int
    memberships_moved: int
    memberships_merged: int
    seasons_rerated: int
    message: str


def plan(keep: Player, gone: Player) -> MergePlan:
    """What merging ``gone`` into ``keep`` would move. Raises :class:`Refused`, with the
    sentence staff read, when the merge cannot be done: the same person twice, a bot's
    player on either side, or two people who sat at the same match (one person cannot
    hold two seats of a match, so they really are two people)."""
    if keep.pk == gone.pk:
        raise Refused(f"{keep.name} is one person already: pick two different people.")
    for player in (gone, keep):
        if is_bot(player):
            raise Refused(
                f"{player.name} (#{player.pk}) only ever sat in a bot's seat: a bot is not "
                "a person, so it is never merged with one."
            )
    shared = (
        Match.objects.filter(seats__player=gone)
        .filter(seats__player=keep)
        .order_by("created_at", "pk")
    )
    if shared.exists():
        codes = ", ".join(m.code for m in shared[:3])
        raise Refused(
            f"{gone.name} (#{gone.pk}) and {keep.name} (#{keep.pk}) sat at the same match "
            f"({codes}): they are two people, and a match seats a person once. "
            "Nothing was merged."
        )
    kept_crews = set(Member.objects.filter(player=keep).values_list("crew_id", flat=True))
    gone_crews = set(Member.objects.filter(player=gone).values_list("crew_id", flat=True))
    _check_names(keep, gone_crews - kept_crews, gone)
    seasons = Season.objects.filter(
        pk__in=CrewMatch.objects.filter(match__seats__player=gone).values("season")
    ) | Season.objects.filter(pk__in=Rating.objects.filter(player=gone).values("season"))
    return MergePlan(
        keep=keep,
        gone=gone,
        seats=Seat.objects.filter(player=gone).count(),
        memberships_moved=len(gone_crews - kept_crews),
        memberships_merged=len(gone_crews & kept_crews),
        seasons=tuple(seasons.distinct().order_by("crew__name", "crew_id", "number")),
    )


def merge_people(keep: Player, gone: Player, *, by: str) -> MergeReport:
    """``gone`` becomes ``keep``: their seats, memberships and ratings are ``keep``'s, and
    the ``gone`` row is deleted. Entries and changes follow their seats. In a crew both are
    members of, ``keep``'s membership stays (taking over ``gone``'s device if ``keep`` has
    none, so a phone that was ``gone`` is ``keep`` from now on). Every season that counted
    a match of ``gone`` has its ratings worked out again. ``by`` is who asked, for the log.

    Refused (and nothing changed) as :func:`plan` refuses."""
    with transaction.atomic():
        # Both rows locked, so a match opened meanwhile cannot seat them both.
        locked = Player.objects.select_for_update().in_bulk([keep.pk, gone.pk])
        if keep.pk not in locked or gone.pk not in locked:
            raise Refused("One of the two people is gone already: reload the page.")
        merging = plan(locked[keep.pk], locked[gone.pk])
        moved, merged = _move_memberships(merging.keep, merging.gone)
        Seat.objects.filter(player=merging.gone).update(player=merging.keep)
        for season in merging.seasons:
            recompute(season)
        gone_id, gone_name = merging.gone.pk, merging.gone.name
        merging.gone.delete()
    message = (
        f"Merged {gone_name} (#{gone_id}) into {merging.keep.name} (#{merging.keep.pk}), "
        f"asked by {by or 'nobody named'}: {_counted(merging.seats, 'seat')} moved, "
        f"{_counted(moved, 'membership')} moved, {_counted(merged, 'membership')} merged, "
        f"{_counted(len(merging.seasons), 'season')} rerated."
    )
    return MergeReport(
        keep=merging.keep.pk,
        gone=gone_id,
        gone_name=gone_name,
        seats=merging.seats,
        memberships_moved=moved,
        memberships_merged=merged,
        seasons_rerated=len(merging.seasons),
        message=message,
    )


def is_bot(player: Player) -> bool:
    """A bot's player: one who sat at matches, every time in a bot's seat. (A person whose
    seat a stand-in bot played for a while still sat in a person's seat.)"""
    seats = Seat.objects.filter(player=player)
    return seats.exists() and not seats.filter(bot="").exists()


def _check_names(keep: Player, crews: set[int], gone: Player) -> None:
    """A membership that moves is named after ``keep`` from now on; a crew where another
    member already has that name (or a lookalike of it) cannot take it."""
    clash = (
        Member.objects.filter(crew_id__in=crews, name_key=people.key(keep.name))
        .exclude(player=gone)
        .select_related("crew")
        .first()
    )
    if clash is not None:
        raise Refused(
            f"{clash.crew} has another member named {clash.player.name}: rename one of them "
            f"before {gone.name} becomes {keep.name} there. Nothing was merged."
        )


def _move_memberships(keep: Player, gone: Player) -> tuple[int, int]:
    """``gone``'s memberships become ``keep``'s; where both are members, ``keep``'s stays.
    Returns (moved, merged)."""
    kept = {m.crew_id: m for m in Member.objects.select_for_update().filter(player=keep)}
    moved = merged = 0
    for membership in Member.objects.select_for_update().filter(player=gone):
        ours = kept.get(membership.crew_id)
        if ours is None:
            membership.player, membership.name_key = keep, people.key(keep.name)
            membership.save(update_fields=["player", "name_key"])
            moved += 1
            continue
        if not ours.device and membership.device:
            # The phone that was ``gone`` in this crew is ``keep`` now; a member with a
            # device is one present, so a ``keep`` who had left is back.
            ours.device, ours.left_at = membership.device, membership.left_at
            ours.save(update_fields=["device", "left_at"])
        membership.delete()
        merged += 1
    return moved, merged


def _counted(n: int, thing: str) -> str:
    return f"{n} {thing}" if n == 1 else f"{n} {thing}s"

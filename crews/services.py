"""Crews: making one, joining it from a device, adding someone without a phone, claiming a
member, seasons, and counting a match for it (opened from the crew page, or filed
afterwards).

A device says who it is in a crew once; that is remembered on the member (``device``) and in
the device's session. Claiming a member another device already is works as getting a seat
back at a table: the claim waits until a member present approves it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

from django.db import IntegrityError, transaction
from django.utils import timezone

from common import names as people
from games.engine.rules import Rules
from scoring import services as sheet
from scoring.entries import Refused
from scoring.models import NAME_LENGTH, Match, Player

from . import live
from .models import CREW_NAME_LENGTH, Crew, CrewMatch, Member, Season
from .ratings import recompute

# A member's colour unless they pick one: the next of these not yet taken in the crew.
COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf")
COLOUR = re.compile(r"^#[0-9a-f]{6}$")
EMOJI_LENGTH = 8

JOINED = "joined"  # a new member, or a member nobody's device was yet
WAITING = "waiting"  # another device is this member: a member present must approve


def create_crew(
    name: str, founder: str, device: str, *, known: Iterable[Player] = ()
) -> tuple[Crew, Member]:
    """A crew with its first season and its founder as the first member, this device."""
    try:
        name = people.clean(name, CREW_NAME_LENGTH)
    except people.BadName as error:
        raise Refused(str(error)) from None
    with transaction.atomic():
        crew = Crew.objects.create(name=name)
        Season.objects.create(crew=crew, number=1)
        member, _ = join(crew, founder, device, known=known)
    return crew, member


def join(
    crew: Crew,
    name: str,
    device: str,
    *,
    colour: str = "",
    emoji: str = "",
    known: Iterable[Player] = (),
) -> tuple[Member, str]:
    """This device is ``name`` in the crew: a new member, a member whose name it is (a
    lookalike spelling is the same name), or a claim that waits for approval when another
    device already is that member. A member who had left and comes back is back. A new
    member is the player of that name this device already knows (``known``: its score
    sheets' players), so one person's matches stay one person's."""
    try:
        name = people.clean(name, NAME_LENGTH)
    except people.BadName as error:
        raise Refused(str(error)) from None
    colour, emoji = _checked_looks(colour, emoji)
    with transaction.atomic():
        # One join at a time a crew: the next free colour is read and taken in one step.
        Crew.objects.select_for_update().filter(pk=crew.pk).first()
        member = crew.members.select_for_update().filter(name_key=people.key(name)).first()
        if member is None:
            member = Member(
                crew=crew,
                player=_known_player(crew, name, known) or Player.objects.create(name=name),
                name_key=people.key(name),
                colour=colour or free_colour(crew),
                emoji=emoji,
                device=device,
            )
            try:
                with transaction.atomic():
                    member.save()
            except IntegrityError:
                raise Refused(f"{name} has just joined: pick your name from the list.") from None
            _changed(crew)
            return member, JOINED
        if member.device in ("", device):
            member.device, member.left_at = device, None
            member.claimed_by, member.claimed_at = "", None
            member.save(update_fields=["device", "left_at", "claimed_by", "claimed_at"])
            _changed(crew)
            return member, JOINED
        member.claimed_by, member.claimed_at = device, timezone.now()
        member.save(update_fields=["claimed_by", "claimed_at"])
        _changed(crew)
        return member, WAITING


def add_member(crew: Crew, *, name: str, by_device: str, known: Iterable[Player] = ()) -> Member:
    """A member adds someone without a phone (a grandparent, a child) by name: a member no
    device is yet, in the next free colour, who counts in the crew's matches at once. When
    that person opens the crew's link on a device of their own and picks their name, it is
    theirs with no approval (``join``: nobody's device is that member, so nobody loses it);
    should someone else have picked it first, their own pick is a claim a member approves.
    A member who had left is back. ``known``: the adding device's players, as for ``join``."""
    try:
        name = people.clean(name, NAME_LENGTH)
    except people.BadName as error:
        raise Refused(str(error)) from None
    with transaction.atomic():
        Crew.objects.select_for_update().filter(pk=crew.pk).first()
        if member_of(crew, by_device) is None:
            raise Refused("Only a member of the crew can add someone: say who you are first.")
        member = crew.members.select_for_update().filter(name_key=people.key(name)).first()
        if member is not None and member.active:
            raise Refused(f"{member.name} is in the crew already: pick another name.")
        if member is not None:
            member.left_at = None
            member.save(update_fields=["left_at"])
        else:
            member = Member.objects.create(
                crew=crew,
                player=_known_player(crew, name, known) or Player.objects.create(name=name),
                name_key=people.key(name),
                colour=free_colour(crew),
            )
    _changed(crew)
    return member


def _known_player(crew: Crew, name: str, known: Iterable[Player]) -> Player | None:
    """The player of this name among ``known``, unless the crew has them already."""
    key = people.key(name)
    player = next((p for p in known if people.key(p.name) == key), None)
    if player is None or crew.members.filter(player=player).exists():
        return None
    return player


def free_colour(crew: Crew) -> str:
    """The first colour of ``COLOURS`` no member has yet, for the next member to join."""
    taken = set(crew.members.values_list("colour", flat=True))
    return next((c for c in COLOURS if c not in taken), COLOURS[len(taken) % len(COLOURS)])


def answer_claim(crew: Crew, member_id: int, by_device: str, approve: bool) -> Member:
    """A member present (any device that is a member of the crew, other than the one
    asking) lets a waiting device be the member, or turns it away."""
    with transaction.atomic():
        approver = member_of(crew, by_device)
        if approver is None:
            raise Refused("Only a member of the crew can answer: say who you are first.")
        member = crew.members.select_for_update().filter(pk=member_id).first()
        if member is None or not member.claimed_by:
            raise Refused("Nobody is asking to be that member now.")
        if member.claimed_by == by_device:
            raise Refused("Another member has to approve your own request.")
        if approve:
            member.device = member.claimed_by
        member.claimed_by, member.claimed_at = "", None
        member.save(update_fields=["device", "claimed_by", "claimed_at"])
    _changed(crew)
    return member


def member_of(crew: Crew, device: str) -> Member | None:
    """The member this device is in the crew, if any."""
    if not device:
        return None
    return crew.members.select_related("player").filter(device=device, left_at=None).first()


def leave(crew: Crew, device: str) -> Member:
    """The device's member leaves the crew; their results stay, under their name."""
    member = member_of(crew, device)
    if member is None:
        raise Refused("This device is not a member of the crew.")
    member.left_at, member.device = timezone.now(), ""
    member.save(update_fields=["left_at", "device"])
    _changed(crew)
    return member


def new_season(crew: Crew, name: str = "") -> Season:
    """From now on the crew's matches count in a new season; earlier ones stay readable."""
    name = " ".join(name.split())[:CREW_NAME_LENGTH]
    with transaction.atomic():
        Crew.objects.select_for_update().get(pk=crew.pk)
        season = Season.objects.create(
            crew=crew, number=crew.current_season().number + 1, name=name
        )
    _changed(crew)
    return season


def people_of(crew: Crew) -> list[Player]:
    """The crew's members, as the players their matches seat."""
    return [m.player for m in crew.members.select_related("player")]


def open_sheet(crew: Crew, names: Sequence[str], rules: Rules, *, by: str) -> Match:
    """A score sheet counted for the crew: a name of a member seats that member."""
    with transaction.atomic():
        match = sheet.create_match(names, rules, by=by, known=people_of(crew))
        count_for(crew, match, by=by)
    return match


def count_for(crew: Crew, match: Match, *, by: str) -> CrewMatch:
    """File a match just opened for the crew, in its current season."""
    return CrewMatch.objects.create(
        crew=crew, season=crew.current_season(), match=match, filed_by=by
    )


def file_match(crew: Crew, match: Match, members: Mapping[int, int], *, by: str) -> CrewMatch:
    """Count a match played without the crew: ``members`` maps seat positions to member
    ids, and each mapped seat becomes that member's. Seats left out stay as they were (a
    guest, or a bot). A match is filed to one crew, once."""
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match.pk)
        if CrewMatch.objects.filter(match=match).exists():
            raise Refused("That match is filed already: a match counts for one crew, once.")
        seats = {s.position: s for s in match.seats.all()}
        chosen = {m.pk: m for m in crew.members.select_related("player")}
        if len(set(members.values())) != len(members):
            raise Refused("Each member sits in one seat: a member is named twice.")
        for position, member_id in members.items():
            seat, member = seats.get(position), chosen.get(member_id)
            if seat is None or member is None:
                raise Refused("Pick members of this crew for seats of this match.")
            if seat.bot:
                raise Refused(f"Seat {position + 1} was a bot's: a member cannot take it.")
        others = {s.player_id for p, s in seats.items() if p not in members}
        for position, member_id in members.items():
            player = chosen[member_id].player
            if player.pk in others:
                raise Refused(f"{player.name} sits at another seat of this match already.")
            seats[position].player = player
            seats[position].save(update_fields=["player"])
        filing = CrewMatch.objects.create(
            crew=crew, season=crew.current_season(), match=match, filed_by=by
        )
        recompute(filing.season)
    _changed(crew)
    return filing


def _changed(crew: Crew) -> None:
    live.announce(crew.code)


def _checked_looks(colour: str, emoji: str) -> tuple[str, str]:
    colour = colour.strip().lower()
    if colour and not COLOUR.match(colour):
        raise Refused("Pick a colour as #rrggbb.")
    emoji = emoji.strip()
    if len(emoji) > EMOJI_LENGTH or any(ch.isalnum() for ch in emoji):
        raise Refused("An emoji is a picture or two, not letters.")
    return colour, emoji

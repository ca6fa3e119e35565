"""The crew's pages: make a crew, join it, the crew page (standings, ratings, head-to-head,
game nights, matches), a score sheet for the crew, filing a match afterwards, seasons,
claims and the export. Thin: a form, a service, a redirect."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.html import escape
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from common.links import link_with_qr
from games.engine.rules import PRESET_DESCRIPTIONS
from scoring import sessions as sheet_sessions
from scoring.entries import Refused
from scoring.forms import MatchForm
from scoring.models import Match

from . import export, services, sessions
from .forms import AddMemberForm, CrewForm, FindMatchForm, JoinForm, SeasonForm, SeatsForm
from .models import Crew, Member, Season
from .page import crew_context


@require_http_methods(["GET", "POST"])
def new_crew(request: HttpRequest) -> HttpResponse:
    form = CrewForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            crew, member = services.create_crew(
                form.cleaned_data["name"],
                form.cleaned_data["founder"],
                sessions.device(request.session),
                known=sheet_sessions.remembered_players(request.session),
            )
        except Refused as refusal:
            form.add_error(None, str(refusal))
        else:
            sheet_sessions.remember_players(request.session, [member.player])
            return redirect("crews:crew", code=crew.code)
    return render(request, "crews/new.html", {"form": form})


@never_cache
@require_GET
def crew(request: HttpRequest, code: str) -> HttpResponse:
    """The crew page for a member; who-are-you first for any other device."""
    found = get_object_or_404(Crew, code=code)
    me = services.member_of(found, sessions.known_device(request.session))
    if me is None:
        return _join_page(request, found, _join_form(found))
    return _crew_page(request, found, me, _season(found, request.GET.get("season")))


@never_cache
@require_GET
def live(request: HttpRequest, code: str) -> HttpResponse:
    """The live region alone (what the socket pushes), for a season picked on the page."""
    found = get_object_or_404(Crew, code=code)
    me = _member(request, found)
    context = crew_context(found, _season(found, request.GET.get("season")), me)
    return render(request, "crews/partials/live.html", context)


@require_POST
def join(request: HttpRequest, code: str) -> HttpResponse:
    """Say who this device is: a member (picked, or typed as a new one)."""
    found = get_object_or_404(Crew, code=code)
    picked = request.POST.get("member")
    form = JoinForm(request.POST) if picked is None else _join_form(found)
    if picked is not None:
        member = found.members.filter(pk=_int(picked)).select_related("player").first()
        if member is None:
            raise Http404("No such member.")
        name, looks = member.name, {}
    elif form.is_valid():
        name = form.cleaned_data["name"]
        looks = {"colour": form.chosen_colour(), "emoji": form.cleaned_data["emoji"]}
    else:
        return _join_page(request, found, form, status=400)
    try:
        member, status = services.join(
            found,
            name,
            sessions.device(request.session),
            known=sheet_sessions.remembered_players(request.session),
            **looks,
        )
    except Refused as refusal:
        form.add_error(None, str(refusal))
        return _join_page(request, found, form, status=400)
    if status == services.WAITING:
        return _join_page(request, found, _join_form(found), waiting=member)
    sheet_sessions.remember_players(request.session, [member.player])
    return redirect("crews:crew", code=code)


@require_POST
def add_member(request: HttpRequest, code: str) -> HttpResponse:
    """A member adds someone without a phone by name; they claim it later from a device."""
    found = get_object_or_404(Crew, code=code)
    me = _member(request, found)
    form = AddMemberForm(request.POST)
    if form.is_valid():
        try:
            services.add_member(
                found,
                name=form.cleaned_data["name"],
                by_device=sessions.known_device(request.session),
                known=sheet_sessions.remembered_players(request.session),
            )
        except Refused as refusal:
            form.add_error("name", str(refusal))
        else:
            return redirect(reverse("crews:crew", args=[code]) + "#members-title")
    return _crew_page(request, found, me, found.current_season(), add_form=form, status=400)


@require_POST
def answer_claim(request: HttpRequest, code: str, member_id: int) -> HttpResponse:
    found = get_object_or_404(Crew, code=code)
    try:
        services.answer_claim(
            found,
            member_id,
            sessions.known_device(request.session),
            approve=request.POST.get("answer") == "approve",
        )
    except Refused as refusal:
        if request.htmx:  # said beside the buttons (htmx swaps only a success)
            return HttpResponse(escape(str(refusal)))
        return HttpResponse(str(refusal), status=409)
    if request.htmx:
        return HttpResponse(status=204)  # the crew's socket redraws the claims on every page
    return redirect("crews:crew", code=code)


@require_POST
def leave(request: HttpRequest, code: str) -> HttpResponse:
    found = get_object_or_404(Crew, code=code)
    try:
        services.leave(found, sessions.known_device(request.session))
    except Refused as refusal:
        return HttpResponse(str(refusal), status=409)
    return redirect("crews:crew", code=code)


@require_POST
def new_season(request: HttpRequest, code: str) -> HttpResponse:
    found = get_object_or_404(Crew, code=code)
    _member(request, found)
    form = SeasonForm(request.POST)
    services.new_season(found, form.cleaned_data["name"] if form.is_valid() else "")
    return redirect("crews:crew", code=code)


@never_cache
@require_GET
def open_sheet(request: HttpRequest, code: str, match_code: str) -> HttpResponse:
    """A score sheet of the crew, opened from the crew page to enter counts: the crew knows
    who this device is, so a member with a seat there is that seat at once, not asked again.
    Anyone else gets the sheet's own question."""
    found = get_object_or_404(Crew, code=code)
    me = _member(request, found)
    match = get_object_or_404(
        Match, code=match_code, kind=Match.Kind.SHEET, crew_filing__crew=found
    )
    seat = match.seats.filter(player=me.player).first()
    if seat is not None and sheet_sessions.joined(request.session, match.code) is None:
        sheet_sessions.join(request.session, match.code, me.player.name, seat.position)
    return redirect("scoring:sheet", code=match.code)


@require_http_methods(["GET", "POST"])
def new_sheet(request: HttpRequest, code: str) -> HttpResponse:
    """A score sheet counted for the crew: the score sheet's own form, members offered."""
    found = get_object_or_404(Crew, code=code)
    me = _member(request, found)
    members = list(found.members.filter(left_at=None).select_related("player"))
    if request.method == "POST":
        form = MatchForm(request.POST)
        if form.is_valid():
            names = form.names()
            try:
                match = services.open_sheet(found, names, form.cleaned_data["rules"], by=me.name)
            except Refused as refusal:
                form.add_error(None, str(refusal))
            else:
                first = match.seats.select_related("player").first()
                sheet_sessions.join(request.session, match.code, first.player.name, 0)
                return redirect("scoring:sheet", code=match.code)
    else:
        initial = MatchForm.initial_for("standard", 12)
        initial["player_1"] = me.name
        form = MatchForm(initial=initial)
    context = {
        "form": form,
        "known": [m.player for m in members],
        "presets": PRESET_DESCRIPTIONS,
        "action": reverse("crews:new-sheet", args=[code]),
        "crew": found,
    }
    return render(request, "scoring/new.html", context)


@require_http_methods(["GET", "POST"])
def file_match(request: HttpRequest, code: str) -> HttpResponse:
    """Count a match played without the crew: find it by its link, then say who sat where.
    A member of the crew may, or staff (the crew's admin page links here)."""
    found = get_object_or_404(Crew, code=code)
    staff = request.user.is_staff
    by = request.user.get_username() if staff else _member(request, found).name
    members = list(found.members.select_related("player"))
    finder = FindMatchForm(request.POST if "link" in request.POST else None)
    match: Match | None = None
    seats_form = None
    if finder.is_bound and finder.is_valid():
        match = finder.cleaned_data["link"]
        seats = list(match.seats.select_related("player"))
        post = request.POST if "file" in request.POST else None
        seats_form = SeatsForm(post, seats=seats, members=members)
        if post is not None and seats_form.is_valid():
            try:
                services.file_match(found, match, seats_form.members(), by=by)
            except Refused as refusal:
                seats_form.add_error(None, str(refusal))
            else:
                return (
                    redirect("admin:crews_crew_change", found.pk)
                    if staff
                    else (redirect("crews:crew", code=code))
                )
    context = {"crew": found, "finder": finder, "match": match, "seats_form": seats_form}
    return render(request, "crews/file.html", context)


@require_GET
def export_csv(request: HttpRequest, code: str) -> HttpResponse:
    found = get_object_or_404(Crew, code=code)
    _member(request, found)
    response = HttpResponse(export.crew_csv(found), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="crew-{found.pk}.csv"'
    return response


def _crew_page(
    request: HttpRequest,
    crew: Crew,
    me: Member,
    season: Season,
    *,
    add_form: AddMemberForm | None = None,
    status: int = 200,
) -> HttpResponse:
    link = request.build_absolute_uri(reverse("crews:crew", args=[crew.code]))
    context = {
        **crew_context(crew, season, me),
        "invite": link_with_qr(link),
        "season_form": SeasonForm(),
        "add_form": add_form or AddMemberForm(),
    }
    return render(request, "crews/crew.html", context, status=status)


def _member(request: HttpRequest, crew: Crew) -> Member:
    """The member this device is; a device that is not one sees nothing of the crew."""
    me = services.member_of(crew, sessions.known_device(request.session))
    if me is None:
        raise Http404("Join the crew from its link first.")
    return me


def _season(crew: Crew, number: str | None) -> Season:
    season = crew.seasons.filter(number=_int(number)).first() if number else None
    return season or crew.current_season()


def _join_page(
    request: HttpRequest,
    crew: Crew,
    form: JoinForm,
    status: int = 200,
    waiting: Member | None = None,
) -> HttpResponse:
    members = crew.members.filter(left_at=None).select_related("player")
    context = {"crew": crew, "form": form, "members": members, "waiting": waiting}
    return render(request, "crews/join.html", context, status=status)


def _join_form(crew: Crew) -> JoinForm:
    """The form for a new member, offering the first colour nobody in the crew has."""
    free = services.free_colour(crew)
    return JoinForm(initial={"colour": free, "offered": free})


def _int(text: str | None) -> int | None:
    try:
        return int(text or "")
    except ValueError:
        return None

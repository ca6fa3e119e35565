"""Pages of an online table: create it, its lobby and game page, the rejoin link, the hint.

Views parse the form, check who is asking (the seat and host tokens in the session) and
call a service; the game itself is played over the websocket (games.consumers). The host's
lobby controls are small forms: posted by htmx they answer 204 (the socket brings the new
lobby to every screen) or 422 with the reason as text; posted without JavaScript they
redirect back to the table, with the reason as a message.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from common.links import link_with_qr
from crews import export as crew_export
from crews import services as crew_services
from crews import sessions as crew_sessions
from crews.models import Crew, Member
from games.engine.records import dumps
from games.engine.rules import PRESET_DESCRIPTIONS, Rules, describe
from games.engine.tiles import name

from . import (
    coach,
    deal_check,
    match_page,
    review,
    screens,
    selectors,
    services,
    sessions,
    your_tables,
)
from .forms import RULE_GROUPS, BotForm, JoinForm, SeatForm, TableForm
from .models import RoundReview, Table, TableSeat


@require_http_methods(["GET", "POST"])
def new_table(request: HttpRequest) -> HttpResponse:
    """Create a table: the host's name, the seats and the rules; the host takes seat 1.
    Opened from a crew's page (``crew``, for a device that is a member), the match counts
    for the crew and the host sits as their member."""
    crew, member = _crew_member(request, request.POST.get("crew") or request.GET.get("crew"))
    if request.method == "POST":
        form = TableForm(request.POST)
        if form.is_valid():
            data = form.cleaned_data
            try:
                table, seat = services.create_table(
                    rules=data["rules"],
                    seat_count=data["seat_count"],
                    host_name=member.name if member else data["host_name"],
                    crew=crew,
                    fill_level=data["fill_level"],
                    pace=data["pace"],
                    turn_limit=data["turn_limit"],
                    contribution=data["contribution"],
                )
            except services.Refused as refused:
                form.add_error(None, str(refused))
            else:
                sessions.remember_seat(request.session, table.code, seat.token)
                sessions.remember_host(request.session, table.code, table.host_token)
                return redirect("games:table", code=table.code)
    else:
        host = member.name if member else _account_name(request)
        form = TableForm(initial=TableForm.initial_for("standard", host))
    context = {"form": form, "presets": PRESET_DESCRIPTIONS, "crew": crew}
    return render(request, "games/new.html", context)


@never_cache
@require_GET
def coach_status(request: HttpRequest, code: str, number: int) -> HttpResponse:
    """The coach's line on the round-end card, for this device's seat: what the marked
    decisions cost, once weighed; before that, while the coach works, how far it has got
    only when the person asked (``asked=1``), else a button to ask, and the card asks
    again in a moment either way."""
    found, me = _my_seat(request, code)
    review = found.reviews.filter(round_number=number).first()
    if review is not None and review.status == RoundReview.Status.QUEUED:
        coach.wake()  # queued before a restart, perhaps: nothing else may wake the worker
    context = {
        "table": found,
        "number": number,
        "coach": coach.summary(review, me.position),
        "asked": request.GET.get("asked") == "1",
    }
    return render(request, "games/partials/coach_status.html", context)


@never_cache
@require_GET
def coach_review(request: HttpRequest, code: str, number: int) -> HttpResponse:
    """A player's own review of a finished round: their marked decisions one at a time, the
    board and their hand as they saw them, what they played and what the expert preferred."""
    found, me = _my_seat(request, code)
    review = found.reviews.filter(round_number=number, status=RoundReview.Status.DONE).first()
    if review is None:
        raise Http404("That round has not been reviewed yet.")
    marked = list(review.decisions.filter(seat=me.position, marked=True))
    moments = {m.step: m for m in coach.moments(found, number)} if marked else {}
    index = min(max(_index(request.GET.get("d")), 0), max(len(marked) - 1, 0))
    decision = marked[index] if marked else None
    view = moments[decision.step].view if decision else None
    teller = coach.words(found)
    context = {
        "table": found,
        "me": me,
        "number": number,
        "marked": marked,
        "index": index,
        "decision": decision,
        "view": view,
        "said": coach.said(decision, teller) if decision else None,
        "trains": [
            {"title": teller.title(i), "marked": t.marked, "branches": t.branches}
            for i, t in enumerate(view.trains)
        ]
        if view
        else [],
    }
    return render(request, "games/coach_review.html", context)


def _my_seat(request: HttpRequest, code: str) -> tuple[Table, TableSeat]:
    found = get_object_or_404(Table, code=code)
    token = sessions.seat_token(request.session, code)
    me = found.seats.filter(token=token).first() if token else None
    if me is None:
        raise Http404("Only a player of this table sees its reviews.")
    return found, me


def _index(text: str | None) -> int:
    try:
        return int(text or "0")
    except ValueError:
        return 0


@require_GET
def crew_json(request: HttpRequest, code: str) -> HttpResponse:
    """A crew's whole history as JSON, for a member: here rather than in crews because an
    online match's record is the table's move log."""
    crew, _ = _crew_member(request, code)
    response = JsonResponse(
        crew_export.crew_json(crew, review.records_of), json_dumps_params={"indent": 1}
    )
    response["Content-Disposition"] = f'attachment; filename="crew-{crew.pk}.json"'
    return response


def _crew_member(request: HttpRequest, code: str | None) -> tuple[Crew | None, Member | None]:
    """The crew a table is opened for, and the member this device is in it."""
    if not code:
        return None, None
    crew = get_object_or_404(Crew, code=code)
    member = crew_services.member_of(crew, crew_sessions.known_device(request.session))
    if member is None:
        raise Http404("Join the crew from its link first.")
    return crew, member


def _rules_in_words(rules: Rules) -> list[tuple[str, list[str]]]:
    """The table's rules as every player and spectator reads them: the form's groups, each
    setting in the form's words."""
    settings = rules.to_dict()
    return [(title, [describe(n, settings[n]) for n in names]) for title, names in RULE_GROUPS]


@require_GET
def new_table_rules(request: HttpRequest) -> HttpResponse:
    """The rules fields again, as the chosen preset sets them (htmx swaps them in), with
    "House rules" open: the preset was chosen in it."""
    chosen = request.GET.get("preset", "standard")
    form = TableForm(initial=TableForm.initial_for(chosen))
    context = {"form": form, "house_rules_open": True}
    return render(request, "games/partials/rules_fields.html", context)


@never_cache
@require_GET
def table(request: HttpRequest, code: str) -> HttpResponse:
    """The table: its lobby before the start, the game after it. The screen's regions are
    the ones the socket sends (games.screens)."""
    return _table_page(request, code)


@never_cache
@require_GET
def tables(request: HttpRequest) -> HttpResponse:
    """Every table this browser holds a seat at, and those of the person a crew knows this
    device as, newest first: the ones under way, then the finished ones with their results.
    The page's socket (games.your_tables) draws a row again when its table changes."""
    device = crew_sessions.known_device(request.session)
    context = your_tables.page_context(sessions.seats(request.session), device=device)
    return render(request, "games/tables.html", context)


@require_POST
def join(request: HttpRequest, code: str) -> HttpResponse:
    """Take a seat in the lobby, with a display name."""
    found = get_object_or_404(Table, code=code)
    form = JoinForm(request.POST, free=_free_seats(found))
    if not form.is_valid():
        return _table_page(request, code, form, status=400)
    try:
        seat = services.join(
            code,
            name=form.cleaned_data["name"],
            position=form.cleaned_data["position"],
            contribution=form.cleaned_data["contribution"],
        )
    except services.Refused as refused:
        if found.status != Table.Status.LOBBY:  # the match started meanwhile: no form now
            messages.error(request, str(refused))
            return redirect("games:table", code=code)
        form.add_error(None, str(refused))
        return _table_page(request, code, form, status=400)
    sessions.remember_seat(request.session, code, seat.token)
    return redirect("games:table", code=code)


@require_POST
def add_bot(request: HttpRequest, code: str) -> HttpResponse:
    form = BotForm(request.POST)
    return _host_action(
        request,
        code,
        form,
        lambda host: services.add_bot(
            code,
            host_token=host,
            level=form.cleaned_data["level"],
            position=form.cleaned_data["position"],
        ),
    )


@require_POST
def remove_seat(request: HttpRequest, code: str) -> HttpResponse:
    form = SeatForm(request.POST)
    return _host_action(
        request,
        code,
        form,
        lambda host: services.remove_seat(
            code, host_token=host, position=form.cleaned_data["position"]
        ),
    )


@require_POST
def start(request: HttpRequest, code: str) -> HttpResponse:
    """Deal the first round. Every screen reloads into the game when its socket sees the
    table playing."""
    return _host_action(request, code, None, lambda host: services.start(code, host_token=host))


@require_POST
def stand_in(request: HttpRequest, code: str) -> HttpResponse:
    """Let a bot play for a person who has gone away; they take the seat back on return.
    Only ever the host's decision: nothing hands a seat to a bot on a timer."""
    form = BotForm(request.POST)

    def hand_over(host: str) -> None:
        position = form.cleaned_data["position"]
        if position is None:
            raise services.Refused("Say which seat the bot should play for.")
        services.hand_to_bot(
            code, host_token=host, position=position, level=form.cleaned_data["level"]
        )

    return _host_action(request, code, form, hand_over)


@require_POST
def play_again(request: HttpRequest, code: str) -> HttpResponse:
    """A player of the finished match takes their seat at the next one, opening it if they
    are the first to ask: the browser's session gets the new seat (and the host's, the
    host's controls), and the page goes to the new table."""
    get_object_or_404(Table, code=code)
    try:
        rematch, seat = services.play_again(code, token=sessions.seat_token(request.session, code))
    except services.Refused as refused:
        if request.htmx:
            return HttpResponse(str(refused), status=422, content_type="text/plain")
        messages.error(request, str(refused))
        return redirect("games:table", code=code)
    sessions.remember_seat(request.session, rematch.code, seat.token)
    if sessions.host_token(request.session, code) == rematch.host_token:  # the same host
        sessions.remember_host(request.session, rematch.code, rematch.host_token)
    url = reverse("games:table", args=[rematch.code])
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


@never_cache
@require_GET
def check_deal(request: HttpRequest, code: str) -> HttpResponse:
    """ "Check the deal": once the match is over, every round dealt again from the revealed
    secret and contributions, beside what was played; before, only what was committed to.
    Open to anybody with the table's link, as the table itself is."""
    table = get_object_or_404(Table, code=code)
    return render(request, "games/deal.html", deal_check.page_context(table))


@never_cache
@require_GET
def match_round(request: HttpRequest, code: str, number: int) -> HttpResponse:
    """The finished match's round ``number``, move by move (``?step=``; ``&frame=1``
    answers that step's drawing alone, which the page's script swaps in). Anybody with the
    table's link may open it, as they may open the table."""
    table = get_object_or_404(Table, code=code)
    if not match_page.is_open(table):
        raise Http404("A match's page opens once the match is over.")
    token = sessions.seat_token(request.session, code)
    me = table.seats.filter(token=token).first() if token else None
    context = match_page.round_context(
        table, number, request.GET.get("step"), seat=me.position if me else None
    )
    if context is None:
        raise Http404(f"This match never dealt a round {number}.")
    if request.GET.get("frame"):
        return render(request, "admin/scoring/match/replay_frame.html", context)
    return render(request, "games/match.html", context)


@never_cache
@require_GET
def match_record(request: HttpRequest, code: str) -> HttpResponse:
    """The finished match's game record (docs/records.md), as the admin exports it."""
    table = get_object_or_404(Table, code=code)
    if not match_page.is_open(table):
        raise Http404("A match's record is given once the match is over.")
    response = HttpResponse(
        dumps(match_page.records(table)), content_type="application/jsonl; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="match-{table.code}.jsonl"'
    return response


@never_cache
@require_GET
def rejoin(request: HttpRequest, code: str, token: str) -> HttpResponse:
    """Another device (or a cleared browser) takes its seat back from the rejoin link. The
    host keeps the first seat, so that seat's link brings the host's controls along."""
    seat = TableSeat.objects.filter(table__code=code, token=token).select_related("table").first()
    if seat is None:
        raise Http404("This rejoin link does not match a seat at this table.")
    sessions.remember_seat(request.session, code, token)
    if seat.position == 0:
        sessions.remember_host(request.session, code, seat.table.host_token)
    return redirect("games:table", code=code)


@never_cache
@require_GET
def seat_link(request: HttpRequest, code: str, position: int) -> HttpResponse:
    """A seat's private link as a QR code, for the host's screen alone: the player whose
    phone is gone scans it on a new one. Drawn when asked for, since a seat's token changes
    when it is given to another screen."""
    get_object_or_404(Table, code=code)
    try:
        seat = selectors.seat_for_host(
            code, host_token=sessions.host_token(request.session, code), position=position
        )
    except services.Refused as refused:
        return HttpResponse(str(refused), status=403, content_type="text/plain")
    rejoin = reverse("games:rejoin", args=[code, seat.token])
    link = link_with_qr(request.build_absolute_uri(rejoin))
    return render(request, "games/partials/seat_link.html", {"seat": seat, "link": link})


@never_cache
@require_GET
def hint(request: HttpRequest, code: str) -> JsonResponse:
    """The planner's best first-turn line for the caller's own seat (and nobody else's)."""
    token = sessions.seat_token(request.session, code)
    if not token:
        return JsonResponse({"message": "Only a player at the table gets a hint."}, status=403)
    try:
        tiles = selectors.hint(code, token=token)
    except services.Refused as refused:
        return JsonResponse({"message": str(refused)}, status=409)
    text = ", ".join(name(t) for t in tiles)
    message = f"Your best line: {text}." if tiles else "No tile in your hand starts a line."
    return JsonResponse({"tiles": [list(t) for t in tiles], "message": message})


# -- helpers -------------------------------------------------------------------------------


def _table_page(
    request: HttpRequest, code: str, join_form: JoinForm | None = None, status: int = 200
) -> HttpResponse:
    token = sessions.seat_token(request.session, code)
    host_token = sessions.host_token(request.session, code)
    shown = screens.screen(code, token, host_token=host_token, with_sheet=True)
    if shown is None:
        sessions.forget_seat(request.session, code)  # told the table is gone: only then
        raise Http404("There is no table with that link: it may have been mistyped.")
    found: Table = shown.context["table"]
    if found.status == Table.Status.FINISHED and (newest := found.newest()) != found:
        return redirect("games:table", code=newest.code)  # the link leads to the rematch
    me: TableSeat | None = shown.context["me"]
    if token and me is None:  # the host removed this seat: offer the join form again
        sessions.forget_seat(request.session, code)
    lobby = found.status == Table.Status.LOBBY
    if join_form is None and me is None and lobby:
        join_form = JoinForm(initial={"name": _name_at(request, found)}, free=_free_seats(found))
    context = {
        **shown.context,
        "data": shown.data,
        "join_form": join_form,
        "invite": _invite(request, found),
        "rejoin_url": (
            request.build_absolute_uri(reverse("games:rejoin", args=[code, me.token])) if me else ""
        ),
        "rule_groups": _rules_in_words(found.get_rules()),
        "previous": screens.previous_match(found, None if me else _previous_token(request, found)),
    }
    return render(request, "games/table.html", context, status=status)


def _host_action(
    request: HttpRequest,
    code: str,
    form: BotForm | SeatForm | None,
    action: Callable[[str], object],
) -> HttpResponse:
    """Run one of the host's controls: refuse bad input or a non-host, change nothing then."""
    get_object_or_404(Table, code=code)
    try:
        if form is not None and not form.is_valid():
            raise services.Refused("That control could not be read: reload the page.")
        action(sessions.host_token(request.session, code))
    except services.Refused as refused:
        if request.htmx:
            return HttpResponse(str(refused), status=422, content_type="text/plain")
        messages.error(request, str(refused))
        return redirect("games:table", code=code)
    if request.htmx:
        return HttpResponse(status=204)
    return redirect("games:table", code=code)


def _previous_token(request: HttpRequest, found: Table) -> str | None:
    """This browser's seat token at the match this table plays again, if it held one."""
    if found.rematch_of is None:
        return None
    return sessions.seat_token(request.session, found.rematch_of.code)


def _free_seats(found: Table) -> list[int]:
    taken = set(found.seats.values_list("position", flat=True))
    return [p for p in range(found.seat_count) if p not in taken]


def _account_name(request: HttpRequest) -> str:
    """A signed-in user's name, as the default display name."""
    user = request.user
    if not user.is_authenticated:
        return ""
    return (user.get_full_name() or user.get_username())[:40]


def _name_at(request: HttpRequest, found: Table) -> str:
    """The name offered to join a table with: at a crew's table, the member this device is."""
    if found.crew_id is not None:
        member = crew_services.member_of(found.crew, crew_sessions.known_device(request.session))
        if member is not None:
            return member.name
    return _account_name(request)


def _invite(request: HttpRequest, found: Table) -> dict:
    """The table's link, and the same link as a QR code drawn on the server."""
    return link_with_qr(request.build_absolute_uri(reverse("games:table", args=[found.code])))

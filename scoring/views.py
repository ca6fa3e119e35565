"""Pages of the score sheet: create a match, say who you are, the sheet, the TV view,
exports, and the files that make the sheet an installable, offline-capable web app.

Views parse, authorize and call services; every change made on the sheet itself arrives
over the websocket (scoring.consumers), so these pages only read, create and join.
"""

from __future__ import annotations

import csv
import hashlib

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods

from common.csv_cells import csv_cell
from common.links import link_with_qr
from games.engine.rules import PRESET_DESCRIPTIONS
from games.engine.tiles import SUPPORTED_SETS, full_set

from . import services, sessions
from .entries import Refused
from .forms import JoinForm, MatchForm
from .models import Match, Player
from .rendering import Viewer, live_context

# What the service worker keeps for offline use, besides the sheet pages themselves.
OFFLINE_FILES = (
    "css/app.css",
    "vendor/htmx.min.js",
    "vendor/ws.js",
    "scoring/sheet.js",
    "icon.svg",
)


@require_http_methods(["GET", "POST"])
def new_match(request: HttpRequest) -> HttpResponse:
    """Create a match: names in seat order, the set, a preset and the six house rules."""
    known = sessions.remembered_players(request.session)
    if request.method == "POST":
        form = MatchForm(request.POST)
        if form.is_valid():
            names = form.names()
            try:
                match = services.create_match(
                    names, form.cleaned_data["rules"], by=names[0], known=known
                )
            except Refused as refusal:
                form.add_error(None, str(refusal))
            else:
                players = _players(match)
                # The creator is the first name typed (the form says so), so they are not
                # asked who they are right after typing everyone's names; "not you?" on
                # the sheet changes it.
                sessions.join(request.session, match.code, players[0].name, 0)
                sessions.remember_players(request.session, players)
                return redirect("scoring:sheet", code=match.code)
    else:
        form = MatchForm(initial=MatchForm.initial_for("standard", 12))
    return render(
        request,
        "scoring/new.html",
        {"form": form, "known": known, "presets": PRESET_DESCRIPTIONS},
    )


@require_GET
def new_match_rules(request: HttpRequest) -> HttpResponse:
    """The set and house-rule fields again, as a preset sets them (htmx swaps them in)."""
    try:
        top = int(request.GET.get("highest_double", "12"))
    except ValueError:
        top = 12
    chosen = request.GET.get("preset", "standard")
    form = MatchForm(initial=MatchForm.initial_for(chosen, top if top in SUPPORTED_SETS else 12))
    return render(
        request,
        "scoring/partials/rules_fields.html",
        {"form": form, "presets": PRESET_DESCRIPTIONS},
    )


@never_cache
@require_GET
def sheet(request: HttpRequest, code: str) -> HttpResponse:
    """The live sheet for a device that said who it is; otherwise the question first."""
    match = get_object_or_404(Match, code=code)
    me = sessions.joined(request.session, code)
    if me is None:
        return _join_page(request, match, JoinForm(seats=_seat_names(match)))
    rules = match.get_rules()
    context = {
        **live_context(match, Viewer(editor=True, name=me["name"])),
        "tiles": sorted(full_set(rules.highest_double), key=lambda t: (-t[1], -t[0])),
        "invite": _invite(request, match),
    }
    return render(request, "scoring/sheet.html", context)


@require_http_methods(["GET", "POST"])
def join(request: HttpRequest, code: str) -> HttpResponse:
    """Say (or change) who this device is at the match."""
    match = get_object_or_404(Match, code=code)
    form = JoinForm(request.POST or None, seats=_seat_names(match))
    if request.method == "POST" and form.is_valid():
        seat, name = form.cleaned_data["seat"], form.cleaned_data["name"]
        sessions.join(request.session, code, name, seat)
        sessions.remember_players(request.session, _players(match))
        return redirect("scoring:sheet", code=code)
    return _join_page(request, match, form)


@require_GET
def history(request: HttpRequest, code: str) -> HttpResponse:
    """One cell's history, newest first (the editor asks for it on demand)."""
    match = get_object_or_404(Match, code=code)
    try:
        round_number, seat = int(request.GET["round"]), int(request.GET["seat"])
    except (KeyError, ValueError):
        return HttpResponse("Which cell? Give round and seat.", status=400)
    changes = services.cell_history(match, round_number, seat)
    return render(request, "scoring/partials/history.html", {"changes": changes})


@never_cache
@require_GET
def viewer(request: HttpRequest, viewer_code: str) -> HttpResponse:
    """The read-only sheet for a TV: live, with nothing that edits."""
    match = get_object_or_404(Match, viewer_code=viewer_code)
    return render(request, "scoring/viewer.html", live_context(match, Viewer(editor=False)))


@require_GET
def export_csv(request: HttpRequest, viewer_code: str) -> HttpResponse:
    """Scores per round and player, then the totals: for a spreadsheet. Every cell goes
    through ``csv_cell``: names are people's typing, and a name like ``=HYPERLINK(...)``
    must open as text, not run as a formula (scores are ints, so they stay numbers)."""
    match = get_object_or_404(Match, viewer_code=viewer_code)
    sheet = services.compute_sheet(match)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{_file_name(match)}.csv"'
    rows = [["Round", "Double", *(seat.player.name for seat in sheet.seats)]]
    for row in sheet.rows:
        double = f"{row.double}-{row.double}" if row.counted else "not counted"
        rows.append([row.number, double, *("" if c.score is None else c.score for c in row.cells)])
    rows.append(["Total", "", *sheet.totals])
    csv.writer(response).writerows([csv_cell(value) for value in row] for row in rows)
    return response


@require_GET
def export_json(request: HttpRequest, viewer_code: str) -> JsonResponse:
    """The whole match: rules, what was entered, the derived scores, and the history."""
    match = get_object_or_404(Match, viewer_code=viewer_code)
    sheet = services.compute_sheet(match)
    data = {
        "kind": match.kind,
        "status": match.status,
        "created_at": match.created_at.isoformat(),
        "rules": match.rules,
        "players": [seat.player.name for seat in sheet.seats],
        "rounds": [
            {
                "number": row.number,
                "double": row.double,
                "counted": row.counted,
                "entries": [
                    {"entered": c.value.to_json(), "score": c.score, "running_total": c.running}
                    for c in row.cells
                ],
            }
            for row in sheet.rows
        ],
        "totals": list(sheet.totals),
        "winners": [sheet.seats[i].player.name for i in sheet.winners],
        "history": [
            {
                "at": change.at.isoformat(),
                "by": change.by,
                "change": change.describe(),
                "old": change.old,
                "new": change.new,
                "undoes": change.undoes_id,
            }
            for change in match.changes.select_related("entry__round", "entry__seat__player")
        ],
    }
    response = JsonResponse(data, json_dumps_params={"indent": 2, "ensure_ascii": False})
    response["Content-Disposition"] = f'attachment; filename="{_file_name(match)}.json"'
    return response


@require_GET
def manifest(request: HttpRequest, code: str) -> JsonResponse:
    """A web app manifest per match: the home-screen icon opens this very sheet."""
    match = get_object_or_404(Match, code=code)
    names = ", ".join(seat.player.name for seat in match.seats.select_related("player"))
    data = {
        "name": f"Mexican Train scores: {names}",
        "short_name": "Scores",
        "start_url": reverse("scoring:sheet", args=[code]),
        "scope": "/",
        "display": "standalone",
        "background_color": "#f7f5f0",
        "theme_color": "#b3261e",
        "icons": [{"src": static("icon.svg"), "sizes": "any", "type": "image/svg+xml"}],
    }
    return JsonResponse(data, content_type="application/manifest+json")


@never_cache
@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker, served from the site root so that its scope covers the sheets.

    Its cache name follows the static files' URLs, which carry content hashes in
    production: a release gets a fresh cache and the old one is dropped."""
    files = [static(name) for name in OFFLINE_FILES]
    version = hashlib.sha256(" ".join(files).encode()).hexdigest()[:12]
    # STATIC_URL, the prefix of every static file's URL. static("") gives it in development
    # only: with DEBUG=0 the storage looks each name up in its manifest, which has no "".
    context = {"files": files, "cache": f"score-sheet-{version}", "static_url": settings.STATIC_URL}
    return render(request, "scoring/sw.js", context, content_type="text/javascript")


def _file_name(match: Match) -> str:
    """Named by date, never by a link's code: the join code in a file name would let
    whoever gets the file edit the sheet."""
    return f"mexican-train-{match.created_at:%Y-%m-%d}"


def _players(match: Match) -> list[Player]:
    return [seat.player for seat in match.seats.select_related("player")]


def _seat_names(match: Match) -> list[tuple[int, str]]:
    return [(seat.position, seat.player.name) for seat in match.seats.select_related("player")]


def _join_page(request: HttpRequest, match: Match, form: JoinForm) -> HttpResponse:
    context = {"match": match, "form": form, "invite": _invite(request, match)}
    return render(request, "scoring/join.html", context)


def _invite(request: HttpRequest, match: Match) -> dict:
    """The join link and the TV link, with the join link as a QR code drawn on the server."""
    join = link_with_qr(request.build_absolute_uri(reverse("scoring:sheet", args=[match.code])))
    viewer_url = request.build_absolute_uri(reverse("scoring:viewer", args=[match.viewer_code]))
    return {"join_url": join["url"], "viewer_url": viewer_url, "qr": join["qr"]}

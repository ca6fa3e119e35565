"""The alerts' pages: a device's push subscription, a person's e-mail address, the
one-click unsubscribe link of a mail, the nudge, and the tables' service worker.

Each acts for the seat this browser holds at the table (the token in its session), and no
other: nobody sees or changes another person's address or devices.
"""

from __future__ import annotations

import json

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games import sessions
from games.models import Table, TableSeat

from . import mail, push, sending
from .models import PushSubscription


def _my_seat(request: HttpRequest, code: str) -> TableSeat | None:
    token = sessions.seat_token(request.session, code)
    if not token:
        return None
    return TableSeat.objects.select_related("table").filter(table__code=code, token=token).first()


def _answer(request: HttpRequest, code: str, text: str, status: int = 200) -> HttpResponse:
    """A plain sentence for htmx (shown beside the control, or as a refusal's toast), or
    back to the table with it as a message without JavaScript."""
    if request.htmx:
        return HttpResponse(text, status=status, content_type="text/plain")
    (messages.success if status < 400 else messages.error)(request, text)
    return redirect("games:table", code=code)


@require_POST
def push_subscribe(request: HttpRequest, code: str) -> JsonResponse:
    """This device's push subscription for the browser's seat (JSON, as the page's script
    sends it)."""
    seat = _my_seat(request, code)
    if seat is None:
        return JsonResponse({"message": "Only a person seated here gets alerts."}, status=403)
    try:
        data = json.loads(request.body or b"null")
    except ValueError:
        return JsonResponse({"message": "The subscription could not be read."}, status=400)
    try:
        push.subscribe(seat, data)
    except push.BadSubscription as refused:
        return JsonResponse({"message": str(refused)}, status=400)
    return JsonResponse({"message": "This device will tell you when it is your turn."}, status=201)


@require_POST
def push_unsubscribe(request: HttpRequest, code: str) -> JsonResponse:
    """This device stops its alerts for the seat."""
    seat = _my_seat(request, code)
    if seat is None:
        return JsonResponse({"message": "Only a person seated here gets alerts."}, status=403)
    try:
        endpoint = json.loads(request.body or b"null")["endpoint"]
    except (ValueError, TypeError, KeyError):
        return JsonResponse({"message": "Say which device to stop."}, status=400)
    PushSubscription.objects.filter(seat=seat, endpoint=endpoint).delete()
    return JsonResponse({"message": "This device no longer tells you of your turns."})


@require_POST
def mail_address(request: HttpRequest, code: str) -> HttpResponse:
    """The address this person's alerts at this table are mailed to (blank: none)."""
    get_object_or_404(Table, code=code)
    seat = _my_seat(request, code)
    if seat is None:
        return _answer(request, code, "Only a person seated here gets alerts.", 403)
    try:
        record = mail.set_address(seat, request.POST.get("email", ""))
    except mail.BadAddress as refused:
        return _answer(request, code, str(refused), 422)
    if record.email:
        text = f"Alerts of this table go to {record.email}, at most one mail an hour."
    else:
        text = "No mail: this table sends you none."
    return _answer(request, code, text)


@csrf_exempt  # the signed link is the authority: a mail client posts it with no cookie
@require_http_methods(["GET", "POST"])
def mail_stop(request: HttpRequest, code: str, token: str) -> HttpResponse:
    """A mail's unsubscribe link: a GET asks (a mail scanner that follows links stops
    nothing), a POST stops (RFC 8058's one-click, or the page's button)."""
    if request.method == "GET":
        return render(request, "games/mail_stop.html", {"code": code, "token": token})
    seat = mail.stop(code, token)
    if seat is None:
        text = "This link stops nothing: its mail is stopped already, or it is not of this table."
        return render(request, "games/mail_stop.html", {"done": text}, status=404)
    text = f"Done: {seat.name} gets no more mail from this table."
    return render(request, "games/mail_stop.html", {"done": text, "code": code})


@require_POST
def nudge(request: HttpRequest, code: str) -> HttpResponse:
    """Remind the person on turn at an own-pace table (once an hour a table)."""
    get_object_or_404(Table, code=code)
    token = sessions.seat_token(request.session, code) or ""
    try:
        nudged = sending.nudge(code=code, token=token, now=timezone.now())
    except sending.NotSent as refused:
        return _answer(request, code, str(refused), 422)
    return _answer(request, code, f"{nudged.name} has been nudged.")


@never_cache
@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """The tables' service worker, from /t/ so that its scope is the tables' pages alone
    (the score sheet's, /sw.js, keeps the site's root): it shows a push as a notification
    and opens the table when it is tapped. It keeps nothing and serves no request."""
    return render(request, "games/sw.js", content_type="text/javascript")

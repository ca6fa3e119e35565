"""Every route of the site, answered as a release answers it: DEBUG=0, the static files
collected and named from collectstatic's manifest (``production_mode``), and real objects
behind every code in an address: a table in its lobby, one at play, one finished with its
first round reviewed by the coach, one closed as abandoned, a score sheet with entries, a
crew with a night of play.

A page that works in development can fail here: ``{% static %}`` (or ``static()``) of a
name the manifest does not hold raises, and the page answers 500. So every route is fetched
at least once, as a visitor, as a player of the tables, sheet and crew, or as staff, and must
answer what it answers to that visitor (never 500); every static file those answers name
must be served. A route the sweep has no address for fails the sweep, so that a new page
cannot escape it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import timedelta
from urllib.parse import urlsplit

import pytest
from django.apps import apps
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.contrib.contenttypes.models import ContentType
from django.test import Client
from django.urls import URLResolver, get_resolver, resolve, reverse
from django.utils import timezone

from crews.models import Crew, Member
from games import coach
from games import services as tables
from games.engine import Rules
from games.models import Table
from scoring import services as sheets
from scoring.models import Match
from tests.crews.played import crew_of, crew_sheet
from tests.games.tables import started_table
from tests.review.conftest import play_online_match
from tests.scoring.conftest import SEED_PLAYERS, enter_seed_rounds

pytestmark = pytest.mark.django_db

VISITOR, PLAYER, STAFF = "a visitor", "a player", "staff"
# Any address under /static/ that an answer names: pages' scripts, styles and icons, the
# service worker's list of files to keep, the manifest's icon.
STATIC_LINK = re.compile(r"/static/[^\"'\s)<>?#]+")


@dataclass(frozen=True)
class Visit:
    who: str
    url: str
    status: int | frozenset[int]  # what this visitor must get; a set where any will do

    def expects(self, status: int) -> bool:
        allowed = self.status if isinstance(self.status, frozenset) else {self.status}
        return status in allowed


def every_route(patterns: list | None = None, prefix: str = "") -> set[str]:
    """Every route of the site, spelled as ``ResolverMatch.route`` spells the one an address
    resolves to: an include's pattern joined to each of its own, an included regex's ``^``
    dropped."""
    routes = set()
    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        own = str(pattern.pattern)
        route = prefix + own.removeprefix("^") if prefix else own
        if isinstance(pattern, URLResolver):
            routes |= every_route(pattern.url_patterns, route)
        else:
            routes.add(route)
    return routes


@dataclass(frozen=True)
class World:
    lobby: Table
    at_play: Table
    finished: Table
    abandoned: Table
    sheet: Match
    crew: Crew
    crew_sheet: Match
    founder: Member


@pytest.fixture
def world(settings) -> World:
    """The objects every address names, made through the services as the site makes them."""
    settings.COACH_PLAYOUTS = 4  # the coach's review of a round in a second
    settings.COACH_MARK = -1000  # every decision marked: the review page has them all to show
    settings.COACH_IN_PROCESS = True
    lobby, _ = tables.create_table(rules=Rules(), seat_count=4, host_name="Ana")
    tables.join(lobby.code, name="Ben")
    at_play, _ = started_table()
    finished = Table.objects.get(match=play_online_match(Rules(highest_double=6, rounds=1)))
    assert coach.work() == 1
    abandoned, _ = started_table()
    Table.objects.filter(pk=abandoned.pk).update(moved_at=timezone.now() - timedelta(days=2))
    assert tables.close_abandoned(now=timezone.now()) == [abandoned.code]
    sheet = sheets.create_match(SEED_PLAYERS, Rules(rounds=4), by="Alice")
    enter_seed_rounds(sheet)
    crew, members = crew_of("Ana", "Ben")
    night = crew_sheet(crew, ["Ana", "Ben"], [[None, 12], [9, None]])
    Group.objects.create(name="Referees")
    return World(lobby, at_play, finished, abandoned, sheet, crew, night, members["Ana"])


@pytest.fixture
def clients(production_mode, world) -> dict[str, Client]:
    """A visitor; a player who hosts the four tables (through their seats' rejoin links),
    sits at the sheet and founded the crew (their phone's device token); a superuser. Each
    client sets up its middleware at its first request, so after ``production_mode``."""
    player = Client(raise_request_exception=False)
    session = player.session
    session["device"] = world.founder.device
    session.save()
    joined = player.post(reverse("scoring:join", args=[world.sheet.code]), {"seat": "0"})
    assert joined.status_code == 302
    for table in (world.lobby, world.at_play, world.finished, world.abandoned):
        host = table.seats.get(position=0)
        assert player.get(reverse("games:rejoin", args=[table.code, host.token])).status_code == 302
    staff = Client(raise_request_exception=False)
    staff.force_login(get_user_model().objects.create_superuser("staff", password="x-1234-y"))
    return {VISITOR: Client(raise_request_exception=False), PLAYER: player, STAFF: staff}


def both(url: str, visitor: int, player: int | None = None) -> list[Visit]:
    """The same address for a visitor and for the player (who gets ``visitor``'s answer
    unless told)."""
    return [Visit(VISITOR, url, visitor), Visit(PLAYER, url, visitor if player is None else player)]


def site_visits(w: World) -> list[Visit]:
    """The pages, exports and files of the site. A route that takes only POST answers a GET
    with 405; a player's page answers a visitor with 404 (or 403 where it says why)."""
    t, done, play = f"/t/{w.lobby.code}", f"/t/{w.finished.code}", f"/t/{w.at_play.code}"
    c, s, v = f"/c/{w.crew.code}", f"/s/{w.sheet.code}", f"/w/{w.sheet.viewer_code}"
    host = w.finished.seats.get(position=0).token
    return [
        *both("/", 200),
        *both("/healthz", 200),
        *both("/sw.js", 200),
        *both("/tables/", 200),
        *both("/t/new/", 200),
        *both("/t/new/rules/?preset=standard", 200),
        *both(f"{t}/", 200),
        *both(f"{play}/", 200),
        *both(f"{done}/", 200),
        *both(f"/t/{w.abandoned.code}/", 200),
        *both(f"{done}/deal/", 200),
        *both(f"{play}/deal/", 200),
        *both(f"{done}/match/1/", 200),
        *both(f"{done}/match/1/?step=2&frame=1", 200),
        *both(f"{play}/match/1/", 404),
        *both(f"{done}/match.jsonl", 200),
        *both(f"{play}/match.jsonl", 404),
        *(visit for action in ("join", "bots", "remove", "start", "stand-in", "again")
          for visit in both(f"{t}/{action}/", 405)),
        *both("/t/sw.js", 200),
        *(visit for action in ("push", "push/stop", "mail", "nudge")
          for visit in both(f"{play}/{action}/", 405)),
        *both(f"{play}/mail/stop/not-a-signed-link/", 200),
        *both(f"{play}/hint/", 403, 200),
        *both(f"{t}/seats/1/link/", 403, 200),
        Visit(VISITOR, f"{done}/rejoin/not-a-seat-token/", 404),
        Visit(PLAYER, f"{done}/rejoin/{host}/", 302),
        *both(f"{done}/coach/1/", 404, 200),
        *both(f"{done}/review/1/", 404, 200),
        *both(f"{c}/crew.json", 404, 200),
        *both("/c/new/", 200),
        *both(f"{c}/", 200),
        *both(f"{c}/live/", 404, 200),
        *(visit for action in ("join", "leave", "season", "members")
          for visit in both(f"{c}/{action}/", 405)),
        *both(f"{c}/claims/{w.founder.pk}/", 405),
        *both(f"{c}/sheet/", 404, 200),
        *both(f"{c}/sheets/{w.crew_sheet.code}/", 404, 302),
        *both(f"{c}/file/", 404, 200),
        Visit(STAFF, f"{c}/file/", 200),
        *both(f"{c}/crew.csv", 404, 200),
        *both("/s/new/", 200),
        *both("/s/new/rules/?preset=standard&highest_double=9", 200),
        *both(f"{s}/", 200),
        *both(f"{s}/join/", 200),
        *both(f"{s}/history/?round=1&seat=0", 200),
        *both(f"{s}/manifest.webmanifest", 200),
        *both(f"{v}/", 200),
        *both(f"{v}/sheet.csv", 200),
        *both(f"{v}/sheet.json", 200),
    ]  # fmt: skip


def admin_visits(w: World) -> list[Visit]:
    """The admin's pages for staff: its own, each registered model's list, add form, and
    the change page of every object the world holds (history, delete and the bare object
    address for the first), and the review's pages of the finished online match. An add or
    delete page answers 403 where the model's admin allows neither."""
    match = w.finished.match
    visits = [
        Visit(VISITOR, "/admin/", 302),
        *(Visit(STAFF, url, 200) for url in (
            "/admin/", "/admin/password_change/", "/admin/password_change/done/",
            "/admin/jsi18n/", reverse("admin:scoring_match_import"),
            reverse("admin:scoring_player_statistics"),
            reverse("admin:scoring_match_replay", args=[match.pk, 1]),
            reverse("admin:scoring_match_export", args=[match.pk]),
        )),
        Visit(STAFF, "/admin/login/", 302),  # signed in already: on to the index
        Visit(STAFF, "/admin/logout/", 405),  # a POST only
        Visit(STAFF, "/admin/autocomplete/", 403),  # no field named: no model admin uses it
        Visit(STAFF, "/admin/no-such-page/", 404),
    ]  # fmt: skip
    staff = get_user_model().objects.get(username="staff")
    visits.append(Visit(STAFF, reverse("admin:auth_user_password_change", args=[staff.pk]), 200))
    # "View on site": no model here has a get_absolute_url, so none offers it.
    shortcut = ContentType.objects.get_for_model(Match).pk
    visits.append(Visit(STAFF, reverse("admin:view_on_site", args=[shortcut, match.pk]), 404))
    for model in apps.get_models():
        if not admin.site.is_registered(model):
            continue
        meta = model._meta
        name = f"admin:{meta.app_label}_{meta.model_name}"
        objects = list(model.objects.order_by("pk"))
        assert objects, f"the world holds no {meta.verbose_name}: its admin pages show nothing"
        first = objects[0].pk
        visits += [
            Visit(STAFF, reverse("admin:app_list", args=[meta.app_label]), 200),
            Visit(STAFF, reverse(f"{name}_changelist"), 200),
            Visit(STAFF, reverse(f"{name}_add"), frozenset({200, 403})),
            *(Visit(STAFF, reverse(f"{name}_change", args=[o.pk]), 200) for o in objects),
            Visit(STAFF, reverse(f"{name}_history", args=[first]), 200),
            Visit(STAFF, reverse(f"{name}_delete", args=[first]), frozenset({200, 403})),
            Visit(STAFF, f"{reverse(f'{name}_changelist')}{first}/", 302),
        ]
    return visits


def test_every_route_answers_as_the_release_serves_it(world, clients):
    visits = site_visits(world) + admin_visits(world)
    routes = every_route()
    swept = {resolve(urlsplit(visit.url).path).route for visit in visits}
    assert swept <= routes, f"the walk of the routes missed {sorted(swept - routes)}"
    assert routes - swept == set(), "routes the sweep has no address for: add them above"

    wrong, named = [], set()
    for visit in visits:
        response = clients[visit.who].get(visit.url)
        if not visit.expects(response.status_code):
            wrong.append(f"{visit.who} GET {visit.url}: {response.status_code}")
        if not response.streaming:
            named |= set(STATIC_LINK.findall(response.content.decode(errors="replace")))
    # The captured log says why a page answered 500.
    assert not wrong, "answers other than expected:\n" + "\n".join(wrong)

    unserved = []
    for url in sorted(named):
        response = clients[VISITOR].get(url)
        if response.status_code != 200:
            unserved.append(f"{url}: {response.status_code}")
        response.close()
    assert named, "no answer named a static file: the sweep read nothing"
    assert not unserved, "static files named but not served:\n" + "\n".join(unserved)

"""Ratings: one Plackett-Luce step (openskill) per finished match of a season.

Matches are taken in the order they were started, so the ratings are a function of the
season's match list alone: ``recompute`` from scratch is what is stored. People only: bots
are left out of the ranking (a match with fewer than two people moves nobody). Places come
from the match's result: a lower total first, and among equal totals the winner the tie
break named; players still level share a place.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from openskill.models import PlackettLuce, PlackettLuceRating

from scoring.models import Match

from .models import CrewMatch, Rating, Season
from .results import Result, results

MODEL = PlackettLuce()


def ratings(season_results: Iterable[Result]) -> dict[int, tuple[float, float, int]]:
    """Per person: ``(mu, sigma, matches rated)`` after every finished match, in order."""
    current: dict[int, PlackettLuceRating] = {}
    counts: dict[int, int] = {}
    for result in season_results:
        people = result.people()
        if not result.finished or len(people) < 2:
            continue
        places = sorted({(p.total, -p.won) for p in people})
        teams = [[current.get(p.person) or MODEL.rating()] for p in people]
        ranks = [places.index((p.total, -p.won)) + 1 for p in people]
        for person, (rated,) in zip(people, MODEL.rate(teams, ranks=ranks), strict=True):
            current[person.person] = rated
            counts[person.person] = counts.get(person.person, 0) + 1
    return {p: (r.mu, r.sigma, counts[p]) for p, r in current.items()}


def before_latest_night(season_results: Iterable[Result]) -> dict[int, tuple[float, float, int]]:
    """:func:`ratings` as they stood before the season's latest game night (the last date
    a finished match was started on): what the page compares today's places with."""
    finished = [r for r in season_results if r.finished]
    if not finished:
        return {}
    latest = max(r.night for r in finished)
    return ratings(r for r in finished if r.night < latest)


def season_matches(season: Season) -> list[Match]:
    filed = CrewMatch.objects.filter(season=season).select_related("match")
    return [f.match for f in filed]


def recompute(season: Season) -> None:
    """Store the season's ratings as :func:`ratings` works them out from its matches.

    The season's row is locked first, so two matches committed at once recompute one after
    the other, the second reading what the first committed: otherwise the second deletes
    only the rows it saw and writes its own beside the first's (a unique-key error)."""
    with transaction.atomic():
        Season.objects.select_for_update().filter(pk=season.pk).first()
        season_results = results(season_matches(season))
        worked_out = ratings(season_results)
        before = before_latest_night(season_results)
        Rating.objects.filter(season=season).delete()
        Rating.objects.bulk_create(
            Rating(
                season=season,
                player_id=person,
                mu=mu,
                sigma=sigma,
                matches=n,
                mu_before=before[person][0] if person in before else None,
                sigma_before=before[person][1] if person in before else None,
            )
            for person, (mu, sigma, n) in worked_out.items()
        )

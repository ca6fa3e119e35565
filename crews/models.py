"""Crews: a named group of friends, its members (people: scoring's players), its seasons,
the matches filed to it and the ratings those matches give.

A person is one ``scoring.Player`` row, however many devices and matches they use; a
``scoring.Seat`` links a match to a person. A crew never owns a match: ``CrewMatch`` files
one to a crew and a season, at most once. Ratings are stored so the crew page reads them
without replaying a season, and are always what ``crews.ratings.recompute`` gives from the
season's finished matches.
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q

from scoring.models import NAME_LENGTH, Match, Player, new_code

CREW_NAME_LENGTH = 60


class Crew(models.Model):
    """Friends who play together; whoever has the join link can join."""

    name = models.CharField(max_length=CREW_NAME_LENGTH)
    code = models.CharField(
        "join code",
        max_length=16,
        unique=True,
        default=new_code,
        help_text="Secret of the join link.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "pk"]

    def __str__(self) -> str:
        return self.name

    def current_season(self) -> Season:
        """The newest season: a crew is made with its first (``crews.services``)."""
        return self.seasons.order_by("-number")[0]


class Season(models.Model):
    """A stretch of the crew's history with standings and ratings of its own."""

    crew = models.ForeignKey(Crew, on_delete=models.CASCADE, related_name="seasons")
    number = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=CREW_NAME_LENGTH, blank=True)
    started_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["crew", "number"]
        constraints = [
            models.UniqueConstraint(fields=["crew", "number"], name="season_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="season_number_positive"),
        ]

    def __str__(self) -> str:
        return self.name or f"Season {self.number}"


class Member(models.Model):
    """A person in a crew. A member who leaves keeps their past results under their name.

    ``device`` is the device that says it is this member (a token in its session); another
    device asking to be them waits in ``claimed_by`` until a member present approves."""

    crew = models.ForeignKey(Crew, on_delete=models.CASCADE, related_name="members")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="memberships")
    name_key = models.CharField(
        max_length=NAME_LENGTH * 4, help_text="The name as compared: lookalikes are one name."
    )
    colour = models.CharField(max_length=7, default="#1f77b4", help_text="#rrggbb")
    emoji = models.CharField(max_length=8, blank=True)
    joined_at = models.DateTimeField(auto_now_add=True)
    left_at = models.DateTimeField(null=True, blank=True)
    device = models.CharField(max_length=64, blank=True)
    claimed_by = models.CharField(max_length=64, blank=True)
    claimed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["crew", "player__name", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["crew", "player"], name="member_once_per_crew"),
            models.UniqueConstraint(fields=["crew", "name_key"], name="member_name_unique"),
            models.CheckConstraint(
                condition=Q(colour__regex=r"^#[0-9a-f]{6}$"), name="member_colour_hex"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player.name} ({self.crew})"

    @property
    def name(self) -> str:
        return self.player.name

    @property
    def active(self) -> bool:
        return self.left_at is None


class CrewMatch(models.Model):
    """A match counted for a crew, in one of its seasons. A match is filed once."""

    crew = models.ForeignKey(Crew, on_delete=models.CASCADE, related_name="filed")
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="filed")
    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="crew_filing")
    filed_by = models.CharField(max_length=NAME_LENGTH, blank=True)
    filed_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["crew", "-filed_at", "-pk"]
        verbose_name = "crew match"
        verbose_name_plural = "crew matches"

    def __str__(self) -> str:
        return f"{self.match} for {self.crew}"


class Rating(models.Model):
    """A person's rating in a season: ``mu`` and ``sigma`` of the Plackett-Luce model."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="ratings")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    mu = models.FloatField()
    sigma = models.FloatField()
    matches = models.PositiveIntegerField(default=0)
    # As they stood before the season's latest game night (null: not rated before it), so
    # the page says how that night moved each person's place without replaying the season.
    mu_before = models.FloatField(null=True, blank=True)
    sigma_before = models.FloatField(null=True, blank=True)

    class Meta:
        ordering = ["season", "-mu", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["season", "player"], name="rating_once_per_season"),
        ]

    def __str__(self) -> str:
        return f"{self.player.name}: {self.ordinal:.1f}"

    @property
    def ordinal(self) -> float:
        """What places are ranked by: a cautious estimate, mu less three sigma."""
        return cautious(self.mu, self.sigma)

    @property
    def ordinal_before(self) -> float | None:
        """The same before the season's latest game night; None if not rated before it."""
        if self.mu_before is None or self.sigma_before is None:
            return None
        return cautious(self.mu_before, self.sigma_before)


def cautious(mu: float, sigma: float) -> float:
    """mu less three sigma: low for someone the model knows little about yet."""
    return mu - 3 * sigma

"""The crew's forms: making a crew, joining it, adding someone without a phone, a new season,
filing a match afterwards."""

from __future__ import annotations

from django import forms

from common.names import key
from scoring.models import NAME_LENGTH, Match

from .models import CREW_NAME_LENGTH, Member


class CrewForm(forms.Form):
    name = forms.CharField(label="The crew's name", max_length=CREW_NAME_LENGTH)
    founder = forms.CharField(label="Your name", max_length=NAME_LENGTH)


class JoinForm(forms.Form):
    """A new member: a name, and how the crew page draws them."""

    name = forms.CharField(label="Your name", max_length=NAME_LENGTH)
    colour = forms.CharField(
        label="Your colour", required=False, widget=forms.TextInput(attrs={"type": "color"})
    )
    emoji = forms.CharField(label="An emoji (optional)", required=False, max_length=8)
    offered = forms.CharField(required=False, widget=forms.HiddenInput)  # the colour drawn in

    def chosen_colour(self) -> str:
        """The colour picked, or '' for the one the page offered, left as it was: the crew
        then gives the first free colour as the member is saved, so that friends joining
        together from the same offer are not drawn alike."""
        colour = self.cleaned_data["colour"]
        return "" if colour == self.cleaned_data["offered"] else colour


class AddMemberForm(forms.Form):
    """Someone without a phone, added by a member: a name is all it takes. Prefixed, as
    the crew page's season form has a name field too."""

    prefix = "add"
    name = forms.CharField(label="Their name", max_length=NAME_LENGTH)


class SeasonForm(forms.Form):
    name = forms.CharField(label="Name it (optional)", required=False, max_length=CREW_NAME_LENGTH)


class FindMatchForm(forms.Form):
    """A match played without the crew, found by its link: the score sheet's join link, or
    the online table's link. Knowing the link is what lets a device file it."""

    link = forms.CharField(label="The match's link or code", max_length=300)

    def clean_link(self) -> Match:
        text = self.cleaned_data["link"].strip().rstrip("/")
        code = text.rsplit("/", 1)[-1]
        match = (
            Match.objects.filter(code=code).first()
            or Match.objects.filter(table__code=code).first()
        )
        if match is None:
            raise forms.ValidationError(
                "No match has that link: paste the score sheet's link or the table's."
            )
        return match


class SeatsForm(forms.Form):
    """Which member sat in each seat of the match being filed (blank: a guest)."""

    def __init__(self, *args, seats, members: list[Member], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        choices = [("", "A guest (not in the crew)")] + [(m.pk, m.name) for m in members]
        for seat in seats:
            if seat.bot:
                continue
            guess = next((m.pk for m in members if m.name_key == key(seat.player.name)), "")
            self.fields[f"seat_{seat.position}"] = forms.TypedChoiceField(
                label=f"Seat {seat.position + 1}: {seat.player.name}",
                choices=choices,
                coerce=int,
                empty_value=None,
                required=False,
                initial=guess,
            )

    def members(self) -> dict[int, int]:
        return {
            int(name.removeprefix("seat_")): member
            for name, member in self.cleaned_data.items()
            if member is not None
        }

"""Tournaments (events). The formats, entries and draws come with the tournaments issue; matches
can already belong to an event and be listed by it."""

from django.conf import settings
from django.db import models


class Tournament(models.Model):
    name = models.CharField(max_length=200)
    organiser = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="tournaments")
    club = models.ForeignKey("clubs.Club", null=True, blank=True, on_delete=models.SET_NULL, related_name="tournaments")
    starts_on = models.DateField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-starts_on", "name"]

    def __str__(self) -> str:
        return self.name

"""Serializers shared by the account endpoints."""

from __future__ import annotations

from rest_framework import serializers


class DetailSerializer(serializers.Serializer):
    detail = serializers.CharField(help_text="what happened, as a sentence")

    class Meta:
        ref_name = "AccountDetail"

"""The player picker: one form field for every page that asks for a player, instead of a drop-down
of every player.

It renders a text input. With ``static/picker.js`` the input becomes a combobox (WAI-ARIA 1.2: a
listbox of suggestions fetched from ``GET /api/v1/players/?q=``, keyboard up, down, enter and
escape, ``aria-activedescendant``) and a chosen suggestion's player id is sent beside the name
(``<name>__id``). Without the script the typed name is sent alone and the server resolves it
(:func:`matches.selectors.directory.player_resolve`): one player, or an error naming how many fit
and whom. A player id sent as the value (as the API's clients and the pages' tests send it) is
taken as before. Either way the player must be in the field's ``queryset`` (a club's members, an
event's candidates), exactly as the drop-down allowed.
"""

from __future__ import annotations

from itertools import zip_longest
from urllib.parse import urlencode

from django import forms
from django.forms.utils import flatatt
from django.templatetags.static import static
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _

from core.text import join_list, list_separator, search_key

from .models import Player
from .selectors.directory import player_label, player_labels, player_resolve

#: The longest name typed that is looked for (a player's name is at most 120 characters).
MAX_TYPED = 200

#: The suffix of the hidden input carrying a chosen suggestion's player id.
ID_SUFFIX = "__id"


def _is_id(text: str) -> bool:
    return text.isascii() and text.isdigit() and len(text) <= 10


class PlayerPickerWidget(forms.Widget):
    """A text input (the name) and a hidden input (the chosen player's id, kept only while the name
    is his), marked up for ``static/picker.js``; ``params`` narrow the suggestions (``{"club": 3}``:
    the players of club 3). Its value is ``(text, chosen id)``."""

    def __init__(self, attrs=None, params: dict | None = None):
        super().__init__(attrs)
        self.params = dict(params or {})

    def value_from_datadict(self, data, files, name):
        return (data.get(name, "") or "", data.get(name + ID_SUFFIX, "") or "")

    def value_omitted_from_data(self, data, files, name):
        return name not in data and name + ID_SUFFIX not in data

    def _source(self) -> str:
        url = reverse("api-player-list")
        return f"{url}?{urlencode(self.params)}" if self.params else url

    def _pair(self, name: str, text: str, chosen: str, attrs: dict) -> str:
        return format_html(
            '<span class="player-picker" data-player-picker data-source="{}" data-empty="{}" data-several="{}" '
            'data-suggestions="{}"><input type="text" name="{}" value="{}" autocomplete="off" spellcheck="false"{}>'
            '<input type="hidden" name="{}" value="{}" data-picker-id></span>',
            self._source(), _("No player's name has these letters."), _("%(count)s players: choose one with the arrow keys."),
            _("suggestions"),
            name, text, flatatt(attrs), name + ID_SUFFIX, chosen)

    def _script(self) -> str:
        return format_html('<script src="{}" defer></script>', static("picker.js"))

    def render(self, name, value, attrs=None, renderer=None):
        text, chosen = value if isinstance(value, tuple) else ("", "")
        return format_html("{}{}", self._pair(name, text, chosen, self.build_attrs(self.attrs, attrs)), self._script())


class PlayerPickerMultipleWidget(PlayerPickerWidget):
    """Several pickers under one name, one player each (the chosen ones and ``spare`` empty ones);
    its value is a list of ``(text, chosen id)``."""

    def __init__(self, attrs=None, params: dict | None = None, spare: int = 2):
        super().__init__(attrs, params)
        self.spare = spare

    def value_from_datadict(self, data, files, name):
        texts = data.getlist(name) if hasattr(data, "getlist") else list(data.get(name) or [])
        ids = data.getlist(name + ID_SUFFIX) if hasattr(data, "getlist") else list(data.get(name + ID_SUFFIX) or [])
        if isinstance(texts, (str, int)):
            texts = [texts]
        return [(str(text or ""), str(chosen or "")) for text, chosen in zip_longest(texts, ids, fillvalue="")]

    def render(self, name, value, attrs=None, renderer=None):
        pairs = [pair for pair in (value or []) if isinstance(pair, tuple) and (pair[0] or pair[1])]
        pairs += [("", "")] * self.spare
        attrs = self.build_attrs(self.attrs, attrs)
        attrs.pop("required", None)  # the spare pickers stay empty: the server says what is missing
        base_id = attrs.pop("id", None)
        items = []
        for index, (text, chosen) in enumerate(pairs):
            item_attrs = dict(attrs, id=f"{base_id}_{index}" if index else base_id) if base_id else dict(attrs)
            if index:
                item_attrs["aria-label"] = _("Player %(number)d") % {"number": index + 1}
            items.append((self._pair(name, text, chosen, item_attrs),))
        return format_html('<span class="player-pickers">{}</span>{}',
                           format_html_join("", "{}", items), self._script())


class PlayerChoiceField(forms.Field):
    """One player of ``queryset``, chosen in a :class:`PlayerPickerWidget`, typed by name, or given
    by id; cleaned to the ``Player``. Refusals (error codes): ``invalid_choice`` (an id not in
    ``queryset``), ``no_match`` (a name no player of ``queryset`` has), ``several`` (a name several
    have, named in the message), ``namesakes`` (a whole name several have: each listed with his
    country and club, and his place among those alike, as he may be typed to be told apart:
    ``matches.selectors.directory.player_labels``)."""

    widget = PlayerPickerWidget
    default_error_messages = {
        "invalid_choice": _("There is no such player here: choose one of the suggestions."),
        "too_long": _("A name is at most %(max)d characters."),
        "null": _("A name cannot hold the NUL character."),
        "no_match": _("No player here is called “%(name)s”: type part of the name and choose one of the suggestions."),
        "several": _("%(count)d players here are called “%(name)s” (%(names)s): type more of the name, or choose one "
                     "of the suggestions."),
        "namesakes": _("Several players here have the name “%(name)s”: %(names)s. Type the one you mean as he is "
                       "listed (“%(example)s”), or choose one of the suggestions."),
    }

    def __init__(self, queryset=None, *, params: dict | None = None, **kwargs):
        kwargs.setdefault("widget", self.widget(params=params))
        super().__init__(**kwargs)
        self.queryset = queryset if queryset is not None else Player.objects.all()

    def __deepcopy__(self, memo):
        result = super().__deepcopy__(memo)
        result.queryset = self.queryset.all()
        return result

    # --- what the widget shows ------------------------------------------------------------------

    def prepare_value(self, value):
        """``(text, id)`` for the widget: a player (the form's initial, or its cleaned value) as his
        name and id; a bare id as the name of the player of ``queryset`` who has it."""
        if isinstance(value, tuple):
            text, chosen = value
            if _is_id(text) and not chosen:
                player = self.queryset.filter(pk=int(text)).first()
                return (player.display_name, str(player.pk)) if player else (text, "")
            return value
        if isinstance(value, Player):
            return (value.display_name, str(value.pk))
        if isinstance(value, int) or (isinstance(value, str) and _is_id(value)):
            return self.prepare_value((str(value), ""))
        return ("", "")

    def bound_data(self, data, initial):
        return data

    # --- what the server takes ------------------------------------------------------------------

    def to_python(self, value):
        if isinstance(value, Player):
            return value
        if isinstance(value, int):
            value = (str(value), "")
        text, chosen = value if isinstance(value, tuple) else (str(value or ""), "")
        text = text.strip()
        if "\x00" in text or "\x00" in chosen:
            raise forms.ValidationError(self.error_messages["null"], code="null_characters_not_allowed")
        if len(text) > MAX_TYPED:
            raise forms.ValidationError(self.error_messages["too_long"], code="too_long", params={"max": MAX_TYPED})
        if chosen and _is_id(chosen):
            player = self.queryset.filter(pk=int(chosen)).first()
            # The chosen id counts while the name beside it is still his (a name typed over a
            # choice, without the script clearing the id, is read as typed).
            if player is not None and (not text or search_key(text) == player.search_name):
                return player
        if not text:
            return None
        if _is_id(text):
            player = self.queryset.filter(pk=int(text)).first()
            if player is None:
                raise forms.ValidationError(self.error_messages["invalid_choice"], code="invalid_choice")
            return player
        found = player_resolve(self.queryset, text)
        if found.player is not None:
            return found.player
        if not found.count:
            raise forms.ValidationError(self.error_messages["no_match"], code="no_match", params={"name": text})
        labels = (player_labels(found.candidates) if found.namesakes
                  else [player_label(player) for player in found.candidates])
        names = join_list(labels) + (list_separator() + "…" if found.count > len(found.candidates) else "")
        if found.namesakes:
            raise forms.ValidationError(self.error_messages["namesakes"], code="namesakes", params={
                "name": text, "count": found.count, "names": names, "example": labels[-1]})
        raise forms.ValidationError(self.error_messages["several"], code="several",
                                    params={"name": text, "count": found.count, "names": names})


class PlayerMultipleChoiceField(PlayerChoiceField):
    """Several players of ``queryset`` (:class:`PlayerPickerMultipleWidget`: one picker each),
    cleaned to a list of ``Player`` without repeats, in the order given. Each refusal names the
    picker's number."""

    widget = PlayerPickerMultipleWidget
    default_error_messages = {"repeated": _("%(name)s is named twice.")}

    def __init__(self, queryset=None, *, params: dict | None = None, spare: int = 2, **kwargs):
        kwargs.setdefault("widget", PlayerPickerMultipleWidget(params=params, spare=spare))
        super().__init__(queryset, params=params, **kwargs)

    def prepare_value(self, value):
        if value is None:
            return []
        if isinstance(value, (str, int, tuple, Player)):
            value = [value]
        return [super(PlayerMultipleChoiceField, self).prepare_value(item) for item in value]

    def to_python(self, value):
        if value is None or value == "":
            return []
        if not isinstance(value, (list, tuple)) or (isinstance(value, tuple) and len(value) == 2
                                                     and all(isinstance(v, str) for v in value)):
            value = [value]
        players, errors = [], []
        for number, item in enumerate(value, start=1):
            try:
                player = super().to_python(item)
            except forms.ValidationError as error:
                errors.extend(forms.ValidationError(_("Player %(number)d: %(error)s") % {"number": number, "error": message})
                              for message in error.messages)
                continue
            if player is None:
                continue
            if any(p.pk == player.pk for p in players):
                errors.append(forms.ValidationError(self.error_messages["repeated"], code="repeated",
                                                    params={"name": player.display_name}))
                continue
            players.append(player)
        if errors:
            raise forms.ValidationError(errors)
        return players

    def validate(self, value):
        if self.required and not value:
            raise forms.ValidationError(self.error_messages["required"], code="required")

    def has_changed(self, initial, data):
        return True

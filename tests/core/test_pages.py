"""core.pages: a refusal becomes a sentence on the field it concerns, or above the form."""

from __future__ import annotations

from django import forms

from core.errors import Conflict, DomainError, NotAllowed
from core.pages import error_status, error_text, form_errors_text, form_refuse
from engine.errors import GameLogError


class _Form(forms.Form):
    name = forms.CharField(required=False)
    score0 = forms.IntegerField(required=False)


def _refused(error, **kwargs) -> dict:
    form = _Form({})
    assert form.is_valid()
    form_refuse(form, error, **kwargs)
    return {key: list(value) for key, value in form.errors.items()}


def test_a_refusal_lands_on_the_field_it_names():
    assert _refused(DomainError("that name is taken", field="name")) == {"name": ["that name is taken"]}


def test_a_field_the_form_lacks_puts_the_refusal_above_the_form_without_the_field_name():
    assert _refused(DomainError("no such thing", field="params.points")) == {"__all__": ["no such thing"]}
    assert _refused(DomainError("no field")) == {"__all__": ["no field"]}


def test_aliases_and_an_explicit_field_choose_where_it_goes():
    error = DomainError("a corrected score has both scores", field="params.score")
    assert _refused(error, aliases={"params.score": "score0"}) == {"score0": ["a corrected score has both scores"]}
    assert _refused(DomainError("unknown user"), field="name") == {"name": ["unknown user"]}
    assert _refused(DomainError("x", field="name"), text=lambda e: f"Alice: {e.message}") == {"name": ["Alice: x"]}


def test_a_refusal_led_by_its_fields_label_shows_beside_the_field_without_it_and_above_the_form_with_it():
    error = DomainError("Last day: the season ends before it starts", sentence="the season ends before it starts",
                        field="name")
    assert _refused(error) == {"name": ["the season ends before it starts"]}
    assert _refused(DomainError(error.message, sentence=error.sentence, field="ends_on")) == {
        "__all__": ["Last day: the season ends before it starts"]}
    assert error_text(error) == "Last day: the season ends before it starts"


def test_the_text_says_where_in_a_match_file_and_the_status_follows_the_kind():
    error = GameLogError("the play 24/18 is not legal", game=2, move=7)
    assert error_text(error) == "game 2, move 7: the play 24/18 is not legal"
    assert error_text(DomainError("bad", file="m.mat", line=3)) == "m.mat, line 3: bad"
    assert [error_status(e) for e in (DomainError("a"), Conflict("b"), NotAllowed("c"), error)] == [400, 409, 403, 400]


def test_a_small_forms_errors_read_as_one_line_naming_fields_by_their_label():
    class Pick(forms.Form):
        player_id = forms.IntegerField(label="Player")

        def clean(self):
            raise forms.ValidationError("choose someone at the table")

    form = Pick({"player_id": "x"})
    assert not form.is_valid()
    assert form_errors_text(form) == "Player: Enter a whole number.; choose someone at the table"

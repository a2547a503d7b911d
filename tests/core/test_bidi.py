"""The ``ltr`` filter isolates a left-to-right run (a score, a Position ID, a play) in any page."""

from django.template import Context, Template
from django.utils import translation
from django.utils.safestring import mark_safe


def test_a_value_is_escaped_and_isolated_left_to_right():
    rendered = Template("{% load bidi %}{{ v|ltr }}").render(Context({"v": "5-3 <b>"}))
    assert rendered == '<bdi dir="ltr">5-3 &lt;b&gt;</bdi>'


def render(source: str, **values) -> str:
    return Template("{% load bidi %}" + source).render(Context(values))


def test_a_difference_carries_a_true_minus_or_a_plus_and_reads_left_to_right():
    assert render("{{ v|signed }}", v=-2) == '<bdi dir="ltr">\u22122</bdi>'
    assert render("{{ v|signed }}", v=3) == '<bdi dir="ltr">+3</bdi>'
    assert render("{{ v|signed }}", v=0) == '<bdi dir="ltr">0</bdi>'
    assert render("{{ v|signed:2 }}", v=-1.5) == '<bdi dir="ltr">\u22121.50</bdi>'
    assert render("{{ v|signed:2 }}", v=0.001) == '<bdi dir="ltr">0.00</bdi>'
    assert render("{{ v|signed }}", v="n/a") == '<bdi dir="ltr">n/a</bdi>'
    assert render("{{ v|signed }}", v=None) == ""


def test_a_shared_place_is_written_with_its_equals_sign_first_and_reads_left_to_right():
    assert render("{{ p|rank:s }}", p=4, s=True) == '<bdi dir="ltr">=4</bdi>'
    assert render("{{ p|rank:s }}", p=4, s=False) == '<bdi dir="ltr">4</bdi>'


def test_a_name_is_isolated_in_a_right_to_left_page_and_left_alone_in_a_latin_one():
    with translation.override("ar"):
        assert render("{{ n|isolate }}", n="Olga <b>") == "\u2068Olga &lt;b&gt;\u2069"
    with translation.override("en"):
        assert render("{{ n|isolate }}", n="Olga") == "Olga"
        assert render("{{ n|isolate }}", n="\u0639\u0644\u064a") == "\u2068\u0639\u0644\u064a\u2069"


def test_a_name_already_safe_is_not_escaped_twice():
    with translation.override("ar"):
        assert render("{{ n|isolate }}", n=mark_safe("Ana &amp; Bob")) == "\u2068Ana &amp; Bob\u2069"

"""The ``ltr`` filter isolates a left-to-right run (a score, a Position ID, a play) in any page."""

from django.template import Context, Template


def test_a_value_is_escaped_and_isolated_left_to_right():
    rendered = Template("{% load bidi %}{{ v|ltr }}").render(Context({"v": "5-3 <b>"}))
    assert rendered == '<bdi dir="ltr">5-3 &lt;b&gt;</bdi>'

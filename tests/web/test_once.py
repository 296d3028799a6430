"""once_each, the templates' helper that renders a macro once for each distinct row of plain
values and keeps the text (the standings rows): the same text as rendering it every time,
escaped the same, kept across events and revisions, and bounded."""

from __future__ import annotations

from jinja2 import DictLoader
from jinja2 import Environment

from kolrami.web.app import _once_each

MACROS = """{% macro row(name, points) -%}
<tr><td>{{ name }}</td><td>{{ points }}</td><td>{{ count() }}</td></tr>
{%- endmacro %}"""


def environment() -> tuple[Environment, list[int]]:
    """An environment whose macro says how many times any macro was rendered."""
    env = Environment(loader=DictLoader({"_macros.html.j2": MACROS}), autoescape=True)
    renders: list[int] = []

    def count() -> int:
        renders.append(1)
        return len(renders)

    env.globals["count"] = count
    return env, renders


def test_each_distinct_row_is_rendered_once() -> None:
    env, renders = environment()
    once_each = _once_each(env)
    rows = [("Ann", 3), ("Bob", 1), ("Ann", 3)]
    first = once_each("row", rows)
    assert len(renders) == 2, "the repeated row was rendered again"
    assert first.count("<tr>") == 3
    assert once_each("row", rows) == first  # kept: nothing rendered again
    assert len(renders) == 2
    changed = once_each("row", [("Ann", 4), ("Bob", 1)])  # one value moves: one row renders
    assert len(renders) == 3
    assert "<td>Ann</td><td>4</td>" in changed
    assert "<td>Bob</td><td>1</td><td>2</td>" in changed, "Bob's row was not the kept one"


def test_the_text_is_the_macros_own_and_escaped() -> None:
    env, _ = environment()
    once_each = _once_each(env)
    macro = env.get_template("_macros.html.j2").module.row  # type: ignore[attr-defined]
    evil = '<script>alert("x")</script>'
    html = once_each("row", [(evil, 1)])
    assert evil not in html
    assert "&lt;script&gt;" in html
    again = str(macro(evil, 1))  # the macro's own text (its second render: count 2)
    assert html == again.replace("<td>2</td></tr>", "<td>1</td></tr>")
    assert html == once_each("row", [(evil, 1)])  # and the kept text is the same
    assert once_each("row", []) == ""


def test_the_kept_rows_are_bounded() -> None:
    env, renders = environment()
    once_each = _once_each(env, limit=3)
    for i in range(10):
        once_each("row", [(f"P{i}", i)])
    assert len(renders) == 10
    once_each("row", [("P9", 9)])  # kept: among the last ones
    assert len(renders) == 10
    once_each("row", [("P0", 0)])  # forgotten once the limit was reached: rendered again
    assert len(renders) == 11

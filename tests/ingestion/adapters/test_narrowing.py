"""Adapters narrow record fields with the shared helpers, not each with its own spelling of them."""

from __future__ import annotations

import ast
from pathlib import Path

import artifact_index.ingestion.adapters as adapters
from artifact_index.ingestion.adapters.narrowing import as_dict, as_list

# What a helper of `narrowing` does, and the expression that spells it out by hand.
_HELPERS = {"dict": ("as_dict", "{}"), "list": ("as_list", "[]")}


def _spelled_out(node: ast.IfExp) -> str | None:
    """The helper ``node`` spells out (``x if isinstance(x, dict) else {}``), or None."""
    test = node.test
    if not (
        isinstance(test, ast.Call)
        and isinstance(test.func, ast.Name)
        and test.func.id == "isinstance"
        and len(test.args) == 2
        and isinstance(test.args[1], ast.Name)
        and test.args[1].id in _HELPERS
    ):
        return None
    helper, empty = _HELPERS[test.args[1].id]
    checked = ast.unparse(test.args[0])
    body, orelse = ast.unparse(node.body), ast.unparse(node.orelse)
    if body == checked and orelse == empty:
        return helper
    # `x.get("k") if isinstance(x, dict) else None` is `as_dict(x).get("k")`.
    if (
        helper == "as_dict"
        and orelse == "None"
        and isinstance(node.body, ast.Call)
        and isinstance(node.body.func, ast.Attribute)
        and node.body.func.attr == "get"
        and ast.unparse(node.body.func.value) == checked
    ):
        return helper
    return None


def _hand_narrowing(source: str) -> list[tuple[int, str]]:
    return [
        (node.lineno, helper)
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.IfExp) and (helper := _spelled_out(node)) is not None
    ]


def test_the_check_finds_a_helper_spelled_out() -> None:
    source = (
        "a = x if isinstance(x, dict) else {}\n"
        "b = y if isinstance(y, list) else []\n"
        "c = m.get('role') if isinstance(m, dict) else None\n"
        "d = m.get('role') if isinstance(m, dict) else m\n"  # not a helper: keeps m
    )
    assert _hand_narrowing(source) == [(1, "as_dict"), (2, "as_list"), (3, "as_dict")]


def test_the_helpers_answer_as_the_spelled_out_forms() -> None:
    for value in ({"role": "user"}, ["a"], "text", None, 3):
        assert as_dict(value) == (value if isinstance(value, dict) else {})
        assert as_list(value) == (value if isinstance(value, list) else [])


def test_no_adapter_spells_out_a_narrowing_helper() -> None:
    package = Path(adapters.__file__).parent
    found = [
        f"{path.relative_to(package)}:{line} (use {helper})"
        for path in sorted(package.rglob("*.py"))
        if path.name != "narrowing.py"
        for line, helper in _hand_narrowing(path.read_text())
    ]
    assert found == []

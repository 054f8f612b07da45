"""The test suite stays quick: slow tests are marked and run apart, and no test waits on the clock."""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"
# Polling a condition in short steps is waiting for an event, not for time to pass.
POLL_SECONDS = 0.1


def _pytest_options() -> dict[str, object]:
    options: dict[str, object] = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"][
        "pytest"
    ]["ini_options"]
    return options


def test_slow_tests_are_left_out_of_the_quick_run_and_run_by_ci() -> None:
    options = _pytest_options()
    assert any(str(marker).startswith("slow:") for marker in options["markers"])
    assert "-m 'not slow'" in str(options["addopts"])
    ci = (ROOT / ".ci" / "run").read_text()
    assert re.search(r"run_pytest .*-m slow", ci)


def _sleeps(tree: ast.AST) -> list[tuple[int, float]]:
    found = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "sleep"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, int | float)
        ):
            found.append((node.lineno, float(node.args[0].value)))
    return found


def test_no_test_waits_on_a_wall_clock_sleep() -> None:
    offenders = [
        f"{path.relative_to(ROOT)}:{line} sleeps {seconds}s"
        for path in sorted(TESTS.rglob("*.py"))
        if "fixtures" not in path.parts
        for line, seconds in _sleeps(ast.parse(path.read_text(encoding="utf-8")))
        if seconds > POLL_SECONDS
    ]
    assert offenders == []


def test_the_sleep_finder_finds_a_sleep() -> None:
    assert _sleeps(ast.parse("import time\ntime.sleep(1.5)\n")) == [(2, 1.5)]

"""Tests written before the code they test: their failures are expected, not errors to resolve.

A session that writes a test file and runs it before writing the code it
tests sees it fail (an import error, an assertion on a function that does
not exist yet).  Such a failure is what test-first work looks like: stating
it as an open error to fix misreads the work.  An open error is one of
them when every test file it names is one the session created, it showed
after they were written, and no other file of the session's changed since
they were written: the code they test is not written yet.  It is an
inference, and said as one.
"""

from __future__ import annotations

from artifact_index.facts.changes import is_test_path
from artifact_index.facts.errors.checks import checks_in
from artifact_index.lazy_pattern import lazy_pattern
from artifact_index.trail.answers import ErrorReport, FileReport

__all__ = ["written_first"]

_PATHISH = lazy_pattern(r"[\w.-]*/[\w./-]+\.\w+")  # a path with a folder: not a module name


def _named_files(error: ErrorReport) -> set[str]:
    """The files an error names: its file, its failing tests' files, paths in its message, its run's targets."""
    named = {error.file} if error.file else set()
    named |= {test.split("::", 1)[0] for test in error.tests}
    named |= set(_PATHISH.findall(error.message))
    if not named and error.command:
        named |= {target for check in checks_in(error.command) for target in check.targets}
    return {path.removeprefix("./") for path in named if path}


def _matches(named: str, path: str) -> bool:
    return path == named or path.endswith("/" + named) or named.endswith("/" + path)


def written_first(
    error: ErrorReport, created: list[FileReport], changed: list[FileReport]
) -> int | None:
    """The turn the session wrote the tests ``error`` comes from, when they were written before the code; else None.

    ``created``: the files the session created; ``changed``: every file it
    created, modified or deleted.
    """
    if error.resolved or error.pre_existing is not None or not error.command:
        return None
    if not any(check.category == "test" for check in checks_in(error.command)):
        return None
    named = _named_files(error)
    if not named:
        return None
    tests: list[FileReport] = []
    for path in named:
        written = [f for f in created if is_test_path(f.path) and _matches(path, f.path)]
        if not written:
            return None
        tests += written
    since = min(min(f.changed_turns, default=error.first_turn) for f in tests)
    if error.first_turn < since:
        return None
    own = {f.path for f in tests}
    # Code changed since the tests were written: a failure now is the code's to fix.
    if any(
        f.path not in own and not is_test_path(f.path) and any(t > since for t in f.changed_turns)
        for f in changed
    ):
        return None
    return since

"""A check (a test runner, linter, type checker or build tool with its targets), and when one covers another."""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, ConfigDict

from artifact_index.lazy_pattern import lazy_pattern

__all__ = [
    "TASK_RUNNERS",
    "Check",
    "CheckCategory",
]

CheckCategory = Literal["test", "lint", "typecheck", "build"]


class Check(BaseModel):
    """One recognized check inside a command line."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    runner: str  # "pytest", "go test", "cargo test", "script:test", "tsc", "ruff", ...
    category: CheckCategory
    targets: tuple[str, ...] = ()  # empty: the whole project
    filters: tuple[str, ...] = ()  # empty: no selection inside the targets

    @property
    def key(self) -> str:
        parts = [self.runner]
        parts += [f"[{f}]" for f in sorted(self.filters)]
        parts += sorted(self.targets)
        return " ".join(parts)

    def covers(self, other: Check) -> bool:
        """True when running ``self`` runs at least everything ``other`` runs."""
        if self.runner != other.runner:
            return False
        if not set(self.filters) <= set(other.filters) and not (
            len(self.filters) == len(other.filters) == 1
            and _name_part_selects(self.filters[0], other.filters[0])
        ):
            return False
        if not self.targets:
            return True
        if not other.targets:
            return False
        return all(any(_path_covers(t, o) for t in self.targets) for o in other.targets)

    @property
    def is_task(self) -> bool:
        """A project task (``make test``, ``npm test``, ``mise run test:ci``): it runs what the project set up."""
        return self.runner.startswith("script:") or self.runner.split(" ", 1)[0] in TASK_RUNNERS

    def selects(self, test: str | None, file: str | None) -> bool:
        """True when this check runs the test ``test`` (of ``file``) by name or by path.

        ``go test -run 'TestA|TestB' ./pkg`` selects ``TestA/case``, ``pytest
        tests/t.py::test_x`` selects ``tests/t.py::test_x``, ``mix test
        test/a_test.exs`` selects every test of that file.  A selection this
        module cannot read (``-k 'a and not b'``) selects nothing.
        """
        if self.filters:
            return test is not None and all(_filter_selects(f, test) for f in self.filters)
        places = [p for p in (test, file) if p]
        return bool(self.targets) and any(
            _path_covers(_LINE_SUFFIX.sub("", target), place)
            for target in self.targets
            for place in places
        )


_LINE_SUFFIX = lazy_pattern(r"(?<!:):\d+$")  # "test/a_test.exs:42": the file, narrowed to a line
_PLAIN_NAMES = lazy_pattern(r"^\s*[\w.\[\]-]+(?:\s+or\s+[\w.\[\]-]+)*\s*$")


_NAME_PART = lazy_pattern(r"^[\w:./-]+$")


def _name_part_selects(general: str, specific: str) -> bool:
    """Whether a selection by part of a name picks every test another such selection picks.

    ``cargo test cli::upgrade::tests`` runs every test ``cargo test
    cli::upgrade::tests::test_age`` runs: each name holding the longer part holds the shorter.
    Only for plain names (cargo's filter, pytest's ``-k``); a run asked for one exact name
    (``--exact``) picks no other.
    """
    option, _, part = general.partition("=") if general.startswith("-") else ("", "", general)
    picked_by, _, name = specific.partition("=") if specific.startswith("-") else ("", "", specific)
    if (option, picked_by) not in (("", ""), ("", "--exact"), ("-k", "-k")):
        return False
    return bool(_NAME_PART.match(part) and _NAME_PART.match(name)) and part in name


def _filter_selects(selection: str, test: str) -> bool:
    """Whether one ``-run=...`` / ``-k=...`` / ``-t=...`` selection picks ``test``."""
    option, _, value = selection.partition("=")
    if option == "-k":
        if not _PLAIN_NAMES.match(value):
            return False
        return any(name in test for name in re.split(r"\s+or\s+", value.strip()))
    if option in ("-run", "-t", "--testNamePattern"):
        try:
            pattern = re.compile(value)
        except re.error:
            return False
        # Go matches each level of "TestA/sub" against its part of the pattern: the top
        # level is what a -run naming the failing test matches.
        return bool(pattern.search(test) or pattern.search(test.split("/")[0]))
    if option in ("-skip", "--exclude", "--ignore", "--ignore-glob", "--deselect"):
        return False  # what it leaves out, never what it picks
    return value in test


def _path_covers(general: str, specific: str) -> bool:
    """``tests`` covers ``tests/test_a.py::test_x``; ``/repo/tests`` covers ``tests``."""
    if general.startswith("/") != specific.startswith("/"):
        # One absolute, one relative spelling (``cd /testbed && pytest tests``):
        # align the absolute one on the relative one's first component.
        if general.startswith("/"):
            general = _align(general, specific)
        else:
            specific = _align(specific, general)
    if general.endswith("/..."):  # a Go package pattern: everything below
        general = general[:-4]
        if general in ("", "."):
            return True
    if specific.endswith("/..."):
        specific = specific[:-4]
    if general == specific:
        return True
    return specific.startswith(general) and specific[len(general) : len(general) + 1] in ("/", ":")


def _align(absolute: str, relative: str) -> str:
    first = re.split(r"/|::", relative, maxsplit=1)[0]
    match = re.search("/" + re.escape(first) + r"(?=/|::|$)", absolute)
    return absolute[match.start() + 1 :] if match else absolute


# Programs that run the project's own tasks.
TASK_RUNNERS = {"make", "gmake", "just", "task", "mage", "invoke", "mise", "rake", "nx", "turbo"}

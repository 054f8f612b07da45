"""Test runs that rewrite their expected outputs: ``go test ./pkg -update``, ``jest -u``, ``pytest --snapshot-update``.

Such a run writes the golden or snapshot files of the tests it runs, at paths
the tests compute: no call names them. The run is recorded as an effect on
files "whose paths are computed at run time", with the folders it ran in, so
that a golden file the session reads is not told as unchanged
(:mod:`artifact_index.trail.script_reach` says which files it could reach).
"""

from __future__ import annotations

import posixpath

from artifact_index.ingestion.events import FileOperation
from artifact_index.lazy_pattern import lazy_pattern
from artifact_index.shell.invocation import Invocation

__all__ = ["SNAPSHOT_WRITES", "is_snapshot_file", "snapshot_update"]

SNAPSHOT_WRITES = "test code writes snapshot files at paths computed at run time"
"""The start of the ``detail`` of a snapshot-updating run; its folders follow ("under a, b")."""

# The options with which a test runner rewrites what its tests expect, by runner.
_UPDATE_OPTIONS: dict[str, frozenset[str]] = {
    "go": frozenset({"-update", "--update", "-update-golden", "-update_golden", "-golden"}),
    "jest": frozenset({"-u", "--updateSnapshot", "--update-snapshot"}),
    "vitest": frozenset({"-u", "--update"}),
    "bun": frozenset({"--update-snapshots", "-u"}),
    "playwright": frozenset({"-u", "--update-snapshots"}),
    "pytest": frozenset(
        {"--snapshot-update", "--force-regen", "--regen-all", "--update-goldens", "--golden-update"}
    ),
}
# An environment variable set for the run that tells its tests to rewrite their expectations.
_UPDATE_VARIABLE = lazy_pattern(
    r"(?:^|\s)(?:UPDATE_(?:SNAPSHOTS?|GOLDENS?|EXPECT(?:ED|ATIONS)?)|SNAPSHOT_UPDATE|GOLDEN_UPDATE"
    r"|INSTA_UPDATE|UPDATE_GOLDEN_FILES|BLESS|TRYBUILD)=(?!0\b|false\b|no\b|never\b)\S"
)
# The files those runs write: named golden or snapshot, or in a folder of them.
_SNAPSHOT_FILE = lazy_pattern(
    r"(?:^|/)(?:__snapshots__|snapshots|golden|goldens|__goldens__)/"
    r"|\.(?:golden|snap|snapshot|ambr|approved\.\w+)$|\.golden\."
)


def is_snapshot_file(path: str) -> bool:
    """Whether ``path`` is shaped like a golden or snapshot file (``x.ndjson.golden``, ``__snapshots__/a.snap``)."""
    return _SNAPSHOT_FILE.search(path) is not None


def _runner(inv: Invocation) -> str | None:
    """The test runner ``inv`` runs, by the family of options it takes."""
    words = [a.value or "" for a in inv.args]
    name = inv.program or ""
    if name == "go" and words[1:2] == ["test"]:
        return "go"
    if name in ("jest", "vitest", "pytest", "playwright"):
        return name
    if name in ("npx", "bunx", "pnpx") and len(words) > 1:
        inner = posixpath.basename(words[1])
        return inner if inner in ("jest", "vitest", "playwright") else None
    if name == "bun" and words[1:2] == ["test"]:
        return "bun"
    if name in ("python", "python3") and words[1:3] == ["-m", "pytest"]:
        return "pytest"
    if name == "cargo" and words[1:2] in (["test"], ["insta"]):
        return "cargo"
    return None


def _updates(inv: Invocation, runner: str) -> bool:
    words = [a.value or "" for a in inv.args[1:]]
    if _UPDATE_VARIABLE.search(inv.text):
        return True
    if runner == "cargo":
        return words[:1] == ["insta"] and any(w in ("accept", "--accept", "review") for w in words)
    options = _UPDATE_OPTIONS[runner]
    # `go test ./x -update` and `go test ./x -args -update`; `--update=true` too.
    return any(w.split("=", 1)[0] in options for w in words)


def _folders(inv: Invocation, runner: str) -> list[str]:
    """The folders whose tests the run runs: its package operands (``./internal/sem``, ``./...``), else its own."""
    base = inv.cwd or ""
    if runner != "go":
        return [base] if base else []
    found = []
    for arg in inv.args[2:]:
        value = arg.value or ""
        if value == "-args":
            break
        if value.startswith("./") or value in (".", "./..."):
            folder = value.removesuffix("/...").removesuffix("...") or "."
            found.append(posixpath.normpath(posixpath.join(base, folder)) if base else folder)
    return found or ([base] if base else [])


def snapshot_update(inv: Invocation) -> FileOperation | None:
    """The effect of a test run that rewrites its golden or snapshot files, or None for any other command."""
    runner = _runner(inv)
    if runner is None or not _updates(inv, runner):
        return None
    folders = _folders(inv, runner)
    where = f" (under {', '.join(folders)})" if folders else ""
    return inv.unknown(SNAPSHOT_WRITES + where)

"""A definition is listed as modified only when the session left its text different from before.

Edit by edit, a definition below a rewritten block only moved, and one parsed from an
unbalanced intermediate state (``defineFlags([`` before its closing ``)`` is written) looks
changed; the file's whole content before and after says which definitions did change.
"""

from __future__ import annotations

import pickle

import pytest

from artifact_index.ingestion.events import Event, SessionInfo
from artifact_index.trail import index as index_module
from artifact_index.trail.tracker import Tracker
from tests.support.session_steps import ROOT, edit, read

ARGS = f"{ROOT}/src/args.ts"
BEFORE = """import { ConfigError } from './errors.js'

type ParsedFlags = Record<string, string | boolean | undefined>
function typedFlags(flags: ParsedFlags): ParsedFlags {
  return flags
}

export const PLAN_FLAGS = [
  { name: '--target', type: 'string' },
] as const

function normalizeTarget(value: string): string {
  if (!value) throw new ConfigError('target is required')
  return value.trim()
}

export function parsePlanArgs(flags: ParsedFlags): string {
  return normalizeTarget(String(flags['--target'] ?? ''))
}
"""


def _symbols(*steps: list[Event]) -> dict[str, str]:
    events: list[Event] = [SessionInfo(turn=0, cwd=ROOT)]
    for step in steps:
        events += step
    index = Tracker(format="claude-code").feed_all(events)
    return {s.name: s.change for s in index.symbols()["src/args.ts"] if s.change != "read"}


def test_definitions_an_edit_only_moved_are_not_modified() -> None:
    symbols = _symbols(
        read(1, ARGS, BEFORE),
        edit(
            2,
            ARGS,
            "import { ConfigError } from './errors.js'\n\ntype ParsedFlags = Record<string, string | boolean"
            " | undefined>\nfunction typedFlags(flags: ParsedFlags): ParsedFlags {\n  return flags\n}\n\n"
            "export const PLAN_FLAGS = [",
            "import { defineFlags, type ParsedFlags } from '@shop/core'\n\n"
            "import { ConfigError } from './errors.js'\n\nexport const PLAN_FLAGS = defineFlags([",
        ),
        edit(3, ARGS, "] as const\n", "] as const)\n"),
    )
    assert symbols == {"ParsedFlags": "removed", "typedFlags": "removed"}


def test_a_definition_whose_body_changed_is_still_modified() -> None:
    symbols = _symbols(
        read(1, ARGS, BEFORE),
        edit(2, ARGS, "  return value.trim()\n", "  return value.trim().toLowerCase()\n"),
    )
    assert symbols == {"normalizeTarget": "modified"}


def test_a_remembering_index_kept_between_runs_parses_a_file_again_only_once_it_changed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A followed transcript's index is pickled between hook runs: the net change of a file
    # no new edit touched is taken from what it kept, not parsed again from both contents.
    tracker = Tracker(format="claude-code")
    for event in [
        SessionInfo(turn=0, cwd=ROOT),
        *read(1, ARGS, BEFORE),
        *edit(2, ARGS, "  return value.trim()\n", "  return value.trim().toLowerCase()\n"),
    ]:
        tracker.feed(event)
    tracker.index.remember_symbols()
    first = tracker.index.symbols()
    parsed: list[str] = []
    counted = index_module._net_modified

    def counting(original: str, content: str, path: str) -> frozenset[tuple[str, str, str | None]]:
        parsed.append(path)
        return counted(original, content, path)

    monkeypatch.setattr(index_module, "_net_modified", counting)
    kept = pickle.loads(pickle.dumps(tracker))
    assert kept.index.symbols() == first
    assert parsed == []
    for event in edit(3, ARGS, "  return flags\n", "  return { ...flags }\n"):
        kept.feed(event)
    again = {s.name: s.change for s in kept.index.symbols()["src/args.ts"] if s.change != "read"}
    assert again == {"normalizeTarget": "modified", "typedFlags": "modified"}
    assert len(parsed) == 1  # the one file the new edit changed, once

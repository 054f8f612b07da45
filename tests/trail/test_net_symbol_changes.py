"""A definition is listed as modified only when the session left its text different from before.

Edit by edit, a definition below a rewritten block only moved, and one parsed from an
unbalanced intermediate state (``defineFlags([`` before its closing ``)`` is written) looks
changed; the file's whole content before and after says which definitions did change.
"""

from __future__ import annotations

from artifact_index.ingestion.events import Event, SessionInfo
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

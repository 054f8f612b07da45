"""One tool vocabulary: every tool an adapter emits has a meaning, and the summarizer reads the same one."""

from __future__ import annotations

import pytest

from artifact_index.exceptions import ArtifactIndexError
from artifact_index.ingestion.events import ToolCall
from artifact_index.ingestion.loading import open_transcript
from artifact_index.ingestion.vocabulary import TOOL_FAMILIES, operations_for, tool_family, tool_key
from summarizer.compaction.tool_names import COMPRESSIBLE_TOOLS, canonical_tool
from tests.support.paths import ROOT

TRANSCRIPTS = sorted(
    path
    for folder in (ROOT / "tests" / "fixtures", ROOT / "examples")
    for path in folder.rglob("*")
    if path.is_file()
)


def _emitted_tools() -> dict[str, set[str]]:
    """Each tool name the adapters emit for the hand-written transcripts, with the adapters."""
    emitted: dict[str, set[str]] = {}
    for path in TRANSCRIPTS:
        try:
            loaded = open_transcript(path)
            events = list(loaded.events())
        except ArtifactIndexError:
            continue  # not a transcript (expected outputs, states) or damaged on purpose
        for event in events:
            if isinstance(event, ToolCall):
                emitted.setdefault(event.tool, set()).add(loaded.adapter.name)
    return emitted


def test_every_tool_an_adapter_emits_is_classified() -> None:
    emitted = _emitted_tools()
    assert len(emitted) > 40, "the fixtures should exercise most adapters"
    unknown = {
        tool: sorted(adapters) for tool, adapters in emitted.items() if not tool_family(tool)
    }
    assert unknown == {}


def test_a_tool_name_has_one_family() -> None:
    seen: dict[str, str] = {}
    for family, names in TOOL_FAMILIES.items():
        for name in names:
            assert name == tool_key(name), f"{name!r} is not written as its key"
            assert name not in seen, f"{name!r} is in {seen.get(name)} and {family}"
            seen[name] = family


@pytest.mark.parametrize(
    ("tool", "kind"),
    [
        ("Read", "read_file"),
        ("readFiles", "read_file"),
        ("str_replace_editor", "read_file"),
        ("Bash", "execute_command"),
        ("BashOutput", "execute_command"),
        ("mcp__files__write_file", "write_file"),
        ("save_file", "write_file"),
        ("MultiEdit", "edit_file"),
        ("Grep", "search_code"),
        # Cline's search_files searches contents by regex and prints path:line hits.
        ("search_files", "search_code"),
        ("Glob", "search_files"),
        ("WebFetch", "fetch_url"),
        ("TodoWrite", None),
        ("some_tool_nobody_has", None),
    ],
)
def test_the_summarizer_reads_the_engine_vocabulary(tool: str, kind: str | None) -> None:
    assert canonical_tool(tool) == kind


def test_every_compressible_name_is_in_the_vocabulary() -> None:
    for kind, names in COMPRESSIBLE_TOOLS.items():
        for name in names:
            assert tool_family(name) is not None, (kind, name)


def test_a_code_runner_given_a_shell_script_runs_a_shell_command() -> None:
    """An MCP `execute` tool takes `{"language", "code"}`: shell code is a command to follow."""
    tool = "mcp__plugin_context-mode_context-mode__execute"
    (op,) = operations_for(tool, {"language": "shell", "code": "rm -f app.db\necho done"})
    assert (op.action, op.command) == ("shell", "rm -f app.db\necho done")
    # Code in another language is no shell command: its effects are not read as one.
    assert operations_for(tool, {"language": "python", "code": "open('a.txt', 'w')"}) == []

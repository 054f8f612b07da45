"""What a search of the current thread matched: only content searches, read through the shell layer."""

from __future__ import annotations

from artifact_index.ingestion.events import ToolCall, ToolResult
from artifact_index.trail.conversation.search_results import searches_since
from artifact_index.trail.conversation.told import Search


def _search(tool: str, arguments: dict[str, str], output: str) -> list[Search]:
    events = [
        ToolCall(turn=1, call_id="c1", tool=tool, arguments=arguments),
        ToolResult(turn=1, call_id="c1", status="success", output=output),
    ]
    return searches_since(events, 0, "/repo")


def test_every_content_search_of_the_engine_vocabulary_lists_places() -> None:
    # Gemini CLI's content search: the summarizer once kept its own, shorter list of search tools.
    hits = "/repo/src/a.py:3: def load\n/repo/src/b.py:9: load()\n"
    found = _search("search_file_content", {"pattern": "load"}, hits)
    assert [(s.query, s.places) for s in found] == [("load", ["src/a.py:3", "src/b.py:9"])]


def test_a_file_name_search_lists_no_places() -> None:
    assert _search("Glob", {"pattern": "**/*.py"}, "src/a.py\nsrc/b.py\n") == []


_HITS = "/repo/src/a.py:3: def load\n/repo/src/b.py:9: load()\n"


def test_a_shell_search_behind_a_wrapper_lists_places() -> None:
    # `timeout 30 rg` runs rg: the program is read from the parse, through the wrapper table.
    found = _search("Bash", {"command": "timeout 30 rg -n load /repo/src"}, _HITS)
    assert [s.places for s in found] == [["src/a.py:3", "src/b.py:9"]]


def test_a_search_named_only_in_quoted_text_is_no_search() -> None:
    # The words of an echo (or a heredoc's body) run nothing, however they read.
    command = 'echo "step 1; grep the logs" && cat /repo/notes.txt'
    assert _search("Bash", {"command": command}, _HITS) == []


def test_a_search_filtering_a_pipe_is_no_search() -> None:
    command = "python -m pytest -q | grep -n FAILED"
    assert _search("Bash", {"command": command}, _HITS) == []

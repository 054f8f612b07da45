"""Files a sub-agent whose own calls are not in the transcript was given or reported changing.

Hand-written sessions: the main agent reads, edits or deletes files, and a
sub-agent (run in the foreground, or launched in the background with a
completion notice) is asked to change some of them.  Its calls live in its
own transcript, so the hook must not say those files were only read, are
still deleted, or hold exactly the counted change: it says what was seen.
A sub-agent that only looks (an Explore agent, a review prompt) leaves the
files as they were said.
"""

from __future__ import annotations

from artifact_index.ingestion.events import Event, SessionInfo, ToolCall, ToolResult, UserMessage
from artifact_index.trail.tracker import Tracker
from summarizer.integrations.hooks import file_trail_context
from summarizer.sections.session_facts import session_facts
from tests.support.session_steps import ROOT, edit, read, shell


def _hook(*steps: list[Event] | Event) -> str:
    events: list[Event] = [SessionInfo(turn=0, cwd=ROOT)]
    for step in steps:
        events += step if isinstance(step, list) else [step]
    return file_trail_context(session_facts(Tracker(format="claude-code").feed_all(events)))


def _section(hook: str, title: str) -> str:
    return hook.split(f"## {title}\n", 1)[1].split("\n## ", 1)[0] if f"## {title}\n" in hook else ""


def _sub_agent(
    turn: int, prompt: str, report: str, kind: str = "general-purpose", agent_id: str = "a1"
) -> list[Event]:
    return [
        ToolCall(
            turn=turn,
            call_id=f"task{turn}",
            tool="Task",
            arguments={"description": "Backend work", "prompt": prompt, "subagent_type": kind},
        ),
        ToolResult(
            turn=turn,
            call_id=f"task{turn}",
            status="success",
            output=f"{report}\nagentId: {agent_id}",
        ),
    ]


def _background_sub_agent(
    turn: int, description: str, prompt: str, done_turn: int, result: str
) -> list[Event]:
    """A sub-agent launched in the background at ``turn`` and its completion notice at ``done_turn``."""
    return [
        ToolCall(
            turn=turn,
            call_id="bg",
            tool="Agent",
            arguments={"description": description, "prompt": prompt},
        ),
        ToolResult(
            turn=turn,
            call_id="bg",
            status="success",
            output="Async agent launched successfully.\nagentId: bg1",
        ),
        UserMessage(
            turn=done_turn,
            text=(
                "<task-notification>\n<task-id>bg1</task-id>\n<status>completed</status>\n"
                f"<result>{result}</result>\n</task-notification>"
            ),
        ),
    ]


def test_a_file_read_then_given_to_a_sub_agent_to_change_is_not_said_unchanged() -> None:
    hook = _hook(
        read(1, "app/models/__init__.py", "from app.models.user import User\n"),
        read(2, "app/routes/agent.py", "router = APIRouter()\n"),
        _sub_agent(3, "Add the FlashCard import to `app/models/__init__.py`.", "Done."),
    )
    reads = _section(hook, "Files read (unchanged)")
    line = next(line for line in reads.splitlines() if "app/models/__init__.py" in line)
    assert line.startswith('- read, but the sub-agent "Backend work" (turn 3)')
    assert "so whether they are unchanged is not known" in line
    # The file the prompt does not name stays a plain read.
    assert "- `app/routes/agent.py`" in reads


def test_a_deleted_file_a_later_background_sub_agent_reports_creating_is_not_said_gone() -> None:
    background = _background_sub_agent(
        2,
        "Phase 2",
        "Build the Linear OAuth client.",
        4,
        f"**Created Linear client** -- `{ROOT}/src/linear/client.ts`",
    )
    hook = _hook(
        read(1, "src/linear/client.ts", "export const client = 1\n"),
        shell(1, "rm -f src/linear/client.ts"),
        background,
    )
    deleted = _section(hook, "Files deleted")
    assert "`src/linear/client.ts`" in deleted
    assert 'the sub-agent "Phase 2" (turn 4)' in deleted
    assert "it may exist again (not known)" in deleted


def test_a_counted_change_is_said_with_the_sub_agent_that_changed_the_file_after_it() -> None:
    hook = _hook(
        read(1, "src/http/index.ts", "a\nb\n"),
        edit(2, "src/http/index.ts", "a", "c"),
        _sub_agent(
            3,
            "Register the tracker routes.",
            "- Modified `src/http/index.ts`: added handleTrackers",
        ),
    )
    line = next(
        line
        for line in _section(hook, "Files modified").splitlines()
        if "src/http/index.ts" in line
    )
    assert "so what it holds now is not known" in line


def test_a_sub_agent_that_only_looks_leaves_the_files_as_they_were_said() -> None:
    steps = (
        read(1, "app/models/__init__.py", "from app.models.user import User\n"),
        _sub_agent(2, "Review `app/models/__init__.py` for security issues.", "Looks fine."),
        _sub_agent(
            3, "Add a test for `app/models/__init__.py`.", "Created nothing.", kind="Explore"
        ),
    )
    reads = _section(_hook(*steps), "Files read (unchanged)")
    assert "- `app/models/__init__.py`" in reads
    assert "sub-agent" not in reads


def test_a_sub_agent_whose_calls_the_transcript_holds_is_followed_not_hedged() -> None:
    side = [
        ToolCall(turn=2, call_id="s1", tool="Read", arguments={}, sidechain="a1"),
        ToolResult(turn=2, call_id="s1", status="success", output="x"),
    ]
    hook = _hook(
        read(1, "app/models/__init__.py", "from app.models.user import User\n"),
        side,
        _sub_agent(2, "Add the import to `app/models/__init__.py`.", "Done.", agent_id="a1"),
    )
    assert "sub-agent" not in _section(hook, "Files read (unchanged)")


def test_a_bare_file_name_in_a_report_is_not_taken_for_the_workspace_file() -> None:
    # The sub-agent worked in another repository: its "README.md" is that one's.
    hook = _hook(
        read(1, "README.md", "# duet\n"),
        _sub_agent(
            2,
            "Commit the consolidation in ~/dev/lore and update its docs.",
            "- Modified: `CLAUDE.md`, `README.md`",
        ),
    )
    assert "- `README.md`" in _section(hook, "Files read (unchanged)")
    assert "sub-agent" not in _section(hook, "Files read (unchanged)")


def test_a_bare_name_in_a_prompt_that_sends_the_sub_agent_elsewhere_is_another_repository_s() -> (
    None
):
    elsewhere = "In ~/dev/neo/: update `README.md` and `CLAUDE.md` for the rename."
    hook = _hook(read(1, "README.md", "# duet\n"), _sub_agent(2, elsewhere, "Done."))
    assert "sub-agent" not in _section(hook, "Files read (unchanged)")
    here = f"In {ROOT}: update `README.md` for the rename."
    hook = _hook(read(1, "README.md", "# duet\n"), _sub_agent(2, here, "Done."))
    assert '- read, but the sub-agent "Backend work"' in _section(hook, "Files read (unchanged)")


def test_a_sub_agent_told_not_to_edit_leaves_the_files_its_prompt_names_as_they_were_said() -> None:
    steps = (
        read(1, "src/agent/mod.rs", "pub mod api;\n"),
        read(2, "src/agent/api.rs", "pub fn run() {}\n"),
        _sub_agent(
            3,
            "Audit `src/agent/mod.rs` and `src/agent/api.rs` for missing error handling and list "
            "what to fix. Do NOT edit any files.",
            "Two places lack error handling.",
        ),
        _sub_agent(
            4,
            "Check whether `src/agent/api.rs` follows the guide. Do not fix or edit anything.",
            "It does.",
            agent_id="a2",
        ),
    )
    reads = _section(_hook(*steps), "Files read (unchanged)")
    assert "- `src/agent/mod.rs`" in reads
    assert "- `src/agent/api.rs`" in reads
    assert "sub-agent" not in reads


def test_a_prompt_that_limits_its_change_still_asks_for_it() -> None:
    hook = _hook(
        read(1, "PLAN.md", "# Plan\n"),
        _sub_agent(2, "Update `PLAN.md` with the new steps. Do not change anything else.", "Done."),
    )
    line = next(
        line for line in _section(hook, "Files read (unchanged)").splitlines() if "PLAN.md" in line
    )
    assert line.startswith('- read, but the sub-agent "Backend work" (turn 2)')


def test_a_file_a_prompt_names_only_to_be_read_is_not_given_to_the_sub_agent_to_change() -> None:
    # The prompt asks for a new skill file; the files it sends the sub-agent to read, as a style
    # reference or to learn from, are not asked to change.
    prompt = (
        "Create a skill at `skills/export/SKILL.md` (touch nothing else in the repo).\n\n"
        "CONTEXT: Read `src/tools/issues.py` and `src/models.py` to learn the exact fields.\n"
        "STYLE — read `skills/score/SKILL.md` first and match their house style: a Scope section"
        ' and "Use when ..." trigger phrases. Use `docs/voice.md` as a style reference.'
    )
    hook = _hook(
        read(1, "src/tools/issues.py", "def list_issues(): ...\n"),
        read(2, "skills/score/SKILL.md", "---\nname: score\n---\n"),
        read(3, "docs/voice.md", "# Voice\n"),
        read(4, "src/app.py", "app = 1\n"),
        _sub_agent(5, prompt + "\nThen fix the import in `src/app.py`.", "Done."),
    )
    reads = _section(hook, "Files read (unchanged)")
    for plain in ("src/tools/issues.py", "skills/score/SKILL.md", "docs/voice.md"):
        assert f"- `{plain}`" in reads, plain
    # A file the same prompt names in a sentence asking for a change is still hedged.
    line = next(line for line in reads.splitlines() if "src/app.py" in line)
    assert line.startswith('- read, but the sub-agent "Backend work" (turn 5)')


def test_a_sentence_that_reads_a_file_and_asks_to_change_it_still_asks() -> None:
    hook = _hook(
        read(1, "src/app.py", "app = 1\n"),
        _sub_agent(2, "Read `src/app.py` and fix the bug in it.", "Done."),
    )
    assert '- read, but the sub-agent "Backend work"' in _section(hook, "Files read (unchanged)")


def test_a_prompt_that_confines_its_change_asks_for_none_of_the_files_it_only_mentions() -> None:
    prompt = (
        "Create `skills/review/SKILL.md` (create the skill's files only - touch nothing else).\n"
        "IMPORTANT: the sibling skill at `skills/score/SKILL.md` holds the rubric; keep to it.\n"
        "STYLE — read `skills/protect/SKILL.md` first and match its house style: a Scope section"
        " (reads the API only, writes local files only)."
    )
    hook = _hook(
        read(1, "skills/score/SKILL.md", "# Score\n"),
        read(2, "skills/protect/SKILL.md", "# Protect\n"),
        _sub_agent(3, prompt, "Done."),
    )
    reads = _section(hook, "Files read (unchanged)")
    assert "- `skills/score/SKILL.md`" in reads
    assert "- `skills/protect/SKILL.md`" in reads
    assert "sub-agent" not in reads


def test_a_change_git_shows_after_a_sub_agent_happened_when_the_sub_agent_ran() -> None:
    # The tests ran after the sub-agent and before the status that showed its change: they ran
    # on the changed file.
    hook = _hook(
        read(1, "src/engine.go", "package prompt\n"),
        _sub_agent(2, "Fix the edge colors in `src/engine.go`.", "Done."),
        shell(3, "go test ./...", "ok  \tshop/src\t0.2s\n"),
        shell(4, "git status --short", " M src/engine.go\n"),
    )
    line = next(
        line for line in _section(hook, "Files modified").splitlines() if "src/engine.go" in line
    )
    assert "via `git status --short`" in line
    assert "src/engine.go" not in _section(hook, "Open tasks")
    assert "Not linted or tested" not in hook


def test_the_report_of_a_sub_agent_told_not_to_edit_tells_what_it_read_not_what_it_changed() -> (
    None
):
    # A summary of the specs says what they ask for ("adds retry to src/api.rs"), not what was done.
    background = _background_sub_agent(
        2,
        "Read all spec files",
        "Summarize specs/api-retry.md. This is a research task - do NOT edit any files. Just read "
        "and summarize.",
        3,
        "api-retry.md: adds retry with backoff to src/api.rs; src/main.rs is updated to read the "
        "limit.",
    )
    steps = (
        read(1, "src/api.rs", "pub fn send() {}\n"),
        read(1, "src/main.rs", "fn main() {}\n"),
        background,
        _sub_agent(
            4,
            "Research only: do not edit any files. What does src/api.rs do?",
            "src/api.rs was changed to retry.",
            agent_id="a2",
        ),
    )
    reads = _section(_hook(*steps), "Files read (unchanged)")
    assert "- `src/api.rs`" in reads
    assert "- `src/main.rs`" in reads
    assert "sub-agent" not in reads


def test_a_sub_agent_asked_to_review_a_change_leaves_the_files_it_names_as_they_were_said() -> None:
    review = (
        "You're reviewing a PR. The diff is at /tmp/pr.patch.\n\nThe change: `src/auth.rs` now "
        "defers the credential lookup, and `src/http.rs` adds a retry.\n\nYour job: review the "
        "diff for code quality issues (redundant state, copy-paste). Report findings."
    )
    asked_to_fix = "Your job: review `src/auth.rs` for unclosed response bodies and fix them."
    hook = _hook(
        read(1, "src/auth.rs", "pub fn resolve() {}\n"),
        read(1, "src/http.rs", "pub fn get() {}\n"),
        _sub_agent(2, review, "Findings: `src/http.rs` adds an allocation on the hot path."),
        read(3, "src/main.rs", "fn main() {}\n"),
        _sub_agent(4, asked_to_fix.replace("auth.rs", "main.rs"), "Done.", agent_id="a2"),
    )
    reads = _section(hook, "Files read (unchanged)")
    assert "- `src/auth.rs`" in reads
    assert "- `src/http.rs`" in reads
    # A review that also asks to fix what it finds may change the file.
    line = next(line for line in reads.splitlines() if "src/main.rs" in line)
    assert line.startswith('- read, but the sub-agent "Backend work" (turn 4)')


def test_a_read_file_two_sub_agents_changed_says_the_report_and_the_earlier_run() -> None:
    # An implementer, then a fixer, each given the file; the fixer's report says it changed it.
    # The read line says the report said so (not only "whether unchanged is not known"), and
    # that the run it names was not the only one.
    hook = _hook(
        read(1, "libs/train/data.py", "def load():\n    pass\n"),
        _sub_agent(2, "Modify: `libs/train/data.py` to add normalize().", "Done.", agent_id="a1"),
        _sub_agent(
            3,
            "Fix `_make_record` in `libs/train/data.py`.",
            "Updated `libs/train/data.py`: `_make_record` keeps the base task id.",
            agent_id="a2",
        ),
    )
    reads = _section(hook, "Files read (unchanged)")
    line = next(line for line in reads.splitlines() if "libs/train/data.py" in line)
    assert line.startswith('- read, but the sub-agent "Backend work" (turn 3) (and 1 earlier')
    assert "reported changing them" in line

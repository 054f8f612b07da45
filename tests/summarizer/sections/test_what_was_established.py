"""What the session established, kept for the agent that continues: the user's answers to its questions, what
its searches found, what it learned about the project, and no draft name passed off as what was written.

Without these the Decisions and Findings sections read "Nothing recorded" and the next agent asks again,
searches again, and trips on the same constraint again.
"""

from __future__ import annotations

from pathlib import Path

from artifact_index.ingestion.events import AssistantMessage, UserMessage
from artifact_index.ingestion.loading import load_events
from artifact_index.trail.session_state import AssistantSaid
from summarizer.narrative.extractive import ExtractiveWriter
from summarizer.sections.templates import load_template
from summarizer.summary import summarize
from tests.support.session_steps import ROOT, edit, read, section, shell, summary_of, write

QUESTIONS = """\
Here is the proposed view.

### Key Files

1. `cmd/list/model.go` - the tree
2. `cmd/list/view.go` - the TUI

### Questions for You

1. **Orphaned sessions**: Sessions whose base commit is on no branch. Should we show them? Hide them?

2. **Depth limit**: How far back in commit history should we look for sessions per branch?

3. **Active session indicator**: Should we highlight the session that is running now?

Shall I start implementing a prototype?"""


def test_the_users_numbered_answers_are_decisions_each_beside_its_question() -> None:
    summary = summary_of(
        UserMessage(turn=1, text="Propose a view of sessions by branch."),
        AssistantMessage(turn=2, text=QUESTIONS),
        UserMessage(turn=3, text="1. no\n2. we look at 50 commits in entire/sessions\n3. yes"),
        AssistantMessage(turn=4, text="Starting with the model."),
    )
    decisions = section(summary, "Decisions Made")
    assert (
        "- (turn 3) The user answered the agent's questions (turn 2): 1. Orphaned sessions: Should we show "
        'them? → "no"; 2. Depth limit: How far back in commit history should we look for sessions per branch? '
        '→ "we look at 50 commits in entire/sessions"; 3. Active session indicator: Should we highlight the '
        'session that is running now? → "yes"'
    ) in decisions


def test_a_numbered_reply_to_a_message_without_numbered_questions_is_no_answer() -> None:
    summary = summary_of(
        UserMessage(turn=1, text="Propose a view of sessions by branch."),
        AssistantMessage(turn=2, text="Plan:\n1. model\n2. view\n3. actions"),
        UserMessage(turn=3, text="1. fine\n2. use bubbletea\n3. later"),
    )
    assert summary.facts.answers == []
    assert "answered the agent's questions" not in summary.markdown


GREP_OUTPUT = """\
/home/dev/shop/cli/resume.go:184:	cwd, err := os.Getwd()
/home/dev/shop/cli/session.go:319:	cwd, err := os.Getwd()
/home/dev/shop/cli/rewind.go:565:	cwd, err := os.Getwd()
/home/dev/shop/cli/rewind.go:603:	cwd, err := os.Getwd()
/home/dev/shop/cli/strategy/common.go:532:	cwd, err := os.Getwd()
"""


def test_where_the_threads_searches_matched_is_kept_until_the_agent_concludes() -> None:
    summary = summary_of(
        UserMessage(turn=1, text="Fix the path filter."),
        write(2, f"{ROOT}/cli/hooks.go", "package cli\n"),
        UserMessage(turn=3, text="can we check the whole code base if this is an issue elsewhere?"),
        shell(4, f'grep -rn "os.Getwd()" {ROOT}/cli/ --include="*.go"', GREP_OUTPUT),
        AssistantMessage(turn=5, text="Let me check each of these:"),
        read(6, f"{ROOT}/cli/strategy/common.go", "package strategy\n"),
    )
    findings = section(summary, "Findings")
    assert findings.splitlines() == [
        "Where the searches since turn 3 matched:",
        '- (turn 4) `grep -rn "os.Getwd()" cli/ --include="*.go"`: in `cli/`: `resume.go:184`, `session.go:319`, '
        "`rewind.go:565, 603`; looked at since: `strategy/common.go:532`",
    ]


def test_an_unfinished_check_of_search_hits_names_the_places_no_call_has_looked_at_as_the_next_step() -> (
    None
):
    # "Check the whole code base": the agent grepped, looked at some hits (a read, a loop of greps naming the
    # files) and was cut off; the next agent must not grep again to learn which hits are left.
    loop = (
        f'for f in session.go strategy/common.go; do grep -n -A5 "os.Getwd()" {ROOT}/cli/$f; done'
    )
    summary = summary_of(
        UserMessage(turn=1, text="Fix the path filter."),
        write(2, f"{ROOT}/cli/hooks.go", "package cli\n"),
        UserMessage(turn=3, text="can we check the whole code base if this is an issue elsewhere?"),
        shell(4, f'grep -rn "os.Getwd()" {ROOT}/cli/ --include="*.go"', GREP_OUTPUT),
        AssistantMessage(turn=5, text="Let me check each of these:"),
        shell(6, loop, "319:\tcwd, err := os.Getwd()\n"),
        read(7, f"{ROOT}/cli/resume.go", "package cli\n"),
    )
    steps = section(summary, "Next Steps")
    assert (
        "no file changed, no conclusion stated yet. Of the places its search of turn 4 matched, in `cli/`, in "
        "files no call has looked at since: `rewind.go:565, 603`; looked at since: `resume.go`, `session.go`, "
        "`strategy/common.go`.\n"
    ) in steps
    # The open request is named once, by the investigation; where the work stood follows without it.
    assert steps.count("can we check the whole code base") == 1
    assert "- Where the work stood when the context filled. What the agent was doing" in steps
    assert (
        section(summary, "Findings")
        .rstrip()
        .endswith(
            "in `cli/`: `rewind.go:565, 603`; looked at since: `resume.go:184`, `session.go:319`, `strategy/common.go:532`"
        )
    )


def test_a_file_named_only_in_text_the_agent_wrote_was_not_looked_at() -> None:
    summary = summary_of(
        UserMessage(turn=1, text="can we check the whole code base if this is an issue elsewhere?"),
        shell(2, f'grep -rn "os.Getwd()" {ROOT}/cli/ --include="*.go"', GREP_OUTPUT),
        write(3, f"{ROOT}/notes.md", "Still to check: rewind.go and resume.go\n"),
    )
    assert "looked at since" not in section(summary, "Findings")


def test_a_place_in_a_file_changed_since_the_search_is_not_left_to_see_to() -> None:
    summary = summary_of(
        UserMessage(turn=1, text="Replace os.Getwd() with the repo root everywhere."),
        shell(2, f'grep -rn "os.Getwd()" {ROOT}/cli/', GREP_OUTPUT),
        edit(3, f"{ROOT}/cli/resume.go"),
    )
    assert (
        '- (turn 2) `grep -rn "os.Getwd()" cli/`: in `cli/`: `session.go:319`, `rewind.go:565, 603`, '
        "`strategy/common.go:532`; also in `resume.go`, changed since"
    ) in section(summary, "Findings")


def test_a_search_that_matched_one_place_is_a_lookup_not_a_finding() -> None:
    summary = summary_of(
        UserMessage(turn=1, text="Where is ToRelativePath?"),
        shell(
            2,
            f"grep -n 'func ToRelativePath' {ROOT}/cli/paths/*.go",
            f"{ROOT}/cli/paths/paths.go:159:func ToRelativePath(p string) string {{",
        ),
    )
    assert summary.facts.searches == [] and "Where the searches" not in summary.markdown


def test_each_time_the_person_stopped_the_agent_is_among_their_messages_in_every_format(
    fixtures_dir: Path,
) -> None:
    # Claude Code and Codex inject a notice on the user's side; Copilot CLI logs an `abort` event.
    summary = summary_of(
        UserMessage(turn=1, text="Rename the results branch."),
        UserMessage(turn=2, text="[Request interrupted by user for tool use]", synthetic=True),
        UserMessage(turn=3, text="no, keep the branch name"),
        UserMessage(
            turn=4,
            text="<turn_aborted>\nThe user interrupted the previous turn on "
            "purpose.\n</turn_aborted>",
            synthetic=True,
        ),
    )
    assert section(summary, "User Messages").splitlines() == [
        "- (turn 1) Rename the results branch.",
        "- (turn 2) [the user stopped the agent during a tool call]",
        "- (turn 3) no, keep the branch name",
        "- (turn 4) [the user stopped the agent]",
    ]
    events = load_events(fixtures_dir / "copilot_cli" / "abort.jsonl")
    copilot = summarize(events, template=load_template("default"), writer=ExtractiveWriter())
    messages = section(copilot, "User Messages").splitlines()
    assert messages[1] == "- (turn 2) [the user stopped the agent]"
    # A stop is the user's act, never their request: the latest request is still their words.
    assert section(copilot, "Session Intent").count("instead of finalize call it update") == 1


FINDING = """\
Found it! The carry-forward uses file-level subtraction, not the content-aware check:

```go
// Instead of:
remainingFiles := subtractFiles(filesTouchedBefore, committedFileSet)
// Do:
remainingFiles := filesWithUncommittedAgentChanges(shadowTree, commitTree, filesTouchedBefore)
```

Where `filesWithUncommittedAgentChanges` keeps files whose committed hash doesn't match the shadow branch."""


def test_a_name_a_finding_proposed_and_the_code_got_under_another_name_is_not_passed_off_as_current() -> (
    None
):
    summary = summary_of(
        UserMessage(turn=1, text="Why are committed files carried forward?"),
        AssistantMessage(turn=2, text=FINDING),
        UserMessage(turn=3, text="yeah let's apply this to carry forward"),
        write(
            4,
            f"{ROOT}/strategy/overlap.go",
            "package strategy\n\nfunc filesWithRemainingAgentChanges(files []string) []string {\n\treturn files\n}\n",
        ),
        AssistantMessage(turn=5, text="Now the tests."),
    )
    findings = section(summary, "Findings")
    assert findings.startswith(
        "- (turn 2, the message the latest request (turn 3) replies to) Found it!"
    )
    assert (
        "(since then: `filesWithUncommittedAgentChanges` was written as `filesWithRemainingAgentChanges`, "
        "turn 4)"
    ) in findings


def test_a_constraint_the_agent_ran_into_and_acted_on_is_kept_and_a_question_it_went_on_to_check_is_not() -> (
    None
):
    summary = summary_of(
        UserMessage(turn=1, text="Add the annotation state column."),
        AssistantMessage(
            turn=2,
            text="The auto-generated migration uses `ALTER TABLE ... modify` which SQLite doesn't "
            "support for nullability changes. I need to rewrite it with a SQLite-safe table "
            "rewrite pattern.",
        ),
        AssistantMessage(
            turn=3, text="The endpoint isn't configured for test env. Let me check the config."
        ),
        AssistantMessage(
            turn=4, text="The Cloud SQL Proxy is not running on port 5432. Let me start it."
        ),
        AssistantMessage(turn=5, text="All 18 resource tests pass."),
    )
    assert summary.facts.lessons == [
        AssistantSaid(
            turn=2,
            text="The auto-generated migration uses `ALTER TABLE ... modify` which SQLite doesn't support for "
            "nullability changes. I need to rewrite it with a SQLite-safe table rewrite pattern.",
        )
    ]
    findings = section(summary, "Findings")
    assert findings.startswith(
        "Learned on the way, and acted on (the agent's words):\n- (turn 2) The auto-generated"
    )


def test_the_request_replies_to_the_agents_message_before_it_not_to_an_older_finding_the_user_disproved() -> (
    None
):
    options = (
        "With the span count unchanged, the batching theory is out: each call now waits on the model. "
        "Option 1: cache the prompts. Option 2: send one batched request per page. Option 3: lower max_tokens."
    )
    summary = summary_of(
        UserMessage(turn=1, text="Why did the classifier latency go up?"),
        AssistantMessage(
            turn=2,
            text="Found it. The root cause is the batching fix: each span is now a real batch call, "
            "so each span is slower and there are far fewer of them.",
        ),
        UserMessage(turn=3, text="Span count is unchanged, latency is up 4x"),
        AssistantMessage(turn=4, text=options),
        UserMessage(turn=5, text="Let's implement option 2."),
        AssistantMessage(turn=6, text="Reading the classifier first."),
    )
    findings = section(summary, "Findings")
    assert findings.startswith(
        f"- (turn 4, the message the latest request (turn 5) replies to) {options}"
    )
    assert "batching fix" not in findings

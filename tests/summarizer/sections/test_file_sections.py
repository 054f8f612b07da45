"""The file sections say what changed: every changed path with what its change does, the key code of the current
thread's latest changes, and the files the current thread read by path."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from artifact_index.ingestion.events import (
    Event,
    FileOperation,
    JSONObject,
    SessionInfo,
    ToolCall,
    ToolResult,
    UserMessage,
)
from summarizer.narrative.extractive import ExtractiveWriter
from summarizer.narrative.llm import noted_files
from summarizer.narrative.narrative_model import NarrativeReply, NarrativeRequest, reply_model
from summarizer.sections.templates import load_template
from summarizer.summary import Summary, parse_previous, summarize
from tests.support.session_steps import ROOT, edit, read, section, shell, summary_of, write


class _NotingWriter(ExtractiveWriter):
    """The offline writer plus a line on every changed file, as an LLM's reply carries one."""

    def write(self, request: NarrativeRequest) -> NarrativeReply:
        reply = super().write(request)
        notes = {path: f"Changes {path}." for path in noted_files(request)}
        return reply.model_copy(update={"file_notes": notes})


def _noted_summary(*steps: Event | list[Event]) -> Summary:
    events: list[Event] = [SessionInfo(turn=0, cwd=ROOT)]
    for step in steps:
        events += step if isinstance(step, list) else [step]
    return summarize(
        events, template=load_template("default"), writer=_NotingWriter(), format="claude-code"
    )


def test_the_latest_change_of_a_file_of_the_current_thread_shows_its_new_code() -> None:
    summary = _noted_summary(
        UserMessage(turn=1, text="Round the cart total to cents."),
        edit(2, f"{ROOT}/shop/cart.py", old="return total", new="return round(total, 2)"),
    )
    changed = section(summary, "Files Changed")
    assert "- `shop/cart.py`" in changed
    assert "latest change (turn 2):" in changed
    assert "```python\n  return round(total, 2)\n  ```" in changed


def test_only_the_current_threads_files_show_code() -> None:
    summary = _noted_summary(
        UserMessage(turn=1, text="Round the cart total to cents."),
        edit(2, f"{ROOT}/shop/cart.py", old="return total", new="return round(total, 2)"),
        UserMessage(turn=3, text="Now log the tax rate."),
        edit(4, f"{ROOT}/shop/tax.py", old="rate = r", new="rate = r\nlog.info('rate %s', r)"),
    )
    changed = section(summary, "Files Changed")
    assert "log.info('rate %s', r)" in changed
    assert "round(total, 2)" not in changed
    assert changed.count("latest change") == 1


def test_a_question_about_the_change_just_made_keeps_that_changes_code() -> None:
    # The thread the latest message opened changed nothing yet: the session's latest change is what it is about.
    summary = _noted_summary(
        UserMessage(turn=1, text="Round the cart total to cents."),
        edit(2, f"{ROOT}/shop/cart.py", old="return total", new="return round(total, 2)"),
        UserMessage(turn=3, text="Why two places and not three?"),
    )
    changed = section(summary, "Files Changed")
    assert "latest change (turn 2):" in changed
    assert "return round(total, 2)" in changed


def test_a_failed_edit_is_not_shown_as_the_latest_change() -> None:
    failed = [
        ToolCall(
            turn=3,
            call_id="x1",
            tool="Edit",
            arguments={"file_path": f"{ROOT}/shop/cart.py"},
            operations=(
                FileOperation(
                    action="edit", path=f"{ROOT}/shop/cart.py", old="zzz", new="never_written()"
                ),
            ),
        ),
        ToolResult(turn=3, call_id="x1", status="failure", failure="not_found"),
    ]
    summary = _noted_summary(
        UserMessage(turn=1, text="Round the cart total to cents."),
        edit(2, f"{ROOT}/shop/cart.py", old="return total", new="return round(total, 2)"),
        failed,
    )
    changed = section(summary, "Files Changed")
    assert "never_written" not in changed
    assert "round(total, 2)" in changed


def test_a_long_change_is_bounded_and_says_what_it_left_out() -> None:
    new = "\n".join(f"    line_{n} = compute({n})" for n in range(100))
    summary = _noted_summary(
        UserMessage(turn=1, text="Unroll the loop."),
        edit(2, f"{ROOT}/shop/cart.py", old="for n in range(100): ...", new=new),
    )
    changed = section(summary, "Files Changed")
    assert "line_0 = compute(0)" in changed
    assert "line_99" not in changed
    assert "more line(s) of it not shown" in changed


def test_offline_the_key_code_is_shown_where_the_budget_allows_every_detail() -> None:
    steps = (
        UserMessage(turn=1, text="Round the cart total to cents."),
        edit(2, f"{ROOT}/shop/cart.py", old="return total", new="return round(total, 2)"),
    )
    summary = summary_of(*steps)
    assert summary.detail == 0
    changed = section(summary, "Files Changed")
    assert "- `shop/cart.py`" in changed and "latest change" in changed
    assert "return round(total, 2)" in changed


def test_a_scratch_file_outside_the_workspace_comes_after_the_projects_files_briefly() -> None:
    scratch = "/tmp/claude-1000/-home-USER-shop/abc/scratchpad/probe.py"
    summary = summary_of(
        UserMessage(turn=1, text="Round the cart total to cents."),
        edit(2, f"{ROOT}/shop/cart.py", old="return total", new="return round(total, 2)"),
        write(3, scratch, "def probe():\n    return 1\n"),
        read(4, "/tmp/claude-1000/-home-USER-shop/abc/tasks/b1.output", "ok"),
        read(5, f"{ROOT}/shop/tax.py", "rate = 1"),
    )
    changed = section(summary, "Files Changed")
    assert changed.index("`shop/cart.py`") < changed.index(f"`{scratch}`")
    # The project's latest change keeps its code; the scratch file is its path, status and turn only.
    assert "return round(total, 2)" in changed and "def probe" not in changed
    assert f"- `{scratch}` (created, turn 3; outside the workspace)" in changed
    files_read = section(summary, "Files Read")
    assert files_read.index("`shop/tax.py`") < files_read.index("tasks/b1.output")
    assert "outside the workspace (1" in files_read


def test_the_files_the_current_thread_read_are_named_not_counted() -> None:
    reads = [read(2 + n, f"{ROOT}/shop/module_{n:02}.py", "x = 1") for n in range(20)]
    summary = summary_of(UserMessage(turn=1, text="Find where the total is computed."), *reads)
    files_read = section(summary, "Files Read")
    for n in range(20):
        assert f"`shop/module_{n:02}.py`" in files_read
    assert "more read" not in files_read


def test_the_reply_must_say_a_line_for_every_changed_path_and_no_other() -> None:
    sections = load_template("default").narrative_sections
    model = reply_model(sections, ["shop/cart.py", "shop/tax.py"])
    empty = {s.key: {"items": [], "superseded": []} for s in sections}
    lines = {"shop/cart.py": "Rounds the total.", "shop/tax.py": "Logs the rate."}
    parsed = model.model_validate({**empty, "files_changed": lines})
    assert parsed.model_dump(by_alias=True)["files_changed"] == lines
    schema = model.model_json_schema()
    assert set(schema["$defs"]["FilesChanged"]["properties"]) == set(lines)
    with pytest.raises(ValidationError):  # a path the index does not list
        model.model_validate({**empty, "files_changed": {**lines, "shop/other.py": "Invented."}})
    with pytest.raises(ValidationError):  # a path left out
        model.model_validate({**empty, "files_changed": {"shop/cart.py": "Rounds the total."}})
    with pytest.raises(ValidationError):  # the lines left out
        model.model_validate(empty)


def test_the_llms_line_on_each_changed_file_goes_beside_it(monkeypatch: pytest.MonkeyPatch) -> None:
    import anthropic

    from summarizer.narrative.llm import LLMWriter
    from summarizer.providers.anthropic_api import AnthropicClient
    from tests.support.fake_anthropic import FakeAnthropic, tool_reply
    from tests.support.loopback_guard import only_loopback

    only_loopback(monkeypatch)
    template = load_template("default")
    events: list[Event] = [SessionInfo(turn=0, cwd=ROOT), UserMessage(turn=1, text="Fix rounding.")]
    events += edit(2, f"{ROOT}/shop/cart.py", old="return total", new="return round(total, 2)")
    events += edit(3, f"{ROOT}/shop/tax.py", old="rate = r", new="rate = round(r, 4)")
    lines = {
        "shop/cart.py": "Rounds the cart total to cents, so the receipt matches the payment provider.",
        "shop/tax.py": "Rounds the tax rate to four places, the precision the cart rounding expects.",
    }
    reply = {s.key: {"items": [], "superseded": []} for s in template.narrative_sections}
    with FakeAnthropic() as api:
        api.replies = [
            tool_reply({**reply, "files_changed": {**lines, "shop/invented.py": "Not changed."}}),
            tool_reply({**reply, "files_changed": lines}),
        ]
        client = anthropic.Anthropic(base_url=api.url, api_key="sk-test-local", max_retries=0)
        writer = LLMWriter(AnthropicClient("claude-test-model", client=client, retries=2))
        summary = summarize(events, template=template, writer=writer, format="claude-code")
        schema = api.messages_requests[0].body["tools"][0]["input_schema"]
    assert set(schema["$defs"]["FilesChanged"]["properties"]) == set(lines)
    assert len(api.messages_requests) == 2  # the invented path was refused and asked again
    changed = section(summary, "Files Changed")
    for path, line in lines.items():
        assert f"- `{path}` (modified): {line.rstrip('.')}" in changed


def _llm_summary(
    monkeypatch: pytest.MonkeyPatch,
    events: list[Event],
    lines: dict[str, str],
    previous: str | None = None,
) -> tuple[Summary, JSONObject]:
    """The summary an LLM writes with these per-file lines, and the schema of the lines it was asked for."""
    import anthropic

    from summarizer.narrative.llm import LLMWriter
    from summarizer.providers.anthropic_api import AnthropicClient
    from tests.support.fake_anthropic import FakeAnthropic, tool_reply
    from tests.support.loopback_guard import only_loopback

    only_loopback(monkeypatch)
    template = load_template("default")
    reply = {s.key: {"items": [], "superseded": []} for s in template.narrative_sections}
    with FakeAnthropic() as api:
        api.replies = [tool_reply({**reply, "files_changed": lines})]
        client = anthropic.Anthropic(base_url=api.url, api_key="sk-test-local", max_retries=0)
        writer = LLMWriter(AnthropicClient("claude-test-model", client=client, retries=0))
        anchor = parse_previous(previous, template) if previous is not None else None
        summary = summarize(
            events, template=template, writer=writer, previous=anchor, format="claude-code"
        )
        body = api.messages_requests[0].body
    schema = body["tools"][0]["input_schema"]
    asked: JSONObject = schema["$defs"]["FilesChanged"]["properties"]
    return summary, {"asked": asked, "prompt": body["messages"][0]["content"]}


def test_a_second_cycle_keeps_the_line_of_a_file_unchanged_since_and_asks_again_for_a_changed_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    events: list[Event] = [SessionInfo(turn=0, cwd=ROOT), UserMessage(turn=1, text="Fix rounding.")]
    events += edit(2, f"{ROOT}/shop/cart.py", old="return total", new="return round(total, 2)")
    events += edit(3, f"{ROOT}/shop/tax.py", old="rate = r", new="rate = round(r, 4)")
    first_lines = {
        "shop/cart.py": "Rounds the cart total to cents; the receipt must match the payment provider.",
        "shop/tax.py": "Rounds the tax rate to four places.",
    }
    first, _ = _llm_summary(monkeypatch, events, first_lines)
    # The span after the first summary changes only the tax file.
    later = [*events, UserMessage(turn=4, text="Log the rate too.")]
    later += edit(5, f"{ROOT}/shop/tax.py", old="rate = round(r, 4)", new="rate = log(round(r, 4))")
    tax = "Rounds the tax rate to four places and logs it, as the user asked at turn 4."
    second, sent = _llm_summary(monkeypatch, later, {"shop/tax.py": tax}, first.markdown)
    assert set(sent["asked"]) == {"shop/tax.py"}  # the unchanged file is not asked again
    assert "`shop/tax.py`: Rounds the tax rate to four places." in str(sent["prompt"])  # to update
    changed = section(second, "Files Changed")
    # The earlier line, semicolon and all, stays beside the file the span left alone.
    assert f"- `shop/cart.py` (modified): {first_lines['shop/cart.py'].rstrip('.')}" in changed
    assert f"- `shop/tax.py` (modified): {tax.rstrip('.')}" in changed
    # A third, offline cycle keeps both lines; a change it cannot describe drops that file's line.
    third = summarize(
        [*later, *edit(6, f"{ROOT}/shop/tax.py", old="log(", new="logger.info(")],
        template=load_template("default"),
        writer=ExtractiveWriter(),
        previous=parse_previous(second.markdown, load_template("default")),
        format="claude-code",
    )
    assert third.narrative.file_notes == {"shop/cart.py": first_lines["shop/cart.py"]}


def test_a_path_the_transcript_redacted_is_not_described_as_one_file() -> None:
    # The transcript's producer wrote "REDACTED" over part of two paths: two files, one name.
    summary = _noted_summary(
        UserMessage(turn=1, text="Write the two issues."),
        write(2, f"{ROOT}/issues/REDACTED.md", "# Double query\n"),
        write(3, f"{ROOT}/issues/REDACTED.md", "# Full table load\n"),
    )
    changed = section(summary, "Files Changed")
    line = next(x for x in changed.splitlines() if "REDACTED.md" in x)
    assert "several files may share it" in line
    assert "Full table load" not in line and "lines" not in line


def _pull_output(created: int) -> str:
    stats = [f" images/fig{n:02}.png | Bin 0 -> 5120 bytes" for n in range(created)]
    modes = [f" create mode 100644 images/fig{n:02}.png" for n in range(created)]
    return "\n".join(
        [
            "Updating 1a2b3c4..5d6e7f8",
            "Fast-forward",
            *stats,
            " chapters/intro.md | 4 ++--",
            f" {created + 1} files changed, 2 insertions(+), 2 deletions(-)",
            *modes,
        ]
    )


def test_what_a_pull_brought_in_is_counted_after_the_sessions_own_changes() -> None:
    # Neither described file by file nor asked of the LLM: the merged commits' work, not the session's.
    summary = _noted_summary(
        UserMessage(turn=1, text="Update main and fix the intro's typo."),
        shell(2, "git pull", output=_pull_output(created=12)),
        edit(3, f"{ROOT}/chapters/typo.md", old="teh", new="the"),
    )
    changed = section(summary, "Files Changed")
    own, _, pulled = changed.partition("`git pull` brought in")
    assert "- `chapters/typo.md`" in own
    assert "Changes chapters/typo.md" in own
    assert "13 file(s) " in own.splitlines()[-1]
    assert "12 created in images/, 1 modified in chapters/" in pulled
    assert "fig03.png" not in changed
    assert "Changes images/" not in changed


def test_a_small_pull_names_what_it_brought_in() -> None:
    summary = _noted_summary(
        UserMessage(turn=1, text="Update main."),
        shell(2, "git pull", output=_pull_output(created=2)),
    )
    changed = section(summary, "Files Changed")
    assert (
        "- 3 file(s) `git pull` brought in (turn 2) from the merged commits, not changed by the "
        "session's own edits: `images/fig00.png` (created), `images/fig01.png` (created), "
        "`chapters/intro.md` (modified)"
    ) in changed

"""Index sections within the token budget, on a big synthetic session.

Hundreds of files created, modified, deleted and read, dozens of errors and
test runs: the summary must fit the template's budget by lowering the detail
level, and whatever the level, no created / modified / deleted / reverted
path is dropped and no open error's message is shortened.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping

import pytest

from artifact_index.ingestion.events import (
    AssistantMessage,
    Event,
    FileOperation,
    ResultStatus,
    SessionInfo,
    ToolCall,
    ToolResult,
    UserMessage,
)
from artifact_index.trail.answers import ErrorReport, FileReport
from summarizer.budget import cut_items
from summarizer.narrative.extractive import ExtractiveWriter
from summarizer.sections.index_sections import MAX_DETAIL, render_index_section
from summarizer.sections.summary_facts import SessionFacts
from summarizer.sections.templates import Template, load_template
from summarizer.summary import Summary, render_summary, summarize
from summarizer.tokens import count_tokens

ROOT = "/work/big"
CREATED = [f"src/feature_{n // 10:02d}/module_{n:03d}.py" for n in range(90)]
MODIFIED = [f"lib/pkg_{n // 12:02d}/util_{n:03d}.py" for n in range(90)]
DELETED = [f"legacy/old_{n:03d}.py" for n in range(25)]
REVERTED = [f"scratch/try_{n:02d}.py" for n in range(5)]
READ = [f"vendor/dir_{n // 10:02d}/file_{n:03d}.py" for n in range(400)]
_WORDS = [
    "amount",
    "currency",
    "account",
    "invoice",
    "customer",
    "ledger",
    "region",
    "status",
    "owner",
    "vendor",
    "quantity",
    "discount",
]
# Distinct in their words, not only their numbers: the ledger treats errors differing only in
# numbers as one error seen again.
OPEN_ERRORS = [
    f"ValueError: batch import failed validation: field '{w}' must be a positive decimal with at "
    f"most two places, got a negative value from the {w} column of upload.csv"
    for w in _WORDS[:8]
]
RESOLVED_ERRORS = [
    f"KeyError: '{w}_setting' missing from the loaded configuration mapping" for w in _WORDS
]


def _module(n: int) -> str:
    return "\n\n".join(f"def handler_{n}_{k}(value):\n    return value + {k}\n" for k in range(15))


def _call(
    turn: int,
    call_id: str,
    tool: str,
    op: FileOperation,
    status: ResultStatus = "success",
    output: str = "ok",
    exit_code: int | None = None,
) -> list[Event]:
    return [
        ToolCall(
            turn=turn,
            call_id=call_id,
            tool=tool,
            arguments={"path": op.path or op.command or ""},
            operations=(op,),
        ),
        ToolResult(
            turn=turn,
            call_id=call_id,
            status=status,
            output=output,
            exit_code=exit_code,
            failure="exit_status" if status == "failure" else None,
        ),
    ]


def _traceback(message: str) -> str:
    return f'Traceback (most recent call last):\n  File "{ROOT}/run.py", line 3, in <module>\n    main()\n{message}\n'


@functools.cache
def big_session() -> tuple[Event, ...]:
    events: list[Event] = [SessionInfo(turn=0, cwd=ROOT)]
    turn = 0

    def next_turn() -> int:
        nonlocal turn
        turn += 1
        return turn

    for n in range(25):
        events.append(
            UserMessage(
                turn=next_turn(),
                text=f"Request {n}: " + "please keep going with the import "
                "pipeline and its validation rules " * 4,
            )
        )
    for n, path in enumerate(READ):
        events += _call(
            next_turn(), f"r{n}", "Read", FileOperation(action="read", path=path), output="x = 1\n"
        )
    for n, path in enumerate(CREATED):
        events += _call(
            next_turn(),
            f"c{n}",
            "Write",
            FileOperation(action="create", path=path, content=_module(n)),
        )
    for n, path in enumerate(MODIFIED):
        events += _call(
            next_turn(),
            f"m{n}",
            "Edit",
            FileOperation(action="edit", path=path, old=f"a = {n}", new=f"a = {n + 1}"),
        )
    for n, path in enumerate(DELETED):
        events += _call(next_turn(), f"d{n}", "Delete", FileOperation(action="delete", path=path))
    for n, path in enumerate(REVERTED):
        events += _call(
            next_turn(),
            f"v{n}",
            "Write",
            FileOperation(action="create", path=path, content="pass\n"),
        )
        events += _call(next_turn(), f"w{n}", "Delete", FileOperation(action="delete", path=path))
    for n, message in enumerate(RESOLVED_ERRORS):
        command = f"python run.py --config {n}"
        shell = FileOperation(action="shell", command=command, cwd=ROOT, source="shell")
        events += _call(next_turn(), f"e{n}", "Bash", shell, "failure", _traceback(message), 1)
        events += _call(next_turn(), f"f{n}", "Bash", shell, "success", "done\n", 0)
    for n, message in enumerate(OPEN_ERRORS):
        command = f"python import.py --batch {n}"
        shell = FileOperation(action="shell", command=command, cwd=ROOT, source="shell")
        events += _call(next_turn(), f"o{n}", "Bash", shell, "failure", _traceback(message), 1)
    events.append(
        AssistantMessage(
            turn=next_turn(), text="Next I'll fix the amount validation in the importer."
        )
    )
    return tuple(events)


@functools.cache
def big_summary(template_name: str) -> Summary:
    return summarize(
        list(big_session()),
        template=load_template(template_name),
        writer=ExtractiveWriter(),
        format="fixture",
    )


TEMPLATES = ["default", "claude-code", "debugging", "migration"]


def test_the_synthetic_index_is_as_big_as_intended() -> None:
    facts = big_summary("default").facts
    assert sorted(f.path for f in facts.created) == sorted(CREATED)
    assert sorted(f.path for f in facts.modified) == sorted(MODIFIED)
    assert sorted(f.path for f in facts.deleted) == sorted(DELETED)
    assert sorted(f.path for f in facts.reverted) == sorted(REVERTED)
    assert len(facts.read) == len(READ)
    assert sorted(e.message for e in facts.open_errors) == sorted(OPEN_ERRORS)
    assert all(len(f.symbols) == 15 for f in facts.created)


@pytest.mark.parametrize("name", TEMPLATES)
def test_the_summary_fits_the_budget_by_lowering_detail(name: str) -> None:
    shown = big_summary(name)
    full = count_tokens(render_summary(shown.template, shown.facts, shown.narrative, 0))
    least = count_tokens(render_summary(shown.template, shown.facts, shown.narrative, MAX_DETAIL))
    # A budget the facts can meet only below full detail.
    template = shown.template.model_copy(update={"budget_tokens": (full + least) // 2})
    summary = summarize(
        list(big_session()), template=template, writer=ExtractiveWriter(), format="fixture"
    )
    assert full > template.budget_tokens  # too big at full detail...
    assert summary.detail > 0
    assert summary.tokens <= template.budget_tokens  # ...and within budget at a lower one
    lower = render_summary(template, summary.facts, summary.narrative, summary.detail - 1)
    assert count_tokens(lower) > template.budget_tokens  # the least compaction that fits


@pytest.mark.parametrize("name", TEMPLATES)
@pytest.mark.parametrize("detail", range(MAX_DETAIL + 1))
def test_no_changed_path_is_dropped_and_no_open_error_is_cut_at_any_detail(
    name: str, detail: int
) -> None:
    summary = big_summary(name)
    markdown = render_summary(summary.template, summary.facts, summary.narrative, detail)
    missing = [p for p in [*CREATED, *MODIFIED, *DELETED, *REVERTED] if f"`{p}`" not in markdown]
    assert missing == []
    if any(
        s.key in ("errors", "errors_and_fixes", "error_messages") for s in summary.template.sections
    ):
        assert [m for m in OPEN_ERRORS if f"`{m}`" not in markdown] == []


def test_a_budget_too_small_for_the_facts_is_kept_and_says_what_it_cut() -> None:
    # The summary replaces the context: past every detail level, it is cut rather than let grow.
    template: Template = load_template("default").model_copy(update={"budget_tokens": 500})
    summary = summarize(
        list(big_session()), template=template, writer=ExtractiveWriter(), format="fixture"
    )
    assert summary.detail == MAX_DETAIL and summary.tokens <= 500
    assert "cut to fit the summary's budget" in summary.markdown
    # Files Changed gives up its descriptions first: the paths lead.
    files = summary.markdown.split("## Files Changed\n", 1)[1]
    folder, _, name = CREATED[0].rpartition("/")
    assert files.startswith(f"- created in {folder}/ (")
    assert f"`{name}`" in files.split("\n", 1)[0]


def test_detail_levels_compact_read_files_symbols_and_resolved_errors() -> None:
    facts = big_summary("default").facts
    read = [render_index_section("files_read", facts, d) for d in range(MAX_DETAIL + 1)]
    # The current thread's latest reads by path (more of them at finer detail), the rest counted by folder.
    assert (
        "`vendor/dir_39/file_399.py`" in read[0]
        and "- and 380 more read, in `vendor/` (380)" in read[0]
    )
    assert "- and 397 more read, in `vendor/` (397)" in read[3]
    created = [render_index_section("files_created", facts, d) for d in range(MAX_DETAIL + 1)]
    # Every definition named while there is room, the first few by their signature; fewer names after.
    assert "`def handler_0_0(value)`" in created[0] and "`handler_0_11`" in created[0]
    assert "and 1 more definition(s)" in created[0] and "and 5 more definition(s)" in created[1]
    assert "and 9 more definition(s)" in created[3] and "added definition(s)" not in created[3]
    errors = [render_index_section("errors", facts, d) for d in range(MAX_DETAIL + 1)]
    resolved = [line for line in errors[0].splitlines() if line.startswith("- [resolved]")]
    assert len(resolved) == len(RESOLVED_ERRORS)
    assert not any(line.startswith("- [resolved]") for line in errors[3].splitlines())
    assert f"- {len(RESOLVED_ERRORS)} error(s) seen and resolved" in errors[3]
    assert [count_tokens(text) for text in read] == sorted(
        (count_tokens(text) for text in read), reverse=True
    )


def _fact(path: str, status: str) -> FileReport:
    return FileReport(
        path=path, status=status, sources=["tool"], turns=[1], symbols=[], read_symbols=[]
    )


def test_a_multi_line_open_error_keeps_every_line_at_every_detail() -> None:
    message = "\n".join(
        f"  line {n} of the compiler diagnostic with `backticks` and trailing text"
        for n in range(12)
    )
    error = ErrorReport(
        message=message,
        kind="compiler",
        file="src/a.c",
        line=10,
        first_turn=3,
        last_turn=3,
        occurrences=1,
        resolved=False,
        command="make",
    )
    facts = SessionFacts(
        format="x",
        root="/r",
        turns=3,
        created=[],
        modified=[_fact("src/a.c", "modified")],
        deleted=[],
        reverted=[],
        read=[],
        errors=[error],
        original_error=error,
        tests=[],
        decisions=[],
        tasks=[],
        user_messages=[],
        last_assistant=None,
    )
    for detail in range(MAX_DETAIL + 1):
        for key in ("errors", "errors_and_fixes", "error_messages"):
            text = render_index_section(key, facts, detail)
            assert all(line in text for line in message.splitlines()), (key, detail)


def test_what_the_budget_leaves_after_the_detail_level_goes_to_the_users_words_first() -> None:
    shown = big_summary("default")
    words_whole = render_summary(
        shown.template, shown.facts, shown.narrative, MAX_DETAIL, {"user_messages": 0}
    )
    # Room for the user's words whole at the most compact level, not for a finer level everywhere.
    template = shown.template.model_copy(update={"budget_tokens": count_tokens(words_whole)})
    assert (
        count_tokens(render_summary(template, shown.facts, shown.narrative, MAX_DETAIL - 1))
        > template.budget_tokens
    )
    summary = summarize(
        list(big_session()), template=template, writer=ExtractiveWriter(), format="fixture"
    )
    assert summary.detail == MAX_DETAIL
    assert render_index_section("user_messages", shown.facts, 0) in summary.markdown
    assert summary.tokens <= template.budget_tokens


def test_one_huge_item_does_not_push_every_other_section_out() -> None:
    # A protected first line listing 300 long paths once made every other section's items go.
    paths = ", ".join(f"`/tmp/scratch/{n:03d}/{'x' * 40}.json`" for n in range(300))
    bodies = {
        "files_changed": f"- created (300): {paths}",
        "user_messages": "\n".join(f"- (turn {n}) request number {n}" for n in range(1, 21)),
    }

    def assemble(parts: Mapping[str, str]) -> str:
        return "\n\n".join(parts.values())

    def first_only(key: str, position: int, item: str) -> bool:
        return position == 0

    cut = cut_items(bodies, assemble, 1200, first_only)

    assert count_tokens(assemble(cut)) <= 1200
    assert "cut here" not in cut["user_messages"]  # every request kept
    assert cut["files_changed"].startswith("- created (300): `/tmp/scratch/000/")
    assert "more (cut to fit the summary's budget)" in cut["files_changed"]

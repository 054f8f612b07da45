"""Golden files of every built-in template and a user's own, on hand-written sessions.

The fixtures (``tests/fixtures/summaries/*.events.jsonl``) are normalized
events written by hand: a bug fix with a failing test, a failed edit, a
shell deletion and an open error; a schema migration with a rename and a
file created then deleted.  The summaries use the offline narrative, so the
whole Markdown is deterministic.  On a difference the test prints a unified
diff; ``UPDATE_GOLDENS=1`` rewrites the goldens after an intended change.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from summarizer.exceptions import TemplateError
from summarizer.narrative.extractive import ExtractiveWriter
from summarizer.sections.index_sections import MAX_DETAIL
from summarizer.sections.templates import Template, builtin_templates, load_template
from summarizer.summary import OFFLINE_NOTE, parse_previous, render_summary, summarize
from summarizer.tokens import count_tokens
from tests.support.summary_fixtures import (
    SUMMARIES,
    ScriptedWriter,
    assert_golden,
    load_events,
    reply,
)

CASES = [
    ("bugfix", "default"),
    ("bugfix", "claude-code"),
    ("bugfix", "debugging"),
    ("bugfix", "migration"),
    ("migration", "default"),
    ("migration", "migration"),
]


def _render(fixture: str, template: Template) -> str:
    return summarize(
        load_events(fixture), template=template, writer=ExtractiveWriter(), format="fixture"
    ).markdown


def test_every_builtin_template_has_a_golden() -> None:
    assert set(builtin_templates()) == {"default", "claude-code", "debugging", "migration"}
    assert {template for _, template in CASES} == set(builtin_templates())


@pytest.mark.parametrize(("fixture", "template"), CASES, ids=[f"{f}-{t}" for f, t in CASES])
def test_builtin_template_matches_golden(fixture: str, template: str) -> None:
    assert_golden(SUMMARIES / f"{fixture}.{template}.md", _render(fixture, load_template(template)))


def test_user_toml_template_matches_golden() -> None:
    template = load_template(str(SUMMARIES / "handoff.toml"))
    assert template.name == "handoff"
    assert [s.key for s in template.narrative_sections] == ["intent", "risks", "next_steps"]
    assert_golden(SUMMARIES / "bugfix.handoff.md", _render("bugfix", template))


def test_most_compact_detail_golden_keeps_every_changed_path() -> None:
    full = summarize(
        load_events("migration"),
        template=load_template("default"),
        writer=ExtractiveWriter(),
        format="fixture",
    )
    compact = render_summary(full.template, full.facts, full.narrative, MAX_DETAIL)
    assert_golden(SUMMARIES / "migration.default.detail-3.md", compact)
    assert count_tokens(compact) < count_tokens(full.markdown)
    for path in (
        "migrations/0002_split_name.sql",
        "db/schema.sql",
        "shop/models.py",
        "db/schema_v1.sql",
        "scratch_check.py",
    ):
        assert f"`{path}`" in compact


def test_claude_code_template_is_analysis_then_ten_summary_sections() -> None:
    markdown = _render("bugfix", load_template("claude-code"))
    assert markdown.startswith("<analysis>\n")
    body = markdown[markdown.index("<summary>") : markdown.index("</summary>")]
    headings = [line[4:] for line in body.splitlines() if line.startswith("### ")]
    assert headings == [
        "Primary Request",
        "Key Technical Concepts",
        "Files and Code Sections",
        "Errors and Fixes",
        "Problem Solving",
        "Decision Rationale",
        "All User Messages",
        "Pending Tasks",
        "Current Work",
        "Optional Next Step",
    ]


def test_analysis_block_follows_the_key_not_the_title(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(
        'name = "mine"\nstyle = "claude-code"\n\n'
        '[[sections]]\ntitle = "Reasoning"\nfill = "narrative"\nkey = "analysis"\n\n'
        '[[sections]]\ntitle = "Files"\nfill = "index"\nkey = "files_created"\n',
        encoding="utf-8",
    )
    markdown = _render("bugfix", load_template(str(path)))
    analysis = markdown[: markdown.index("</analysis>")]
    assert "Extractive summary written offline" in analysis
    assert "### Reasoning" not in markdown
    assert "### Files\n- `auth/retry.py`" in markdown


_VALID_SECTION = '[[sections]]\ntitle = "Intent"\nfill = "narrative"\nkey = "intent"\n'

MALFORMED = [
    pytest.param('name = "x"\n[[sections]\n', "is not valid TOML", id="toml-syntax"),
    pytest.param(
        'name = "x"\n', "is not a valid template: sections: Field required", id="no-sections"
    ),
    pytest.param(
        'name = "x"\nsections = []\n',
        "sections: List should have at least 1 item",
        id="empty-sections",
    ),
    pytest.param(_VALID_SECTION, "is not a valid template: name: Field required", id="no-name"),
    pytest.param(
        'name = "x"\n[[sections]]\ntitle = "Files"\nfill = "index"\nkey = "files_touched"\n',
        "section 1 ('Files'): index section key 'files_touched' is not one of",
        id="unknown-index-key",
    ),
    pytest.param(
        'name = "x"\n'
        + _VALID_SECTION
        + '[[sections]]\ntitle = "Plan"\nfill = "llm"\nkey = "plan"\n',
        "section 2 ('Plan') fill: Input should be 'index' or 'narrative'",
        id="bad-fill",
    ),
    pytest.param(
        'name = "x"\n[[sections]]\ntitel = "Intent"\nfill = "narrative"\nkey = "intent"\n',
        "section 1 title: Field required",
        id="typo-in-field-name",
    ),
    pytest.param(
        'name = "x"\n[[sections]]\ntitle = "Plan"\nfill = "narrative"\nkey = "next steps!"\n',
        "narrative section key 'next steps!' must be an identifier",
        id="bad-narrative-key",
    ),
    pytest.param(
        'name = "x"\n[[sections]]\ntitle = "Data"\nfill = "narrative"\nkey = "json"\n',
        "narrative section key 'json' is reserved",
        id="reserved-narrative-key",
    ),
    pytest.param(
        'name = "x"\n[[sections]]\ntitle = "Data"\nfill = "narrative"\nkey = "2nd"\n',
        "narrative section key '2nd' must be an identifier",
        id="narrative-key-not-identifier",
    ),
    pytest.param(
        'name = "x"\nbudget_tokens = 50\n' + _VALID_SECTION,
        "budget_tokens: Input should be greater than or equal to 500",
        id="budget-too-small",
    ),
    pytest.param(
        'name = "x"\nstyle = "html"\n' + _VALID_SECTION, "style: Input should be", id="bad-style"
    ),
    pytest.param(
        'name = "x"\n' + _VALID_SECTION + _VALID_SECTION.replace("Intent", "Goal"),
        "section key(s) 'intent' appear more than once",
        id="duplicate-key",
    ),
]


@pytest.mark.parametrize(("toml", "message"), MALFORMED)
def test_malformed_template_is_one_clear_template_error(
    tmp_path: Path, toml: str, message: str
) -> None:
    path = tmp_path / "broken.toml"
    path.write_text(toml, encoding="utf-8")
    with pytest.raises(TemplateError) as caught:
        load_template(str(path))
    text = str(caught.value)
    assert text.startswith(f"{path} is ")
    assert message in text
    assert "\n" not in text.split(" (", 1)[0]  # one sentence, not a pydantic dump


def test_unknown_template_name_lists_the_builtins() -> None:
    with pytest.raises(
        TemplateError,
        match=r"no template 'defualt': give a built-in name \(claude-code, "
        r"debugging, default, migration\) or the path of a TOML file",
    ):
        load_template("defualt")


@pytest.mark.parametrize("template", sorted(builtin_templates()))
def test_a_narrative_written_offline_says_so_once_and_an_llms_does_not(template: str) -> None:
    loaded = load_template(template)
    offline = _render("bugfix", loaded)
    assert offline.count(OFFLINE_NOTE) == 1
    keys = [section.key for section in loaded.narrative_sections]
    written = summarize(
        load_events("bugfix"),
        template=loaded,
        writer=ScriptedWriter(
            [reply({key: [f"What the model said about {key}."] for key in keys})]
        ),
        format="fixture",
    ).markdown
    assert "What the model said" in written and OFFLINE_NOTE not in written


def test_an_offline_narratives_state_is_one_mark_and_reads_back_per_item() -> None:
    template = load_template("default")
    summary = summarize(
        load_events("bugfix"), template=template, writer=ExtractiveWriter(), format="fixture"
    )
    assert '"mark":[1,"extractive"]' in summary.markdown
    read_back = parse_previous(summary.markdown, template)
    assert read_back.sections == {
        key: items for key, items in summary.narrative.sections.items() if items
    }

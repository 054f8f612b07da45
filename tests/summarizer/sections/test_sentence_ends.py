"""Where a quoted text is cut and how it is fenced: at the end of a sentence in any script, its backticks kept inside."""

from __future__ import annotations

from artifact_index.ingestion.events import UserMessage
from summarizer.sections.text import code_span, sentences, whole_sentences
from tests.support.session_steps import ROOT, section, summary_of, write


def test_an_english_request_is_cut_after_a_sentence() -> None:
    text = (
        "Fix the login bug. " + "Then update every caller of the session helper and its tests. " * 4
    )
    shown = whole_sentences(text, 100)
    assert shown.startswith(
        "Fix the login bug. Then update every caller of the session helper and its tests."
    )
    assert shown.endswith("more characters]")


def test_a_japanese_request_is_cut_after_a_full_width_stop() -> None:
    # Japanese puts no space after "。": a cut must still fall at the stop, not inside the next sentence.
    first = "specコマンドの動作について教えてください。"
    second = "私はこのシステムは自然言語の世界と構造化された形式の世界になると認識しています。"
    text = first + second * 4
    shown = whole_sentences(text, 100)
    kept = shown.split(" […")[0]
    assert kept.endswith("。")
    assert kept.startswith(first)
    assert shown.endswith("more characters]")


def test_full_width_stops_split_sentences_as_a_space_after_a_period_does() -> None:
    assert sentences("最初の文です。次の文です！最後？") == [
        "最初の文です。",
        "次の文です！",
        "最後？",
    ]
    assert sentences("First one. Second one!") == ["First one.", "Second one!"]


def test_a_quoted_text_with_backticks_stays_one_code_span() -> None:
    # "`Register `auth` in apps`" would read as two code spans and a bare word.
    assert code_span("Register `auth` in apps") == "``Register `auth` in apps``"
    assert code_span("`x` first") == "`` `x` first ``"
    assert code_span("plain") == "`plain`"
    assert code_span("a ``b`` c") == "```a ``b`` c```"


def test_a_markdown_heading_with_backticks_is_quoted_whole_in_files_changed() -> None:
    text = "# Register `auth` in INSTALLED_APPS\n\nSome text.\n"
    summary = summary_of(
        UserMessage(turn=1, text="Write the issue."),
        write(2, f"{ROOT}/issues/ARCH-01.md", text),
    )
    changed = section(summary, "Files Changed")
    assert "``Register `auth` in INSTALLED_APPS``" in changed

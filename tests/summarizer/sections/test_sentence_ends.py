"""Where a quoted text is cut: at the end of a sentence, in any script."""

from __future__ import annotations

from summarizer.sections.text import sentences, whole_sentences


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

"""Followed in appended chunks of any size, a transcript's index is the one its bytes so far give read whole.

A chunk may end anywhere, mid-line or mid-character; at each cut the
followed transcript, finished as a one-off command finishes it, must say
what a fresh read of the same bytes says.
"""

from __future__ import annotations

import pickle
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from artifact_index.exceptions import UnknownFormat
from artifact_index.live.live_transcript import LiveTranscript
from artifact_index.trail.build import build_index
from artifact_index.trail.session_report import session_report

ROOT = Path(__file__).resolve().parents[2]
SESSIONS = [
    ROOT / "examples" / "claude-code-session.jsonl",
    ROOT / "examples" / "codex-rollout.jsonl",
    *sorted((ROOT / "tests" / "fixtures" / "claude_code").glob("*.jsonl")),
    *sorted((ROOT / "tests" / "fixtures" / "codex").glob("*.jsonl")),
]


@pytest.mark.parametrize("session", SESSIONS, ids=lambda p: p.name)
@settings(
    max_examples=4, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
@given(cuts=st.lists(st.floats(min_value=0.0, max_value=1.0), min_size=1, max_size=4))
def test_a_transcript_followed_in_chunks_says_what_reading_its_bytes_whole_says(
    session: Path, cuts: list[float]
) -> None:
    data = session.read_bytes()
    places = sorted({int(len(data) * cut) for cut in cuts} | {len(data)})
    with tempfile.TemporaryDirectory() as folder:
        transcript = Path(folder) / "session.jsonl"
        transcript.write_bytes(b"")
        live = LiveTranscript(transcript)
        written = 0
        for place in places:
            with transcript.open("ab") as out:
                out.write(data[written:place])
            written = place
            live.refresh()
            if live.format is None:
                continue
            # Finished on a copy, as a hook does: the followed transcript goes on from before the end.
            followed = pickle.loads(pickle.dumps(live)).finish()
            try:
                whole, _ = build_index(transcript)
            except UnknownFormat:
                continue  # a start cut mid-line that nothing reads yet: no whole index to compare
            assert session_report(followed) == session_report(whole)

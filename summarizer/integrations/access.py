"""What the MCP server and the HTTP API answer, in one place: a session's trail, its summary, the store.

A session is named by a transcript path, or by an id of the session store
(its store id, the agent's own session id, or the transcript's path, see
:meth:`~artifact_index.live.store.SessionStore.session`); a transcript that
a ``watch`` keeps current is just such a stored session.  Either way the
transcript is followed (:class:`~artifact_index.live.followed_transcripts.Followed`), so
asking again costs only what the agent appended since.  Every answer is
the JSON the command line prints (``files --json`` and so on), secrets
redacted.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import cast

from artifact_index.exceptions import ArtifactIndexError
from artifact_index.live.followed_transcripts import Followed
from artifact_index.live.live_transcript import LiveTranscript
from artifact_index.live.store import SessionStore
from artifact_index.presentation.output import SCHEMA_VERSION
from artifact_index.presentation.render import (
    decisions_json,
    errors_json,
    files_json,
    history_json,
    show_json,
    symbols_json,
    tasks_json,
)
from artifact_index.presentation.sessions import sessions_json, touches_json
from artifact_index.redaction import redact_json, redact_text
from artifact_index.trail.index import ArtifactIndex
from summarizer.sections.templates import DEFAULT_TEMPLATE

__all__ = ["Document", "SessionAccess", "SessionUnknown"]


# A JSON document as the command line prints it: what a client receives and reads as JSON (the
# keys of each are in artifact_index.presentation.json_contracts).
Document = dict[str, object]


def _redacted(data: Mapping[str, object]) -> Document:
    # Redaction rewrites strings only: the document keeps its shape.
    return cast(Document, redact_json(data))


def _answer(transcript: Path, data: Mapping[str, object]) -> Document:
    """What the command line prints for one transcript: the same envelope, secrets redacted."""
    return _redacted({"schema_version": SCHEMA_VERSION, "transcript": str(transcript), **data})


class SessionUnknown(ArtifactIndexError):
    """Neither a transcript nor a stored session was named, or the name finds nothing."""


_QUERIES: dict[str, Callable[[ArtifactIndex], Mapping[str, object]]] = {
    "errors": errors_json,
    "symbols": symbols_json,
    "decisions": decisions_json,
    "tasks": tasks_json,
}


class SessionAccess:
    """The trails of transcripts and stored sessions, as the servers hand them out."""

    def __init__(self, store: str | Path | None = None) -> None:
        self._store_path = store
        self._store: SessionStore | None = None
        self.followed = Followed()

    @property
    def store(self) -> SessionStore:
        """The session store, opened on first use (a server that is only asked about transcripts needs none)."""
        if self._store is None:
            self._store = SessionStore(self._store_path)
        return self._store

    def transcript_of(self, transcript: str | None = None, session: str | None = None) -> Path:
        """The transcript file named directly, or through the store."""
        if bool(transcript) == bool(session):
            raise SessionUnknown(
                "name either a transcript (its path) or a stored session (its id), not "
                + ("both" if transcript else "neither")
            )
        if transcript:
            return Path(transcript).expanduser()
        assert session is not None
        return Path(self.store.session(session).transcript)

    @contextmanager
    def following(
        self, transcript: str | None = None, session: str | None = None
    ) -> Iterator[LiveTranscript]:
        """The transcript brought up to date; its index may be read inside the block."""
        path = self.transcript_of(transcript, session)
        with self.followed.lock:
            live, _ = self.followed.refresh(path)
            if live.format is None:
                raise SessionUnknown(f"{path}: not a transcript format this tool knows (yet)")
            yield live.as_it_stands()

    # -- the trail ----------------------------------------------------------------------
    def files(
        self,
        transcript: str | None = None,
        session: str | None = None,
        *,
        changed: bool = False,
        workspace_only: bool = False,
    ) -> Document:
        """``files --json`` (``changed``: leave out files only read; ``workspace_only``: those outside it)."""
        with self.following(transcript, session) as live:
            return _answer(
                live.path,
                files_json(
                    live.index,
                    skipped=len(live.skipped),
                    changed_only=changed,
                    workspace_only=workspace_only,
                ),
            )

    def history(
        self, path: str, transcript: str | None = None, session: str | None = None
    ) -> Document:
        """``history --json``: ``path`` as ``files`` prints it, or the end of its path."""
        with self.following(transcript, session) as live:
            found = live.index.find_path(path) or path
            return _answer(live.path, history_json(live.index, found))

    def symbols(
        self, transcript: str | None = None, session: str | None = None, *, changed: bool = False
    ) -> Document:
        """``symbols --json`` (``changed``: leave out symbols only read)."""
        with self.following(transcript, session) as live:
            return _answer(live.path, symbols_json(live.index, changed_only=changed))

    def query(
        self, name: str, transcript: str | None = None, session: str | None = None
    ) -> Document:
        """``errors``, ``symbols``, ``decisions`` or ``tasks``: the JSON of that command."""
        with self.following(transcript, session) as live:
            return _answer(live.path, _QUERIES[name](live.index))

    def show(self, transcript: str | None = None, session: str | None = None) -> Document:
        with self.following(transcript, session) as live:
            return _answer(live.path, show_json(live.index, skipped=len(live.skipped)))

    def summary(
        self,
        transcript: str | None = None,
        session: str | None = None,
        *,
        template: str = DEFAULT_TEMPLATE,
        use_llm: bool | None = None,
        model: str | None = None,
        config: str | None = None,
        provider: str | None = None,
        base_url: str | None = None,
    ) -> str:
        """The structured summary (Markdown); the narrative offline unless an LLM provider is configured."""
        from summarizer.providers.choice import LLMChoice
        from summarizer.sections.templates import load_template
        from summarizer.summary import summarize
        from summarizer.summary_commands import make_writer

        chosen = load_template(template)
        # Held through the narrative (an LLM round trip, perhaps): another request must not feed
        # this index while the summary reads it.
        with self.following(transcript, session) as live:
            writer = make_writer(
                LLMChoice(use_llm, provider, base_url, model, config), live.index.session.model
            )
            summary = summarize(
                live.events_so_far(), template=chosen, writer=writer, index=live.index
            )
        return redact_text(summary.markdown)

    # -- the store ----------------------------------------------------------------------
    def sessions(self, root: str | None = None, since: str | None = None) -> Document:
        """``sessions --json``."""
        rows = self.store.sessions(root=root, since=since)
        return _redacted({"schema_version": SCHEMA_VERSION, **sessions_json(self.store, rows)})

    def where(self, path: str, since: str | None = None) -> Document:
        """``where --json``."""
        touches = self.store.where(path, since=since)
        return _redacted({"schema_version": SCHEMA_VERSION, **touches_json(path, touches)})

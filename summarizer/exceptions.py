"""Exceptions of the ``summarizer`` package.

::

    ArtifactIndexError          (artifact_index.exceptions)
    └── SummarizerError         base of everything this package raises on purpose
        ├── MessageFormatError  a message list / request body is neither Anthropic nor OpenAI shaped
        ├── EventLogError       the compaction event log cannot be read or appended to
        ├── CompactionFailed    the narrative summarizer failed; recorded for the back-off
        ├── TemplateError       a summary template is unknown or malformed
        └── LLMError            an LLM request failed, or its reply stayed malformed after every retry
            └── NarrativeError  ... the request for the narrative sections

Lower-layer exceptions (``OSError``, ``json.JSONDecodeError``, whatever a
summarizer raises) are mapped to these with ``raise ... from exc`` so a
caller (and the CLI) can handle one hierarchy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from artifact_index.exceptions import ArtifactIndexError

if TYPE_CHECKING:
    from summarizer.compaction.message_lists import Message
    from summarizer.compaction.result import CompressResult

__all__ = [
    "CompactionFailed",
    "EventLogError",
    "LLMError",
    "MessageFormatError",
    "NarrativeError",
    "SummarizerError",
    "TemplateError",
]


class SummarizerError(ArtifactIndexError):
    """Base class of the errors this package raises on purpose.

    A kind of :class:`~artifact_index.exceptions.ArtifactIndexError`, so the
    command line reports it as one sentence like the engine's own errors.
    """


class MessageFormatError(SummarizerError):
    """The messages are not an Anthropic Messages or OpenAI chat message list."""


class TemplateError(SummarizerError):
    """A summary template is unknown, unreadable or malformed."""


class LLMError(SummarizerError):
    """An LLM request failed (unreachable, refused) or its structured reply stayed malformed after retries."""


class NarrativeError(LLMError):
    """The narrative writer failed: the LLM call failed or its reply stayed malformed after retries."""


class EventLogError(SummarizerError):
    """The JSONL event log could not be read or written."""


class CompactionFailed(SummarizerError):
    """The narrative summarizer raised or returned nothing.

    The failure is already in the event log when this is raised.  The cheap
    policies (micro-compaction, pruning) may still have shrunk the request:
    ``messages`` and ``result`` carry that outcome so a caller can send it
    instead of the original.
    """

    def __init__(
        self,
        message: str,
        *,
        messages: list[Message],
        result: CompressResult,
        consecutive_failures: int,
    ) -> None:
        super().__init__(message)
        self.messages = messages
        self.result = result
        self.consecutive_failures = consecutive_failures

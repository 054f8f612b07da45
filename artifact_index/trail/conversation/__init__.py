"""What the session's events tell beyond the index: the agent's words and the tools' output.

The index keeps the session's state (files, errors, tests, tasks, git
work) and is saved with it; what the agent said and what a tool printed it
does not keep, because the state does not need it and it would make the
saved index as large as the transcript.  The queries of this package read
those from the events of the same session and answer with engine models
(:mod:`~artifact_index.trail.conversation.told`); one query,
:func:`~artifact_index.trail.conversation.conversation_report.conversation_report`,
answers all of them at once.
"""

"""The keys of the sections the index fills exactly: the one list of them.

Apart from the templates that name them, so the renderers (and the hooks,
which render index sections and never read a template) know the keys
without building the templates' models.
"""

from __future__ import annotations

from typing import Literal, get_args

__all__ = ["INDEX_KEYS", "IndexKey"]

# Sections the index fills exactly: the one list of their keys.  Each has its
# renderer in summarizer.sections.index_sections, which mypy checks covers them all.
IndexKey = Literal[
    "files_created",
    "files_modified",
    "files_deleted",
    "files_read",
    "files_reverted",
    "files_and_code",
    "files_changed",
    "pending_calls",
    "errors",
    "errors_and_fixes",
    "error_messages",
    "test_status",
    "pending_tasks",
    "user_messages",
    "work_state",
    "last_activity",
    "findings",
]
INDEX_KEYS: frozenset[str] = frozenset(get_args(IndexKey))

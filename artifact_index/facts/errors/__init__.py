"""Errors and tests: what failed, where, and whether it was later resolved.

``diagnostics`` finds error messages in tool output, ``test_results``
parses test runners, ``checks`` knows which command checks what, and
``ledger`` keeps every error (``entries``) with its resolution
(``resolution``), the failed commands that were noise (``failures``) and
the findings that were there before the session (``pre_existing``).
"""

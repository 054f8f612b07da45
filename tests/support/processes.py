"""Stopping a command-line process a test started, whatever the test's outcome."""

from __future__ import annotations

import signal
import subprocess


def interrupt(process: subprocess.Popen[str], timeout: float = 60) -> tuple[str, str]:
    """Ctrl-C the process and collect its output; one that does not stop in time is killed.

    A test that failed on the way must not leave its watcher running (it would load the machine
    for every test after it): the kill comes first, then the failure is reported.
    """
    process.send_signal(signal.SIGINT)
    try:
        return process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        raise AssertionError(f"the process did not stop within {timeout} s of SIGINT") from None

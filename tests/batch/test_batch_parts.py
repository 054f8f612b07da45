"""The parts of a batch run: results in input order, output kept per call, the progress bar."""

from __future__ import annotations

import io
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

from artifact_index.batch.capture import capturing
from artifact_index.batch.progress_bar import Progress
from artifact_index.batch.runner import batch_size, run_in_order

_SECOND_DONE = threading.Event()


def _square(item: int) -> int:
    return item * item


def _slow_first(item: int) -> int:
    """The first item finishes only after the second has: it is last, whatever the scheduler does."""
    if item == 0:
        assert _SECOND_DONE.wait(timeout=30)
    elif item == 1:
        _SECOND_DONE.set()
    return item * item


def test_results_come_in_input_order_though_the_first_finishes_last() -> None:
    finished: list[int] = []
    with ThreadPoolExecutor(max_workers=3) as pool:
        results = list(
            run_in_order(
                _slow_first, list(range(8)), pool, workers=3, on_done=lambda: finished.append(1)
            )
        )
    assert results == [(n, n * n) for n in range(8)]
    assert len(finished) == 8


def test_each_thread_keeps_what_it_printed() -> None:
    outputs: dict[int, str] = {}
    barrier = threading.Barrier(2)

    def work(number: int) -> None:
        with capturing() as printed:
            barrier.wait()  # both threads capture at the same time
            for _ in range(50):
                print(f"thread {number}")
            print(f"warning {number}", file=sys.stderr)
        outputs[number] = printed.stdout + "|" + printed.stderr

    real = sys.stdout
    threads = [threading.Thread(target=work, args=(n,)) for n in (1, 2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert outputs == {n: f"thread {n}\n" * 50 + f"|warning {n}\n" for n in (1, 2)}
    assert sys.stdout is real


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_bar_is_drawn_on_a_terminal_only() -> None:
    terminal, pipe = _Terminal(), io.StringIO()
    for stream in (terminal, pipe):
        progress = Progress(3, noun="files", stream=stream)
        for _ in range(3):
            progress.advance()
        progress.clear()
    assert "\r\033[K[" in terminal.getvalue() and "3/3 files" in terminal.getvalue()
    assert terminal.getvalue().endswith("\r\033[K")
    assert pipe.getvalue() == ""


def test_a_batched_run_gives_each_item_its_result_in_order_and_counts_each_item_done() -> None:
    tasks: list[int] = []

    class Counting(ThreadPoolExecutor):
        def submit(self, fn, /, *args, **kwargs):  # type: ignore[no-untyped-def, override]
            tasks.append(len(args[1]))
            return super().submit(fn, *args, **kwargs)

    done: list[None] = []
    with Counting(max_workers=2) as pool:
        results = list(
            run_in_order(
                _square,
                list(range(10)),
                pool,
                workers=2,
                batch=4,
                on_done=lambda: done.append(None),
            )
        )
    assert results == [(n, n * n) for n in range(10)]
    assert tasks == [4, 4, 2] and len(done) == 10


def test_batches_stay_small_enough_to_keep_every_worker_busy() -> None:
    assert batch_size(10, 2) == 1
    assert batch_size(1_000, 2) == 32
    assert batch_size(160, 2) == 10


def test_the_bar_counts_the_transcripts_among_the_files_and_says_when_it_will_be_done() -> None:
    progress = Progress(4, noun="files", enabled=False)
    started = progress._started
    progress.advance()
    progress.advance()
    progress.found_transcript()
    assert progress.text(started + 10) == " 2/4 files, 1 transcripts  0.2/s  ETA 0:10"
    named = Progress(3, noun="transcripts", enabled=False)
    named.advance()
    assert named.text(named._started + 90) == " 1/3 transcripts  0.0/s  ETA 3:00"

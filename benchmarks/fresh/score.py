"""Re-score any build of the file trail on the fresh development set.

    python benchmarks/fresh/score.py [--cmd "artifact-index files {path} --json"]
        [--sessions-dir /work/fresh/sessions] [--holdout] [--formats a,b]
        [--only ID[,ID]] [--details] [--json] [--timeout S]

Every ``sessions/<id>.json`` next to this script describes one real session and
its hand-judged truth (see README.md). The command runs on the local copy of
the transcript (``<sessions-dir>/<id>.<ext>``, a ``.gz`` twin allowed; bring
missing ones with ``materialize.py``) and must print the JSON of
``artifact-index files --json``. ``{path}`` is the transcript, ``{format}``
the session's format, for a build that should skip detection.

What counts as predicted changed: entries of ``files`` and of ``unsubmitted``
whose status is created, modified or deleted. ``unsubmitted`` holds, for a
harness that takes a submission (mini-swe-agent, SWE-agent), what the session
changed and left out of it (scratch scripts in ``/tmp``, backups): changes of
the session all the same, which the truth here counts (see README.md). Read
and reverted files, and everything else (unknown effects, changes seen but not
made by the session, failed calls) do not. Both sides are normalized the same way: the workspace root stripped,
backslashes made slashes, a leading ``./`` dropped, and compared
case-insensitively when the session ran on Windows. Paths the truth marks
``uncertain`` are left out of both sides.

The per-format table gives sessions, errors (non-zero exit, timeout, bad
JSON), precision, recall, F1, status agreement on matched files, the share of
sessions exactly right, and how many were read as another format than the one
judged. ``--holdout`` adds the sessions of ``holdout/`` that carry a judged
truth (their transcripts under ``--holdout-dir``); those are for final blind
measurement only. Missing transcripts are listed, not fatal. The exit status
is 0 whatever the scores; it is 2 only when no session JSON matched at all.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
DEFAULT_SESSIONS_DIR = Path("/work/fresh/sessions")
# Holdout transcripts live apart, so that a folder-wide run on the development
# transcripts can never read them by accident.
DEFAULT_HOLDOUT_DIR = Path("/work/fresh/holdout")
CHANGED = frozenset({"created", "modified", "deleted"})


@dataclass
class Session:
    """One judged session, as its JSON file describes it."""

    id: str
    format: str
    platform: str
    root: str | None
    changed: dict[str, str]
    uncertain: dict[str, str]
    path: str
    source: Path
    holdout: bool

    @property
    def case_insensitive(self) -> bool:
        return self.platform == "windows"


@dataclass
class Tally:
    sessions: int = 0
    errors: int = 0
    misdetected: int = 0
    tp: int = 0
    fp: int = 0
    fn: int = 0
    status_ok: int = 0
    exact: int = 0
    seconds: float = 0.0

    def add(self, other: Tally) -> None:
        for name in self.__dataclass_fields__:
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def prf(self) -> tuple[float, float, float]:
        p = self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0
        r = self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0
        f1 = 2 * p * r / (p + r) if p + r else 0.0
        return p, r, f1

    def status_agreement(self) -> float:
        return self.status_ok / self.tp if self.tp else 1.0

    def summary(self) -> dict[str, Any]:
        p, r, f1 = self.prf()
        return {
            "sessions": self.sessions,
            "errors": self.errors,
            "misdetected": self.misdetected,
            "precision": round(p, 4),
            "recall": round(r, 4),
            "f1": round(f1, 4),
            "status_agreement": round(self.status_agreement(), 4),
            "exact_sessions": self.exact,
        }


@dataclass
class Outcome:
    """What scoring one session found."""

    session: Session
    tally: Tally
    error: str | None = None
    detected: str | None = None
    false_positives: dict[str, str] = field(default_factory=dict)
    false_negatives: dict[str, str] = field(default_factory=dict)
    status_mismatches: dict[str, tuple[str, str]] = field(default_factory=dict)


def load_sessions(folders: Iterable[tuple[Path, bool]]) -> Iterator[Session]:
    """Every session JSON of the given folders; holdout ones only once judged."""
    for folder, holdout in folders:
        for source in sorted(folder.glob("*.json")):
            try:
                raw = json.loads(source.read_text(encoding="utf-8"))
            except (OSError, json.JSONDecodeError) as err:
                print(f"score: skipping {source}: {err}", file=sys.stderr)
                continue
            changed = raw.get("changed")
            # A holdout session is kept unjudged (changed null or empty, no
            # judged_from) until its final measurement; it has no truth yet.
            if holdout and (changed is None or (not changed and not raw.get("judged_from"))):
                continue
            yield Session(
                id=str(raw["id"]),
                format=str(raw.get("format") or "?"),
                platform=str(raw.get("platform") or "posix"),
                root=raw.get("root"),
                changed=dict(changed or {}),
                uncertain=dict(raw.get("uncertain") or {}),
                path=str(raw.get("path") or ""),
                source=source,
                holdout=holdout,
            )


def transcript_for(session: Session, sessions_dir: Path) -> Path | None:
    """The local copy: <id> plus the original extension, or any <id>.* twin."""
    name = Path(session.path).name
    suffix = "".join(Path(name).suffixes[-1:]) if "." in name else ""
    candidates = [sessions_dir / f"{session.id}{suffix}", sessions_dir / f"{session.id}{suffix}.gz"]
    candidates += sorted(sessions_dir.glob(f"{session.id}.*"))
    for candidate in candidates:
        if candidate.is_file():
            return candidate
    return None


def normalize(path: str, roots: Iterable[str | None], fold_case: bool) -> str:
    """The comparable form of a path, the way shared/eval/score.py makes it."""
    p = path.replace("\\", "/")
    for root in roots:
        if not root:
            continue
        r = root.replace("\\", "/").rstrip("/")
        if p.lower().startswith(r.lower() + "/"):
            p = p[len(r) + 1 :]
            break
    while p.startswith("./"):
        p = p[2:]
    return p.lower() if fold_case else p


def default_command() -> str | None:
    """The artifact-index next to the running python, else the one on PATH, else this checkout's .venv's.

    None when there is none: a run with no tool to score says so once, not once per session.
    """
    checkout_venv = HERE.parent.parent / ".venv" / "bin" / "artifact-index"
    for candidate in (Path(sys.executable).parent / "artifact-index", checkout_venv):
        if candidate.exists():
            return f"{shlex.quote(str(candidate))} files {{path}} --json"
    on_path = shutil.which("artifact-index")
    return f"{shlex.quote(on_path)} files {{path}} --json" if on_path else None


def run(cmd: str, transcript: Path, fmt: str, timeout: float) -> tuple[Any, str | None, float]:
    argv = [a.replace("{path}", str(transcript)).replace("{format}", fmt) for a in shlex.split(cmd)]
    started = time.perf_counter()
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, f"timeout after {timeout:g}s", time.perf_counter() - started
    except OSError as err:
        return None, f"cannot run {argv[0]}: {err}", time.perf_counter() - started
    elapsed = time.perf_counter() - started
    if done.returncode != 0:
        return None, f"exit {done.returncode}: {done.stderr.strip()[-300:]}", elapsed
    try:
        return json.loads(done.stdout), None, elapsed
    except json.JSONDecodeError as err:
        return None, f"bad JSON ({err}): {done.stdout[:200]!r}", elapsed


def predicted_changes(output: Any, roots: list[str | None], fold_case: bool) -> dict[str, str]:
    """Normalized path -> status of the files the build says the session changed."""
    got: dict[str, str] = {}
    listed = output if isinstance(output, dict) else {}
    files = [*(listed.get("files") or []), *(listed.get("unsubmitted") or [])]
    for entry in files:
        if not isinstance(entry, dict) or entry.get("status") not in CHANGED:
            continue
        key = normalize(str(entry.get("path", "")), roots, fold_case)
        # Two names folding to one path keep the first status listed.
        got.setdefault(key, str(entry["status"]))
    return got


def score_session(session: Session, output: Any) -> Outcome:
    fold = session.case_insensitive
    pred_root = output.get("root") if isinstance(output, dict) else None
    roots = [session.root, pred_root]
    uncertain = {normalize(p, roots, fold) for p in session.uncertain}
    truth = {
        key: status
        for p, status in session.changed.items()
        if (key := normalize(p, roots, fold)) not in uncertain
    }
    got = {p: s for p, s in predicted_changes(output, roots, fold).items() if p not in uncertain}
    matched = set(got) & set(truth)
    tally = Tally(sessions=1)
    tally.tp = len(matched)
    outcome = Outcome(session, tally)
    outcome.false_positives = {p: got[p] for p in sorted(set(got) - set(truth))}
    outcome.false_negatives = {p: truth[p] for p in sorted(set(truth) - set(got))}
    outcome.status_mismatches = {
        p: (truth[p], got[p]) for p in sorted(matched) if got[p] != truth[p]
    }
    tally.fp = len(outcome.false_positives)
    tally.fn = len(outcome.false_negatives)
    tally.status_ok = tally.tp - len(outcome.status_mismatches)
    tally.exact = int(not tally.fp and not tally.fn)
    detected = output.get("format") if isinstance(output, dict) else None
    outcome.detected = str(detected) if detected else None
    tally.misdetected = int(outcome.detected is not None and outcome.detected != session.format)
    return outcome


def score_one(session: Session, transcript: Path, cmd: str, timeout: float) -> Outcome:
    output, error, elapsed = run(cmd, transcript, session.format, timeout)
    if error is not None:
        tally = Tally(sessions=1, errors=1, fn=len(set(session.changed) - set(session.uncertain)))
        tally.seconds = elapsed
        outcome = Outcome(session, tally, error=error)
        outcome.false_negatives = {
            p: s for p, s in sorted(session.changed.items()) if p not in session.uncertain
        }
        return outcome
    outcome = score_session(session, output)
    outcome.tally.seconds = elapsed
    return outcome


HEADER = (
    f"{'format':16} {'sess':>5} {'err':>4} {'P':>6} {'R':>6} {'F1':>6} "
    f"{'status':>6} {'exact':>6} {'misdet':>6} {'s/sess':>7}"
)


def row(name: str, t: Tally) -> str:
    p, r, f1 = t.prf()
    n = max(t.sessions, 1)
    return (
        f"{name:16} {t.sessions:>5} {t.errors:>4} {p:>6.3f} {r:>6.3f} {f1:>6.3f} "
        f"{t.status_agreement():>6.3f} {t.exact / n:>6.2f} {t.misdetected:>6} {t.seconds / n:>7.2f}"
    )


def print_details(outcome: Outcome) -> None:
    s = outcome.session
    if outcome.error:
        print(f"# {s.format}/{s.id}: ERROR {outcome.error}")
    elif not (outcome.false_positives or outcome.false_negatives or outcome.status_mismatches):
        return
    else:
        seen = f" (read as {outcome.detected})" if outcome.tally.misdetected else ""
        print(f"# {s.format}/{s.id}{seen}")
    for p, status in outcome.false_positives.items():
        print(f"    FP {status:9} {p}")
    for p, status in outcome.false_negatives.items():
        print(f"    FN {status:9} {p}")
    for p, (want, got) in outcome.status_mismatches.items():
        print(f"    ST {got:9} {p}  (truth: {want})")


def is_readable(path: Path) -> bool:
    """A quick guard against an empty or truncated local copy."""
    try:
        if path.suffix == ".gz":
            with gzip.open(path, "rb") as fh:
                return bool(fh.read(1))
        return path.stat().st_size > 0
    except OSError:
        return False


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cmd", default=None, help="command printing files --json; {path}, {format}")
    ap.add_argument("--sessions-dir", type=Path, default=DEFAULT_SESSIONS_DIR)
    ap.add_argument("--holdout-dir", type=Path, default=DEFAULT_HOLDOUT_DIR)
    ap.add_argument("--set-dir", type=Path, default=HERE, help="folder holding sessions/")
    ap.add_argument("--holdout", action="store_true", help="also the judged holdout sessions")
    ap.add_argument("--formats", help="comma-separated formats to score (default: all)")
    ap.add_argument("--only", help="comma-separated session ids to score")
    ap.add_argument("--details", action="store_true", help="list every FP, FN and status miss")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON instead")
    ap.add_argument("--timeout", type=float, default=120.0)
    args = ap.parse_args(argv)

    cmd = args.cmd or default_command()
    if cmd is None:
        print(
            "score.py: no artifact-index to score: none next to this python, in the checkout's "
            ".venv or on PATH (install the project, or pass --cmd)",
            file=sys.stderr,
        )
        return 2
    folders = [(args.set_dir / "sessions", False)]
    if args.holdout:
        folders.append((args.set_dir / "holdout", True))
    wanted = set(args.formats.split(",")) if args.formats else None
    only = set(args.only.split(",")) if args.only else None

    per_format: dict[str, Tally] = {}
    outcomes: list[Outcome] = []
    missing: list[Session] = []
    listed = 0
    for session in load_sessions(folders):
        if (wanted and session.format not in wanted) or (only and session.id not in only):
            continue
        listed += 1
        local = args.holdout_dir if session.holdout else args.sessions_dir
        transcript = transcript_for(session, local)
        if transcript is None or not is_readable(transcript):
            missing.append(session)
            continue
        outcome = score_one(session, transcript, cmd, args.timeout)
        outcomes.append(outcome)
        per_format.setdefault(session.format, Tally()).add(outcome.tally)
        if args.details and not args.json:
            print_details(outcome)

    total = Tally()
    for tally in per_format.values():
        total.add(tally)
    if args.json:
        print(
            json.dumps(
                {
                    "command": cmd,
                    "all": total.summary(),
                    "formats": {f: t.summary() for f, t in sorted(per_format.items())},
                    "missing": [s.id for s in missing],
                    "sessions": [
                        {
                            "id": o.session.id,
                            "format": o.session.format,
                            "detected": o.detected,
                            "error": o.error,
                            "false_positives": o.false_positives,
                            "false_negatives": o.false_negatives,
                            "status_mismatches": {
                                p: {"truth": w, "got": g}
                                for p, (w, g) in o.status_mismatches.items()
                            },
                        }
                        for o in outcomes
                    ],
                },
                indent=1,
            )
        )
    elif outcomes:
        print(HEADER)
        for fmt in sorted(per_format):
            print(row(fmt, per_format[fmt]))
        print(row("ALL", total))
        for o in outcomes:
            if o.error:
                print(f"! {o.session.format}/{o.session.id}: {o.error}")
    if missing:
        print(
            f"score: {len(missing)} transcript(s) missing locally "
            f"(run python {os.path.relpath(HERE / 'materialize.py')}): "
            + ", ".join(s.id for s in missing[:10])
            + (" ..." if len(missing) > 10 else ""),
            file=sys.stderr,
        )
    if not listed:
        print(f"score: no session JSON matched under {args.set_dir}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())

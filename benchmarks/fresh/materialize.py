"""Bring the transcripts of the fresh set onto this machine from fetched mirrors.

    python benchmarks/fresh/materialize.py [--mirror /work/.mirror]
        [--sessions-dir /work/fresh/sessions] [--holdout-dir /work/fresh/holdout]
        [--no-holdout] [--batch LABEL] [--gzip] [--check]

For every session JSON (``sessions/*.json`` and ``holdout/*.json``) whose
transcript is not yet present locally, the file is read out of the fetched
mirror of its repository (``<mirror>/<owner>+<name>/<git dir>``) with
``git show COMMIT:PATH``, the session's ``redact`` regular expressions are
applied (each match becomes ``[REDACTED]``), and it is written as
``<id><extension>`` (gzipped with ``--gzip``). Holdout transcripts go to their
own folder so that no run over the development folder reads them.
``--batch LABEL`` writes only the holdout sessions of that batch (their
``batch`` field), so that a new batch gets a folder of its own, apart from the
holdout batches that earlier builds have already been measured on.

Repositories that are not fetched yet are listed at the end: fetch them (the
``fetch`` tool of a session brings ``github:<owner>/<name>`` into the mirror)
and run this again. ``--check`` only reports what is missing.
Exit status: 0 when every transcript is present afterwards, 1 otherwise.
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_MIRROR = Path("/work/.mirror")
DEFAULT_SESSIONS_DIR = Path("/work/fresh/sessions")
DEFAULT_HOLDOUT_DIR = Path("/work/fresh/holdout")
REDACTED = b"[REDACTED]"


@dataclass
class Wanted:
    id: str
    repo: str
    commit: str
    path: str
    redact: list[str]
    target_dir: Path

    @property
    def extension(self) -> str:
        name = Path(self.path).name
        return Path(name).suffix if "." in name else ""


def wanted_sessions(
    set_dir: Path, sessions_dir: Path, holdout_dir: Path | None, batch: str | None = None
) -> list[Wanted]:
    """The sessions to bring; with ``batch``, only the holdout sessions of that batch."""
    folders = [] if batch is not None else [(set_dir / "sessions", sessions_dir)]
    if holdout_dir is not None:
        folders.append((set_dir / "holdout", holdout_dir))
    out: list[Wanted] = []
    for folder, target in folders:
        for source in sorted(folder.glob("*.json")):
            try:
                raw = json.loads(source.read_text(encoding="utf-8"))
                if batch is not None and raw.get("batch") != batch:
                    continue
                out.append(
                    Wanted(
                        id=str(raw["id"]),
                        repo=str(raw["repo"]),
                        commit=str(raw["commit"]),
                        path=str(raw["path"]),
                        redact=[str(r) for r in raw.get("redact") or []],
                        target_dir=target,
                    )
                )
            except (OSError, json.JSONDecodeError, KeyError) as err:
                print(f"materialize: skipping {source}: {err}", file=sys.stderr)
    return out


def present(w: Wanted) -> bool:
    return any((w.target_dir / f"{w.id}{w.extension}{gz}").is_file() for gz in ("", ".gz")) or any(
        w.target_dir.glob(f"{w.id}.*")
    )


def git_dir_for(mirror: Path, repo: str) -> Path | None:
    """The git directory fetch left for owner/name, wherever inside its folder."""
    base = mirror / repo.replace("/", "+", 1)
    if not base.is_dir():
        return None
    for candidate in [base / "repo", base, *sorted(p for p in base.iterdir() if p.is_dir())]:
        if (candidate / "HEAD").is_file() and (candidate / "objects").is_dir():
            return candidate
    return None


def redact(data: bytes, patterns: list[str]) -> tuple[bytes, int]:
    hits = 0
    for pattern in patterns:
        data, n = re.subn(pattern.encode("utf-8"), REDACTED, data)
        hits += n
    return data, hits


def materialize(w: Wanted, git_dir: Path, use_gzip: bool) -> str | None:
    """Write one transcript; the reason it could not be, or None."""
    shown = subprocess.run(
        ["git", f"--git-dir={git_dir}", "show", f"{w.commit}:{w.path}"],
        capture_output=True,
    )
    if shown.returncode != 0:
        why = shown.stderr.decode("utf-8", "replace").strip().splitlines()
        return (
            f"git show {w.commit[:12]}:{w.path} failed ({why[-1] if why else 'no reason'}); "
            "the snapshot may lack this commit or a file of 4 MiB or more"
        )
    data, hits = redact(shown.stdout, w.redact)
    if w.redact and not hits:
        print(f"materialize: note: {w.id}: no redact pattern matched", file=sys.stderr)
    w.target_dir.mkdir(parents=True, exist_ok=True)
    target = w.target_dir / f"{w.id}{w.extension}"
    if use_gzip:
        target = target.with_name(target.name + ".gz")
        with gzip.open(target, "wb") as fh:
            fh.write(data)
    else:
        target.write_bytes(data)
    return None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mirror", type=Path, default=DEFAULT_MIRROR)
    ap.add_argument("--set-dir", type=Path, default=HERE, help="folder holding sessions/")
    ap.add_argument("--sessions-dir", type=Path, default=DEFAULT_SESSIONS_DIR)
    ap.add_argument("--holdout-dir", type=Path, default=DEFAULT_HOLDOUT_DIR)
    ap.add_argument("--no-holdout", action="store_true", help="leave the holdout transcripts out")
    ap.add_argument(
        "--batch",
        metavar="LABEL",
        help="only the holdout sessions of this batch (into --holdout-dir)",
    )
    ap.add_argument("--gzip", action="store_true", help="write <id><ext>.gz")
    ap.add_argument("--check", action="store_true", help="only report what is missing")
    args = ap.parse_args(argv)

    if args.batch is not None and args.no_holdout:
        print("materialize: --batch selects holdout sessions; drop --no-holdout", file=sys.stderr)
        return 2
    holdout_dir = None if args.no_holdout else args.holdout_dir
    wanted = wanted_sessions(args.set_dir, args.sessions_dir, holdout_dir, args.batch)
    done = already = 0
    unfetched: dict[str, int] = {}
    failed: list[str] = []
    for w in wanted:
        if present(w):
            already += 1
            continue
        git_dir = git_dir_for(args.mirror, w.repo)
        if git_dir is None:
            unfetched[w.repo] = unfetched.get(w.repo, 0) + 1
            continue
        if args.check:
            failed.append(f"{w.id}: not materialized yet (mirror present)")
            continue
        reason = materialize(w, git_dir, args.gzip)
        if reason is None:
            done += 1
        else:
            failed.append(f"{w.id}: {reason}")

    print(
        f"materialize: {len(wanted)} session(s): {already} already present, "
        f"{done} written, {len(failed)} failed, "
        f"{sum(unfetched.values())} waiting for {len(unfetched)} repository fetch(es)"
    )
    for line in failed:
        print(f"  ! {line}")
    if unfetched:
        print("fetch these repositories (github:<owner>/<name>), then run this again:")
        for repo, n in sorted(unfetched.items()):
            print(f"  github:{repo}  ({n} session(s))")
    return 0 if not failed and not unfetched else 1


if __name__ == "__main__":
    sys.exit(main())

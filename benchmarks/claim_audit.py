"""Every statement the hook would make at a cut point of a transcript, with its evidence, checked against the transcript.

    .venv/bin/python benchmarks/claim_audit.py TRANSCRIPT --cut LINE [--show]
    .venv/bin/python benchmarks/claim_audit.py --corpus ../shared/corpus [--limit N]
    .venv/bin/python benchmarks/claim_audit.py --fresh /work/fresh/sessions [--every 2]
    .venv/bin/python benchmarks/claim_audit.py ... --json out.json
    .venv/bin/python benchmarks/claim_audit.py --points benchmarks/claims/points.tsv \
        --sessions /work/fresh/sessions --judgements benchmarks/claims/judgements.jsonl \
        [--listing listing.md] [--unjudged todo.jsonl]

A cut at line ``LINE`` keeps the transcript's lines before it (what the
agent had when a compaction fell there).  ``--corpus`` cuts every Claude
Code transcript of the corpus at each of its compaction boundaries;
``--fresh`` cuts each line-based transcript of a folder at ``--every``
evenly spread points (the last one at its end), and a whole-document
transcript at its end.

For each point the hook's context (the SessionStart ``additionalContext``)
is built and split into statements, one per listed item; each is matched to
the index's claims (:func:`artifact_index.trail.statements.claims`), whose
evidence names the calls it rests on and the transcript lines they are on.
``--show`` prints them, for a reader to audit by hand.

Then mechanical checks that need no judgement flag statements that are
false by the transcript itself, by kind:

* ``quote``: a quoted line (changed lines, first lines, headings) that is
  nowhere in the transcript;
* ``heading``: a heading that the transcript never wrote as a Markdown
  heading outside fenced code;
* ``reference``: "(see X)" with no section X in the output;
* ``pending``: a file said read (unchanged) that a call with no result
  recorded names;
* ``commit_story``: a file said changed-and-reverted that a commit printed
  by the session holds, told without that commit;
* ``count``: ``go test`` counts said as tests when only package lines
  ("ok  pkg") were printed;
* ``superseded``: failing tests listed for a run that a later run of the same
  runner, at least as broad, passed;
* ``open_error``: an [OPEN] error whose command a later call ran again, or
  ran without a leading wrapper word, and succeeded.

``--points`` reads the cut points from a file (one ``NAME<TAB>CUT`` a line,
NAME a transcript of ``--sessions``).  ``--judgements`` (given once or more;
a later file's verdict overrides) reads a reviewer's
verdicts (JSON lines: ``transcript``, ``cut``, ``section``, ``text``,
``verdict`` "true" or "false", ``why``), matches each statement to the one
judged with the same text at the same point, and prints the truth rate by
kind of claim, and every statement judged false with why.  A statement no
verdict matches is unjudged (new wording, a new point): ``--unjudged`` writes
them for the reviewer, ``--listing`` writes every point's statements with
their evidence (transcript lines) for reading beside the transcript.

A measurement: it prints figures; the tests assert behaviour.
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from artifact_index.facts.claims import Claim  # noqa: E402
from artifact_index.ingestion.events import ToolCall, ToolResult  # noqa: E402
from artifact_index.ingestion.loading import open_transcript  # noqa: E402
from artifact_index.trail.index import ArtifactIndex  # noqa: E402
from artifact_index.trail.statements import claims  # noqa: E402
from artifact_index.trail.tracker import Tracker  # noqa: E402
from summarizer.integrations.hooks import file_trail_context  # noqa: E402
from summarizer.sections.session_facts import session_facts  # noqa: E402

_LINE_FORMATS = (".jsonl", ".md", ".txt")
# A code span as CommonMark reads it: a run of backticks, the text, the same run again (a text holding
# backticks is fenced by a longer run, padded by a space when it starts or ends with one).
_QUOTE = re.compile(r"(?<!`)(`+)(?!`) ?((?:(?!\1).){4,}?) ?(?<!`)\1(?!`)")
# The quoted list ends where the statement goes on ("; via `mv …`" names the command, not a line).
_QUOTED_PARTS = re.compile(r"(?:changed lines|first lines|headings): (.*?)(?:; (?:via|by) `|$)")
_REFERENCE = re.compile(r"\(see ([A-Z][\w ]+)\)")
_GO_PACKAGE_LINE = re.compile(r"^ok\s+\S+\s+[\d.]+s", re.M)
_GO_TEST_LINE = re.compile(r"^(?:--- (?:PASS|FAIL)|=== RUN)", re.M)
_COMMIT_LINE = re.compile(r"\[[^\]\s]+ ([0-9a-f]{7,40})\]")
_FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")


@dataclass
class Statement:
    section: str
    text: str
    evidence: list[str] = field(default_factory=list)  # "claim: ... (certainty) lines ..."
    flags: list[str] = field(default_factory=list)  # "kind: why"


@dataclass
class Point:
    transcript: str
    cut: int  # the first line left out (lines before it are kept); 0: the whole transcript
    statements: list[Statement]


# --- the transcript as text ---------------------------------------------------------------------


def _read_lines(path: Path) -> list[str]:
    raw = gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()
    return raw.decode("utf-8", errors="replace").splitlines(keepends=True)


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
        if value[:1] in ("{", "["):
            # A call's arguments kept as a JSON string (Codex's function_call): its strings, unescaped.
            try:
                inner = json.loads(value)
            except ValueError:
                return
            if not isinstance(inner, str):
                yield from _strings(inner)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


# Between two strings of the transcript: a fence one string leaves open (a truncated output, a
# message that mentions ```) does not run on into the next.  str.split() takes it for whitespace.
_STRING_BREAK = "\x1e"


def _decoded(lines: list[str]) -> str:
    """Every string the transcript holds, JSON unescaped, each on lines of its own; plain text as it is."""
    out: list[str] = []
    for line in lines:
        try:
            out.extend(_strings(json.loads(line)))
        except (json.JSONDecodeError, ValueError):
            out.append(line)
    if len(out) == len(lines):  # not JSON lines: a whole document, or plain text
        whole = "".join(lines)
        try:
            return f"\n{_STRING_BREAK}\n".join(_strings(json.loads(whole)))
        except (json.JSONDecodeError, ValueError):
            # A JSON document cut at a line (a pretty-printed export cut short) parses no more:
            # its string literals, each unescaped, are still what it shows.
            literals = [_literal(m.group(0)) for m in _JSON_STRING.finditer(whole)]
            return whole + f"\n{_STRING_BREAK}\n" + f"\n{_STRING_BREAK}\n".join(literals)
    return f"\n{_STRING_BREAK}\n".join(out)


_JSON_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')


def _literal(text: str) -> str:
    try:
        value = json.loads(text)
    except ValueError:
        return text
    return value if isinstance(value, str) else text


def _normalized(text: str) -> str:
    return " ".join(text.split())


def _is_heading(part: str, headings: set[str]) -> bool:
    """Whether a quoted heading is one of ``headings``; a heading cut short ("…") by its start."""
    if not part.endswith("…"):
        return _normalized(part) in headings
    start = _normalized(part.rstrip("…"))
    return any(heading.startswith(start) for heading in headings)


def _headings_outside_fences(text: str) -> set[str]:
    found: set[str] = set()
    fence: str | None = None
    for line in text.split("\n"):
        if line == _STRING_BREAK:
            fence = None
            continue
        opening = _FENCE.match(line)
        if opening is not None:
            fence = (
                None
                if fence and opening.group(1).startswith(fence)
                else fence or opening.group(1)[:3]
            )
            continue
        # A patch's added line (`+# Title`) is the file's line too.
        text = line[1:] if line.startswith("+") and not line.startswith("++") else line
        if fence is None and re.match(r"^#{1,6}\s", text):
            found.add(_normalized(text.lstrip("#")))
    return found


# --- building the index at a cut --------------------------------------------------------------


def _index_at(
    path: Path, lines: list[str], cut: int, work: Path
) -> tuple[ArtifactIndex, list[Any]]:
    kept = lines[: cut - 1] if cut else lines
    name = path.name[:-3] if path.suffix == ".gz" else path.name
    partial = work / name
    partial.write_text("".join(kept), encoding="utf-8")
    loaded = open_transcript(partial)
    events = list(loaded.events())
    tracker = Tracker(format=loaded.adapter.name)
    tracker.feed_all(events)
    return tracker.index, events


def _call_lines(lines: list[str], cut: int) -> dict[str, list[int]]:
    """The lines (1-based) each call id appears on: its call first, its result after."""
    where: dict[str, list[int]] = {}
    ids = re.compile(r'"(?:id|tool_use_id|call_id|callID|toolCallId)"\s*:\s*"([^"]{4,})"')
    for number, line in enumerate(lines[: cut - 1] if cut else lines, start=1):
        for found in ids.findall(line):
            where.setdefault(found, []).append(number)
    return where


# --- statements and their evidence -------------------------------------------------------------


def _statements(hook: str) -> list[Statement]:
    found: list[Statement] = []
    section = ""
    for line in hook.splitlines():
        if line.startswith("## "):
            section = line[3:]
        elif line.startswith("# ") or not line.strip() or line.startswith("  ```"):
            continue
        elif line.startswith("  ") and found:
            found[-1].text += "\n" + line
        else:
            found.append(Statement(section, line))
    return found


def _evidence(statement: Statement, found: list[Claim], calls: dict[str, list[int]]) -> None:
    for claim in found:
        subject = claim.subject.splitlines()[0] if claim.subject else ""
        if len(subject) < 3 or subject not in statement.text:
            continue
        refs = []
        for e in claim.evidence:
            lines = calls.get(e.call_id or "", [])
            at = f"lines {','.join(map(str, lines[:2]))}" if lines else f"turn {e.turn}"
            refs.append(f"{e.shows} ({at})")
        statement.evidence.append(
            f"{claim.kind}: {claim.statement} [{claim.certainty}] " + "; ".join(refs)
        )


# --- the mechanical checks -----------------------------------------------------------------------


def _words(command: str) -> list[str]:
    return [w for w in command.split() if not w.startswith("-")]


def _check(
    statements: list[Statement], hook: str, text: str, events: list[Any], index: ArtifactIndex
) -> None:
    flat = _normalized(text).replace("`", "'")
    headings = _headings_outside_fences(text)
    titles = {line[3:].strip().lower() for line in hook.splitlines() if line.startswith("## ")}
    results = {e.call_id: e for e in events if isinstance(e, ToolResult)}
    shell_runs = [
        (call, results.get(call.call_id))
        for call in events
        if isinstance(call, ToolCall) and any(op.command for op in call.operations)
    ]
    # The files a call with no result recorded names (its claim is unrecorded).
    pending_paths = {e.path for e in index.files() if e.certainty == "unrecorded"}
    committed = set()
    for _, result in shell_runs:
        if result is not None and result.output and _COMMIT_LINE.search(result.output):
            committed |= set(re.findall(r"(?:create|delete) mode \d+ (\S+)", result.output))
    for s in statements:
        quoted = _QUOTED_PARTS.search(s.text)
        if quoted:
            is_heading = "headings: " in s.text
            for _, part in _QUOTE.findall(quoted.group(1)):
                # A cut quote ("…tail", "head…") and a replaced line ("old → new"): each piece as written.
                pieces = [p for p in re.split(r" → |…", part) if len(p.strip()) >= 4]
                if any(_normalized(p).replace("`", "'") not in flat for p in pieces):
                    s.flags.append(f"quote: `{part[:80]}` is not in the transcript")
                elif is_heading and not _is_heading(part, headings):
                    s.flags.append(f"heading: `{part[:80]}` is not a heading outside fenced code")
        for ref in _REFERENCE.findall(s.text):
            if ref.strip().lower() not in titles:
                s.flags.append(f"reference: (see {ref}) and no such section is shown")
        if s.section.startswith("Files read"):
            for path in pending_paths:
                if f"`{path}`" in s.text:
                    s.flags.append(f"pending: `{path}` is named by a call with no result recorded")
        if s.section.startswith(
            (
                "Files changed and then reverted",
                "Files changed, with no net",
                "Files changed, then put back",
            )
        ):
            for path in committed:
                shown = s.text.split("`")[1] if "`" in s.text else "\0"
                if (path == shown or shown.endswith("/" + path)) and "committed in" not in s.text:
                    s.flags.append(
                        f"commit_story: `{path}` was committed by the session on the way"
                    )
        if s.section == "Test status" and s.text.startswith("- `go test"):
            _go_counts(s, shell_runs)
        if s.section == "Test status" and "failing:" in s.text and "covering it" not in s.text:
            _superseded(s, shell_runs)
        if s.text.startswith("- [OPEN]"):
            _reran(s, shell_runs)


def _go_counts(s: Statement, shell_runs: list[tuple[ToolCall, ToolResult | None]]) -> None:
    if "packages" in s.text or not re.search(r"\d+ passed", s.text):
        return
    command = s.text.split("`")[1][:40]
    # The run the statement names: its command (a command holding it), at its turn when said.
    turn = re.search(r"\(last run turn (\d+)", s.text)
    outputs = [
        r.output or ""
        for c, r in shell_runs
        if r is not None
        and (turn is None or c.turn == int(turn.group(1)))
        and any(command in (op.command or "") for op in c.operations)
    ]
    if outputs and _GO_PACKAGE_LINE.search(outputs[-1]) and not _GO_TEST_LINE.search(outputs[-1]):
        s.flags.append("count: `go test` printed packages, said as tests")


def _superseded(s: Statement, shell_runs: list[tuple[ToolCall, ToolResult | None]]) -> None:
    match = re.match(r"- `([^`]+)` \(last run turn (\d+)\)", s.text)
    if not match:
        return
    command, turn = match.group(1), int(match.group(2))
    runner = _words(command)[:1]
    for call, result in shell_runs:
        later = next((op.command for op in call.operations if op.command), "") or ""
        if call.turn <= turn or result is None or result.status != "success":
            continue
        words = _words(later)
        if (
            words[:1] == runner
            and len(words) <= 1
            and re.search(r"\b\d+ passed\b(?!.*\bfailed)", result.output or "")
        ):
            s.flags.append(f"superseded: a later `{later[:60]}` (turn {call.turn}) passed")
            return


def _reran(s: Statement, shell_runs: list[tuple[ToolCall, ToolResult | None]]) -> None:
    match = re.search(r"turns? (\d+)(?:–(\d+))? from `([^`]+)`", s.text)
    if not match:
        return
    last = int(match.group(2) or match.group(1))
    command = match.group(3).rstrip("…")
    wanted = _words(command)
    for call, result in shell_runs:
        later = next((op.command for op in call.operations if op.command), "") or ""
        if call.turn <= last or result is None or result.status != "success":
            continue
        words = _words(later)
        if words and (
            words == wanted or (len(words) < len(wanted) and wanted[-len(words) :] == words)
        ):
            s.flags.append(
                f"open_error: `{later[:60]}` ran again at turn {call.turn} and succeeded"
            )
            return


# --- judgements ----------------------------------------------------------------------------------

# The kind of claim a statement makes, by the section it is listed in (first match).
_KINDS = (
    ("Files created", "file_changed"),
    ("Files modified", "file_changed"),
    ("Files deleted", "file_changed"),
    ("Files changed", "file_put_back"),
    ("Files read", "file_read"),
    ("Issued", "pending_call"),
    ("Errors", "error_state"),
    ("Test status", "test_state"),
    ("Open tasks", "task_state"),
)


def claim_kind(statement: Statement) -> str:
    """The kind of claim ``statement`` makes: its section's, a check owed apart from test results."""
    if statement.section == "Test status" and statement.text.startswith("- Not "):
        return "check_owed"
    return next((kind for title, kind in _KINDS if statement.section.startswith(title)), "other")


Key = tuple[str, int, str, str]


def _key(transcript: str, cut: int, section: str, text: str) -> Key:
    return (Path(transcript).name, cut, section, " ".join(text.split()))


def load_judgements(path: Path) -> dict[Key, dict[str, Any]]:
    """The verdicts of ``path`` (JSON lines), by point and statement; a later line overrides."""
    found: dict[Key, dict[str, Any]] = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
            key = _key(item["transcript"], int(item["cut"]), item["section"], item["text"])
        except (json.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
            raise SystemExit(f"{path}:{number}: not a judgement ({exc})") from exc
        if item.get("verdict") not in ("true", "false"):
            raise SystemExit(f'{path}:{number}: verdict must be "true" or "false"')
        found[key] = item
    return found


@dataclass
class Tally:
    statements: int = 0
    judged: int = 0
    false: int = 0

    def rate(self) -> str:
        return f"{(self.judged - self.false) / self.judged:.1%}" if self.judged else "-"


def tally(
    points: list[Point], judgements: dict[Key, dict[str, Any]]
) -> tuple[dict[str, Tally], list[tuple[Point, Statement, dict[str, Any]]], list[Key]]:
    """Per kind: statements, judged, judged false; the false ones; the unjudged ones."""
    kinds: dict[str, Tally] = {}
    false: list[tuple[Point, Statement, dict[str, Any]]] = []
    unjudged: list[Key] = []
    for point in points:
        for s in point.statements:
            t = kinds.setdefault(claim_kind(s), Tally())
            t.statements += 1
            key = _key(point.transcript, point.cut, s.section, s.text)
            verdict = judgements.get(key)
            if verdict is None:
                unjudged.append(key)
                continue
            t.judged += 1
            if verdict["verdict"] == "false":
                t.false += 1
                false.append((point, s, verdict))
    return kinds, false, unjudged


def table(kinds: dict[str, Tally]) -> str:
    """The truth rate by kind, and overall, as a Markdown table."""
    rows = ["| kind | statements | judged | false | true rate |", "|---|---:|---:|---:|---:|"]
    total = Tally()
    for kind, t in sorted(kinds.items()):
        rows.append(f"| {kind} | {t.statements} | {t.judged} | {t.false} | {t.rate()} |")
        total.statements += t.statements
        total.judged += t.judged
        total.false += t.false
    rows.append(f"| all | {total.statements} | {total.judged} | {total.false} | {total.rate()} |")
    return "\n".join(rows)


def listing(points: list[Point]) -> str:
    """Every point's statements with their evidence, for a reviewer reading the transcript beside it."""
    out = []
    for point in points:
        out.append(f"# {Path(point.transcript).name} cut {point.cut}\n")
        for s in point.statements:
            out.append(f"- [{s.section}] {s.text}")
            out += [f"    evidence: {e}" for e in s.evidence]
        out.append("")
    return "\n".join(out)


# --- points ---------------------------------------------------------------------------------------


def audit(path: Path, cut: int, work: Path) -> Point:
    lines = _read_lines(path)
    index, events = _index_at(path, lines, cut, work)
    facts = session_facts(index)
    hook = file_trail_context(facts)
    statements = _statements(hook)
    found = claims(index)
    calls = _call_lines(lines, cut)
    for s in statements:
        _evidence(s, found, calls)
    _check(statements, hook, _decoded(lines[: cut - 1] if cut else lines), events, index)
    return Point(str(path), cut, statements)


def corpus_points(corpus: Path, limit: int | None) -> list[tuple[Path, int]]:
    points = []
    for path in sorted((corpus / "claude_code").glob("*.jsonl.gz")):
        for number, line in enumerate(_read_lines(path), start=1):
            if '"compact_boundary"' in line:
                points.append((path, number))
    return points[:limit] if limit else points


def fresh_points(folder: Path, every: int, limit: int | None) -> list[tuple[Path, int]]:
    points = []
    for path in sorted(folder.iterdir()):
        if not path.is_file():
            continue
        if path.suffix not in _LINE_FORMATS:
            points.append((path, 0))
            continue
        total = len(_read_lines(path))
        for k in range(1, every + 1):
            cut = 0 if k == every else max(2, total * k // every)
            points.append((path, cut))
    return points[:limit] if limit else points


def listed_points(path: Path, sessions: Path) -> list[tuple[Path, int]]:
    """The points of a ``NAME<TAB>CUT`` file, NAME a transcript in ``sessions``."""
    points = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        name, _, cut = line.partition("\t")
        if not cut.strip().isdigit():
            raise SystemExit(f"{path}:{number}: expected NAME<TAB>CUT")
        points.append((sessions / name.strip(), int(cut)))
    return points


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("transcript", nargs="?", type=Path)
    parser.add_argument("--cut", type=int, default=0, help="first line left out (0: none)")
    parser.add_argument("--corpus", type=Path)
    parser.add_argument("--fresh", type=Path)
    parser.add_argument("--every", type=int, default=2)
    parser.add_argument("--limit", type=int)
    parser.add_argument(
        "--show", action="store_true", help="print every statement and its evidence"
    )
    parser.add_argument("--json", type=Path, help="write every point's statements here")
    parser.add_argument("--points", type=Path, help="NAME<TAB>CUT lines, NAME in --sessions")
    parser.add_argument("--sessions", type=Path, default=Path("/work/fresh/sessions"))
    parser.add_argument(
        "--judgements",
        type=Path,
        action="append",
        help="a reviewer's verdicts (JSON lines); given again, a later file's verdicts override "
        "(blind verdicts, then the lane's own of new wordings)",
    )
    parser.add_argument("--unjudged", type=Path, help="write the statements with no verdict here")
    parser.add_argument("--listing", type=Path, help="write every statement with its evidence here")
    parser.add_argument(
        "--final-measurement",
        action="store_true",
        help="allow the holdout group: for the blind measurement at the end of a round of fixes, "
        "never while making them",
    )
    args = parser.parse_args()
    given = (args.fresh, args.transcript, args.points, args.sessions if args.points else None)
    if not args.final_measurement and any("holdout" in str(p or "") for p in given):
        parser.error("the holdout group is for final blind measurement only (--final-measurement)")
    if args.transcript:
        points = [(args.transcript, args.cut)]
    elif args.points:
        points = listed_points(args.points, args.sessions)
    elif args.corpus:
        points = corpus_points(args.corpus, args.limit)
    elif args.fresh:
        points = fresh_points(args.fresh, args.every, args.limit)
    else:
        parser.error("give a transcript, --corpus or --fresh")
    audited: list[Point] = []
    flags: Counter[str] = Counter()
    by_section: Counter[str] = Counter()
    failed = 0
    with tempfile.TemporaryDirectory() as work:
        for path, cut in points:
            try:
                point = audit(path, cut, Path(work))
            except Exception as exc:  # a measurement: one unreadable point is counted, not fatal
                failed += 1
                print(
                    f"{path.name} cut {cut}: skipped ({type(exc).__name__}: {exc})", file=sys.stderr
                )
                continue
            audited.append(point)
            for s in point.statements:
                by_section[s.section] += 1
                for flag in s.flags:
                    flags[flag.split(":", 1)[0]] += 1
                if args.show or s.flags:
                    if args.show or len(points) == 1:
                        print(f"[{s.section}] {s.text}")
                        for e in s.evidence:
                            print(f"    evidence: {e}")
                    for flag in s.flags:
                        print(
                            f"{path.name} cut {cut}: FLAG {flag}\n    in: {s.text.splitlines()[0][:160]}"
                        )
    total = sum(by_section.values())
    flagged = sum(1 for p in audited for s in p.statements if s.flags)
    print(
        f"{len(audited)} point(s) ({failed} skipped), {total} statements audited, "
        f"{flagged} flagged false ({flagged / total:.2%} of statements)"
        if total
        else "no statements"
    )
    print("flags by kind: " + (", ".join(f"{k} {n}" for k, n in sorted(flags.items())) or "none"))
    print("statements by section: " + ", ".join(f"{k} {n}" for k, n in by_section.most_common()))
    if args.json:
        args.json.write_text(json.dumps([asdict(p) for p in audited], indent=1), encoding="utf-8")
    if args.listing:
        args.listing.write_text(listing(audited), encoding="utf-8")
    if args.judgements:
        judgements = {
            key: item
            for path in args.judgements
            if path.exists()
            for key, item in load_judgements(path).items()
        }
        kinds, false, unjudged = tally(audited, judgements)
        print(table(kinds))
        for point, s, verdict in false:
            print(
                f"FALSE {Path(point.transcript).name} cut {point.cut} [{s.section}] {s.text[:200]}"
            )
            print(f"    why: {verdict.get('why', '')}")
        print(f"{len(unjudged)} statement(s) with no verdict")
        if args.unjudged:
            with args.unjudged.open("w", encoding="utf-8") as out:
                for name, cut, section, text in unjudged:
                    row = {"transcript": name, "cut": cut, "section": section, "text": text}
                    out.write(json.dumps({**row, "verdict": None, "why": ""}) + "\n")


if __name__ == "__main__":
    main()

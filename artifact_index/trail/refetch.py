"""Re-fetch frequency: how often the agent reads again what it had already read.

The context-engineering guides name it the quality signal of compaction: when a summary loses
the file trail, the agent re-reads files it already knew.  Two counts, per
agent chain (a sub-agent's reads are its own):

- *redundant reads*: a successful read of a file the same chain had read
  before, with no change to the file in between;
- *re-reads after a compaction*: reads after a compaction boundary (until
  the next one) of files that chain had read before the boundary, which is
  the figure field.md reports for Claude Code (72% of post-compaction reads).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from artifact_index.trail.index import ArtifactIndex

__all__ = ["CompactionRefetch", "RefetchReport", "refetch_report"]


class CompactionRefetch(BaseModel):
    model_config = ConfigDict(frozen=True, defer_build=True)

    turn: int
    reads_after: int  # reads between this boundary and the next (or the end)
    rereads: int  # of those, files read before the boundary
    files: list[str]  # the re-read files, in order of first re-read


class RefetchReport(BaseModel):
    model_config = ConfigDict(frozen=True, defer_build=True)

    reads: int
    redundant_reads: int
    compactions: list[CompactionRefetch]

    @property
    def rereads_after_compaction(self) -> tuple[int, int]:
        """``(re-reads, reads)`` summed over every compaction."""
        return (
            sum(c.rereads for c in self.compactions),
            sum(c.reads_after for c in self.compactions),
        )


def _operations(index: ArtifactIndex) -> list[tuple[int, str | None, str, str]]:
    """``(seq, chain, action, file key)`` of every applied operation on a file, in order."""
    out = []
    for node, data in index.nodes_of_kind("operation"):
        if data.get("result") == "failure":
            continue
        for _, target, edge in index.graph.out_edges(node, data=True):
            if edge.get("kind") == "touched" and edge.get("role") != "dest":
                out.append(
                    (
                        int(data["seq"]),
                        data.get("sidechain"),
                        str(data["action"]),
                        str(index.graph.nodes[target]["path"]),
                    )
                )
    return sorted(out)


def refetch_report(index: ArtifactIndex) -> RefetchReport:
    """Redundant reads and re-reads after each compaction of the main chain."""
    operations = _operations(index)
    read_since_change: dict[tuple[str | None, str], bool] = {}
    reads = redundant = 0
    for _, chain, action, key in operations:
        if action == "read":
            reads += 1
            redundant += read_since_change.get((chain, key), False)
            read_since_change[(chain, key)] = True
        else:
            for seen in [k for k in read_since_change if k[1] == key]:
                read_since_change[seen] = False  # a change makes the next read necessary

    boundaries = [c for c in index.session.compactions if c.sidechain is None]
    compactions = []
    for number, boundary in enumerate(boundaries):
        start = boundary.seq
        end = boundaries[number + 1].seq if number + 1 < len(boundaries) else None
        known = {
            key
            for seq, chain, action, key in operations
            if seq <= start and chain is None and action == "read"
        }
        after = [
            key
            for seq, chain, action, key in operations
            if seq > start and (end is None or seq <= end) and chain is None and action == "read"
        ]
        again = [key for key in after if key in known]
        compactions.append(
            CompactionRefetch(
                turn=boundary.turn,
                reads_after=len(after),
                rereads=len(again),
                files=list(dict.fromkeys(again)),
            )
        )
    return RefetchReport(reads=reads, redundant_reads=redundant, compactions=compactions)

"""The artifact graph finds nodes by kind, by name and by directory, also after a resume."""

from __future__ import annotations

from artifact_index.trail.file_state import FileState
from artifact_index.trail.graph import ArtifactGraph
from artifact_index.trail.index import ArtifactIndex


def _graph() -> ArtifactGraph:
    graph = ArtifactGraph()
    graph.add_node("turn:1", kind="turn", turn=1)
    graph.add_node("file:src/app.py", kind="file", path="src/app.py")
    graph.add_node("op:1", kind="operation", seq=1)
    graph.add_node("file:src2/app.py", kind="file", path="src2/app.py")
    graph.add_node("file:src/pkg/util.py", kind="file", path="src/pkg/util.py")
    graph.add_node("file:/etc/hosts", kind="file", path="/etc/hosts")
    graph.add_node("symbol:src/app.py::run", kind="symbol", name="run", path="src/app.py")
    graph.add_node(
        "symbol:src/pkg/util.py::Job.run", kind="symbol", name="run", path="src/pkg/util.py"
    )
    graph.add_edge("op:1", "file:src/app.py", kind="touched")
    return graph


def test_nodes_of_a_kind_come_in_the_order_they_were_added() -> None:
    graph = _graph()
    assert [n for n, _ in graph.nodes_of_kind("file")] == [
        "file:src/app.py",
        "file:src2/app.py",
        "file:src/pkg/util.py",
        "file:/etc/hosts",
    ]
    assert [n for n, _ in graph.nodes_of_kind("file", since=2)] == [
        "file:src/pkg/util.py",
        "file:/etc/hosts",
    ]
    assert graph.count_of_kind("operation") == 1
    assert list(graph.nodes_of_kind("decision")) == []


def test_symbols_are_found_by_name() -> None:
    graph = _graph()
    assert graph.nodes_named("symbol", "run") == [
        "symbol:src/app.py::run",
        "symbol:src/pkg/util.py::Job.run",
    ]
    assert graph.nodes_named("symbol", "walk") == []


def test_files_under_a_directory_include_nested_ones_but_not_a_sibling_with_the_same_prefix() -> (
    None
):
    graph = _graph()
    assert [n for n, _ in graph.files_under("src")] == ["file:src/app.py", "file:src/pkg/util.py"]
    assert [n for n, _ in graph.files_under("src/pkg")] == ["file:src/pkg/util.py"]
    assert [n for n, _ in graph.files_under("")] == [
        "file:/etc/hosts"
    ]  # the root of absolute paths
    assert graph.has_files_under("/etc") and not graph.has_files_under("src/app.py")


def test_a_removed_node_is_forgotten_by_every_index() -> None:
    graph = _graph()
    graph.remove_node("file:src/pkg/util.py")
    graph.remove_nodes_from(["symbol:src/app.py::run"])
    assert "file:src/pkg/util.py" not in [n for n, _ in graph.nodes_of_kind("file")]
    assert not graph.has_files_under("src/pkg")
    assert graph.nodes_named("symbol", "run") == ["symbol:src/pkg/util.py::Job.run"]


def test_a_saved_and_resumed_index_answers_the_same_questions() -> None:
    graph = _graph()
    files = [FileState(path=data["path"], first_seq=1) for _, data in graph.nodes_of_kind("file")]
    index = ArtifactIndex(graph, files=files)
    resumed = ArtifactIndex.from_json(index.to_json())
    for graph in (resumed.graph, index.graph.copy()):
        assert [n for n, _ in graph.nodes_of_kind("file")] == [
            n for n, _ in index.nodes_of_kind("file")
        ]
        assert graph.nodes_named("symbol", "run") == index.graph.nodes_named("symbol", "run")
        assert [n for n, _ in graph.files_under("src")] == [
            "file:src/app.py",
            "file:src/pkg/util.py",
        ]
        assert list(graph.edges("op:1")) == [("op:1", "file:src/app.py")]


def test_first_touch_ranks_follow_the_files_as_they_are_added() -> None:
    index = ArtifactIndex(files=[FileState(path="b.py", first_seq=1)])
    assert dict(index.first_touch_ranks()) == {"b.py": 0}
    index.add_file(FileState(path="a.py", first_seq=2))
    index.add_file(FileState(path="c.py", first_seq=3))
    ranks = index.first_touch_ranks()
    assert dict(ranks) == {key.path: rank for rank, key in enumerate(index.file_states())}
    assert sorted(ranks, key=ranks.__getitem__) == ["b.py", "a.py", "c.py"]

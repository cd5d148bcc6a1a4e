"""The plans of a HybridSource whose last source is unbounded (hybrid_index.py), without
Spark: a bounded FileSource, then a monitored directory. Each bounded source is one batch,
the switch is recorded, and a re-run batch (after a crash) reads what its record says."""
import json
import os

import pytest

from pyflink_on_spark.runtime.checkpoint.store import SnapshotStore
from pyflink_on_spark.spark.streaming.hybrid_index import HybridSourceIndex
from pyflink_on_spark.specs.sources import FileSourceSpec, HybridSourceSpec


def _spec(backlog, live):
    return HybridSourceSpec((FileSourceSpec((str(backlog),), format=None),
                             FileSourceSpec((str(backlog),), format=None),
                             FileSourceSpec((str(live),), format=None,
                                            monitor_interval_ms=1000)))


def _plans(index, batches):
    return {b: (index.plan(b).source, [os.path.basename(f) for f, _ in index.plan(b)])
            for b in batches}


def test_bounded_sources_one_batch_each_then_the_unbounded_one_from_the_records(tmp_path):
    backlog, live = tmp_path / "backlog", tmp_path / "live"
    backlog.mkdir()
    live.mkdir()
    for name in ("b.txt", "a.txt"):
        (backlog / name).write_text("x\n")
    (live / "l1.txt").write_text("y\n")
    store = SnapshotStore(str(tmp_path / "state"))
    index = HybridSourceIndex(_spec(backlog, live), store, "src", 2)
    first = index.plan(0)
    assert (first.source, [(os.path.basename(f), i) for f, i in first]) == \
        (0, [("a.txt", 0), ("b.txt", 1)])
    assert index.plan(1).source == 1              # the second bounded source
    (backlog / "c.txt").write_text("late\n")
    assert _plans(index, [2]) == {2: (2, ["l1.txt"])}   # the switch
    (live / "l2.txt").write_text("z\n")
    assert _plans(index, [3, 4]) == {3: (2, ["l2.txt"]), 4: (2, [])}
    records = {n: json.loads(store.read_bytes(store.path("sources", "src", n)))
               for n in store.list_names(store.path("sources", "src")) if n.isdigit()}
    assert sorted(records) == ["0", "1", "2"] and records["2"] == {"source": 2}
    # a restarted driver: re-run batches read their records (the file that arrived in the
    # backlog after batch 1 is not read), later ones go on with the unbounded source
    again = HybridSourceIndex(_spec(backlog, live), store, "src", 2)
    assert _plans(again, [1, 2, 3]) == {1: (1, ["a.txt", "b.txt"]), 2: (2, ["l1.txt"]),
                                        3: (2, ["l2.txt"])}
    (live / "l3.txt").write_text("w\n")
    assert _plans(again, [5]) == {5: (2, ["l3.txt"])}


def test_a_missing_backlog_path_fails_naming_it(tmp_path):
    store = SnapshotStore(str(tmp_path / "state"))
    index = HybridSourceIndex(_spec(tmp_path / "nowhere", tmp_path), store, "src", 1)
    with pytest.raises(FileNotFoundError, match="the path .*nowhere does not exist"):
        index.plan(0)


def test_a_recorded_file_outside_the_source_paths_is_refused(tmp_path):
    (tmp_path / "backlog").mkdir()
    store = SnapshotStore(str(tmp_path / "state"))
    store.write_bytes(store.path("sources", "src", "0"), json.dumps(
        {"source": 0, "files": [["/etc/passwd", 0]]}).encode())
    index = HybridSourceIndex(_spec(tmp_path / "backlog", tmp_path), store, "src", 1)
    with pytest.raises(ValueError, match="names /etc/passwd, which is not under"):
        index.plan(0)

"""The monitored directory's file index (no Spark): same batch id, same files; compaction
keeps the directory bounded and forgets nothing."""
import json
import os

import pytest

from pyflink_on_spark.runtime.checkpoint.store import SnapshotStore
from pyflink_on_spark.spark.streaming import file_index
from pyflink_on_spark.spark.streaming.file_index import FileIndex


def _touch(directory, name):
    with open(os.path.join(directory, name), "w") as f:
        f.write("x\n")


def test_compaction_bounds_the_records_and_a_restart_still_sees_every_file(tmp_path,
                                                                             monkeypatch):
    monkeypatch.setattr(file_index, "COMPACT_EVERY", 4)
    data = str(tmp_path / "in")
    os.makedirs(data)
    store = SnapshotStore(str(tmp_path / "state"))
    index = FileIndex(store, "src", [data])
    read = {}
    for batch in range(20):
        if batch % 3 == 0:
            _touch(data, "f%02d.txt" % batch)
        read[batch] = index.files_for_batch(batch)
        index.compact(before=batch - 1)
        assert len(store.list_names(index.dir)) <= 4 + 1 + 1   # records, a base, batch's
    # every file was read once, with consecutive indexes in discovery order
    entries = [e for batch in sorted(read) for e in read[batch]]
    assert [i for _, i in entries] == list(range(7))
    assert len({p for p, _ in entries}) == 7
    # a restarted driver: the not-compacted batch re-reads its record, nothing seen is new
    restarted = FileIndex(store, "src", [data])
    assert restarted.files_for_batch(19) == read[19]
    _touch(data, "late.txt")
    assert [os.path.basename(p) for p, i in restarted.files_for_batch(20)] == ["late.txt"]
    assert restarted.files_for_batch(20)[0][1] == 7


def test_a_re_run_batch_reads_only_files_under_the_sources_paths(tmp_path):
    data = str(tmp_path / "in")
    os.makedirs(data)
    _touch(data, "a.txt")
    (tmp_path / "secret").write_text("s")
    store = SnapshotStore(str(tmp_path / "state"))
    assert [os.path.basename(p) for p, _ in FileIndex(store, "src", [data])
            .files_for_batch(0)] == ["a.txt"]
    # a record naming other files, as someone who can write the checkpoint could make it
    for planted in (str(tmp_path / "secret"), os.path.join(data, "..", "secret"),
                    "file://" + str(tmp_path / "secret"), data + "-other/x"):
        store.write_bytes(store.path("sources", "src", "1"),
                          json.dumps([[planted, 1]]).encode())
        with pytest.raises(ValueError, match="not under the source's paths"):
            FileIndex(store, "src", [data]).files_for_batch(1)
    # and what list_files names is accepted, for local paths and file:// URIs alike
    store.write_bytes(store.path("sources", "src", "1"),
                      json.dumps([[os.path.join(data, "a.txt"), 1]]).encode())
    assert FileIndex(store, "src", [data]).files_for_batch(1) == [
        (os.path.join(data, "a.txt"), 1)]
    uri = "file://" + data
    store.write_bytes(store.path("sources", "uri", "0"),
                      json.dumps([[p, 0] for p in file_index.list_files([uri])]).encode())
    assert FileIndex(store, "uri", [uri]).files_for_batch(0) == [
        ("file://" + os.path.join(data, "a.txt"), 0)]

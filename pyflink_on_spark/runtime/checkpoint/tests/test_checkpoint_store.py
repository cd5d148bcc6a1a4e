"""The versioned snapshot store and the timer queue snapshots."""
from pyflink_on_spark.runtime.checkpoint.operators import export_timers, import_timers
from pyflink_on_spark.runtime.checkpoint.store import SnapshotStore
from pyflink_on_spark.runtime.timers import TimerQueue


def test_versions_are_completed_ones_and_restore_picks_newest_before(tmp_path):
    store = SnapshotStore(str(tmp_path / "state"))
    for v in (0, 1, 2):
        store.write_state(v, 5, 0, {"watermark": v})
        store.write_meta(v, {5: 1})
        if v != 2:
            store.complete(v)
    assert store.versions() == [0, 1]
    assert store.latest_completed_before(2) == 1
    assert store.latest_completed_before(1) == 0
    assert store.latest_completed_before(0) is None
    assert store.read_state(1, 5, 0) == {"watermark": 1}
    assert store.read_state(1, 5, 1) is None


def test_store_accepts_file_uris(tmp_path):
    store = SnapshotStore("file://" + str(tmp_path / "s"))
    store.write_state(3, 1, 2, {"x": [1, 2]})
    assert store.read_state(3, 1, 2) == {"x": [1, 2]}
    assert (tmp_path / "s" / "v3" / "1-2.state").exists()


def test_retention_keeps_newest_versions_and_their_shared_files(tmp_path):
    store = SnapshotStore(str(tmp_path))
    for v in range(4):
        store.write_state(v, 1, 0, {})
        store.write_bytes(store.shared_path("f%d.sst" % v), b"x")
        store.write_refs(v, 1, 0, ["f%d.sst" % v, "f0.sst"])
        store.complete(v)
    assert store.retain(2) == [0, 1]
    assert store.versions() == [2, 3]
    assert store.list_names(store.path("shared")) == ["f0.sst", "f2.sst", "f3.sst"]


def test_timers_survive_export_import_in_firing_order():
    queue = TimerQueue()
    queue.register("b", None, 20)
    queue.register("a", None, 10)
    queue.register("c", None, 20)
    queue.register("a", None, 30)
    queue.delete("a", None, 30)
    exported = export_timers(queue)
    assert sorted(exported) == [(10, "a", None), (20, "b", None), (20, "c", None)]
    fresh = TimerQueue()
    import_timers(fresh, exported)
    # the restored heap fires as the original would (Flink's heap: c before b here)
    assert fresh.pop_all_due(25) == queue.pop_all_due(25) == \
        [(10, "a", None), (20, "c", None), (20, "b", None)]
    filtered = TimerQueue()
    import_timers(filtered, exported, keep=lambda k: k != "b")
    assert [t[1] for t in filtered.pop_all_due(99)] == ["a", "c"]

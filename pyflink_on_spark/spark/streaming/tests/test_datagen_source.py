"""An unbounded datagen table's source (spark/streaming/datagen_source.py): each micro-batch
plans the rows its subtasks are due at the table's rows-per-second (shared by the subtasks,
as on PyFlink 1.20.5), recorded before the batch runs; a re-run batch reads its record and a
restarted job goes on from the last recorded positions. Without Spark: the plans, and the
rows a range generates."""
import pickle

import pyflink_on_spark.spark.streaming.datagen_source as datagen_source
from pyflink_on_spark.runtime.checkpoint.store import SnapshotStore
from pyflink_on_spark.specs.datagen_source import DatagenSourceSpec
from pyflink_on_spark.spark.streaming.sources import is_unbounded_source
from pyflink_on_spark.table.sql import parse_statement
from pyflink_on_spark.table.sql.datagen import datagen_rows_at

DDL = """CREATE TABLE g (id INT, x INT) WITH ('connector' = 'datagen',
  'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '100',
  'fields.x.min' = '7', 'fields.x.max' = '7')"""


def _spec(rate):
    return DatagenSourceSpec(lambda s, p, start, count: [(s, k) for k in range(start,
                                                                             start + count)],
                             ("subtask", "k"), rate)


def test_batches_get_the_rows_due_at_the_shared_rate_and_a_restart_goes_on(tmp_path,
                                                                            monkeypatch):
    clock = [100.0]
    monkeypatch.setattr(datagen_source.time, "monotonic", lambda: clock[0])
    store = SnapshotStore(str(tmp_path))
    source = datagen_source.GeneratedRows(_spec(10.0), store, "s", 2)
    assert is_unbounded_source(source.spec)
    assert source.plan(0) == []                       # no time passed
    clock[0] += 1.0
    assert source.plan(1) == [(0, 0, 5), (1, 0, 5)]   # 10 a second, 5 per subtask
    clock[0] += 0.5
    assert source.plan(2) == [(0, 5, 2), (1, 5, 2)]
    assert source.plan(1) == [(0, 0, 5), (1, 0, 5)]   # a re-run reads its record
    source.compact(2)
    restarted = datagen_source.GeneratedRows(_spec(10.0), store, "s", 2)
    assert restarted.plan(3) == []          # pacing begins again at the restart
    clock[0] += 1.0
    assert restarted.plan(4) == [(0, 7, 5), (1, 7, 5)]
    # the rows of a range, as a task generates them
    batches = list(datagen_source._generate_chunks(restarted.spec.rows, ("subtask", "k"), 2,
                                                   [_boundary([(1, (7, 3))])]))
    records = pickle.loads(batches[0].column(5).to_pylist()[0])
    assert [tuple(r) for r in records] == [(1, 7), (1, 8), (1, 9)]
    assert records[0].as_dict() == {"subtask": 1, "k": 7}


def _boundary(ranges):
    from pyflink_on_spark.runtime.boundary import KIND_SPLIT
    from pyflink_on_spark.spark.batch_schema import rows_to_batch
    return rows_to_batch([(-1, s, s, 0, KIND_SPLIT, pickle.dumps(r)) for s, r in ranges])


def test_rows_at_a_position_continue_a_sequence_and_keep_random_options():
    table = parse_statement(DDL)
    assert datagen_rows_at(table, 1, 2, 3, 2) == [(8, 7), (10, 7)]
    assert datagen_rows_at(table, 0, 2, 49, 5) == [(99, 7)]   # the sequence ends

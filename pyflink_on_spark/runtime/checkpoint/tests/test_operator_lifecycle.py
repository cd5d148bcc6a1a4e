"""The checkpoint lifecycle on the operator interface (runtime/operators/base.py): what the
base class saves for every operator, and a keyed backend that refuses another's state."""
import pytest

from pyflink_on_spark.datastream.state_backend import (
    EmbeddedRocksDBStateBackend, HashMapStateBackend)
from pyflink_on_spark.runtime.checkpoint.context import CheckpointContext
from pyflink_on_spark.runtime.checkpoint.tests import test_micro_batches as jobs
from pyflink_on_spark.runtime.checkpoint.tests.stream_harness import StreamRunner
from pyflink_on_spark.runtime.operators.base import Operator


def test_an_operator_without_state_of_its_own_saves_and_restores_its_watermark():
    first, second = Operator(), Operator()
    first.current_watermark = 42
    context = CheckpointContext(store=None, version=3, state_id="op1", subtask=0)
    snap = first.snapshot_state(context)
    assert snap == {"watermark": 42}
    second.restore_state([(0, snap), (1, {"watermark": 40})], context)
    assert second.current_watermark == 40          # merged: never ahead of an input
    second.restore_state([], context)               # nothing to restore: unchanged
    assert second.current_watermark == 40


def test_keyed_state_of_another_backend_is_refused(tmp_path):
    job, _ = jobs._job(backend=HashMapStateBackend())
    root = str(tmp_path / "state")
    runner = StreamRunner(job, root)
    batches = jobs._batches(n=2)
    runner.run_batch(0, batches[0])
    job, _ = jobs._job(backend=EmbeddedRocksDBStateBackend())
    with pytest.raises(RuntimeError, match="holds heap keyed state but the job now uses "
                                           "RocksDBKeyedStateBackend"):
        StreamRunner(job, root).run_batch(1, batches[1])

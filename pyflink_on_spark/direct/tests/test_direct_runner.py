"""The direct runner as an executor, without Spark: collect, print, user errors, what it
does not run."""
import pytest

from pyflink_on_spark.common.typeinfo import Types
from pyflink_on_spark.datastream import StreamExecutionEnvironment
from pyflink_on_spark.direct import execute_collect, execute_job, run_job
from pyflink_on_spark.graph.transformations import SinkTransformation
from pyflink_on_spark.runtime.errors import JobExecutionError
from pyflink_on_spark.specs.sinks import CollectSinkSpec


def _job(build, parallelism=1):
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(parallelism)
    sink = SinkTransformation(name="Collect", input=build(env)._transformation,
                              spec=CollectSinkSpec())
    sink.parallelism = 1
    return env._compile([sink]), sink.id


def test_collect_hands_out_the_values_in_driver_order():
    job, sink = _job(lambda env: env.from_collection([1, 2, 3]).map(lambda v: v * 10))
    assert list(execute_collect(job, "job", sink)) == [10, 20, 30]
    assert run_job(job) == {sink: [10, 20, 30]}


def test_rebalanced_records_reach_the_sink_channel_by_channel():
    # from_collection (parallelism 1) -> map at 2: round robin; the sink reads (edge, src, seq)
    job, sink = _job(lambda env: env.from_collection([1, 2, 3, 4, 5]).map(lambda v: v),
                     parallelism=2)
    assert run_job(job)[sink] == [1, 3, 5, 2, 4]


def test_print_sinks_write_their_lines(capsys):
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    env.from_collection(["a", "b"], type_info=Types.STRING()).print("id")
    execute_job(env._compile(list(env._sinks)), "job")
    assert capsys.readouterr().out == "id> a\nid> b\n"


def test_a_user_error_reaches_the_caller_as_a_job_execution_error():
    job, sink = _job(lambda env: env.from_collection([1, 0]).map(lambda v: 1 // v))
    with pytest.raises(JobExecutionError, match="ZeroDivisionError"):
        list(execute_collect(job, "job", sink))

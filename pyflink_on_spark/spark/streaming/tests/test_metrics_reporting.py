"""User metrics of an unbounded job: read from what the tasks write after each batch, served
on a Prometheus endpoint configured with Flink's reporter keys."""
import json
import os
import re
import socket
import time
import urllib.request

from pyflink_on_spark.common import Configuration, Duration, Types, WatermarkStrategy
from pyflink_on_spark.datastream import MapFunction, StreamExecutionEnvironment
from pyflink_on_spark.datastream.connectors.file_system import FileSource, StreamFormat
from pyflink_on_spark.runtime.checkpoint.store import SnapshotStore
from pyflink_on_spark.spark.streaming.metrics_reporting import (
    PROMETHEUS_FACTORY, MetricsBoard, PrometheusEndpoint, prometheus_ports)


def _write(store, version, task, subtask, metrics):
    store.write_bytes(store.path("v%d" % version, "op1-%d.metrics" % subtask),
                      json.dumps({"task": task, "subtask": subtask,
                                  "metrics": metrics}).encode())


def test_the_board_keeps_each_subtasks_latest_values_and_sums_counters(tmp_path):
    store = SnapshotStore(str(tmp_path))
    def counter(n):
        return {"scope": ["grp"], "name": "seen", "kind": "counter", "value": n}
    _write(store, 1, "Map", 0, [counter(3)])
    _write(store, 1, "Map", 1, [counter(4)])
    board = MetricsBoard("job")
    board.read_batch(store, 1)
    assert board.values() == {"grp.seen": 7}
    _write(store, 2, "Map", 0, [counter(5), {"scope": [], "name": "lag", "kind": "gauge",
                                             "value": 1.5}])
    board.read_batch(store, 2)          # subtask 1 wrote nothing new: its value stays
    assert board.values() == {"grp.seen": 9, "lag[0]": 1.5}
    board.checkpoint_completed(2, 350)
    assert board.values()["job.numberOfCompletedCheckpoints"] == 2
    text = board.prometheus_text()
    assert 'flink_jobmanager_job_lastCheckpointDuration{job_name="job"} 350' in text
    assert "# TYPE flink_taskmanager_job_task_operator_grp_seen gauge" in text
    assert ('flink_taskmanager_job_task_operator_grp_seen{job_name="job",task_name="Map",'
            'operator_name="Map",subtask_index="1"} 4') in text
    assert 'flink_taskmanager_job_task_operator_lag{job_name="job",task_name="Map",' \
           'operator_name="Map",subtask_index="0"} 1.5' in text


def test_flinks_reporter_keys_pick_the_port_and_other_reporters_are_said_once(capfd):
    key = "metrics.reporter.prom.factory.class"
    assert prometheus_ports([]) is None
    assert prometheus_ports([(key, PROMETHEUS_FACTORY)]) == [9249]
    assert prometheus_ports([(key, PROMETHEUS_FACTORY),
                             ("metrics.reporter.prom.port", "9250-9252")]) == [9250, 9251, 9252]
    jmx = [("metrics.reporter.jmx.factory.class",
            "org.apache.flink.metrics.jmx.JMXReporterFactory")]
    assert prometheus_ports(jmx) is None
    prometheus_ports(jmx)
    assert capfd.readouterr().err.count("the metrics reporter 'jmx'") == 1


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_the_endpoint_serves_metrics_and_takes_the_next_free_port(tmp_path):
    board = MetricsBoard("job")
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    port = taken.getsockname()[1]
    endpoint = PrometheusEndpoint(board, [port, _free_port()], "127.0.0.1")
    try:
        assert endpoint.port != port
        body = urllib.request.urlopen("http://127.0.0.1:%d/metrics" % endpoint.port).read()
        assert body == b""
    finally:
        endpoint.close()
        taken.close()


def _counting():
    class Counting(MapFunction):
        def open(self, ctx):
            self.lines = ctx.get_metrics_group().add_group("words").counter("lines")

        def map(self, value):
            self.lines.inc()
            return value.upper()
    return Counting()


def test_a_running_jobs_user_counter_on_the_prometheus_endpoint(spark, tmp_path):
    in_dir = str(tmp_path / "in")
    os.makedirs(in_dir)
    with open(os.path.join(in_dir, "a.txt"), "w") as f:
        f.write("one\ntwo\nthree\n")
    port = _free_port()
    config = Configuration()
    config.set_string("metrics.reporter.prom.factory.class", PROMETHEUS_FACTORY)
    config.set_string("metrics.reporter.prom.port", str(port))
    env = StreamExecutionEnvironment.get_execution_environment(config)
    env.set_parallelism(1)
    source = FileSource.for_record_stream_format(StreamFormat.text_line_format(), in_dir) \
        .monitor_continuously(Duration.of_millis(200)).build()
    env.from_source(source, WatermarkStrategy.no_watermarks(), "files") \
        .map(_counting(), output_type=Types.STRING()).name("counting").print()
    client = env.execute_async("metered job")
    try:
        deadline = time.time() + 600
        text = ""
        # label values as Flink's reporter writes them: "metered job" -> metered_job
        lines = 'flink_taskmanager_job_task_operator_words_lines{job_name="metered_job",' \
            'task_name="%s",operator_name="%s",subtask_index="0"} 3'
        while time.time() < deadline and not re.search(re.escape(lines).replace(
                "%s", "[^\"]*"), text):
            try:
                text = urllib.request.urlopen("http://127.0.0.1:%d/metrics" % port,
                                              timeout=5).read().decode()
            except OSError:
                pass
            time.sleep(0.3)
        assert "flink_taskmanager_job_task_operator_words_lines{" in text
        assert 'flink_jobmanager_job_numberOfCompletedCheckpoints{job_name="metered_job"}' \
            in text
        assert re.search(re.escape(lines).replace("%s", "[^\"]*"), text), text
        # Flink's system metrics, as PyFlink 1.20.5 reports a source's chain: the task took
        # nothing in and sent none to another stage (the print sink is chained), its source
        # operator sent on the 3 records it read; watermarks; the checkpoint's size
        task = re.search(r'flink_taskmanager_job_task_numRecordsIn\{job_name="metered_job",'
                         r'task_name="([^"]*)",subtask_index="0"\} 0\n', text)
        assert task, text
        assert 'flink_taskmanager_job_task_numRecordsOut{job_name="metered_job",task_name=' \
            '"%s",subtask_index="0"} 0' % task.group(1) in text
        assert 'flink_taskmanager_job_task_operator_numRecordsOut{job_name="metered_job",' \
            'task_name="%s",operator_name="Source:_files",subtask_index="0"} 3' \
            % task.group(1) in text
        assert "flink_taskmanager_job_task_numRecordsInPerSecond{" in text
        assert re.search(r'flink_taskmanager_job_task_operator_currentOutputWatermark\{'
                         r'[^}]*operator_name="counting"[^}]*\} -?\d+', text), text
        assert re.search(r'flink_jobmanager_job_lastCheckpointSize\{job_name="metered_job"\} '
                         r'[1-9]', text), text
        # the Spark UI: a micro-batch's jobs are described with the metrics after the one
        # before, after Spark's own description of the batch
        # (this job's own line: another test's query may have read 3 records too)
        described = ""
        ours = r"batch = \d+ \| pyflink-on-spark: %s: read 3, out 0; " \
            r"last checkpoint \d+ bytes in \d+ ms" % re.escape(task.group(1))
        while time.time() < deadline and not re.search(ours, described):
            described = "\n".join(_job_descriptions(spark))
            time.sleep(0.3)
        assert re.search(ours, described), described
    finally:
        client.cancel().result()


def _job_descriptions(spark):
    """The descriptions of the Spark jobs the Spark UI lists."""
    jobs = spark.sparkContext._jsc.sc().statusStore().jobsList(None)
    found = (jobs.apply(i).description() for i in range(jobs.length()))
    return [d.get() for d in found if d.isDefined()]


def test_a_bounded_jobs_metrics_reach_the_endpoint_over_the_task_channel(spark, monkeypatch):
    """The tasks send their metrics to the driver at each bundle's end and after their last
    records; the endpoint serves them while the job runs and closes with it."""
    import pyflink_on_spark.spark.streaming.metrics_reporting as reporting
    boards = []

    class Recorded(MetricsBoard):
        def __init__(self, job_name):
            super().__init__(job_name)
            boards.append(self)
    monkeypatch.setattr(reporting, "MetricsBoard", Recorded)
    port = _free_port()
    config = Configuration()
    config.set_string("metrics.reporter.prom.factory.class", PROMETHEUS_FACTORY)
    config.set_string("metrics.reporter.prom.port", str(port))
    env = StreamExecutionEnvironment.get_execution_environment(config)
    env.set_parallelism(2)
    env.from_collection(["a", "b", "c", "d", "e"], type_info=Types.STRING()) \
        .map(_counting(), output_type=Types.STRING()).name("counting") \
        .key_by(lambda v: v).map(lambda v: v, output_type=Types.STRING()).print()
    result = env.execute("bounded metered")
    assert result.get_all_accumulator_results() == {}       # as PyFlink 1.20.5's
    [board] = boards
    text = board.prometheus_text()
    counted = re.findall(r'flink_taskmanager_job_task_operator_words_lines\{job_name="bounded_'
                         r'metered",[^}]*\} (\d+)', text)
    assert sum(map(int, counted)) == 5, text
    ins = re.findall(r'flink_taskmanager_job_task_numRecordsIn\{[^}]*\} (\d+)', text)
    outs = re.findall(r'flink_taskmanager_job_task_numRecordsOut\{[^}]*\} (\d+)', text)
    # three tasks (the collection's source, the map after a rebalance, the keyed map): the
    # last two took the 5 records in (a source's task takes nothing in, as on PyFlink
    # 1.20.5), the first two sent them on, the print sink took the rest
    assert sum(map(int, ins)) == 10 and sum(map(int, outs)) == 10, text
    with socket.socket() as s:        # the endpoint closed with the job
        s.bind(("127.0.0.1", port))

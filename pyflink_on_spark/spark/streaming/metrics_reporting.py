"""The metrics user functions register (RuntimeContext.get_metrics_group()) of a running
unbounded job, where operations teams look: a Prometheus endpoint configured with Flink's own
reporter keys, and the job's API.

Each task writes its metrics as JSON beside its snapshot after every micro-batch
(runtime/checkpoint/micro_batch.py, ``.metrics``); after the batch completes, the driver reads
them (JSON: nothing is unpickled) into a ``MetricsBoard``: the latest values of each (task,
subtask). As in Flink, metrics are not part of the checkpoint: a task rebuilt after a
restart counts from zero again.

Prometheus: ``metrics.reporter.<name>.factory.class:
org.apache.flink.metrics.prometheus.PrometheusReporterFactory`` with
``metrics.reporter.<name>.port`` (a port or a range "9250-9260"; Flink's default 9249), in
the job's configuration, starts an HTTP endpoint on the driver serving ``/metrics`` in
Prometheus' text format for as long as the job runs.
"""
from __future__ import annotations

import contextlib
import json
import re
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Dict, Iterator, List, Optional, Sequence, Tuple

from pyflink_on_spark.runtime.checkpoint.micro_batch import METRICS_SUFFIX
from pyflink_on_spark.runtime.checkpoint.store import SnapshotStore

PROMETHEUS_FACTORY = "org.apache.flink.metrics.prometheus.PrometheusReporterFactory"
DEFAULT_PORT = "9249"
_PREFIX = "flink_taskmanager_job_task_operator_"
_INVALID = re.compile(r"[^a-zA-Z0-9_:]")


class MetricsBoard:
    """The latest metrics of every (task, subtask) of one job."""

    def __init__(self, job_name: str) -> None:
        self.job_name = job_name
        self._latest: Dict[Tuple[str, int], List[dict]] = {}
        self._job: Dict[str, int] = {}      # the job's own: Flink's checkpoint metrics' names
        # (task, subtask) -> Flink's system metrics (runtime/metrics_system.py), with the
        # driver's PerSecond rates of its counts
        self._system: Dict[Tuple[str, int], dict] = {}
        self._counted: Dict[Tuple[str, int], Tuple[float, int, int]] = {}  # time, in, out
        # (source name, subtask) -> records of its Kafka partitions not yet read
        self._pending: Dict[Tuple[str, int], int] = {}
        self._checkpoint_size = 0
        self._lock = threading.Lock()

    def checkpoint_completed(self, completed: int, duration_ms: int) -> None:
        """A micro-batch (a checkpoint) completed: the job's count and its duration."""
        with self._lock:
            self._job = {"numberOfCompletedCheckpoints": completed,
                         "lastCheckpointDuration": duration_ms,
                         "lastCheckpointSize": self._checkpoint_size}

    def pending_records(self, source: str, per_subtask: Dict[int, int]) -> None:
        """A Kafka source's records not yet read, per subtask (its partitions' latest
        offsets less where the job's reading stands, when a micro-batch is planned): Flink's
        ``pendingRecords``."""
        with self._lock:
            for subtask, pending in per_subtask.items():
                self._pending[(source, subtask)] = pending

    def read_batch(self, store: SnapshotStore, version: int, now: Optional[float] = None) -> None:
        """Takes the metrics the tasks of completed version ``version`` wrote."""
        directory = store.path(store.version_dir(version))
        docs = [json.loads(store.read_bytes(directory + "/" + name).decode())
                for name in store.list_names(directory) if name.endswith(METRICS_SUFFIX)]
        self.take(docs, now)
        if docs:
            with self._lock:
                self._checkpoint_size = sum(d.get("checkpointedSize", 0) for d in docs)

    def take(self, docs: Sequence[dict], now: Optional[float] = None) -> None:
        """Takes tasks' metrics documents (runtime/metrics_system.py metrics_document): from
        a micro-batch's files, or sent by a bounded job's tasks over the driver channel."""
        now = time.monotonic() if now is None else now
        with self._lock:
            for doc in docs:
                key = (doc["task"], int(doc["subtask"]))
                self._latest[key] = doc["metrics"]
                system = doc.get("system")
                if system is not None:
                    self._system[key] = _with_rates(system, self._counted.get(key), now)
                    self._counted[key] = (now, system["numRecordsIn"], system["numRecordsOut"])

    def values(self) -> Dict[str, object]:
        """Metric identifier (scope components and name, joined by '.') -> its value summed
        over the subtasks (counters, meters' counts); gauges and distributions per subtask,
        under ``<identifier>[<subtask>]``."""
        with self._lock:
            latest = sorted(self._latest.items())
            out: Dict[str, object] = {"job." + k: v for k, v in self._job.items()}
        for (_, subtask), metrics in latest:
            for m in metrics:
                ident = ".".join(m["scope"] + [m["name"]])
                if m["kind"] in ("counter", "meter"):
                    out[ident] = out.get(ident, 0) + m["value"]
                else:
                    out["%s[%d]" % (ident, subtask)] = m["value"]
        return out

    def summary(self) -> str:
        """The system metrics in one line, for the Spark UI's description of a micro-batch's
        jobs (described_batch): each task's records in (a source's: read) and out (its
        subtasks' sum), records in per second and lowest input watermark; the last
        checkpoint's size and duration.
        Empty before the first batch completed."""
        with self._lock:
            system = sorted(self._system.items())
            job = dict(self._job)
        tasks: Dict[str, List[float]] = {}
        for (task, _), m in system:
            row = tasks.setdefault(task, [0, 0, 0.0, None, None])
            row[0] += m["numRecordsIn"]
            row[1] += m["numRecordsOut"]
            row[2] += m.get("numRecordsInPerSecond", 0.0)
            mark = m.get("currentInputWatermark")
            if mark is not None:
                row[3] = mark if row[3] is None else min(row[3], mark)
            if "recordsRead" in m:
                row[4] = (row[4] or 0) + m["recordsRead"]
        if not tasks:
            return ""
        parts = ["%s: %s, out %d%s" % (
            task, "read %d" % r[4] if r[4] is not None else "in %d (%.0f/s)" % (r[0], r[2]),
            r[1], "" if r[3] is None or r[3] <= _MIN_WATERMARK else ", watermark %d" % r[3])
            for task, r in sorted(tasks.items())]
        if "lastCheckpointSize" in job:
            parts.append("last checkpoint %d bytes in %d ms" % (
                job["lastCheckpointSize"], job["lastCheckpointDuration"]))
        return "; ".join(parts)

    def prometheus_text(self) -> str:
        """Prometheus' text exposition format: one sample per metric and subtask, named after
        Flink's operator metric scope (``flink_taskmanager_job_task_operator_`` + user
        groups + name), labelled with the job, the task and the subtask; the system metrics
        under the names, scopes and label values PyFlink 1.20.5's reporter gave (its local
        execution starts it with the keys in the job's configuration once
        flink-metrics-prometheus is on the gateway's class path, e.g. HADOOP_CLASSPATH: its
        plugin directory is not read there). Flink's other labels (job_id, task_id, host,
        tm_id, ...) are not given."""
        samples: Dict[str, List[str]] = {}
        types: Dict[str, str] = {}
        with self._lock:
            latest = sorted(self._latest.items())
            job = dict(self._job)
            system = sorted(self._system.items())
            pending = sorted(self._pending.items())
        for name, value in sorted(job.items()):
            metric = "flink_jobmanager_job_" + name
            types[metric] = "gauge"
            samples[metric] = ['%s{job_name="%s"} %d' % (metric, _label(self.job_name), value)]

        def add(metric: str, labels: str, value) -> None:
            types[metric] = "gauge"
            samples.setdefault(metric, []).append(
                "%s{%s} %s" % (metric, labels, _number(value)))
        for (task, subtask), metrics in system:
            task_labels = 'job_name="%s",task_name="%s",subtask_index="%d"' % (
                _label(self.job_name), _label(task), subtask)
            for name in _TASK_METRICS:
                if name in metrics:
                    add(_TASK_PREFIX + name, task_labels, metrics[name])
            for operator in metrics.get("operators", ()):
                labels = 'job_name="%s",task_name="%s",operator_name="%s",subtask_index="%d"' \
                    % (_label(self.job_name), _label(task), _label(operator["name"]), subtask)
                for name in _OPERATOR_METRICS:
                    if name in operator:
                        add(_PREFIX + name, labels, operator[name])
        for (source, subtask), value in pending:
            add(_PREFIX + "pendingRecords",
                'job_name="%s",task_name="%s",operator_name="%s",subtask_index="%d"' % (
                    _label(self.job_name), _label(source), _label(source), subtask), value)
        for (task, subtask), metrics in latest:
            labels = 'job_name="%s",task_name="%s",operator_name="%s",subtask_index="%d"' % (
                _label(self.job_name), _label(task), _label(task), subtask)
            for m in metrics:
                name = _INVALID.sub("_", _PREFIX + "_".join(m["scope"] + [m["name"]]))
                for suffix, kind, value in _samples(m):
                    if not isinstance(value, (int, float)):
                        continue
                    types[name + suffix] = kind
                    samples.setdefault(name + suffix, []).append(
                        "%s%s{%s} %s" % (name, suffix, labels, _number(value)))
        lines = []
        for name in sorted(samples):
            lines.append("# TYPE %s %s" % (name, types[name]))
            lines.extend(samples[name])
        return "\n".join(lines) + ("\n" if lines else "")


_TASK_PREFIX = "flink_taskmanager_job_task_"
_TASK_METRICS = ("numRecordsIn", "numRecordsOut", "numRecordsInPerSecond",
                 "numRecordsOutPerSecond", "currentInputWatermark")
_OPERATOR_METRICS = ("numRecordsIn", "numRecordsOut", "currentInputWatermark",
                     "currentOutputWatermark")


_MIN_WATERMARK = -(2 ** 63)


@contextlib.contextmanager
def described_batch(session, summary: str) -> Iterator[None]:
    """The Spark jobs of a micro-batch (foreachBatch's thread) described in the Spark UI
    with Spark's own description of the batch followed by ``summary`` (the metrics after
    the batch before): values computed in foreachBatch cannot reach the query's observed
    metrics (StreamingQueryProgress.observedMetrics), the description is where the Spark UI
    shows them. Classic sessions only (Spark Connect has no SparkContext here)."""
    from pyflink_on_spark.spark.session import is_connect
    if not summary or is_connect(session):
        yield
        return
    context = session.sparkContext
    described = context.getLocalProperty("spark.job.description")
    context.setJobDescription("%s | pyflink-on-spark: %s" % (described or "", summary))
    try:
        yield
    finally:
        context.setLocalProperty("spark.job.description", described)


def _with_rates(metrics: dict, before: Optional[Tuple[float, int, int]], now: float) -> dict:
    """The task's metrics with numRecordsIn/OutPerSecond: the counts' growth since the
    driver read them last, per second (0 at first: no span yet)."""
    out = dict(metrics)
    if before is None or now <= before[0]:
        out["numRecordsInPerSecond"] = out["numRecordsOutPerSecond"] = 0.0
    else:
        span = now - before[0]
        # a task rebuilt after a restart counts from zero again: no negative rate
        out["numRecordsInPerSecond"] = max(metrics["numRecordsIn"] - before[1], 0) / span
        out["numRecordsOutPerSecond"] = max(metrics["numRecordsOut"] - before[2], 0) / span
    return out


def _samples(metric: dict):
    """(name suffix, Prometheus type, value) of one metric."""
    kind, value = metric["kind"], metric["value"]
    if kind == "counter":
        return [("", "gauge", value)]      # a Flink counter may go down (dec)
    if kind == "meter":
        return [("", "gauge", metric.get("rate", 0.0)), ("_count", "gauge", value)]
    if kind == "distribution":
        stats = value or {}
        count = stats.get("count", 0)
        out = [("_count", "gauge", count)]
        if count:
            out += [("_min", "gauge", stats["min"]), ("_max", "gauge", stats["max"]),
                    ("_mean", "gauge", stats["mean"])]
        return out
    return [("", "gauge", value)]


def _label(text: str) -> str:
    """A label value as Flink's Prometheus reporter writes it: every character but letters,
    digits, ':' and '_' becomes '_' (PyFlink 1.20.5: job_name="prom_probe" for the job
    "prom probe", operator_name="Sink:_Print_to_Std__Out")."""
    return _INVALID.sub("_", str(text))


def _number(value) -> str:
    return repr(float(value)) if isinstance(value, float) else str(value)


def prometheus_ports(config: Sequence[Tuple[str, str]]) -> Optional[List[int]]:
    """The ports to try for a Prometheus reporter configured with Flink's keys (the first of
    them that is free serves), or None when no Prometheus reporter is configured. Other
    reporters (JMX, SLF4J, ...) are said once on stderr to have no effect."""
    settings = dict(config)
    ports = None
    for key, value in sorted(settings.items()):
        match = re.fullmatch(r"metrics\.reporter\.([^.]+)\.factory\.class", key)
        if not match:
            continue
        if value.strip() == PROMETHEUS_FACTORY and ports is None:
            port = settings.get("metrics.reporter.%s.port" % match.group(1), DEFAULT_PORT)
            ports = _port_range(port)
        else:
            _say("pyflink_on_spark: the metrics reporter '%s' (%s) has no effect on Spark: "
                 "unbounded jobs serve one Prometheus reporter (%s)"
                 % (match.group(1), value, PROMETHEUS_FACTORY))
    return ports


def note_bounded_reporters(config: Sequence[Tuple[str, str]]) -> None:
    """A bounded job with a metrics reporter configured that runs without the driver
    channel (Spark Connect, or the channel off: spark/executor.py): said once, it reports
    nothing."""
    if any(key.endswith(".factory.class") for key, _ in config):
        _say("pyflink_on_spark: a bounded job's metrics reach the driver over its task "
             "channel, which this run does not open (Spark Connect, or the channel is off: "
             "docs/security.md); its metrics are not reported")


_said = set()


def _say(note: str) -> None:
    if note not in _said:
        _said.add(note)
        import sys
        sys.stderr.write(note + "\n")
        sys.stderr.flush()


def _port_range(text: str) -> List[int]:
    text = text.strip()
    if "-" in text:
        low, high = (int(part) for part in text.split("-", 1))
        return list(range(low, high + 1))
    return [int(text)]


def endpoint_host(session) -> str:
    """Where the endpoint listens: the loopback with a local master or on Spark Connect (the
    job's process is the client), else where Spark's own driver endpoints listen
    (spark.driver.bindAddress, as the driver channel), never every interface."""
    from pyflink_on_spark.spark.session import is_connect
    if is_connect(session):
        return "127.0.0.1"
    from pyflink_on_spark.spark.driver_channel import channel_bind_address
    return channel_bind_address(session)


class PrometheusEndpoint:
    """``GET /metrics`` on the first free port of ``ports`` at ``host``, serving the board's
    metrics (read-only: a request changes nothing and nothing it sends is deserialised)."""

    def __init__(self, board: MetricsBoard, ports: Sequence[int], host: str) -> None:
        self.board = board
        handler = _handler(board)
        last_error: Optional[OSError] = None
        self.server: Optional[ThreadingHTTPServer] = None
        for port in ports:
            try:
                self.server = ThreadingHTTPServer((host, port), handler)
                break
            except OSError as e:
                last_error = e
        if self.server is None:
            raise OSError("no free port for the Prometheus reporter on %s among %s (%s)"
                          % (host, list(ports), last_error))
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True,
                         name="pyflink-on-spark prometheus").start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def _handler(board: MetricsBoard):
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 - http.server's name
            if self.path.split("?", 1)[0] not in ("/", "/metrics"):
                self.send_error(404)
                return
            body = board.prometheus_text().encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):   # no access log on the job's stderr
            pass
    return Handler

"""Probe: what stop_with_savepoint(True, dir) (flink stop --drain) does to an unbounded job on
PyFlink 1.20.5, and what a job restored from the drained savepoint does.

Run: PATH=/opt/venvs/flink/bin:$PATH python drain_pyflink_probe.py WORK_DIR
(on the shim: pyflink-on-spark run drain_pyflink_probe.py WORK_DIR)

The job: a FileSource monitoring WORK_DIR/in (lines "key,timestamp"), monotonous event time,
a tumbling 10 s event-time window counting per key, and a KeyedProcessFunction that sets an
event-time timer 100 s after each record
(and a processing-time timer an hour away); both print and write to a FileSink. The user
functions append what happens to them (open, window fired, timer fired, close) to
WORK_DIR/log-<run>.txt, so the probe sees it while the job runs.
"""
import os
import sys
import time

from pyflink.common import Configuration, Duration, Encoder, Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import (KeyedProcessFunction, ProcessWindowFunction,
                                StreamExecutionEnvironment, TimeDomain)
from pyflink.datastream.connectors.file_system import FileSink, FileSource, StreamFormat
from pyflink.datastream.window import TumblingEventTimeWindows
from pyflink.common.time import Time

WORK = os.path.abspath(sys.argv[1])
IN = os.path.join(WORK, "in")
SAVEPOINTS = os.path.join(WORK, "savepoints")


def log_to(run):
    path = os.path.join(WORK, "log-%s.txt" % run)

    def log(line):
        with open(path, "a") as f:
            f.write(line + "\n")
    return log


class Stamp(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return int(value.split(",")[1])


def window_counter(run):
    log = log_to(run)

    class Count(ProcessWindowFunction):
        def open(self, ctx):
            log("window open")

        def process(self, key, context, elements):
            w = context.window()
            log("window fired %s [%d, %d) n=%d wm=%d" % (key, w.start, w.end, len(list(elements)),
                                                       context.current_watermark()))
            yield "window %s [%d, %d) %d" % (key, w.start, w.end, len(list(elements)))

        def close(self):
            log("window close")
    return Count()


def timers(run):
    log = log_to(run)

    class Timers(KeyedProcessFunction):
        def open(self, ctx):
            log("timers open")

        def process_element(self, value, ctx):
            ts = ctx.timestamp()
            ctx.timer_service().register_event_time_timer(ts + 100000)
            log("timer set %s %d" % (ctx.get_current_key(), ts + 100000))
            # and a processing-time timer an hour away: does the drain fire it?
            ctx.timer_service().register_processing_time_timer(
                ctx.timer_service().current_processing_time() + 3600000)
            yield "record " + value

        def on_timer(self, timestamp, ctx):
            if ctx.time_domain() == TimeDomain.PROCESSING_TIME:
                log("processing-time timer fired %s" % ctx.get_current_key())
                return
            log("timer fired %s %d wm=%d" % (ctx.get_current_key(), timestamp,
                                            ctx.timer_service().current_watermark()))
            yield "timer %s %d" % (ctx.get_current_key(), timestamp)

        def close(self):
            log("timers close")
    return Timers()


def job(run, config):
    env = StreamExecutionEnvironment.get_execution_environment(config)
    env.set_parallelism(1)
    env.enable_checkpointing(1000)
    source = FileSource.for_record_stream_format(StreamFormat.text_line_format(), IN) \
        .monitor_continuously(Duration.of_millis(300)).build()
    lines = env.from_source(source, WatermarkStrategy.no_watermarks(), "files").uid("src") \
        .assign_timestamps_and_watermarks(
            WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(Stamp()))
    keyed = lines.key_by(lambda v: v.split(",")[0], key_type=Types.STRING())
    windows = keyed.window(TumblingEventTimeWindows.of(Time.seconds(10))) \
        .process(window_counter(run), Types.STRING()).uid("windows")
    timed = keyed.process(timers(run), Types.STRING()).uid("timers")
    out = windows.union(timed)
    out.print()
    out.sink_to(FileSink.for_row_format(os.path.join(WORK, "out-%s" % run),
                                        Encoder.simple_string_encoder()).build()).uid("sink")
    return env


def add(name, text):
    with open(os.path.join(IN, "." + name), "w") as f:
        f.write(text)
    os.rename(os.path.join(IN, "." + name), os.path.join(IN, name))


def read_log(run):
    path = os.path.join(WORK, "log-%s.txt" % run)
    return open(path).read().splitlines() if os.path.exists(path) else []


def wait_for(predicate, what, timeout=120):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if predicate():
            return True
        time.sleep(0.2)
    print("(timed out waiting for %s)" % what, flush=True)
    return False


def parts(run):
    found = []
    for directory, _, names in os.walk(os.path.join(WORK, "out-%s" % run)):
        for name in names:
            kind = "in-progress" if name.startswith(".") else "finished"
            text = open(os.path.join(directory, name)).read()
            found.append((kind, sorted(text.splitlines())))
    return sorted(found)


def main():
    os.makedirs(IN, exist_ok=True)
    add("f1.txt", "a,1000\nb,2000\na,15000\n")
    client = job("first", Configuration()).execute_async("drain probe")
    # window [0, 10000) fires when a,15000 comes (watermark 14999); [10000, 20000) stays open
    wait_for(lambda: any(l.startswith("window fired a [0") for l in read_log("first")),
             "the first window")
    time.sleep(2)
    print("status before:", client.get_job_status().result(), flush=True)
    print("log before drain:", flush=True)
    for line in read_log("first"):
        print("  " + line, flush=True)
    n = len(read_log("first"))
    print("file sink parts before drain:", parts("first"), flush=True)
    path = client.stop_with_savepoint(True, "file://" + SAVEPOINTS).result()
    print("savepoint taken:", path.startswith("file:" + SAVEPOINTS + "/savepoint-"), flush=True)
    print("status after:", client.get_job_status().result(), flush=True)
    result = client.get_job_execution_result().result()
    print("execution result:", type(result).__name__, flush=True)
    print("log after drain:", flush=True)
    for line in read_log("first")[n:]:
        print("  " + line, flush=True)
    print("file sink parts:", parts("first"), flush=True)

    # a job restored from the drained savepoint, with a record of the open window and a later
    add("f2.txt", "a,12000\nc,25000\na,31000\n")
    config = Configuration().set_string("execution.savepoint.path", path)
    client = job("second", config).execute_async("drain probe, restored")
    wait_for(lambda: client.get_job_status().result().name != "RUNNING"
             or any(l.startswith("timer set") for l in read_log("second")), "the restored job",
             timeout=60)
    time.sleep(5)
    print("restored status:", client.get_job_status().result(), flush=True)
    print("restored log:", flush=True)
    for line in read_log("second"):
        print("  " + line, flush=True)
    n = len(read_log("second"))
    if client.get_job_status().result().name == "RUNNING":
        client.cancel().result()
        time.sleep(2)
        print("cancelled; log after:", read_log("second")[n:], flush=True)
    print("restored file sink parts:", parts("second"), flush=True)


if __name__ == "__main__":
    main()

"""Kafka -> keyed state -> Kafka at a paced input rate for minutes (issue 41): achieved input
and output rates, end-to-end latency, and the memory of the driver and the Python workers
over the run.

    python benchmarks/kafka_sustained.py [--rate 20000] [--seconds 60] [--warmup 15]
        [--interval-ms 500] [--parallelism 2] [--keys 1000]
        [--guarantee at-least-once|exactly-once] [--bootstrap HOST:PORT]

Without --bootstrap the tests' broker is started (pyflink_on_spark/spark/tests/kafka_broker.py,
a 512 MB heap) and stopped at the end. The job (benchmarks/jobs/kafka_sustained_job.py:
unbounded KafkaSource -> key_by -> ValueState running count -> KafkaSink, trigger = checkpoint
interval) runs as `pyflink-on-spark run` in its own process group. Once a first record went
through it, a producer process writes "k<i % keys>,<written_us>" into the 2-partition input
topic, rate / 100 records every 10 ms (written_us: the wall-clock time of the produce() call);
a consumer in this process reads the output topic and stamps each record as it arrives
(latency = arrival - written). Figures count the records written after the warm-up. Every
5 s the RSS of each process of the job's session (the driver's Python, its JVM, each Python
worker) and the load average are sampled; memory is compared between the first and the last
minute of the measured period (the run's first and last thirds when it is shorter than 3
minutes).
"""
from __future__ import annotations

import argparse
import multiprocessing
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from typing import Dict, List, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
JOB = os.path.join(HERE, "jobs", "kafka_sustained_job.py")
sys.path.insert(0, HERE)
from rocksdb_big_state import Versions  # noqa: E402  (completed state versions, as they come)
TICK_S = 0.01
BUCKET_S = 0.005            # latency histogram resolution
START_TIMEOUT_S = 300
DRAIN_TIMEOUT_S = 60


def create_topic(bootstrap: str, partitions: int = 2) -> str:
    from confluent_kafka.admin import AdminClient, NewTopic
    topic = "sustained-" + uuid.uuid4().hex
    admin = AdminClient({"bootstrap.servers": bootstrap})
    admin.create_topics([NewTopic(topic, num_partitions=partitions,
                                  replication_factor=1)])[topic].result()
    return topic


def produce_paced(bootstrap: str, topic: str, rate: int, seconds: float, keys: int,
                  produced, behind_max) -> None:
    """rate / 100 records every 10 ms for `seconds`; `produced`: a shared count, updated
    every tick; `behind_max`: how far (s) the producer ever was behind its schedule."""
    from confluent_kafka import Producer
    producer = Producer({"bootstrap.servers": bootstrap, "linger.ms": 5,
                         "queue.buffering.max.messages": 2_000_000,
                         "batch.num.messages": 10000})
    per_tick = rate * TICK_S
    ticks = int(seconds / TICK_S)
    t0 = time.time()
    sent = 0
    i = 0
    for k in range(ticks):
        now = time.time()
        pause = t0 + k * TICK_S - now
        if pause > 0:
            time.sleep(pause)
        elif -pause > behind_max.value:
            behind_max.value = -pause
        due = int((k + 1) * per_tick) - sent
        written = b"%d" % int(time.time() * 1_000_000)
        produce = producer.produce
        for _ in range(due):
            while True:
                try:
                    produce(topic, value=b"k%d,%s" % (i % keys, written))
                    break
                except BufferError:
                    producer.poll(0.01)
            i += 1
        sent += due
        producer.poll(0)
        produced.value = sent
    producer.flush(60)


class Arrivals(threading.Thread):
    """Reads the output topic; a latency histogram of the records written in [start, end)."""

    def __init__(self, bootstrap: str, topic: str) -> None:
        super().__init__(daemon=True)
        from confluent_kafka import Consumer
        self.consumer = Consumer({"bootstrap.servers": bootstrap,
                                  "group.id": "sustained-" + uuid.uuid4().hex,
                                  "enable.auto.commit": False, "auto.offset.reset": "earliest",
                                  "fetch.wait.max.ms": 10})
        self.consumer.subscribe([topic])
        self.total = 0
        self.window = (float("inf"), float("inf"))     # written (us) counted: [start, end)
        self.measured = 0
        self.histogram: Dict[int, int] = {}
        self.per_second: Dict[int, int] = {}           # arrival second -> records
        self.stop = False

    def run(self) -> None:
        consume, now = self.consumer.consume, time.time
        histogram, per_second = self.histogram, self.per_second
        while not self.stop:
            messages = consume(num_messages=20000, timeout=0.05)
            if not messages:
                continue
            arrival = now()
            start, end = self.window
            second = int(arrival)
            per_second[second] = per_second.get(second, 0) + len(messages)
            self.total += len(messages)
            for message in messages:
                value = message.value()
                if value is None:
                    continue
                written = int(value.rsplit(b",", 1)[1])
                if start <= written < end:
                    bucket = int((arrival - written / 1e6) / BUCKET_S)
                    histogram[bucket] = histogram.get(bucket, 0) + 1
                    self.measured += 1
        self.consumer.close()

    def percentile(self, p: float) -> float:
        target = self.measured * p / 100
        seen = 0
        for bucket in sorted(self.histogram):
            seen += self.histogram[bucket]
            if seen >= target:
                return (bucket + 1) * BUCKET_S
        return float("nan")


def _tree_processes(root: int) -> List[Tuple[int, str, int, float]]:
    """(pid, kind, rss_kb, cpu_s) of `root` and its descendants: the driver (root), its JVM
    (its own session: spark/gateway.py) and the Python workers under it."""
    parent, info, cpu = {}, {}, {}
    tick = os.sysconf("SC_CLK_TCK")
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % name) as f:
                stat = f.read()
            fields = stat[stat.rindex(")") + 2:].split()
            parent[int(name)] = int(fields[1])
            # utime + stime, and cutime + cstime: what its children that ended used (a
            # worker daemon's forked workers)
            cpu[int(name)] = sum(int(f) for f in fields[11:15]) / tick
        except (OSError, ValueError):
            continue
    children: Dict[int, List[int]] = {}
    for pid, ppid in parent.items():
        children.setdefault(ppid, []).append(pid)
    todo = [root]
    while todo:
        pid = todo.pop()
        todo.extend(children.get(pid, ()))
        try:
            with open("/proc/%d/cmdline" % pid, "rb") as f:
                argv = f.read().split(b"\0")
            with open("/proc/%d/status" % pid) as f:
                rss = next((int(line.split()[1]) for line in f if line.startswith("VmRSS")), 0)
        except (OSError, ValueError, StopIteration):
            continue
        exe = os.path.basename(argv[0].decode(errors="replace"))
        kind = "driver" if pid == root else "jvm" if exe == "java" else \
            "worker" if exe.startswith("python") else exe
        info[pid] = (pid, kind, rss, cpu.get(pid, 0.0))
    return list(info.values())


class Sampler(threading.Thread):
    def __init__(self, sid: int, every: float = 5.0) -> None:
        super().__init__(daemon=True)
        self.sid, self.every = sid, every
        self.samples: List[Tuple[float, float, List[Tuple[int, str, int]]]] = []
        self.stop = False

    def run(self) -> None:
        while not self.stop:
            self.samples.append((time.time(), os.getloadavg()[0],
                                 _tree_processes(self.sid)))
            time.sleep(self.every)


def memory_table(samples, start: float, end: float) -> List[str]:
    """RSS (MB) per process (and summed per kind) averaged over the first and last minute of
    [start, end) (first and last third when shorter than 3 minutes)."""
    span = min(60.0, (end - start) / 3)
    first = [s for s in samples if start <= s[0] < start + span]
    last = [s for s in samples if end - span <= s[0] < end]
    lines = []

    def averages(group):
        per: Dict[Tuple[str, int], List[int]] = {}
        per_kind: Dict[str, List[int]] = {}
        for _, _, procs in group:
            kinds: Dict[str, int] = {}
            for pid, kind, rss, _ in procs:
                per.setdefault((kind, pid), []).append(rss)
                kinds[kind] = kinds.get(kind, 0) + rss
            for kind, rss in kinds.items():
                per_kind.setdefault(kind, []).append(rss)
        return ({k: sum(v) / len(v) / 1024 for k, v in per.items()},
                {k: sum(v) / len(v) / 1024 for k, v in per_kind.items()})

    (a, ak), (b, bk) = averages(first), averages(last)
    lines.append("memory (RSS MB, mean of %.0f s at the start / at the end of the measured "
                 "period, %d / %d samples):" % (span, len(first), len(last)))
    for kind in sorted(set(ak) | set(bk)):
        lines.append("  %-7s all  %8.1f -> %8.1f" % (kind, ak.get(kind, 0), bk.get(kind, 0)))
    for key in sorted(set(a) | set(b)):
        lines.append("  %-7s %6d %8s -> %8s" % (key[0], key[1],
                                                 "%.1f" % a[key] if key in a else "-",
                                                 "%.1f" % b[key] if key in b else "-"))
    return lines


_spies: List[subprocess.Popen] = []


def _spy(pid: int, args) -> None:
    """py-spy samples the driver and everything under it (its JVM's Python workers) for
    the measured period, raw stacks into args.py_spy."""
    py_spy = os.path.join(os.path.dirname(sys.executable), "py-spy")
    _spies.append(subprocess.Popen(
        [py_spy if os.path.exists(py_spy) else "py-spy", "record", "--subprocesses",
         "--nonblocking", "--format", "raw", "--rate", "20", "--duration",
         str(int(args.seconds)), "-o", args.py_spy, "--pid", str(pid)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))


def rss_by_minute(samples, start: float, end: float):
    """[(minute, {kind: mean summed RSS MB})] over [start, end)."""
    minutes: Dict[int, Dict[str, List[int]]] = {}
    for t, _, procs in samples:
        if not start <= t < end:
            continue
        kinds: Dict[str, int] = {}
        for _, kind, rss, _ in procs:
            kinds[kind] = kinds.get(kind, 0) + rss
        for kind, rss in kinds.items():
            minutes.setdefault(int((t - start) // 60), {}).setdefault(kind, []).append(rss)
    return [(m, {k: sum(v) / len(v) / 1024 for k, v in per.items() if k in
                 ("driver", "jvm", "worker")}) for m, per in sorted(minutes.items())]


def cpu_seconds(samples, start: float, end: float) -> Dict[str, float]:
    """CPU seconds each kind of process used between the first and last sample in
    [start, end), its ended children's included (a process first seen in between counts
    from 0; one that ended in between loses what it used since its last sample, unless its
    parent reaped it)."""
    inside = [s for s in samples if start <= s[0] < end]
    if len(inside) < 2:
        return {}
    first = {pid: c for pid, _, _, c in inside[0][2]}
    last: Dict[int, Tuple[str, float]] = {}
    for _, _, procs in inside:
        for pid, kind, _, c in procs:
            last[pid] = (kind, c)
    used: Dict[str, float] = {}
    for pid, (kind, c) in last.items():
        used[kind] = used.get(kind, 0.0) + c - first.get(pid, 0.0)
    used["(seconds)"] = inside[-1][0] - inside[0][0]
    return used


def machine_busy() -> Tuple[float, float]:
    """(busy, total) CPU seconds of the whole machine since boot (/proc/stat)."""
    with open("/proc/stat") as f:
        fields = [int(x) for x in f.readline().split()[1:]]
    tick = os.sysconf("SC_CLK_TCK")
    idle = fields[3] + fields[4]
    return (sum(fields) - idle) / tick, sum(fields) / tick


def _own_cpu() -> float:
    times = os.times()
    return times.user + times.system


def _process_cpu(pid: int) -> float:
    try:
        with open("/proc/%d/stat" % pid) as f:
            stat = f.read()
        fields = stat[stat.rindex(")") + 2:].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError):
        return float("nan")


def run(args, bootstrap: str) -> None:
    work = tempfile.mkdtemp(prefix="kafka-sustained-")
    input_topic, output_topic = create_topic(bootstrap), create_topic(bootstrap)
    env = dict(os.environ)
    env["PYTHONPATH"] = REPO + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("SPARK_REMOTE", None)
    err = open(os.path.join(work, "stderr.txt"), "wb")
    command = [sys.executable, "-m", "pyflink_on_spark.cli.main", "run", JOB, bootstrap,
               input_topic, output_topic, os.path.join(work, "ckpt"), str(args.interval_ms),
               str(args.parallelism), args.guarantee]
    started = time.time()
    job = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=err,
                           start_new_session=True)
    arrivals = Arrivals(bootstrap, output_topic)
    arrivals.start()
    sampler = Sampler(job.pid)
    sampler.start()
    versions = Versions(os.path.join(work, "ckpt", "state"))
    versions.start()
    producer = None
    try:
        from confluent_kafka import Producer
        probe = Producer({"bootstrap.servers": bootstrap})
        probe.produce(input_topic, value=b"warm,%d" % int(time.time() * 1e6))
        probe.flush(30)
        while arrivals.total == 0:
            if job.poll() is not None or time.time() - started > START_TIMEOUT_S:
                raise SystemExit("the job did not start: see %s" % err.name)
            time.sleep(0.1)
        print("job started in %.1f s (first record out); producing %d records/s for %.0f + "
              "%.0f s" % (time.time() - started, args.rate, args.warmup, args.seconds),
              flush=True)
        produced = multiprocessing.Value("q", 0)
        behind = multiprocessing.Value("d", 0.0)
        producer = multiprocessing.Process(target=produce_paced, args=(
            bootstrap, input_topic, args.rate, args.warmup + args.seconds, args.keys,
            produced, behind))
        t0 = time.time()
        producer.start()
        measured_from = t0 + args.warmup
        if args.py_spy:
            spy_threading = threading.Timer(args.warmup, _spy, (job.pid, args))
            spy_threading.daemon = True
            spy_threading.start()
        arrivals.window = (int(measured_from * 1e6), int((t0 + args.warmup + args.seconds)
                                                         * 1e6))
        own_cpu, producer_cpu, producer_cpu_end = None, 0.0, 0.0
        while producer.is_alive():
            time.sleep(1)
            if own_cpu is None and time.time() >= measured_from:
                own_cpu, producer_cpu = _own_cpu(), _process_cpu(producer.pid)
                busy_from = machine_busy()
            if time.time() < measured_from + args.seconds - 1:
                producer_cpu_end = _process_cpu(producer.pid)
            if job.poll() is not None:
                raise SystemExit("the job ended: see %s" % err.name)
        own_cpu = _own_cpu() - own_cpu
        busy = [b - a for a, b in zip(busy_from, machine_busy())]
        producer_cpu = producer_cpu_end - producer_cpu
        producer.join()
        produced_end = time.time()
        input_rate = produced.value / (produced_end - t0)
        expected = args.rate * args.seconds
        while time.time() - produced_end < DRAIN_TIMEOUT_S and \
                arrivals.total < produced.value + 1:
            time.sleep(0.5)
        for spy in _spies:
            spy.wait(timeout=120)
        drain_s = time.time() - produced_end
    finally:
        arrivals.stop = True
        sampler.stop = True
        versions.stop = True
        try:
            os.killpg(job.pid, signal.SIGTERM)
            job.wait(timeout=60)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            try:
                os.killpg(job.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        if producer is not None and producer.is_alive():
            producer.terminate()
        err.close()
    arrivals.join(5)
    measured_end = measured_from + args.seconds
    span = range(int(measured_from) + 5, int(measured_end))
    seconds_out = [arrivals.per_second.get(s, 0) for s in span]
    batches = sorted(t for t, *_ in versions.seen.values() if measured_from <= t < measured_end)
    loads = [load for t, load, _ in sampler.samples if measured_from <= t < measured_end]
    print("kafka_sustained: target %d records/s, %d keys, p=%d, trigger %d ms, %s, "
          "%.0f s measured after %.0f s warm-up" % (
              args.rate, args.keys, args.parallelism, args.interval_ms, args.guarantee,
              args.seconds, args.warmup))
    print("  input: %d records in %.1f s = %.0f records/s (producer at most %.2f s behind "
          "its schedule)" % (produced.value, produced_end - t0, input_rate, behind.value))
    if seconds_out:
        print("  output from 5 s into the measured period: %.0f records/s (per second: min %d, "
              "max %d)" % (sum(seconds_out) / len(seconds_out), min(seconds_out),
                           max(seconds_out)))
    print("  measured records out: %d of %d written (drain %.1f s after the last; the "
          "window's edges may cut a 10 ms tick's records either way)" % (
              arrivals.measured, expected, drain_s))
    print("  all records out: %d, written %d (with the first, probe record): %s" % (
        arrivals.total, produced.value + 1,
        "none lost" if arrivals.total >= produced.value + 1 else "MISSING %d" % (
            produced.value + 1 - arrivals.total)))
    if len(batches) > 1:
        gaps = sorted(b - a for a, b in zip(batches, batches[1:]))
        print("  micro-batches completed in the measured period: %d, %.2f s apart (median; "
              "max %.2f)" % (len(batches), gaps[len(gaps) // 2], gaps[-1]))
    if arrivals.measured:
        print("  latency s: p50 %.3f  p95 %.3f  p99 %.3f  max %.3f" % tuple(
            arrivals.percentile(p) for p in (50, 95, 99, 100)))
    if loads:
        print("  load (1 min) during the measured period: %.1f-%.1f" % (min(loads),
                                                                       max(loads)))
    used = cpu_seconds(sampler.samples, measured_from, measured_end)
    if used:
        span_s = used.pop("(seconds)")
        job_cpu = sum(used.values())
        print("  CPU over %.0f s of the measured period: job %.1f s (%.2f cores: %s); "
              "this harness (consumer) %.1f s, producer %.1f s" % (
                  span_s, job_cpu, job_cpu / span_s,
                  ", ".join("%s %.1f" % kv for kv in sorted(used.items())),
                  own_cpu, producer_cpu))
        out_rate = sum(seconds_out) / max(1, len(seconds_out))
        print("  the job's records per CPU second: %.0f (output rate / job cores); the "
              "machine's cores busy over the period: %.2f of %d" % (
                  out_rate / (job_cpu / span_s), busy[0] / busy[1] * os.cpu_count(),
                  os.cpu_count()))
    for line in memory_table(sampler.samples, measured_from, measured_end):
        print("  " + line)
    print("  RSS MB by minute of the measured period (mean per kind): " + "; ".join(
        "%d: %s" % (m, ", ".join("%s %.0f" % kv for kv in sorted(per.items())))
        for m, per in rss_by_minute(sampler.samples, measured_from, measured_end)))
    print("  (job stderr: %s)" % err.name, flush=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rate", type=int, default=20000)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--warmup", type=float, default=15)
    parser.add_argument("--interval-ms", type=int, default=500)
    parser.add_argument("--parallelism", type=int, default=2)
    parser.add_argument("--keys", type=int, default=1000)
    parser.add_argument("--guarantee", default="at-least-once",
                        choices=["at-least-once", "exactly-once"])
    parser.add_argument("--bootstrap", help="a running broker (default: start one)")
    parser.add_argument("--py-spy", help="raw py-spy stacks of the driver and the workers "
                                         "over the measured period into this file (py-spy "
                                         "is a dev tool: pip install py-spy)")
    args = parser.parse_args(argv)
    broker = None
    if args.bootstrap:
        bootstrap = args.bootstrap
    else:
        from pyflink_on_spark.spark.tests.kafka_broker import start_broker
        broker = start_broker()
        bootstrap = broker.bootstrap_servers
    try:
        run(args, bootstrap)
    finally:
        if broker is not None:
            broker.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""CPU of each process of the shim's Kafka -> keyed aggregation -> Kafka job (issue 41):
the Python workers, the Spark JVM (its threads by name too) and the broker's JVM.

    python benchmarks/kafka_job_cpu.py [--records 1000000] [--repeat 2]
        [--guarantee at-least-once exactly-once]

A broker is started (pyflink_on_spark/spark/tests/kafka_broker.py); kafka_keyed_aggregation.
py's input is produced once and its job run (run_shim, a warm SparkSession in this process)
--repeat times per guarantee, the output checked each time. CPU comes from /proc, sampled
every 0.2 s over this process's tree (a worker that ends between two samples loses at most
its last 0.2 s). Wall times on a shared machine move more than the CPU: compare the CPU.
"""
from __future__ import annotations

import argparse
import collections
import os
import re
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))
import kafka_keyed_aggregation as job  # noqa: E402
from rocksdb_big_state import _descendants as _tree  # noqa: E402  (a process and those under it)

TICK = os.sysconf("SC_CLK_TCK")


def _stat(path: str):
    text = open(path).read()
    return text[text.index("(") + 1:text.rindex(")")], text.rsplit(")", 1)[1].split()


def _cpu(pid: int) -> float:
    try:
        fields = _stat("/proc/%d/stat" % pid)[1]
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICK


def _kind(pid: int) -> str:
    try:
        argv = open("/proc/%d/cmdline" % pid).read().split("\0")
    except OSError:
        return "gone"
    if pid == os.getpid():
        return "driver"
    if "java" in argv[0]:
        return "broker JVM" if any("kafka.Kafka" in a for a in argv) else "Spark JVM"
    if any("worker" in a or "daemon" in a for a in argv):
        return "workers"
    return "other"


def _threads(pids) -> dict:
    """(pid, tid) -> (thread name with digits as N, user s, system s) of the Spark JVM."""
    found = {}
    for pid in pids:
        if _kind(pid) != "Spark JVM":
            continue
        for tid in os.listdir("/proc/%d/task" % pid):
            try:
                name, fields = _stat("/proc/%d/task/%s/stat" % (pid, tid))
            except OSError:
                continue
            found[(pid, tid)] = (re.sub(r"\d+", "N", name), int(fields[11]) / TICK,
                                 int(fields[12]) / TICK)
    return found


def measured_run(args, bootstrap, input_topic, warm_topic, total, guarantee) -> None:
    last = {}
    done = threading.Event()

    def sample():
        while not done.is_set():
            for pid in _tree(os.getpid()):
                last[pid] = (_kind(pid), _cpu(pid))
            time.sleep(0.2)
    start = {pid: _cpu(pid) for pid in _tree(os.getpid())}
    threads_before = _threads(_tree(os.getpid()))
    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    seconds, output, _ = job.run_shim(args, bootstrap, input_topic, warm_topic, guarantee)
    done.set()
    sampler.join()
    threads_after = _threads(_tree(os.getpid()))
    by_kind = collections.Counter()
    for pid, (kind, cpu) in last.items():
        by_kind[kind] += cpu - start.get(pid, 0.0)
    by_thread = collections.Counter()
    for key, (name, user, system) in threads_after.items():
        _, user0, system0 = threads_before.get(key, (name, 0.0, 0.0))
        by_thread[name] += (user - user0) + (system - system0)
    print("%s: %.2f s, CPU s: %s; output %s" % (
        guarantee, seconds, ", ".join("%s %.1f" % kv for kv in sorted(by_kind.items())
                                      if kv[0] not in ("gone", "other")),
        job.check_output(bootstrap, output, args.records, total)), flush=True)
    print("  Spark JVM threads, CPU s: %s" % ", ".join(
        "%s %.1f" % kv for kv in by_thread.most_common(5)), flush=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument("--keys", type=int, default=1000)
    parser.add_argument("--parallelism", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--guarantee", nargs="+", default=["at-least-once", "exactly-once"],
                        choices=["at-least-once", "exactly-once"])
    args = parser.parse_args(argv)
    from pyflink_on_spark.spark.tests.kafka_broker import start_broker
    broker = start_broker()
    try:
        bootstrap = broker.bootstrap_servers
        input_topic, total = job.produce_input(bootstrap, args.records, args.keys)
        warm_topic, _ = job.produce_input(bootstrap, 1000, args.keys)
        for _ in range(args.repeat):
            for guarantee in args.guarantee:
                measured_run(args, bootstrap, input_topic, warm_topic, total, guarantee)
    finally:
        broker.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())

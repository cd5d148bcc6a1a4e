"""The driver JVM's live heap over an unbounded job, minute by minute (issue 41: "no growth
in driver memory"). Runs `pyflink-on-spark run benchmarks/jobs/monitored_files_job.py` over a
directory that a loop here feeds with a file of 1000 numbers every 0.3 s (one micro-batch
each, about), and once a minute takes `jcmd <pid> GC.class_histogram` of the driver's JVM
(a full GC first, so live objects only). Prints per minute: the live heap, the JVM's RSS,
the Spark jobs the status store keeps and its status objects' bytes.

    python benchmarks/driver_heap.py --minutes 8 [--conf spark.ui.retainedJobs=1000 ...]
"""
import argparse
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
JOB = os.path.join(HERE, "jobs", "monitored_files_job.py")
STATUS_CLASSES = ("org.apache.spark.status.", "org.apache.spark.sql.execution.ui.",
                  "org.apache.spark.sql.streaming.StreamingQueryProgress")


def feed(directory: str, stop: threading.Event) -> None:
    i = 0
    while not stop.is_set():
        tmp = os.path.join(directory, ".f%d.tmp" % i)   # hidden until renamed
        with open(tmp, "w") as f:
            f.write("\n".join(str(n) for n in range(i * 1000, i * 1000 + 1000)) + "\n")
        os.rename(tmp, os.path.join(directory, "f%d.txt" % i))
        i += 1
        stop.wait(0.3)


def histogram(pid: int):
    """(live bytes, jobs kept, status objects' bytes) from one class histogram."""
    out = subprocess.run(["jcmd", str(pid), "GC.class_histogram"], capture_output=True,
                         text=True).stdout
    total = jobs = status = 0
    for line in out.splitlines():
        parts = line.split()
        if parts and parts[0] == "Total":
            total = int(parts[2])
        elif len(parts) >= 4 and parts[0].rstrip(":").isdigit():
            if parts[3] == "org.apache.spark.status.JobDataWrapper":
                jobs = int(parts[1])
            if parts[3].startswith(STATUS_CLASSES):
                status += int(parts[2])
    return total, jobs, status


def rss_kb(pid: int) -> int:
    with open("/proc/%d/status" % pid) as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmRSS"))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=int, default=8)
    parser.add_argument("--conf", action="append", default=[],
                        help="a Spark setting key=value for the job (e.g. Spark's own "
                             "retention: spark.ui.retainedJobs=1000)")
    args = parser.parse_args(argv)
    work = tempfile.mkdtemp(prefix="driver-heap-")
    in_dir = os.path.join(work, "in")
    os.makedirs(in_dir)
    env = dict(os.environ)
    if args.conf:
        env["PYFLINK_ON_SPARK_CONF"] = "\n".join(
            [c for c in [env.get("PYFLINK_ON_SPARK_CONF")] if c] + args.conf)
    stop = threading.Event()
    feeder = threading.Thread(target=feed, args=(in_dir, stop), daemon=True)
    feeder.start()
    job = subprocess.Popen([sys.executable, "-m", "pyflink_on_spark.cli.main", "run", JOB,
                            in_dir], env=env, stdout=subprocess.DEVNULL,
                           stderr=open(os.path.join(work, "job.log"), "w"))
    try:
        time.sleep(40)   # the JVM, the first batches
        children = subprocess.run(["pgrep", "-P", str(job.pid), "java"], capture_output=True,
                                  text=True).stdout.split()
        if not children:
            raise SystemExit("no driver JVM under the job (see %s/job.log)" % work)
        jvm = int(children[0])
        print("minute | live heap MB | RSS MB | jobs kept | status objects MB")
        for minute in range(args.minutes + 1):
            total, jobs, status = histogram(jvm)
            print("%d | %.1f | %.0f | %d | %.2f" % (minute, total / 1e6, rss_kb(jvm) / 1e3,
                                                    jobs, status / 1e6), flush=True)
            if minute < args.minutes:
                time.sleep(60)
    finally:
        stop.set()
        job.send_signal(signal.SIGTERM)   # a clean stop (SIGINT may be ignored in a background job)
        try:
            job.wait(timeout=60)
        except subprocess.TimeoutExpired:
            job.kill()
    return 0


if __name__ == "__main__":
    sys.exit(main())

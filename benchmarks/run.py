"""Run a benchmark job on the shim, optionally on real PyFlink, and as a plain Python loop;
print records/s and the ratios from this one run.

    python benchmarks/run.py map_keyby_reduce [--records N] [--reference /opt/venvs/flink/bin/python]
    python benchmarks/run.py keyed_value_state --backend hashmap|rocksdb [...]
    python benchmarks/run.py rocksdb_distinct_keys --records 10000000 --backend rocksdb
    python benchmarks/run.py co_process_join --records 500000   # N records per input stream
    python benchmarks/run.py word_count_file [--megabytes 200] [--reference ...]
    python benchmarks/run.py keyed_value_state --repeat 5   # 5 shim/floor pairs in turn, medians
    python benchmarks/run.py tuple_key_reduce --keys 100000   # a composite (id, region) key
    python benchmarks/run.py window_session --repeat 3   # event-time sessions; window_count

The shim is timed inside the job (execute to last result), with the SparkSession already
warm, as a long-lived user session would be; the cold start is reported apart. Real PyFlink
is timed the same way inside the job (its ~6 s mini-cluster start falls in its number, as it
does for every PyFlink job).
"""
from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
RESULT = re.compile(r"RESULT records=(\d+) keys=(\d+) seconds=([\d.]+) checksum=(\d+)")
SUBTASK = re.compile(r"SUBTASK index=(\d+) keys=(\d+) peak_rss_kb=(\d+)")


def floor_map_keyby_reduce(n: int, keys: int) -> float:
    """The same user functions driven by a plain Python loop: the floor."""
    def to_pair(value):
        return (value % keys, value)

    def add(a, b):
        return (a[0], a[1] + b[1])

    def key(pair):
        return pair[0]

    return _floor_map_key_reduce(n, to_pair, key, add)


def _floor_map_key_reduce(n: int, to_record, key, add) -> float:
    """Seconds of a plain loop over range(n): map, key, and reduce into a dict per key."""
    start = time.perf_counter()
    state = {}
    for i in range(n):
        record = to_record(i)
        k = key(record)
        current = state.get(k)
        state[k] = record if current is None else add(current, record)
    return time.perf_counter() - start


def floor_co_process_join(n: int, keys: int) -> float:
    """The co_process_join job's user function (MatchJoin: the same methods) driven by a
    plain loop, the inputs alternating record by record, dicts as its ValueState and
    ListStates (as keyed_value_state's floor does); the end-of-input timers fired at the end.
    (Before 2026-12-01 this floor was the join re-written without the state API calls, which
    the job's function makes four of a record: the shim ran the user's function against a
    floor that did not; floor_co_process_join_inline keeps that one for comparison.)"""
    class DictValueState:
        def __init__(self, current):
            self.data, self.current = {}, current

        def value(self):
            return self.data.get(self.current[0])

        def update(self, value):
            self.data[self.current[0]] = value

    class DictListState(DictValueState):
        def get(self):
            return self.data.get(self.current[0], [])

        def add(self, value):
            self.data.setdefault(self.current[0], []).append(value)

    class Timers:
        def __init__(self, current):
            self.current, self.registered = current, []

        def register_event_time_timer(self, timestamp):
            self.registered.append(self.current[0])

    class Context:
        def __init__(self, current):
            self.current, self.timers = current, Timers(current)

        def timer_service(self):
            return self.timers

        def get_current_key(self):
            return self.current[0]

    class MatchJoin:   # benchmarks/jobs/co_process_join.py's, its methods as they are
        def open(self, current):
            self.orders = DictListState(current)
            self.payments = DictListState(current)
            self.stats = DictValueState(current)

        def _match(self, amount, mine, other, ctx):
            stats = self.stats.value()
            if stats is None:
                stats = (0, 0)
                ctx.timer_service().register_event_time_timer(1)
            pending = list(other.get())
            if pending:
                partner = pending.pop(0)
                other.update(pending)
                stats = (stats[0] + 1, stats[1] + amount + partner)
            else:
                mine.add(amount)
            self.stats.update(stats)

        def process_element1(self, value, ctx):
            self._match(value[1], self.orders, self.payments, ctx)

        def process_element2(self, value, ctx):
            self._match(value[1], self.payments, self.orders, ctx)

        def on_timer(self, timestamp, ctx):
            matched, total = self.stats.value()
            yield ctx.get_current_key(), matched, total

    def order(value):
        return value % keys, value

    def payment(value):
        return value % keys, 2 * value

    def key(pair):
        return pair[0]

    start = time.perf_counter()
    current = [None]
    function, ctx = MatchJoin(), Context(current)
    function.open(current)
    for i in range(n):
        value = order(i)
        current[0] = key(value)
        function.process_element1(value, ctx)
        value = payment(i)
        current[0] = key(value)
        function.process_element2(value, ctx)
    results = []
    for timer_key in ctx.timers.registered:
        current[0] = timer_key
        results.extend(function.on_timer(1, ctx))
    return time.perf_counter() - start


def floor_co_process_join_inline(n: int, keys: int) -> float:
    """co_process_join's matching join re-written as a plain loop (dicts for the keyed state,
    the inputs alternating record by record): the floor before 2026-12-01."""
    def order(value):
        return value % keys, value

    def payment(value):
        return value % keys, 2 * value

    start = time.perf_counter()
    pending = {}
    stats = {}
    for i in range(n):
        for side, make in ((0, order), (1, payment)):
            key, amount = make(i)
            queues = pending.get(key)
            if queues is None:
                queues = pending[key] = ([], [])
            matched, total = stats.get(key, (0, 0))
            other = queues[1 - side]
            if other:
                stats[key] = (matched + 1, total + amount + other.pop(0))
            else:
                queues[side].append(amount)
                stats[key] = (matched, total)
    return time.perf_counter() - start


def floor_keyed_value_state(n: int, keys: int) -> float:
    """The keyed_value_state job's user function driven by a plain loop, a dict as state."""
    class DictValueState:
        """ValueState over a dict, keyed by the loop's current key."""

        def __init__(self):
            self.data = {}
            self.key = None

        def value(self):
            return self.data.get(self.key)

        def update(self, value):
            self.data[self.key] = value

    def running_sum(value, total_state, last_round_from):
        total = (total_state.value() or 0) + value
        total_state.update(total)
        if value >= last_round_from:
            yield value % keys, total

    def key(value):
        return value % keys

    start = time.perf_counter()
    state = DictValueState()
    last_round_from = n - keys
    results = []
    for i in range(n):
        state.key = key(i)
        results.extend(running_sum(i, state, last_round_from))
    return time.perf_counter() - start


def floor_window_aggregate(n: int, keys: int, slide_seconds: int = 0) -> float:
    """window_aggregate's work in a plain Python loop: per record, key and 10 s window (each
    of its sliding windows with slide_seconds), then (count, min, max) per key and window in
    a dict (the floor)."""
    def to_pair(value):
        return (value % keys, value)

    def add(value, acc):
        count, low, high = acc
        v = value[1]
        return (count + 1, v if low is None or v < low else low,
                v if high is None or v > high else high)

    slide = slide_seconds * 1000
    start = time.perf_counter()
    state = {}
    if not slide:
        for i in range(n):
            pair = to_pair(i)
            slot = (pair[0], i - i % 10000)
            state[slot] = add(pair, state.get(slot, (0, None, None)))
        return time.perf_counter() - start
    for i in range(n):
        pair = to_pair(i)
        for window_start in range(i - i % slide, i - 10000, -slide):
            slot = (pair[0], window_start)
            state[slot] = add(pair, state.get(slot, (0, None, None)))
    return time.perf_counter() - start


def floor_window_session(n: int, keys: int) -> float:
    """window_session's work in a plain Python loop: per record, key and event time, then
    the key's open session (start, end, accumulator) in a dict: the record extends it when
    its time is within the gap of the session's end (as touching session windows merge), or
    the session ends (its result kept) and a new one begins (the floor)."""
    gap, break_every, break_ms = 3000, 100_000, 10_000

    def to_pair(value):
        return (value % keys, value)

    def add(value, acc):
        count, low, high = acc
        v = value[1]
        return (count + 1, v if low is None or v < low else low,
                v if high is None or v > high else high)

    start = time.perf_counter()
    sessions = {}
    results = []
    for i in range(n):
        pair = to_pair(i)
        t = i + break_ms * (i // break_every)
        session = sessions.get(pair[0])
        if session is not None and t <= session[1]:
            if t + gap > session[1]:
                session[1] = t + gap
            session[2] = add(pair, session[2])
        else:
            if session is not None:
                results.append(session[2])
            sessions[pair[0]] = [t, t + gap, add(pair, (0, None, None))]
    results.extend(session[2] for session in sessions.values())
    return time.perf_counter() - start


def floor_window_count(n: int, keys: int) -> float:
    """window_count's work in a plain Python loop: per record, key, then (count, the reduced
    value) per key in a dict; the value leaves at 100 records and the key starts again (the
    floor)."""
    size = 100

    def to_pair(value):
        return (value % keys, value)

    def add(a, b):
        return a[0], a[1] + b[1]

    start = time.perf_counter()
    state = {}
    results = []
    for i in range(n):
        pair = to_pair(i)
        entry = state.get(pair[0])
        if entry is None:
            state[pair[0]] = [1, pair]
            continue
        entry[0] += 1
        entry[1] = add(entry[1], pair)
        if entry[0] == size:
            results.append(entry[1])
            del state[pair[0]]
    return time.perf_counter() - start


def generated_text_file(megabytes: int) -> str:
    """A text file of `megabytes` MB of words (Zipf-like vocabulary), generated under /tmp
    once and reused (never committed)."""
    import random
    directory = os.path.join("/tmp", "pyflink-on-spark-bench")
    path = os.path.join(directory, "words-%dMB.txt" % megabytes)
    if os.path.exists(path):
        return path
    os.makedirs(directory, exist_ok=True)
    rng = random.Random(42)
    vocabulary = ["w%d" % i for i in range(20000)]
    cumulative, total = [], 0.0
    for i in range(len(vocabulary)):
        total += 1.0 / (i + 1)
        cumulative.append(total)
    target = megabytes * 1024 * 1024
    written = 0
    with open(path + ".tmp", "w") as f:
        while written < target:
            words = rng.choices(vocabulary, cum_weights=cumulative, k=12 * 10000)
            lines = [" ".join(words[i:i + 12]) for i in range(0, len(words), 12)]
            text = "\n".join(lines) + "\n"
            f.write(text)
            written += len(text)
    os.replace(path + ".tmp", path)
    return path


def floor_word_count_file(path: str) -> float:
    """The same split + count as a plain Python loop over the file's lines."""
    def split(line):
        return [(word, 1) for word in line.split()]

    start = time.perf_counter()
    counts = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            for word, one in split(line):
                counts[word] = counts.get(word, 0) + one
    return time.perf_counter() - start


def floor_tuple_key_reduce(n: int, keys: int) -> float:
    """tuple_key_reduce's user functions driven by a plain loop, a dict keyed by the tuple."""
    regions = ("eu", "us", "ap")

    def to_sale(value):
        user = value % keys
        return (user, regions[user % 3], value)

    def key(sale):
        return (sale[0], sale[1])

    def add(a, b):
        return (a[0], a[1], a[2] + b[2])

    return _floor_map_key_reduce(n, to_sale, key, add)


FLOORS = {
    "map_keyby_reduce": floor_map_keyby_reduce,
    "tuple_key_reduce": floor_tuple_key_reduce,
    "keyed_value_state": floor_keyed_value_state,
    "co_process_join": floor_co_process_join,
    "window_aggregate": floor_window_aggregate,
    "window_session": floor_window_session,
    "window_count": floor_window_count,
}


class WorkerMemorySampler(threading.Thread):
    """Polls /proc for the Python processes below this one (Spark's python daemon and its
    workers): the highest VmHWM (a process's own peak RSS, kept by the kernel) and the
    highest sum of their VmRSS seen at one sample."""

    def __init__(self, interval: float = 0.2) -> None:
        super().__init__(daemon=True)
        self.interval = interval
        self.peak_process_kb = 0
        self.peak_total_kb = 0
        self._stop_event = threading.Event()

    def run(self) -> None:
        while not self._stop_event.is_set():
            self.sample()
            self._stop_event.wait(self.interval)

    def stop(self) -> None:
        self._stop_event.set()
        self.join()
        self.sample()

    def sample(self) -> None:
        total = 0
        for pid in _descendants(os.getpid()):
            status = _proc_status(pid)
            if status is None or not status.get("Name", "").startswith("python"):
                continue
            self.peak_process_kb = max(self.peak_process_kb, status.get("VmHWM", 0))
            total += status.get("VmRSS", 0)
        self.peak_total_kb = max(self.peak_total_kb, total)


def cpu_seconds() -> float:
    """CPU seconds (user + system) of this process and every process below it (the JVM,
    Spark's Python daemon and workers), the children they reaped included: the difference
    over a job is the job's CPU time wherever it ran, which the machine's other work does
    not inflate as it does the wall time."""
    tick = os.sysconf("SC_CLK_TCK")
    own = os.times()
    total = own.user + own.system
    for pid in _descendants(os.getpid()):
        try:
            with open("/proc/%d/stat" % pid) as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        # utime, stime, cutime, cstime: fields 14-17 of stat, 12-15 after the name
        total += sum(int(x) for x in fields[11:15]) / tick
    return total


def _children_map():
    children = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % entry) as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(entry))
    return children


def _descendants(pid: int):
    children = _children_map()
    stack, found = list(children.get(pid, ())), []
    while stack:
        child = stack.pop()
        found.append(child)
        stack.extend(children.get(child, ()))
    return found


def _proc_status(pid: int):
    try:
        with open("/proc/%d/status" % pid) as f:
            lines = f.read().splitlines()
    except OSError:
        return None
    status = {}
    for line in lines:
        name, _, value = line.partition(":")
        value = value.strip()
        status[name] = int(value.split()[0]) if value.endswith(" kB") else value
    return status


def _parse(out: str):
    match = RESULT.search(out)
    if not match:
        raise RuntimeError("benchmark job printed no RESULT line:\n" + out[-3000:])
    return int(match.group(1)), float(match.group(3)), int(match.group(4)), int(match.group(2))


def run_shim(job: str, args) -> tuple:
    from pyflink_on_spark.cli.script_runner import run_script_captured
    from pyflink_on_spark.spark.session import get_session
    start = time.perf_counter()
    get_session()
    cold = time.perf_counter() - start
    # warm-up run on small data (first job pays Python worker start-up)
    run_script_captured(job, _job_args(args, warm_up=True))
    sampler = WorkerMemorySampler()
    sampler.start()
    cpu = [cpu_seconds()]
    try:
        out, error = run_script_captured(job, _job_args(args))
    finally:
        cpu[0] = cpu_seconds() - cpu[0]
        sampler.stop()
    if error is not None:
        raise error
    more = []
    floor_cpu = []
    for _ in range(args.repeat - 1):   # in turn with the floor: noise hits both alike
        before = time.process_time()
        more.append(floor_seconds(args))
        floor_cpu.append(time.process_time() - before)
        before = cpu_seconds()
        again, error = run_script_captured(job, _job_args(args))
        cpu.append(cpu_seconds() - before)
        if error is not None:
            raise error
        more.append(_parse(again)[1])
    args.repeated = more
    if floor_cpu:
        # what a job cost in CPU, all processes (the sampler's polling of /proc included),
        # against the floor's CPU in the same process
        print("  CPU seconds, shim (all its processes) / floor: %s" % ", ".join(
            "%.2f/%.2f" % pair for pair in zip(cpu[1:], floor_cpu)))
    for index, keys, peak_kb in SUBTASK.findall(out):
        print("  subtask %s: %s keys, its peak RSS (ru_maxrss) %.0f MB"
              % (index, keys, int(peak_kb) / 1024))
    print("  Python workers (from /proc): highest peak RSS of one process %.0f MB, highest "
          "total RSS at one time %.0f MB" % (sampler.peak_process_kb / 1024,
                                             sampler.peak_total_kb / 1024))
    return _parse(out) + (cold,)


def _job_args(args, warm_up: bool = False) -> list:
    if args.job == "word_count_file":
        return [generated_text_file(1 if warm_up else args.megabytes), str(args.parallelism)]
    return ["1000" if warm_up else str(args.records), str(args.keys), str(args.parallelism),
            args.backend, args.mode, str(args.slide_seconds)]


def floor_seconds(args) -> float:
    """The floor's time for this job (None: no floor for it)."""
    if args.job == "word_count_file":
        return floor_word_count_file(_job_args(args)[0])
    if args.job == "window_aggregate":
        return floor_window_aggregate(args.records, args.keys, args.slide_seconds)
    floor = FLOORS.get(args.job)
    return floor(args.records, args.keys) if floor is not None else None


def run_reference(job: str, args) -> tuple:
    env = dict(os.environ)
    env["PATH"] = os.path.dirname(args.reference) + os.pathsep + env.get("PATH", "")
    proc = subprocess.run([args.reference, job] + _job_args(args), capture_output=True,
                          text=True, env=env, timeout=3600)
    return _parse(proc.stdout + proc.stderr)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("job", nargs="?", default="map_keyby_reduce")
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument("--keys", type=int, default=1000)
    parser.add_argument("--parallelism", type=int, default=2)
    parser.add_argument("--megabytes", type=int, default=200,
                        help="word_count_file: size of the generated text file")
    parser.add_argument("--reference", help="python of a venv with apache-flink 1.20")
    parser.add_argument("--mode", default="STREAMING", choices=["STREAMING", "BATCH"],
                        help="runtime mode of the jobs that read it (co_process_join, "
                             "window_aggregate)")
    parser.add_argument("--repeat", type=int, default=1,
                        help="time the shim's job and the floor this many times each, in "
                             "turn; report each pair and the medians")
    parser.add_argument("--backend", default="hashmap", choices=["hashmap", "rocksdb"],
                        help="state backend, for jobs that take one")
    parser.add_argument("--slide-seconds", type=int, default=0,
                        help="window_aggregate: sliding windows of 10 s every this many "
                             "seconds (0: tumbling)")
    args = parser.parse_args(argv)
    job = os.path.join(HERE, "jobs", args.job + ".py")
    n, shim_s, shim_sum, result_keys, cold = run_shim(job, args)
    rows = [("shim (pyflink_on_spark)", shim_s)]
    if args.reference:
        ref_n, ref_s, ref_sum, _ = run_reference(job, args)
        if ref_sum != shim_sum:
            print("WARNING: checksums differ: shim %d, PyFlink %d" % (shim_sum, ref_sum))
        rows.append(("real PyFlink 1.20", ref_s))
    floor_s = floor_seconds(args)
    if args.repeat > 1 and floor_s is not None:
        # runs in turn (shim, floor, shim, floor...): each pair's ratio, then the medians
        shims = [shim_s] + args.repeated[1::2]
        floors = args.repeated[0::2] + [floor_s]
        print("  %d pairs in turn, shim / floor: %s" % (args.repeat, ", ".join(
            "%.2f/%.2f s (%.2fx)" % (a, b, a / b) for a, b in zip(shims, floors))))
        shim_s, floor_s = statistics.median(shims), statistics.median(floors)
        rows[0] = ("shim (pyflink_on_spark)", shim_s)
        print("  medians of %d runs each:" % args.repeat)
    if floor_s is not None:
        rows.append(("plain Python loop (floor)", floor_s))
    if args.job == "co_process_join" and args.mode == "STREAMING":
        # the floor before 2026-12-01 (see floor_co_process_join), shown beside it
        rows.append(("re-written join (old floor)",
                     floor_co_process_join_inline(args.records, args.keys)))
    print("%s: %d records, %d keys, parallelism %d, backend %s (SparkSession cold start "
          "%.1f s, not counted)" % (args.job, n, result_keys, args.parallelism, args.backend,
                                   cold))
    for name, seconds in rows:
        ratio = ("  %6.2fx the floor's time" % (seconds / floor_s)) if floor_s else ""
        print("  %-28s %8.2f s  %12.0f rec/s%s" % (name, seconds, n / seconds, ratio))
    if args.reference:
        print("  shim / PyFlink time ratio: %.2f" % (shim_s / rows[1][1]))
    return 0


if __name__ == "__main__":
    sys.exit(main())

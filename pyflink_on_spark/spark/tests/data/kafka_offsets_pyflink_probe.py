"""PyFlink 1.20.5 evidence for docs/compatibility.md (issue 43, KafkaSource offsets and
collect limits). Run with PyFlink's interpreter, a broker running and a Python with
confluent-kafka (the reference venv has none) for the set-up:
  PYFLINK_ON_SPARK_TEST_KAFKA_BOOTSTRAP_SERVERS=HOST:PORT HELPER_PYTHON=.venv/bin/python \
  /opt/venvs/flink/bin/python kafka_offsets_pyflink_probe.py
Its output on 1.20.5: kafka_offsets_pyflink_probe.out."""
import os, sys, time, uuid, threading, traceback
from pyflink.common import WatermarkStrategy
from pyflink.common.serialization import SimpleStringSchema
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.kafka import (KafkaOffsetsInitializer as O, KafkaSource,
    KafkaTopicPartition as TP, KafkaOffsetResetStrategy as R)
B = os.environ["PYFLINK_ON_SPARK_TEST_KAFKA_BOOTSTRAP_SERVERS"]
HELPER = os.environ.get("HELPER_PYTHON", "python3")
SETUP = 'import time, uuid\nfrom confluent_kafka import Producer, Consumer, TopicPartition\nfrom confluent_kafka.admin import AdminClient, NewTopic\nimport os\nB = os.environ[\'PYFLINK_ON_SPARK_TEST_KAFKA_BOOTSTRAP_SERVERS\']\nsfx = uuid.uuid4().hex[:6]\nT, E = "t-" + sfx, "empty-" + sfx\na = AdminClient({"bootstrap.servers": B})\nfor f in a.create_topics([NewTopic(T, 2, 1), NewTopic(E, 2, 1)]).values(): f.result()\ntime.sleep(1)\np = Producer({"bootstrap.servers": B})\nfor i in range(3):\n    p.produce(T, ("a%d" % i).encode(), partition=0, timestamp=1000 + i)\n    p.produce(T, ("b%d" % i).encode(), partition=1, timestamp=1000 + i)\np.flush()\nc = Consumer({"bootstrap.servers": B, "group.id": "g-" + sfx})\nc.commit(offsets=[TopicPartition(T, 0, 1), TopicPartition(T, 1, 2)], asynchronous=False)\nc.close()\nG = "g-" + sfx\nprint(sfx)\n'
JAR = os.path.expanduser("~/.m2/repository/org/apache/flink/flink-sql-connector-kafka/3.2.0-1.19/flink-sql-connector-kafka-3.2.0-1.19.jar")
env = StreamExecutionEnvironment.get_execution_environment()
env.add_jars("file://" + JAR)
env.set_parallelism(1)
import subprocess
sfx = subprocess.check_output([HELPER, "-c", SETUP]).decode().split()[-1]
T, E = "t-" + sfx, "empty-" + sfx
G = "g-" + sfx

def src(start=None, stop=None, bounded=True, group=G, topics=(T,), pattern=None, parts=None):
    b = KafkaSource.builder().set_bootstrap_servers(B).set_value_only_deserializer(SimpleStringSchema())
    if group: b.set_group_id(group)
    if pattern: b.set_topic_pattern(pattern)
    elif parts: b.set_partitions(parts)
    else: b.set_topics(*topics)
    if start is not None: b.set_starting_offsets(start)
    if stop is not None:
        (b.set_bounded if bounded else b.set_unbounded)(stop)
    return b.build()

def run(name, make, limit=None):
    t0 = time.time()
    try:
        s = make()
        ds = env.from_source(s, WatermarkStrategy.no_watermarks(), "k")
        out = ds.execute_and_collect(limit=limit) if limit is not None else list(ds.execute_and_collect())
        print("%s => %s (%.1fs)" % (name, sorted(out), time.time() - t0), flush=True)
    except BaseException as e:
        msg = str(e)
        lines = [l for l in msg.splitlines() if "Exception" in l or "Error" in l]
        print("%s => ERROR %s: %s (%.1fs)" % (name, type(e).__name__, " | ".join(lines[-3:])[:900], time.time() - t0), flush=True)

which = sys.argv[1:] or ["all"]
if "all" in which or "bounded" in which:
    run("A committed(NONE)->latest", lambda: src(O.committed_offsets(), O.latest()))
    run("B earliest->committed", lambda: src(O.earliest(), O.committed_offsets()))
    run("C latest->latest", lambda: src(O.latest(), O.latest()))
    run("D earliest->earliest", lambda: src(O.earliest(), O.earliest()))
    run("E offsets({p0:1})->latest", lambda: src(O.offsets({TP(T, 0): 1}), O.latest()))
    run("E2 offsets({p0:1},LATEST)->latest", lambda: src(O.offsets({TP(T, 0): 1}, R.LATEST), O.latest()))
    run("F timestamp(1001)->timestamp(1002)", lambda: src(O.timestamp(1001), O.timestamp(1002)))
    run("F2 timestamp(5000)->latest", lambda: src(O.timestamp(5000), O.latest()))
    run("G committed no group id", lambda: src(O.committed_offsets(), O.latest(), group=None))
    run("G2 stop committed no group id", lambda: src(O.earliest(), O.committed_offsets(), group=None))
    run("H committed(NONE) group without commits", lambda: src(O.committed_offsets(), O.latest(), group="none-" + sfx))
    run("I committed(EARLIEST) group without commits", lambda: src(O.committed_offsets(R.EARLIEST), O.latest(), group="none2-" + sfx))
    run("I2 committed(LATEST) group without commits", lambda: src(O.committed_offsets(R.LATEST), O.latest(), group="none3-" + sfx))
    run("K stop committed group without commits", lambda: src(O.earliest(), O.committed_offsets(), group="none4-" + sfx))
    run("J empty topic earliest->latest", lambda: src(O.earliest(), O.latest(), topics=(E,)))
    run("L partitions{p1} earliest->offsets{p1:2}", lambda: src(O.earliest(), O.offsets({TP(T, 1): 2}), parts={TP(T, 1)}))
    run("M pattern committed->latest", lambda: src(O.committed_offsets(), O.latest(), pattern="t-" + sfx))
    run("N earliest->offsets({p0:2}) p1 missing", lambda: src(O.earliest(), O.offsets({TP(T, 0): 2})))
    run("P offsets{p0:2,p1:0}->offsets{p0:1,p1:1} start>stop", lambda: src(O.offsets({TP(T, 0): 2, TP(T, 1): 0}), O.offsets({TP(T, 0): 1, TP(T, 1): 1})))
    run("Q offsets beyond end {p0:10}->latest", lambda: src(O.offsets({TP(T, 0): 10, TP(T, 1): 0}), O.latest()))
    run("S stop offsets beyond end {p0:10,p1:10}", lambda: src(O.earliest(), O.offsets({TP(T, 0): 10, TP(T, 1): 1})), limit=4)
    run("U unbounded stop latest limit 6", lambda: src(O.earliest(), O.latest(), bounded=False), limit=6)
if "all" in which or "limit" in which:
    run("V unbounded limit 3 (6 records)", lambda: src(O.earliest(), None, bounded=False), limit=3)
    run("V2 unbounded limit 6 exactly", lambda: src(O.earliest(), None, bounded=False), limit=6)
    def later():
        time.sleep(8)
        subprocess.check_call([HELPER, "-c", "from confluent_kafka import Producer; pp = Producer({'bootstrap.servers': %r}); pp.produce(%r, b'late1', partition=0); pp.produce(%r, b'late2', partition=1); pp.flush()" % (B, T, T)])
    threading.Thread(target=later, daemon=True).start()
    run("W unbounded limit 8 (6 now, 2 after 8s)", lambda: src(O.earliest(), None, bounded=False), limit=8)
    t0 = time.time()
    it = env.from_source(src(O.earliest(), None, bounded=False), WatermarkStrategy.no_watermarks(), "k").execute_and_collect()
    first = [next(it), next(it)]
    it.close()
    print("X iterator closed after 2 =>", len(first), "(%.1fs)" % (time.time() - t0), flush=True)
    t0 = time.time()
    env.from_source(src(O.earliest(), None, bounded=False), WatermarkStrategy.no_watermarks(), "k").print()
    client = env.execute_async("async")
    time.sleep(5)
    client.cancel().result()
    print("Y execute_async cancel =>", client.get_job_status().result(), "(%.1fs)" % (time.time() - t0), flush=True)
print("DONE", flush=True)

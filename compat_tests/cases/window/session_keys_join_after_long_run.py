"""A session operator's timers after a long run of root moves, then many new keys: 20 keys
report in turn (each record grows its key's session, moving that key's timer, which is the
heap's root: the key with the earliest session end reports next), then 400 new keys report
once each (new sessions, the timer heap grows), then the first 20 keys go on in turn. The
window results' content and order equal PyFlink's. Before 7eb6c10 the shim hung here: a
stale run of root moves walked stale heap positions once the heap had grown past its
threshold, and never ended."""
from pyflink.common import Duration, Types
from pyflink.common.time import Time
from pyflink.common.watermark_strategy import TimestampAssigner, WatermarkStrategy
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.window import EventTimeSessionWindows


class ReadingTime(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[1]


def readings():
    rows, t = [], 0
    for k in range(20):                      # first readings of the first keys
        rows.append((f"sensor-{k:03d}", t, k))
        t += 100
    for i in range(80):                      # they report in turn
        rows.append((f"sensor-{i % 20:03d}", t, i % 7))
        t += 100
    for k in range(20, 420):                 # new keys join
        rows.append((f"sensor-{k:03d}", t, k % 5))
        t += 100
    for i in range(80):                      # the first keys go on in turn
        rows.append((f"sensor-{i % 20:03d}", t, i % 3))
        t += 100
    return rows


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
strategy = (WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_seconds(5))
            .with_timestamp_assigner(ReadingTime()))
sessions = (env.from_collection(
                readings(), type_info=Types.TUPLE([Types.STRING(), Types.LONG(), Types.INT()]))
            .assign_timestamps_and_watermarks(strategy)
            .map(lambda r: (r[0], 1, r[2], r[1], r[1]),
                 output_type=Types.TUPLE([Types.STRING(), Types.INT(), Types.INT(),
                                          Types.LONG(), Types.LONG()]))
            .key_by(lambda r: r[0], key_type=Types.STRING())
            .window(EventTimeSessionWindows.with_gap(Time.seconds(60)))
            .reduce(lambda a, b: (a[0], a[1] + b[1], a[2] + b[2],
                                  min(a[3], b[3]), max(a[4], b[4]))))
with sessions.execute_and_collect() as results:
    for key, count, total, first, last in results:
        print(f"{key} readings={count} total={total} from={first} to={last}")

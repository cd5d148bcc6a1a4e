"""Kafka on Spark without a broker (none runs here): everything up to Spark's Kafka writer
runs, and the rows it would write are checked; the writer itself needs the package."""
from pyflink_on_spark.common.serialization import SimpleStringSchema
from pyflink_on_spark.common.typeinfo import Types
from pyflink_on_spark.datastream import StreamExecutionEnvironment
from pyflink_on_spark.datastream.connectors.kafka import (KafkaRecordSerializationSchema,
                                                          KafkaSink)
from pyflink_on_spark.spark.executor import build_frames
from pyflink_on_spark.spark.frame_sinks import frame_sink_exits
from pyflink_on_spark.spark.kafka import _decode_encoded


def test_kafka_sink_rows_are_the_encoded_records(spark):
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(2)
    serializer = KafkaRecordSerializationSchema.builder() \
        .set_topic_selector(lambda v: "even" if int(v[0]) % 2 == 0 else "odd") \
        .set_key_serialization_schema(SimpleStringSchema()) \
        .set_value_serialization_schema(SimpleStringSchema()).build()
    env.from_collection(["1", "2", "3", "4"], type_info=Types.STRING()) \
        .map(lambda s: s + "0", output_type=Types.STRING()) \
        .sink_to(KafkaSink.builder().set_bootstrap_servers("b:1")
                 .set_record_serializer(serializer).build())
    job = env._compile(env._sinks)
    frames = build_frames(job, spark)
    (stage,) = [s for s in job.stages if frame_sink_exits(s)]
    (sink_exit,) = frame_sink_exits(stage)
    rows = frames[stage.spec.stage_id].where("edge = %d" % sink_exit.edge_id).select("payload") \
        .mapInArrow(_decode_encoded, "topic string, key binary, value binary").collect()
    assert sorted((r.topic, bytes(r.key), bytes(r.value)) for r in rows) == [
        ("even", b"20", b"20"), ("even", b"40", b"40"), ("odd", b"10", b"10"),
        ("odd", b"30", b"30")]


def test_kafka_records_become_chunks_for_the_partitions_owner():
    import pickle

    import pyarrow as pa

    from pyflink_on_spark.spark.kafka import _chunker, split_owner
    from pyflink_on_spark.specs.sources import SplitFinished, SplitRecords, SplitStarted
    # Spark's Kafka timestamp column is in microseconds; Flink's timestamps are milliseconds
    stamps = pa.array([1_000_000, 1_500_000, 2_500_000], pa.timestamp("us", tz="UTC"))
    batch = pa.RecordBatch.from_arrays(
        [pa.array([b"a", b"b", b"c"], pa.binary()), pa.array(["t", "t", "u"]),
         pa.array([0, 0, 1], pa.int32()), stamps],
        names=["value", "topic", "partition", "timestamp"])
    rows = [r for out in _chunker(SimpleStringSchema()._deserialize, 3)(iter([batch]))
            for r in out.to_pylist()]
    t0, u1 = split_owner("t", 0, 3), split_owner("u", 1, 3)
    # each partition announced first (src -1), then its chunks numbered within it (src),
    # the partition as seq (a subtask takes its partitions' chunks in turn), then the end
    # of each partition of this bounded read
    assert [(r["dest"], r["src"], r["seq"]) for r in rows] == \
        [(t0, -1, 0), (t0, 0, 0), (u1, -1, 1), (u1, 0, 1), (t0, 1, 0), (u1, 1, 1)]
    assert [pickle.loads(r["payload"]) for r in rows] == [
        SplitStarted(("t", 0), True), SplitRecords(("t", 0), ["a", "b"], [1000, 1500]),
        SplitStarted(("u", 1), True), SplitRecords(("u", 1), ["c"], [2500]),
        SplitFinished(("t", 0)), SplitFinished(("u", 1))]
    # a micro-batch's ranges of an unbounded source: the partitions go on
    rows = [r for out in _chunker(SimpleStringSchema()._deserialize, 3, False)(iter([batch]))
            for r in out.to_pylist()]
    assert [pickle.loads(r["payload"]) for r in rows][:2] == [
        SplitStarted(("t", 0), False), SplitRecords(("t", 0), ["a", "b"], [1000, 1500])]
    assert len(rows) == 4

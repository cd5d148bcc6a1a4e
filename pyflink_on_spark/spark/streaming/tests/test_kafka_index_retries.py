"""An unbounded KafkaSource's plan asks the broker again while it answers with an error that
passes (a topic just created has no partition leader for a moment), instead of failing the
job; other errors, and an error that lasts, fail with what was asked. No broker needed: the
metadata client is a stand-in that fails as librdkafka does."""
import pytest
from confluent_kafka import KafkaError, KafkaException

from pyflink_on_spark.runtime.checkpoint.store import SnapshotStore
from pyflink_on_spark.spark.streaming import kafka_index
from pyflink_on_spark.spark.streaming.kafka_index import KafkaOffsetIndex
from pyflink_on_spark.specs import sources


class _Topic:
    def __init__(self, partitions):
        self.partitions = {p: None for p in partitions}


class _Metadata:
    def __init__(self, topics):
        self.topics = topics


class FlakyClient:
    """Offsets of two topics; the first `failures` watermark requests of "t-new" fail."""

    def __init__(self, failures, code=KafkaError.NOT_LEADER_FOR_PARTITION):
        self.failures, self.code, self.asked = failures, code, 0

    def list_topics(self, timeout):
        return _Metadata({"t-old": _Topic([0]), "t-new": _Topic([0])})

    def get_watermark_offsets(self, tp, timeout):
        if tp.topic == "t-new":
            self.asked += 1
            if self.asked <= self.failures:
                raise KafkaException(KafkaError(self.code, "Failed to get watermark offsets"))
        return (0, 3 if tp.topic == "t-new" else 5)

    def close(self):
        pass


def _index(tmp_path, client):
    spec = sources.KafkaSourceSpec(bootstrap_servers="unused:9092", value_decoder=bytes,
                                   starting=sources.EarliestOffsets(), topic_pattern="t-.*",
                                   bounded=False)
    index = KafkaOffsetIndex(spec, SnapshotStore(str(tmp_path / "ckpt")), "src", 2)
    index._client = client
    return index


@pytest.mark.parametrize("code", [KafkaError.NOT_LEADER_FOR_PARTITION,
                                  KafkaError.LEADER_NOT_AVAILABLE,
                                  KafkaError.UNKNOWN_TOPIC_OR_PART, KafkaError._TIMED_OUT])
def test_a_plan_asks_again_while_a_new_topic_has_no_leader(tmp_path, code):
    client = FlakyClient(failures=3, code=code)
    ranges = _index(tmp_path, client).plan(0)
    assert sorted(ranges) == [("t-new", 0, 0, 3), ("t-old", 0, 0, 5)]
    assert client.asked == 4


def test_other_broker_errors_fail_the_plan_at_once(tmp_path):
    client = FlakyClient(failures=1, code=KafkaError.TOPIC_AUTHORIZATION_FAILED)
    with pytest.raises(KafkaException):
        _index(tmp_path, client).plan(0)
    assert client.asked == 1


def test_an_error_that_lasts_fails_the_plan_saying_what_was_asked(tmp_path, monkeypatch):
    monkeypatch.setattr(kafka_index, "PLAN_RETRY_SECONDS", 0.3)
    client = FlakyClient(failures=10 ** 6)
    with pytest.raises(RuntimeError, match=r"the offsets of t-new-0 still failed after"):
        _index(tmp_path, client).plan(0)
    assert 2 <= client.asked < 50

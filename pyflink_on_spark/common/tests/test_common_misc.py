"""Enums, job handles, schemas, serializers and the package's exports (PyFlink 1.20)."""
import io as std_io
from concurrent.futures import Future

import pytest

import pyflink_on_spark.common as common
from pyflink_on_spark.common import (
    CompletableFuture, ConfigOptions, Encoder, ExecutionMode, InputDependencyConstraint,
    JobClient, JobExecutionResult, JobID, JobStatus, SimpleStringSchema, TypeSerializer)
from pyflink_on_spark.common.constants import DEFAULT_OUTPUT_TAG, MAX_LONG_VALUE, MIN_LONG_VALUE
from pyflink_on_spark.common.io import InputFormat
from pyflink_on_spark.common.serialization import BulkWriterFactory, \
    RowDataBulkWriterFactory
from pyflink_on_spark.common.serializer import VoidNamespaceSerializer
from pyflink_on_spark.common.utils import JavaObjectWrapper

PYFLINK_COMMON_ALL = [
    'Configuration', 'ConfigOption', 'ConfigOptions', 'ExecutionConfig', 'TypeInformation',
    'TypeSerializer', 'Types', 'SerializationSchema', 'DeserializationSchema',
    'SimpleStringSchema', 'Encoder', 'CompletableFuture', 'ExecutionMode',
    'InputDependencyConstraint', 'JobClient', 'JobExecutionResult', 'JobID', 'JobStatus',
    'RestartStrategies', 'RestartStrategyConfiguration', 'Row', 'RowKind', 'WatermarkStrategy',
    'Duration', 'Instant', 'Time', 'AssignerWithPeriodicWatermarksWrapper']


def test_exports_match_pyflink():
    assert sorted(common.__all__) == sorted(PYFLINK_COMMON_ALL)
    for name in PYFLINK_COMMON_ALL:
        assert getattr(common, name).__name__ == name
    for module in ("constants", "io", "utils", "typeinfo", "types", "time"):
        assert hasattr(common, module)


def test_constants():
    assert (MAX_LONG_VALUE, MIN_LONG_VALUE, DEFAULT_OUTPUT_TAG) == \
        (9223372036854775807, -9223372036854775808, '')


def test_job_status_terminal_states():
    assert [(s.name, s.is_terminal_state(), s.is_globally_terminal_state())
            for s in JobStatus] == [
        ('CREATED', False, False), ('RUNNING', False, False), ('FAILING', False, False),
        ('FAILED', True, True), ('CANCELLING', False, False), ('CANCELED', True, True),
        ('FINISHED', True, True), ('RESTARTING', False, False), ('SUSPENDED', True, False),
        ('RECONCILING', False, False)]


def test_enum_values():
    assert [(m.name, m.value) for m in ExecutionMode] == \
        [('PIPELINED', 0), ('PIPELINED_FORCED', 1), ('BATCH', 2), ('BATCH_FORCED', 3)]
    assert [(m.name, m.value) for m in InputDependencyConstraint] == [('ANY', 0), ('ALL', 1)]


def test_simple_string_schema_and_encoder():
    schema = SimpleStringSchema()
    assert schema._serialize("héllo") == "héllo".encode("utf-8")
    assert schema._deserialize(b"abc") == "abc"
    assert SimpleStringSchema("ISO-8859-1")._serialize("é") == b"\xe9"
    with pytest.raises(ValueError, match="UnsupportedCharsetException: bogus-charset"):
        SimpleStringSchema("bogus-charset")
    assert [c.__name__ for c in type(schema).__mro__] == \
        ['SimpleStringSchema', 'SerializationSchema', 'DeserializationSchema', 'object']
    encoder = Encoder.simple_string_encoder()
    assert encoder._encode("+I[1, a]") == b"+I[1, a]\n"
    factory = RowDataBulkWriterFactory("parquet", "row-type")
    assert isinstance(factory, BulkWriterFactory) and factory.get_row_type() == "row-type"
    assert factory.get_java_object() == "parquet"


def test_serializers():
    class IntSerializer(TypeSerializer):
        def serialize(self, element, stream):
            stream.write(element.to_bytes(4, "big"))

        def deserialize(self, stream):
            return int.from_bytes(stream.read(4), "big")

    serializer = IntSerializer()
    assert serializer._from_bytes(serializer._to_bytes(7)) == 7
    assert repr(serializer) == "IntSerializer()" and serializer == IntSerializer()
    void = VoidNamespaceSerializer()
    assert repr(void) == "VoidNamespaceSerializer()" and void == VoidNamespaceSerializer()
    assert hash(void) == hash("VoidNamespaceSerializer()")
    assert void.deserialize(std_io.BytesIO(b"")) == b""
    with pytest.raises(TypeError):
        TypeSerializer()


def test_job_execution_result():
    job_id = JobID("0123456789abcdef0123456789abcdef")
    result = JobExecutionResult._of(job_id, 1234, {"count": 3})
    assert result.get_job_id() == job_id and str(result.get_job_id()) == str(job_id)
    assert result.get_net_runtime() == 1234
    assert result.get_accumulator_result("count") == 3
    assert result.get_accumulator_result("nope") is None
    assert result.get_all_accumulator_results() == {"count": 3}
    assert result.is_job_execution_result() and result.get_job_execution_result() is result
    # observed: str(env.execute(...)) on PyFlink 1.20
    assert str(JobExecutionResult._of(job_id, 7841)) == (
        "Program execution finished\nJob with JobID 0123456789abcdef0123456789abcdef has "
        "finished.\nJob Runtime: 7841 ms\n")
    assert len(str(JobID._generate())) == 32
    with pytest.raises(ValueError):
        JobID("not-a-job-id")
    with pytest.raises(NotImplementedError, match="JobExecutionResult"):
        JobExecutionResult(object())


class _Handle:
    def __init__(self):
        self.id = JobID._generate()
        self.final = Future()

    def job_id(self):
        return self.id

    def status(self):
        f = Future()
        f.set_result("RUNNING")
        return f

    def cancel(self):
        f = Future()
        f.set_result(None)
        return f

    def stop_with_savepoint(self, advance, directory):
        f = Future()
        f.set_result("file:/tmp/sp-1")
        return f

    def trigger_savepoint(self, directory):
        return self.stop_with_savepoint(False, directory)

    def accumulators(self):
        f = Future()
        f.set_result({"a": 1})
        return f

    def result(self):
        return self.final


def test_job_client_and_futures():
    handle = _Handle()
    client = JobClient(handle)
    assert client.get_job_id() is handle.id
    assert client.get_job_status().result() is JobStatus.RUNNING
    assert client.trigger_savepoint().result() == "file:/tmp/sp-1"
    assert client.stop_with_savepoint(True).result() == "file:/tmp/sp-1"
    assert client.get_accumulators().result() == {"a": 1}
    pending = client.get_job_execution_result()
    assert not pending.done() and str(pending) == "CompletableFuture[Not completed]"
    handle.final.set_result(JobExecutionResult._of(handle.id, 5))
    assert pending.done() and pending.result().get_net_runtime() == 5
    assert pending.exception() is None and not pending.cancelled()
    failed = Future()
    failed.set_exception(RuntimeError("boom"))
    future = CompletableFuture(failed)
    assert isinstance(future.exception(), RuntimeError)
    assert str(future) == "CompletableFuture[Completed exceptionally]"
    cancellable = CompletableFuture(Future())
    assert cancellable.cancel() and cancellable.cancelled() and cancellable.done()


def test_config_options():
    option = ConfigOptions.key("a.b").int_type().default_value(3)
    assert (option._key(), option._default_value(), option._has_default_value()) == \
        ("a.b", 3, True)
    assert not ConfigOptions.key("u").string_type().no_default_value()._has_default_value()
    assert repr(option) == "Key: 'a.b' , default: 3 (fallback keys: [])"


def test_wrappers_keep_their_object():
    assert InputFormat("fmt").get_java_object() == "fmt"
    assert isinstance(InputFormat("fmt"), JavaObjectWrapper)
